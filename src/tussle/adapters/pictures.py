"""Pictures of a game for environments' ``rgb_array`` rendering: each board drawn as the browser draws it.

Each game's browser client (its ``web.js``) draws the board from one view of
the game, a player's observation or the public one. This module draws the
same view, with the same colours and layout as far as a still picture goes,
with Pillow (shapes drawn at twice the size and scaled down, for smooth
edges), so that Gymnasium's video recorder and any image tool can show a
game without a browser:

>>> from tussle import load_game
>>> game = load_game("fightopia")
>>> picture(game.new_initial_state(), 0).shape
(560, 520, 3)

A picture shows only what its view shows: the hand a player keeps hidden is
drawn face down in another player's picture and in the public one. The size of
a game's pictures is fixed (by its board's size and its player count), so that
the frames of a game make a video: :func:`frame_size`.
"""

from __future__ import annotations

from tussle.adapters import require

# Pillow draws, in Matplotlib's DejaVu Sans: both come with the gymnasium and pettingzoo extras.
require(__name__, "gymnasium", "numpy", "PIL", "matplotlib")

import functools
import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
from matplotlib import font_manager
from PIL import Image, ImageDraw, ImageFont

from tussle.errors import OptionError
from tussle.game import PUBLIC, Game, State

__all__ = ["draw", "frame_size", "picture", "view_of"]

#: Shapes are drawn this many times larger, then scaled down: Pillow draws no smooth edges itself.
ZOOM = 2
PAGE = "#ffffff"
INK = "#111111"
FILES = "abcdefghijklmnopqrst"

Colour = str | tuple[int, int, int] | None
Point = tuple[float, float]


@functools.cache
def _font(size: int, bold: bool) -> ImageFont.FreeTypeFont:
    # matplotlib, a dependency of tussle, ships DejaVu Sans, close to the browser's sans-serif.
    found = font_manager.findfont(
        font_manager.FontProperties(family="DejaVu Sans", weight="bold" if bold else "normal")
    )
    return ImageFont.truetype(found, size * ZOOM)


class Pen:
    """Draws on a picture in the picture's own pixels (the zoom is applied here)."""

    def __init__(self, width: int, height: int) -> None:
        self.size = (width, height)
        self.image = Image.new("RGB", (width * ZOOM, height * ZOOM), PAGE)
        self.draw = ImageDraw.Draw(self.image)

    def box(
        self,
        x: float,
        y: float,
        w: float,
        h: float,
        *,
        fill: Colour = None,
        line: Colour = None,
        width: float = 1,
        radius: float = 0,
    ) -> None:
        z = ZOOM
        shape = (x * z, y * z, (x + w) * z, (y + h) * z)
        stroke = max(1, round(width * z)) if line is not None else 0
        if radius:
            self.draw.rounded_rectangle(shape, radius=radius * z, fill=fill, outline=line, width=stroke)
        else:
            self.draw.rectangle(shape, fill=fill, outline=line, width=stroke)

    def circle(
        self, cx: float, cy: float, r: float, *, fill: Colour = None, line: Colour = None, width: float = 1
    ) -> None:
        self.ellipse(cx, cy, r, r, fill=fill, line=line, width=width)

    def ellipse(
        self,
        cx: float,
        cy: float,
        rx: float,
        ry: float,
        *,
        fill: Colour = None,
        line: Colour = None,
        width: float = 1,
    ) -> None:
        z = ZOOM
        stroke = max(1, round(width * z)) if line is not None else 0
        self.draw.ellipse(
            ((cx - rx) * z, (cy - ry) * z, (cx + rx) * z, (cy + ry) * z),
            fill=fill,
            outline=line,
            width=stroke,
        )

    def line(self, points: Sequence[Point], colour: Colour, width: float = 1) -> None:
        self.draw.line(
            [(x * ZOOM, y * ZOOM) for x, y in points], fill=colour, width=max(1, round(width * ZOOM))
        )

    def polygon(
        self, points: Sequence[Point], *, fill: Colour = None, line: Colour = None, width: float = 1
    ) -> None:
        scaled = [(x * ZOOM, y * ZOOM) for x, y in points]
        self.draw.polygon(scaled, fill=fill, outline=line, width=max(1, round(width * ZOOM)) if line else 0)

    def text(
        self,
        x: float,
        y: float,
        text: str,
        size: int = 14,
        *,
        fill: Colour = INK,
        bold: bool = False,
        anchor: str = "la",
        width: float | None = None,
    ) -> None:
        """``text`` at (x, y), Pillow's anchor (``la`` left-top, ``mm`` centred, ...), cut to ``width``."""
        font = _font(size, bold)
        if width is not None:
            while text and self.draw.textlength(text, font=font) > width * ZOOM:
                text = text[:-2] + "…" if len(text) > 2 else ""
        self.draw.text((x * ZOOM, y * ZOOM), text, font=font, fill=fill, anchor=anchor)

    def picture(self) -> npt.NDArray[np.uint8]:
        small = self.image.reduce(ZOOM)  # the mean of each ZOOM x ZOOM block: smooth edges, quickly
        return np.asarray(small, dtype=np.uint8).copy()


