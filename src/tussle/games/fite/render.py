"""Text rendering of FITE from an observation (plain data in, text out)."""

from __future__ import annotations

import textwrap
from collections.abc import Mapping
from typing import Any

_LONG = {"off": "offensive", "def": "defensive", "tac": "tactical"}


def _signed(value: int) -> str:
    return f"{value:+d}"


def _faces(faces: list[int] | None) -> str:
    return ",".join(map(str, faces)) if faces else "-"


def _fighter_line(f: dict[str, Any]) -> str:
    """One fighter's line of the view.

    >>> _fighter_line({"name": "A", "location": None, "face": None, "power": None, "dice": 1})
    '  A: 1 die, not placed yet, no super power'
    """
    where = f"at {_LONG[f['location']]} ({f['face']})" if f["location"] else "not placed yet"
    if f["power"] is None:
        power = "no super power"
    else:
        power = f"power {f['power']} ({'used' if f['power_used'] else 'unused'})"
    dice = f"{f['dice']} {'die' if f['dice'] == 1 else 'dice'}"
    return f"  {f['name']}: {dice}, {where}, {power}"


def _fight_lines(fight: dict[str, Any], names: list[str]) -> list[str]:
    lines = []
    for p, name in enumerate(names):
        if fight["swift"][p]:
            lines.append(f"  {name} used Swift to move to {_LONG[fight['swift'][p]]}")
    if fight["split"][0] is not None:
        splits = []
        for p, name in enumerate(names):
            off, dfn = fight["split"][p]
            power = fight["powers"][p]
            splits.append(f"{name} {off}/{dfn}" + (f" +{power}" if power and power != "swift" else ""))
        mods = fight["modifiers"]
        lines.append(
            "  split: "
            + ", ".join(splits)
            + "   modifiers: "
            + ", ".join(
                f"{n} off {_signed(m['off'])} def {_signed(m['def'])}"
                for n, m in zip(names, mods, strict=True)
            )
        )
    rolls = fight["rolls"]
    if rolls[0]["off"] is not None:
        lines.append(
            "  rolled: "
            + " | ".join(
                f"{n} off {_faces(r['off'])} def {_faces(r['def'])}"
                for n, r in zip(names, rolls, strict=True)
            )
        )
    tactical = fight.get("tactical")
    if tactical:
        for p, name in enumerate(names):
            if tactical["entitled"][p] != "none":
                choice = tactical["choices"][p]
                options = (
                    "both tactical options" if tactical["entitled"][p] == "both" else "one tactical option"
                )
                lines.append(f"  {name} has {options}" + (f": {choice}" if choice else ""))
    if "hits" in fight:
        changed = tactical is not None and any(c not in (None, "pass") for c in tactical["choices"])
        if changed:  # the pools as the tactical choices left them
            lines.append(
                "  pools: "
                + " | ".join(
                    f"{n} off {_faces(pl['off'])} def {_faces(pl['def'])}"
                    for n, pl in zip(names, fight["pools"], strict=True)
                )
            )
        lines.append(
            "  values: "
            + " | ".join(
                f"{n} off {_faces(v['off'])} def {_faces(v['def'])}"
                for n, v in zip(names, fight["values"], strict=True)
            )
        )
        results = []
        for p, name in enumerate(names):
            other = names[1 - p]
            attack = len(fight["values"][1 - p]["off"])
            results.append(
                f"{name} cancels {fight['cancelled'][p]} of {other}'s {attack}, takes {fight['hits'][p]} "
                f"hit{'s' if fight['hits'][p] != 1 else ''}"
            )
        lines.append(
            "  "
            + "; ".join(results)
            + "   dice left: "
            + ", ".join(f"{n} {d}" for n, d in zip(names, fight["dice"], strict=True))
        )
    return lines


_HINTS = {
    "setup": "place your die for SETUP: off 1-2, def 3-4, tac 5-6 (e.g. 'tac 5')",
    "place": "place your die: off 1-2, def 3-4, tac 5-6 (e.g. 'tac 5')",
    "swift": "Swift: 'stay', or 'swift off', 'swift def', 'swift tac'",
    "split": "split your {dice} dice as OFF/DEF (e.g. '{half}/{rest}'){power}",
    "tactical": "tactical {options}: 'pass', 'move off>def 6,5', 'turn off 1,2'{both}",
}