def turned(cx: float, cy: float, degrees: float, points: Sequence[Point]) -> list[Point]:
    """``points`` (about the origin, y down) turned ``degrees`` clockwise and moved to (cx, cy)."""
    a = math.radians(degrees)
    c, s = math.cos(a), math.sin(a)
    return [(cx + x * c - y * s, cy + x * s + y * c) for x, y in points]


def rect_points(x: float, y: float, w: float, h: float) -> list[Point]:
    return [(x, y), (x + w, y), (x + w, y + h), (x, y + h)]


#: Facings clockwise from north, in degrees.
ANGLES = {"N": 0, "NE": 45, "E": 90, "SE": 135, "S": 180, "SW": 225, "W": 270, "NW": 315}


def square_of(name: str) -> tuple[int, int]:
    """``'c3'`` as (file, rank) counted from 0."""
    return FILES.index(name[0]), int(name[1:]) - 1


def result_line(result: Mapping[str, Any] | None, names: Sequence[str]) -> str | None:
    if not result:
        return None
    winner = result.get("winner")
    head = "A draw" if winner is None else f"{names[winner] if 0 <= winner < len(names) else winner} wins"
    reason = result.get("reason")
    return f"{head}: {reason}" if reason else head


# --- Fightopia ---------------------------------------------------------------------------------

_FO_S = 60
_FO_LEFT, _FO_TOP, _FO_RIGHT, _FO_BOTTOM, _FO_CAPTION = 30, 10, 10, 28, 42
#: The browser's squares, and its last move's yellow (a translucent one, here over the light squares).
_FO_LIGHT, _FO_DARK, _FO_LAST = "#d9dfc6", "#a5b08c", "#f0d67a"
_FO: dict[str, dict[str, str]] = {
    "white": {
        "fill": "#fbfaf4",
        "stroke": "#161616",
        "detail": "#c8c2ae",
        "tread": "#3a3a3a",
        "eye": "#1457b8",
    },
    "black": {
        "fill": "#25252d",
        "stroke": "#050505",
        "detail": "#5b5b70",
        "tread": "#0c0c0c",
        "eye": "#ffc21a",
    },
}


def _fightopia_size(game: Game) -> tuple[int, int]:
    return _FO_LEFT + 8 * _FO_S + _FO_RIGHT, _FO_TOP + 8 * _FO_S + _FO_BOTTOM + _FO_CAPTION


def _fightopia(pen: Pen, obs: Mapping[str, Any], game: Game) -> None:
    colors = obs.get("colors") or ["white", "black"]
    view = obs.get("player", PUBLIC)
    flipped = 0 <= view < len(colors) and colors[view] == "black"
    s = _FO_S

    def cell(name: str) -> tuple[float, float]:
        f, r = square_of(name)
        col, row = (7 - f, r) if flipped else (f, 7 - r)
        return _FO_LEFT + col * s, _FO_TOP + row * s

    def box(squares: Sequence[str]) -> tuple[float, float, float, float]:
        cells = [cell(q) for q in squares]
        x, y = min(c[0] for c in cells), min(c[1] for c in cells)
        return x, y, max(c[0] for c in cells) + s - x, max(c[1] for c in cells) + s - y

    marked: set[str] = set()
    last = obs.get("last") or {}
    move = last.get("move") or {}
    for key in ("from", "to", "kill"):
        value = move.get(key)
        marked.update([value] if isinstance(value, str) else value or [])
    for f in range(8):
        for r in range(8):
            name = f"{FILES[f]}{r + 1}"
            x, y = cell(name)
            fill = _FO_LAST if name in marked else _FO_LIGHT if (f + r) % 2 else _FO_DARK
            pen.box(x, y, s, s, fill=fill)
    pen.box(_FO_LEFT, _FO_TOP, 8 * s, 8 * s, line=INK, width=1.5)
    for i in range(8):
        col = 7 - i if flipped else i
        pen.text(_FO_LEFT + col * s + s / 2, _FO_TOP + 8 * s + 14, FILES[i], 15, bold=True, anchor="mm")
        row = i if flipped else 7 - i
        pen.text(_FO_LEFT / 2, _FO_TOP + row * s + s / 2, str(i + 1), 15, bold=True, anchor="mm")
    for piece in obs.get("pieces", []):
        palette = _FO.get(piece.get("color"), _FO["white"])
        x, y, w, h = box(piece["squares"])
        kind = piece.get("kind")
        if kind == "pawn":
            cx, cy, rad = x + w / 2, y + h / 2, s * 0.3
            pen.circle(cx, cy, rad, fill=palette["fill"], line=palette["stroke"], width=2)
            pen.draw.pieslice(
                tuple(v * ZOOM for v in (cx - rad * 0.62, cy - rad * 0.62, cx + rad * 0.62, cy + rad * 0.62)),
                180,
                360,
                fill=palette["detail"],
            )
            pen.line([(cx - rad * 0.7, cy), (cx + rad * 0.7, cy)], palette["stroke"], 2)
        elif kind == "tank":
            wide = w > h
            pen.box(
                x + 6, y + 6, w - 12, h - 12, fill=palette["fill"], line=palette["stroke"], width=2, radius=8
            )
            if wide:
                for ty in (y + 8, y + h - 16):
                    pen.box(x + 10, ty, w - 20, 8, fill=palette["tread"], radius=3)
                pen.line([(x + 3, y + h / 2), (x + w - 3, y + h / 2)], palette["stroke"], 3)
            else:
                for tx in (x + 8, x + w - 16):
                    pen.box(tx, y + 10, 8, h - 20, fill=palette["tread"], radius=3)
                pen.line([(x + w / 2, y + 3), (x + w / 2, y + h - 3)], palette["stroke"], 3)
            pen.circle(x + w / 2, y + h / 2, 9, fill=palette["detail"], line=palette["stroke"], width=2)
            pen.circle(x + w / 2, y + h / 2, 3, fill=palette["stroke"])
        elif kind == "giant":
            pen.box(x + 4, y + 10, 10, 30, fill=palette["detail"], line=palette["stroke"], radius=3)
            pen.box(x + w - 14, y + 10, 10, 30, fill=palette["detail"], line=palette["stroke"], radius=3)
            pen.box(
                x + 12,
                y + 8,
                w - 24,
                h - 16,
                fill=palette["fill"],
                line=palette["stroke"],
                width=2.5,
                radius=12,
            )
            pen.box(
                x + w / 2 - 27,
                y + 28,
                54,
                26,
                fill=palette["detail"],
                line=palette["stroke"],
                width=1.5,
                radius=7,
            )
            for ex in (x + w / 2 - 13, x + w / 2 + 13):
                pen.circle(ex, y + 41, 6, fill=palette["eye"], line=palette["stroke"])
            for ly in (y + 68, y + 78):
                pen.box(x + w / 2 - 22, ly, 44, 4, fill=palette["detail"], radius=2)
    names = [c.title() for c in colors]
    caption = result_line(obs.get("result"), names)
    if caption is None:
        mover = (obs.get("to_move") or "").title()
        limit = obs.get("ply_limit") or 0
        caption = f"{mover} to move · ply {obs.get('ply', 0)}" + (f" of {limit}" if limit else "")
    bottom = _FO_TOP + 8 * s + _FO_BOTTOM
    pen.text(_FO_LEFT, bottom + 6, caption, 15, bold=True, width=8 * s * 0.55)
    if last:
        who = str(last.get("player", "")).title()
        pen.text(_FO_LEFT + 8 * s, bottom + 6, f"last: {who} {last.get('action', '')}", 15, anchor="ra")