def _hint(obs: Mapping[str, Any]) -> str:
    me = obs["fighters"][obs["player"]]
    phase = obs["phase"]
    if phase == "split":
        dice = me["dice"]
        power = ""
        if me["power"] and me["power"] != "swift" and not me["power_used"]:
            power = f", add '+{me['power']}' to use your super power"
        return _HINTS[phase].format(dice=dice, half=dice // 2, rest=dice - dice // 2, power=power)
    if phase == "tactical":
        both = obs["fight"]["tactical"]["entitled"][obs["player"]] == "both"
        hint = _HINTS[phase].format(
            options="(both options)" if both else "(one option)",
            both=", or 'move def>off 2 and turn off 1'" if both else "",
        )
        if obs.get("turn_dice") == "any":
            other = obs["fighters"][1 - obs["player"]]["name"]
            hint += (
                f"; the opponent's dice too, by its letter: 'turn {other} def 6', 'turn off 1 {other} off 6'"
            )
        return hint
    return _HINTS[phase]


def _first_placement(obs: Mapping[str, Any]) -> list[str]:
    """What the first placement decides, for a player about to make it (the prompt says how to type it)."""
    if obs["turn_dice"] == "any":
        turn = "turn 2 of any dice, the opponent's too, to the opposite face"
    else:
        turn = "turn 2 of your dice to the opposite face"
    text = (
        "Choose in secret where your fighter stands: 1-2 offensive (+1 on each die you attack with), "
        "3-4 defensive (+1 on each die you defend with) or 5-6 tactical (after the roll, move 2 dice "
        f"between your pools or {turn})."
    )
    if obs["phase"] == "setup":
        text += " Turn 1's placement comes right after this SETUP one, then one every turn."
    return textwrap.wrap(text, 78)


def render_observation(obs: Mapping[str, Any]) -> str:
    """A readable view: the fighters, this turn so far, the last fight and what to do.

    >>> from tussle.games.fite.rules import Fite
    >>> print(render_observation(Fite().new_initial_state().observation(0)))
    FITE, SETUP (you are A)
      A: 9 dice, not placed yet, no super power
      B: 9 dice, not placed yet, no super power
    Choose in secret where your fighter stands: 1-2 offensive (+1 on each die you
    attack with), 3-4 defensive (+1 on each die you defend with) or 5-6 tactical
    (after the roll, move 2 dice between your pools or turn 2 of your dice to the
    opposite face). Turn 1's placement comes right after this SETUP one, then one
    every turn.
    Your move: place your die for SETUP: off 1-2, def 3-4, tac 5-6 (e.g. 'tac 5')
    """
    fighters = obs["fighters"]
    names = [f["name"] for f in fighters]
    player = obs["player"]
    phase = obs["phase"]
    when = "SETUP" if phase == "setup" else f"turn {obs['turn']}"
    stage = "" if phase in ("setup", "over") else f" ({phase})"
    you = f" (you are {names[player]})" if player in (0, 1) else ""
    lines = [f"FITE, {when}{stage}{you}"]
    lines += [_fighter_line(f) for f in fighters]
    fight = obs.get("fight")
    if fight:
        body = _fight_lines(fight, names)
        if body:
            lines.append(f"This turn ({obs['turn']}):")
            lines += body
    rolling = obs.get("rolling")
    if rolling:
        lines.append(f"  rolling {rolling['fighter']}'s {_LONG[rolling['pool']]} pool of {rolling['dice']}")
    last = obs.get("last_fight")
    if last:
        lines.append(f"Last fight (turn {last['turn']}):")
        lines += _fight_lines(last, names)
    pending = obs.get("pending")
    if pending and any(pending):
        lines.append(
            "Chosen, not yet revealed: "
            + ", ".join(f"{n} {c}" for n, c in zip(names, pending, strict=True) if c is not None)
        )
    result = obs.get("result")
    if result:
        if result["winner"] is None:
            lines.append(f"Draw: {result['reason']}")
        else:
            lines.append(f"Fighter {names[result['winner']]} wins: {result['reason']}")
    elif obs.get("mine"):
        lines.append(f"Your choice: {obs['mine']} (waiting for the other fighter)")
    elif obs.get("to_move"):
        me = fighters[player]
        if phase == "setup" or (phase == "place" and obs["turn"] == 1 and me["location"] is None):
            lines += _first_placement(obs)  # the first decision of the game: say what it is
        lines.append("Your move: " + _hint(obs))
    return "\n".join(lines)