# --- Tank Chess --------------------------------------------------------------------------------

_TC = {
    "light": "#d9d0b0",
    "dark": "#c8bd96",
    "line": "#a99d76",
    "obstacle": "#5c5a55",
    "obstacleTop": "#807d76",
    "obstacleEdge": "#3a3936",
    "wreck": "#7b6f66",
    "wreckMark": "#2a1f1a",
    "last": "#f2c230",
    "arrow": "#8a4b00",
}
_TC_TANK = {
    "white": {
        "hull": "#fbfbf7",
        "tread": "#7d7d76",
        "edge": "#1b1b1b",
        "plate": "#8f8f88",
        "turret": "#ffffff",
        "letter": "#111111",
    },
    "black": {
        "hull": "#262626",
        "tread": "#0d0d0d",
        "edge": "#000000",
        "plate": "#8a8a8a",
        "turret": "#262626",
        "letter": "#ffffff",
    },
}
_TC_CELL = 36
_TC_EDGE = 24
_TC_CAPTION = 30


def _tank_chess_size(game: Game) -> tuple[int, int]:
    n = int(game.options.get("size", 16))
    side = 2 * _TC_EDGE + n * _TC_CELL
    return side, side + _TC_CAPTION


def _tank_chess(pen: Pen, obs: Mapping[str, Any], game: Game) -> None:
    n = int(obs.get("size", 16))
    c, e = _TC_CELL, _TC_EDGE

    def centre(name: str) -> tuple[float, float]:
        f, r = square_of(name)
        return e + f * c + c / 2, e + (n - 1 - r) * c + c / 2

    last = obs.get("last_move") or {}
    lit = {q for q in (last.get("from"), last.get("to")) if isinstance(q, str)}
    for f in range(n):
        for r in range(n):
            name = f"{FILES[f]}{r + 1}"
            x, y = centre(name)
            fill = _TC["last"] if name in lit else _TC["light"] if (f + r) % 2 else _TC["dark"]
            pen.box(x - c / 2, y - c / 2, c, c, fill=fill)
    pen.box(e, e, n * c, n * c, line=_TC["line"], width=2)
    for i in range(n):
        for y in (e / 2, e + n * c + e / 2):
            pen.text(e + i * c + c / 2, y, FILES[i], 13, bold=True, anchor="mm", fill="#2b2b2b")
        for x in (e / 2, e + n * c + e / 2):
            pen.text(x, e + (n - 1 - i) * c + c / 2, str(i + 1), 12, bold=True, anchor="mm", fill="#2b2b2b")
    for name in obs.get("obstacles", []):
        x, y = centre(name)
        pen.box(
            x - c / 2 + 2,
            y - c / 2 + 2,
            c - 4,
            c - 4,
            fill=_TC["obstacle"],
            line=_TC["obstacleEdge"],
            radius=3,
        )
        pen.line([(x - c / 2 + 6, y), (x + c / 2 - 6, y)], _TC["obstacleTop"], 1.5)
        pen.line([(x - 2, y - c / 2 + 6), (x - 2, y)], _TC["obstacleTop"], 1.5)
        pen.line([(x + 4, y), (x + 4, y + c / 2 - 6)], _TC["obstacleTop"], 1.5)
    for wreck in obs.get("wrecks", []):
        name = wreck if isinstance(wreck, str) else wreck.get("square", "")
        if not name:
            continue
        x, y = centre(name)
        pen.box(x - 12, y - 12, 24, 24, fill=_TC["wreck"], line=_TC["wreckMark"], radius=3)
        pen.line([(x - 10, y - 10), (x + 10, y + 10)], _TC["wreckMark"], 2.5)
        pen.line([(x - 10, y + 10), (x + 10, y - 10)], _TC["wreckMark"], 2.5)
    k = c / 40  # the browser's tank is drawn on a 40-unit square
    for tank in obs.get("tanks", []):
        colours = _TC_TANK.get(tank.get("side"), _TC_TANK["white"])
        cx, cy = centre(tank["square"])
        angle = ANGLES.get(tank.get("facing", "N"), 0)

        def part(x: float, y: float, w: float, h: float, *paint: str) -> None:
            points = turned(cx, cy, angle, rect_points(x * k, y * k, w * k, h * k))  # noqa: B023
            pen.polygon(points, fill=paint[0], line=paint[1] if len(paint) > 1 else None)

        part(-17, -17, 7, 34, colours["tread"], colours["edge"])
        part(10, -17, 7, 34, colours["tread"], colours["edge"])
        part(-12, -16, 24, 32, colours["hull"], colours["edge"])
        armour = tank.get("armour") or {}
        front = 1.2 + 1.8 * armour["front"] if armour.get("front") else 0
        if front:
            part(-11, -15, 22, front, colours["plate"])
        if tank.get("type") == "R":
            part(-5, -22, 10, 12, colours["hull"], colours["edge"])
        else:
            long = 23 if tank.get("type") == "D" else 21
            thick = 5.5 if tank.get("type") in ("D", "H") else 4.5
            part(-thick / 2, -long, thick, long - 8, colours["hull"], colours["edge"])
        command = tank.get("type") == "C"
        pen.circle(
            cx,
            cy,
            9.5 * k,
            fill=colours["turret"],
            line="#c99700" if command else colours["edge"],
            width=3 if command else 1.3,
        )
        pen.text(
            cx, cy, str(tank.get("type", "")), int(15 * k), fill=colours["letter"], bold=True, anchor="mm"
        )
    if lit and len(lit) == 2 and last.get("from") != last.get("to"):
        pen.line([centre(last["from"]), centre(last["to"])], _TC["arrow"], 3)
    caption = result_line(obs.get("result"), ["White", "Black"])
    if caption is None:
        caption = f"{str(obs.get('to_move') or '').title()} to move · ply {obs.get('ply', 0)}"
        if last.get("action"):
            caption += f" · last: {last['action']}"
    pen.text(e, e * 2 + n * c + 2, caption, 14, bold=True, width=n * c)


# --- FITE --------------------------------------------------------------------------------------

_FITE_POOLS = [
    ("off", "Offensive", "+1 on offense dice", (1, 2), "#fbe4e1", "#a3221a"),
    ("def", "Defensive", "+1 on defense dice", (3, 4), "#e1ecfb", "#17529a"),
    ("tac", "Tactical", "move or turn 2 dice", (5, 6), "#e2f1e3", "#23662a"),
]
_FITE_FIGHTER = [("#4a2378", "#ffffff"), ("#f0b21c", "#111111")]
_FITE_SIZE = (780, 600)
_PIPS = {
    1: [(0, 0)],
    2: [(-1, -1), (1, 1)],
    3: [(-1, -1), (0, 0), (1, 1)],
    4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
    5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
    6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)],
}


def _die(
    pen: Pen,
    cx: float,
    cy: float,
    size: float,
    face: int | None,
    *,
    fill: str = "#ffffff",
    ink: str = INK,
    width: float = 2,
) -> None:
    pen.box(cx - size / 2, cy - size / 2, size, size, fill=fill, line=ink, width=width, radius=size * 0.18)
    for dx, dy in _PIPS.get(face or 0, []):
        pen.circle(cx + dx * size * 0.27, cy + dy * size * 0.27, size * 0.095, fill=INK)


def _fighter(pen: Pen, cx: float, cy: float, r: float, p: int) -> None:
    fill, text = _FITE_FIGHTER[p % 2]
    pen.circle(cx, cy, r, fill=fill, line=INK, width=2)
    pen.text(cx, cy, "AB"[p % 2], int(r * 1.1), fill=text, bold=True, anchor="mm")


def _fite(pen: Pen, obs: Mapping[str, Any], game: Game) -> None:
    view = obs.get("player", PUBLIC)
    fighters = obs.get("fighters", [])
    width = _FITE_SIZE[0]
    for p, fighter in enumerate(fighters[:2]):
        x = 10 + p * (width - 20) / 2 + (6 if p else 0)
        w = (width - 20) / 2 - 6
        pen.box(x, 10, w, 70, fill="#fafafa", line="#555555", width=2, radius=8)
        _fighter(pen, x + 30, 45, 20, p)
        you = " (you)" if p == view else ""
        pen.text(x + 60, 18, f"Fighter {fighter.get('name', 'AB'[p])}{you}", 16, bold=True)
        dice = int(fighter.get("dice", 0))
        pen.text(x + 60, 40, f"{dice} dice", 15, bold=True)
        for i in range(min(dice, 12)):
            pen.box(x + 130 + i * 18, 42, 14, 14, fill="#ffffff", line=INK, width=1.5, radius=3)
        power = fighter.get("power")
        used = " (used)" if fighter.get("power_used") else ""
        pen.text(x + 60, 61, f"super power: {power}{used}" if power else "no super power", 13, fill="#444444")
    phase = obs.get("phase") or ""
    turn = obs.get("turn", 0)
    result = result_line(obs.get("result"), [f"Fighter {f.get('name', '')}" for f in fighters])
    pen.box(
        10,
        90,
        width - 20,
        44,
        fill="#eef8ef" if obs.get("to_move") else "#f3f7fd",
        line="#0a7d2c" if obs.get("to_move") else "#0b4f9c",
        width=2,
        radius=6,
    )
    head = result or f"Turn {turn}: {phase}" + (" · your move" if obs.get("to_move") else "")
    pen.text(22, 112, head, 16, bold=True, anchor="lm", width=width - 260)
    mine = obs.get("mine")
    if mine and not result:  # the viewer's own secret choice of this step, shown to it alone
        pen.text(width - 22, 112, f"your choice: {mine}", 16, fill="#0a7d2c", bold=True, anchor="rm")
    # The arena: three locations, two faces each; a fighter stands at its location and face.
    panel_w = (width - 40) / 3
    fight = obs.get("fight") or {}
    rolls = fight.get("rolls") or []
    for i, (key, name, hint, faces, fill, ink) in enumerate(_FITE_POOLS):
        x, y = 10 + i * (panel_w + 10), 146
        pen.box(x, y, panel_w, 220, fill=fill, line=ink, width=3, radius=12)
        pen.text(x + panel_w / 2, y + 24, name, 26, fill=ink, bold=True, anchor="mm")
        pen.text(x + panel_w / 2, y + 54, hint, 16, anchor="mm")
        for j, face in enumerate(faces):
            _die(pen, x + panel_w / 2 + (j - 0.5) * 80, y + 110, 56, face, ink="#333333")
        standing = [p for p, f in enumerate(fighters[:2]) if f.get("location") == key]
        for k, p in enumerate(standing):
            fx = x + panel_w / 2 + (k - (len(standing) - 1) / 2) * 90 - 14
            _fighter(pen, fx, y + 180, 22, p)
            face = fighters[p].get("face")
            if isinstance(face, int):
                _die(pen, fx + 38, y + 180, 26, face, width=1.5)
    # The fight being rolled, or the last one: each fighter's pools and the dice rolled.
    y = 378
    pen.box(10, y, width - 20, 212, fill="#ffffff", line="#999999", width=1, radius=6)
    shown = (
        fight if any(any(v for v in (r or {}).values()) for r in rolls) else obs.get("last_fight") or fight
    )
    title = "The fight of this turn" if shown is fight else f"The last fight (turn {shown.get('turn', '?')})"
    pen.text(22, y + 10, title, 15, bold=True)
    split = shown.get("split") or []
    for p in range(min(2, len(fighters))):
        row_y = y + 44 + p * 84
        _fighter(pen, 36, row_y + 20, 16, p)
        pools: Any = split[p] if p < len(split) and split[p] else None
        roll = (shown.get("rolls") or [{}, {}])[p] or {}
        if pools is None and p == view and isinstance(mine, str) and "/" in mine:
            pools = mine.split("/")  # the split the viewer chose, not yet shown to the other
        for q, (key, label, colour) in enumerate(
            (("off", "Offense", "#a3221a"), ("def", "Defense", "#17529a"))
        ):
            ry = row_y + q * 38
            count = pools[q] if isinstance(pools, Sequence) and q < len(pools) else None
            text = f"{label}: {count}" if count is not None else f"{label}: hidden"
            pen.text(62, ry + 10, text, 14, fill=colour, bold=True, anchor="lm")
            rolled = roll.get(key) or []
            for d, face in enumerate(rolled[:20]):
                _die(
                    pen,
                    200 + d * 30,
                    ry + 10,
                    24,
                    face,
                    fill="#fde3df" if key == "off" else "#dfeafb",
                    ink=colour,
                    width=1.5,
                )


# --- Robo Battle Pigs --------------------------------------------------------------------------

_RP_SIZE = 56
_RP_EDGE = 24
_RP_PIG = [("#f48fb1", "#6d0f35", "#f8bbd0"), ("#81c7f5", "#0b3a66", "#bfe3fb")]
_RP_PANEL = 250


def _robo_board(obs: Mapping[str, Any] | None, game: Game) -> Mapping[str, Any]:
    board = (obs or {}).get("board")
    if isinstance(board, Mapping):
        return board
    return {"width": 8, "height": 8, "walls": []}


def _robo_pigs_size(game: Game) -> tuple[int, int]:
    board = _robo_board(game.new_initial_state().observation(PUBLIC), game)
    w, h = int(board["width"]), int(board["height"])
    return 2 * _RP_EDGE + w * _RP_SIZE + 12 + _RP_PANEL, max(2 * _RP_EDGE + h * _RP_SIZE, 330) + 10


def _robo_pigs(pen: Pen, obs: Mapping[str, Any], game: Game) -> None:
    board = _robo_board(obs, game)
    w, h = int(board["width"]), int(board["height"])
    walls = set(board.get("walls", []))
    s, e = _RP_SIZE, _RP_EDGE
    wide, high = 2 * e + w * s, 2 * e + h * s
    pen.box(5, 5, wide, high, fill="#2c3440", radius=8)
    for f in range(w):
        for r in range(h):
            name = f"{FILES[f]}{r + 1}"
            fill = "#7a5230" if name in walls else "#eef1f5" if (f + r) % 2 else "#c9d3df"
            pen.box(5 + e + f * s, 5 + e + (h - 1 - r) * s, s, s, fill=fill, line="#2c3440", width=1)
    for i in range(max(w, h)):
        if i < w:
            for y in (5 + e / 2, 5 + high - e / 2):
                pen.text(5 + e + i * s + s / 2, y, FILES[i], 14, fill="#ffffff", bold=True, anchor="mm")
        if i < h:
            for x in (5 + e / 2, 5 + wide - e / 2):
                pen.text(
                    x, 5 + e + (h - 1 - i) * s + s / 2, str(i + 1), 14, fill="#ffffff", bold=True, anchor="mm"
                )
    view = obs.get("player", PUBLIC)
    pigs = obs.get("pigs", [])
    k = s / 60
    for p, pig in enumerate(pigs):
        square = pig.get("square")
        if not square:
            continue
        f, r = square_of(square)
        cx, cy = 5 + e + f * s + s / 2, 5 + e + (h - 1 - r) * s + s / 2
        fill, ink, snout = _RP_PIG[p % 2]
        angle = ANGLES.get(pig.get("facing", "N"), 0)
        if p == view:
            pen.circle(cx, cy, 27 * k, line=ink, width=1.5)
        for ear in ([(-17, -8), (-21, -22), (-7, -16)], [(17, -8), (21, -22), (7, -16)]):
            pen.polygon(
                turned(cx, cy, angle, [(x * k, y * k) for x, y in ear]), fill=fill, line=ink, width=1.5
            )
        pen.circle(cx, cy, 19 * k, fill=fill, line=ink, width=2)
        nx, ny = turned(cx, cy, angle, [(0, -20 * k)])[0]
        pen.ellipse(nx, ny, 8 * k, 6 * k, fill=snout, line=ink, width=2)
        pen.text(cx, cy + 2 * k, "AB"[p % 2], int(18 * k), fill=ink, bold=True, anchor="mm")
        damage = int(pig.get("damage", 0))
        if damage:
            pen.circle(cx + 19 * k, cy + 17 * k, 10 * k, fill="#c62828", line="#ffffff", width=1.5)
            pen.text(
                cx + 19 * k, cy + 17 * k, str(damage), int(13 * k), fill="#ffffff", bold=True, anchor="mm"
            )
    # Beside the board: the round, each pig's damage, the program being written (its writer's alone).
    x = wide + 17
    options = obs.get("options") or {}
    limit = options.get("round_limit") or 0
    pen.text(x, 10, f"Round {obs.get('round', 0)}" + (f" of {limit}" if limit else ""), 17, bold=True)
    for p, pig in enumerate(pigs):
        fill, ink, _ = _RP_PIG[p % 2]
        y = 40 + p * 38
        pen.box(
            x, y, _RP_PANEL - 10, 30, fill="#fde7ef" if p == 0 else "#e3f1fc", line=ink, width=2, radius=5
        )
        you = " (you)" if p == view else ""
        pen.text(x + 8, y + 15, f"Pig {pig.get('name', 'AB'[p])}{you}", 14, bold=True, anchor="lm")
        for d in range(5):
            on = d < int(pig.get("damage", 0))
            pen.circle(
                x + 140 + d * 17, y + 15, 6, fill="#c62828" if on else "#ffffff", line="#7a1010", width=1.5
            )
    y = 126
    pen.box(x, y, _RP_PANEL - 10, 84, fill="#fafafa", line="#999999", radius=6)
    program = obs.get("my_program")
    pen.text(x + 8, y + 8, "Your program" if 0 <= view < len(pigs) else "Programs are secret", 14, bold=True)
    commands = program.split() if isinstance(program, str) else []
    for i in range(5):
        bx = x + 8 + i * 45
        text = commands[i] if i < len(commands) else "·"
        pen.box(
            bx,
            y + 32,
            40,
            42,
            fill="#e8eef7" if i < len(commands) else "#ffffff",
            line="#0b4f9c" if i < len(commands) else "#777777",
            width=2,
            radius=5,
        )
        pen.text(bx + 20, y + 53, text, 16, bold=True, anchor="mm")
    last = obs.get("last_round") or {}
    y = 222
    pen.box(x, y, _RP_PANEL - 10, 96, fill="#ffffff", line="#999999", radius=6)
    pen.text(
        x + 8, y + 8, f"Round {last['round']}: the programs" if last else "No round played yet", 14, bold=True
    )
    for p, text in enumerate(last.get("programs", [])):
        _, ink, _ = _RP_PIG[p % 2]
        pen.text(x + 8, y + 36 + p * 26, f"{'AB'[p % 2]}:  {text}", 15, fill=ink, bold=True)
    caption = result_line(obs.get("result"), ["Pig A", "Pig B"])
    if caption:
        pen.box(x, high - 34, _RP_PANEL - 10, 34, fill="#fff2b3", line=INK, radius=6)
        pen.text(x + 8, high - 17, caption, 13, bold=True, anchor="lm", width=_RP_PANEL - 26)


# --- Fight! ------------------------------------------------------------------------------------

_FAMILY = {
    "Human": "#8a4500",
    "Animal": "#16602a",
    "Robot": "#35506b",
    "Demon": "#a3121d",
    "Alien": "#5c2a91",
}
_FT_WIDTH = 900
_FT_SEAT_H = 200


def _fight_size(game: Game) -> tuple[int, int]:
    rows = (game.num_players + 1) // 2
    return _FT_WIDTH, 120 + rows * (_FT_SEAT_H + 10) + 10


def _card(
    pen: Pen, x: float, y: float, card: Mapping[str, Any] | None, *, w: float = 120, h: float = 86
) -> None:
    """A Warrior face up (family band, power, name, ability) or face down (its family's back)."""
    if not card:
        pen.box(x, y, w, h, line="#aaaaaa", width=2, radius=8)
        return
    family = str(card.get("family", ""))
    colour = _FAMILY.get(family, "#555555")
    if "name" not in card:  # face down: what the browser shows of a hidden card, its family's back
        pen.box(x, y, w, h, fill=colour, line=INK, width=2, radius=7)
        for k in range(-int(h), int(w), 10):
            pen.line(
                [(x + max(k, 0), y + max(-k, 0)), (x + min(k + h, w), y + min(h, w - k))], "#ffffff30", 1
            )
        size = 13 if w > 60 else 8
        pen.text(
            x + w / 2, y + h / 2, family or "?", size, fill="#ffffff", bold=True, anchor="mm", width=w - 4
        )
        return
    pen.box(x, y, w, h, fill="#ffffff", line=colour, width=2, radius=7)
    pen.box(x, y, w, 20, fill=colour, radius=6)
    pen.text(x + 5, y + 10, family, 11, fill="#ffffff", bold=True, anchor="lm")
    pen.text(x + w - 5, y + 10, str(card.get("power", "")), 14, fill="#ffffff", bold=True, anchor="rm")
    pen.text(x + 5, y + 25, str(card.get("name", "")), 12, bold=True, width=w - 10)
    words = str(card.get("ability", "")).split()
    lines: list[str] = []
    for word in words:
        if lines and len(lines[-1]) + len(word) < 19:
            lines[-1] += " " + word
        else:
            lines.append(word)
    for i, line in enumerate(lines[:3]):
        pen.text(x + 5, y + 43 + i * 13, line, 10, fill="#222222", width=w - 10)


def _fight(pen: Pen, obs: Mapping[str, Any], game: Game) -> None:
    view = obs.get("player", PUBLIC)
    width = _FT_WIDTH
    arena = obs.get("arena") or {}
    pen.box(10, 10, 520, 96, fill="#1f2a44", radius=10)
    pen.text(22, 20, f"FIGHT {obs.get('fight', 0)} OF {obs.get('fights', 0)} · THE ARENA", 12, fill="#dfe6f5")
    pen.text(22, 40, str(arena.get("name", "no Arena yet")), 20, fill="#ffffff", bold=True, width=360)
    if arena.get("glory") is not None:
        pen.box(420, 40, 96, 24, fill="#f2c230", radius=12)
        pen.text(468, 52, f"{arena['glory']} Glory", 14, bold=True, anchor="mm")
    pen.text(22, 74, str(arena.get("condition", "")), 14, fill="#ffffff", width=496)
    upcoming = obs.get("upcoming_arenas") or []
    pen.box(540, 10, 200, 96, line="#555555", width=2, radius=10)
    pen.text(552, 20, "NEXT ARENA", 12, bold=True)
    if upcoming:
        nxt = upcoming[0]
        pen.text(552, 40, str(nxt.get("name", "")), 16, bold=True, width=176)
        if nxt.get("glory") is not None:
            pen.text(552, 64, f"{nxt['glory']} Glory", 14, bold=True, fill="#8a6d00")
    reserves = obs.get("reserves") or {}
    pen.box(750, 10, 140, 96, line="#bbbbbb", width=1, radius=10)
    pen.text(762, 20, "RESERVES", 12, bold=True)
    pen.text(762, 40, f"{reserves.get('count', 0)} Warriors", 16, bold=True)
    pen.text(762, 70, f"Graveyard: {len(obs.get('graveyard') or [])}", 13)
    seats = obs.get("seats", [])
    to_act = set(obs.get("to_act") or [])
    leader = obs.get("leader")
    half = (width - 30) / 2
    for i, seat in enumerate(seats):
        x = 10 + (i % 2) * (half + 10)
        y = 120 + (i // 2) * (_FT_SEAT_H + 10)
        you = seat.get("seat", i) == view
        pen.box(x, y, half, _FT_SEAT_H, line="#0b4f9c" if you else "#bbbbbb", width=2, radius=10)
        if leader == i:
            pen.box(x - 2, y - 2, half + 4, _FT_SEAT_H + 4, line="#f2c230", width=3, radius=11)
        name = "You" if you else f"Player {i + 1}"
        tags = (" · to act" if i in to_act else "") + (" · 1st" if obs.get("first_player") == i else "")
        pen.text(x + 10, y + 8, name + tags, 15, bold=True)
        pen.text(x + half - 10, y + 8, f"{seat.get('glory', 0)} Glory", 15, bold=True, anchor="ra")
        pen.text(x + 10, y + 30, "MAIN", 11, bold=True, fill="#333333")
        pen.text(x + 140, y + 30, "BOOST", 11, bold=True, fill="#333333")
        _card(pen, x + 10, y + 44, seat.get("main"))
        _card(pen, x + 140, y + 44, seat.get("boost"))
        hand = seat.get("hand") or []
        pen.text(x + 270, y + 30, f"HAND: {len(hand)}", 11, bold=True, fill="#333333")
        for k, card in enumerate(hand[:8]):
            cx = x + 270 + (k % 4) * 41
            cy = y + 44 + (k // 4) * 48
            if "name" in card:  # a face-up card in the hand: its band and power, small
                colour = _FAMILY.get(str(card.get("family", "")), "#555555")
                pen.box(cx, cy, 38, 44, fill="#ffffff", line=colour, width=2, radius=4)
                pen.box(cx, cy, 38, 12, fill=colour, radius=3)
                pen.text(cx + 19, cy + 28, str(card.get("power", "")), 14, bold=True, anchor="mm")
            else:
                _card(pen, cx, cy, card, w=38, h=44)
        scored = seat.get("scored") or []
        arenas = seat.get("arenas") or []
        pen.text(x + 10, y + 140, f"SCORED: {len(scored)}", 11, bold=True, fill="#333333")
        for k, card in enumerate(scored[:14]):
            colour = _FAMILY.get(str(card.get("family", "")), "#555555")
            pen.box(x + 10 + k * 18, y + 156, 15, 22, fill=colour, line=INK, width=1, radius=2)
        won = ", ".join(str(a.get("name", a)) if isinstance(a, Mapping) else str(a) for a in arenas)
        pen.text(x + 10, y + 182, f"Arenas won: {won or 'none'}", 12, width=half - 20)
    caption = result_line(obs.get("result"), [f"Player {i + 1}" for i in range(len(seats))])
    if caption:
        pen.box(10, 10, 520, 96, fill="#fff2b3", line=INK, width=2, radius=10)
        pen.text(22, 58, caption, 16, bold=True, anchor="lm", width=496)


# --- one picture per view --------------------------------------------------------------------

Drawer = Callable[[Pen, Mapping[str, Any], Game], None]
Sizer = Callable[[Game], tuple[int, int]]

_DRAWERS: dict[str, tuple[Sizer, Drawer]] = {
    "fightopia": (_fightopia_size, _fightopia),
    "tank-chess": (_tank_chess_size, _tank_chess),
    "fite": (lambda game: _FITE_SIZE, _fite),
    "robo-pigs": (_robo_pigs_size, _robo_pigs),
    "fight": (_fight_size, _fight),
}


def frame_size(game: Game) -> tuple[int, int]:
    """The (width, height) of every picture of ``game``: it depends on its board and player count only."""
    try:
        sizer, _ = _DRAWERS[game.info.id]
    except KeyError:
        raise OptionError(f"no pictures of {game.info.id} yet") from None
    return sizer(game)


def view_of(game: Game, view: int | str | None) -> int:
    """The seat whose view a picture shows (``"public"`` or None: what everyone sees), checked."""
    if view is None or view == "public":
        return PUBLIC
    if isinstance(view, int) and not isinstance(view, bool) and 0 <= view < game.num_players:
        return view
    raise OptionError(
        f"a picture's view is a seat from 0 to {game.num_players - 1} or 'public', not {view!r}"
    )


def draw(game: Game, observation: Mapping[str, Any]) -> npt.NDArray[np.uint8]:
    """The picture of one observation of ``game`` (a seat's or the public one) as (height, width, 3) uint8."""
    sizer, drawer = _DRAWERS.get(game.info.id, (None, None))
    if sizer is None or drawer is None:
        raise OptionError(f"no pictures of {game.info.id} yet")
    width, height = sizer(game)
    pen = Pen(width, height)
    drawer(pen, observation, game)
    return pen.picture()


def picture(state: State[Any], view: int | str | None = None) -> npt.NDArray[np.uint8]:
    """``state`` drawn from ``view``'s side (a seat, or ``"public"``/None): (height, width, 3) uint8."""
    game = state.game
    return draw(game, state.observation(view_of(game, view)))
