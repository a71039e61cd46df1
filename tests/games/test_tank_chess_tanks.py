"""Tank Chess's tank types as data: the ``tanks`` option's documents (tussle.games.tank_chess.tanks)."""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path
from typing import Any

import pytest
import tank_chess_reference as ref
from click.testing import CliRunner

from tussle import ActionError, OptionError, load_game
from tussle.agents import make_agent
from tussle.cli import cli
from tussle.games.tank_chess.board import GEOMETRY, KIND_LETTERS, geometry
from tussle.games.tank_chess.notation import Setup, format_position
from tussle.games.tank_chess.rules import (
    ARC,
    ARMOUR,
    GUN,
    KILLS,
    MORTAR_RANGE,
    SPEED,
    TURRET,
    TankActions,
    TankChessState,
    explain,
)
from tussle.games.tank_chess.tanks import STANDARD_TANKS, TankTypes, load_tanks, standard_text
from tussle.runner import play_game

#: Every figure changed: slow Lights with fixed guns, fast Heavies with gun I, a Medium that
#: pierces anything but armour V, a Command of speed 1 under armour III all round, a Tank
#: Destroyer with a turret, and a weak Heavy Mortar that hits 2 to 4 squares ahead.
REBALANCED = """
[L]
speed = 2
gun = 2
armour = [0, 0, 0]
turret = false

[M]
gun = 5
armour = [5, 1, 1]

[H]
speed = 5
gun = 1

[C]
speed = 1
armour = [3, 3, 3]

[D]
turret = true
gun = 3

[R]
gun = 2
range = [2, 4]
"""


def game(tanks: str = "", size: int = 16, **options: Any) -> Any:
    return load_game("tank-chess", size=str(size), tanks=tanks, **options)


def moves(state: TankChessState) -> set[str]:
    return {state.action_to_str(state.turn, a) for a in state.legal_actions(state.turn)}


# --- the standard document ------------------------------------------------------------------


def test_the_standard_document_is_the_rules_table() -> None:
    assert load_tanks(standard_text(), "option tanks") == STANDARD_TANKS
    # The rules' table (rules.md), and the reference implementation's, figure by figure.
    assert STANDARD_TANKS.speed == (5, 4, 3, 5, 4, 3) == tuple(ref.SPEED[k] for k in KIND_LETTERS)
    assert STANDARD_TANKS.gun == (1, 2, 3, 1, 4, 5) == tuple(ref.GUN[k] for k in KIND_LETTERS)
    assert STANDARD_TANKS.armour == tuple((ref.FRONT[k], ref.SIDE[k], ref.REAR[k]) for k in KIND_LETTERS)
    assert STANDARD_TANKS.turret == tuple(k not in ref.FIXED_GUN for k in KIND_LETTERS)
    assert STANDARD_TANKS.mortar_range == ref.MORTAR_RANGE == (3, 5)
    # The module's names for the rules' figures are the standard table's.
    assert STANDARD_TANKS.speed == SPEED and STANDARD_TANKS.gun == GUN and STANDARD_TANKS.armour == ARMOUR
    assert STANDARD_TANKS.turret == TURRET and STANDARD_TANKS.mortar_range == MORTAR_RANGE
    assert KILLS is STANDARD_TANKS.kills and ARC is STANDARD_TANKS.arc
    assert STANDARD_TANKS.shot_slots == (3, 3, 3, 3, 1, 3)
    # Its figures, written back as tables, are the document's.
    document = load_tanks(
        json.dumps({k: STANDARD_TANKS.figures(i) for i, k in enumerate(KIND_LETTERS)}), "option tanks"
    )
    assert document == STANDARD_TANKS


@pytest.mark.parametrize("tanks", ["standard", "STANDARD_TEXT", '{"H": {"gun": 3}}', "# nothing changed"])
def test_the_standard_table_by_any_document_is_the_rules_own_geometry(tanks: str) -> None:
    text = standard_text() if tanks == "STANDARD_TEXT" else tanks
    for size in (16, 20):
        assert game(text, size).geo is GEOMETRY[size] is game("", size).geo


def play_out(tanks: str, size: int, seed: int, specs: tuple[str, str], plies: int) -> list[str]:
    """A seeded game's turns and last observation, as text."""
    g = game(tanks, size, ply_limit=plies)
    agents = [make_agent(spec, g, seat, seed=seed + seat) for seat, spec in enumerate(specs)]
    state, record = play_game(g, agents, seed=seed)
    return [*(str(action) for _, action in record.events), json.dumps(state.observation(0), sort_keys=True)]


@pytest.mark.parametrize("size", [16, 20])
def test_a_game_with_the_standard_document_is_the_game_without_it(size: int) -> None:
    # Random play, the rule-of-thumb agent and a search (which reads the Command tank's speed).
    for seed, specs, plies in (
        (1, ("random", "random"), 200),
        (2, ("rule", "random"), 80),
        (3, ("easy", "random"), 6),
    ):
        without = play_out("", size, seed, specs, plies)
        assert len(without) > 6
        assert play_out("standard", size, seed, specs, plies) == without
        assert play_out(standard_text(), size, seed, specs, plies) == without


# --- a changed document changes play --------------------------------------------------------


def test_a_light_with_gun_five_destroys_a_heavy_from_the_front() -> None:
    position = "white=Ch1N,Lc3N black=Ci16S,Hc8S"
    rules = game().state_from_position(position)
    with pytest.raises(
        ActionError, match="gun I does not pierce the front armour III of the Heavy tank on c8"
    ):
        rules.apply_str(0, "Lc3-c4N xc8")
    strong = game("[L]\ngun = 5").state_from_position(position)
    strong.apply_str(0, "Lc3-c4N xc8")
    assert "c8" in strong.observation(0)["wrecks"]
    # The explanation of an illegal shot reads the game's figures too.
    middling = game("[L]\ngun = 3").state_from_position(position)
    with pytest.raises(ActionError, match="gun III does not pierce the front armour III"):
        middling.apply_str(0, "Lc3-c4N xc8")
    light = next(t for t in strong.observation(0)["tanks"] if t["type"] == "L")
    assert (light["gun"], light["speed"], light["armour"]) == (5, 5, {"front": 1, "side": 0, "rear": 0})


def test_a_speed_one_type_reaches_only_the_neighbouring_states() -> None:
    position = "white=Ch1N,Lh8N black=Ci16S"
    slow = game("[L]\nspeed = 1").state_from_position(position)
    assert {m for m in moves(slow) if m.startswith("L")} == {"Lh8-h8NE", "Lh8-h8NW", "Lh8-h9N", "Lh8-h7N"}
    fast = game().state_from_position(position)
    assert len({m for m in moves(fast) if m.startswith("L")}) > 50
    # The Command tank's speed decides its escape: speed 1 cannot leave from two ranks short.
    near = "white=Ch15N black=Ci16S"
    assert "Ch15-off" in moves(game().state_from_position(near))
    assert "Ch15-off" not in moves(game("[C]\nspeed = 1").state_from_position(near))


def test_a_fixed_gun_a_turret_and_the_mortar_range_follow_the_document() -> None:
    position = "white=Ch1N,Lc3N,Dh3N,Rm3N black=Ci16S,Lc6S,Mm6S,Hm7S"
    rules = game().state_from_position(position)
    table = game(REBALANCED).state_from_position(position)

    def lines(state: TankChessState, square: str) -> dict[str, tuple[list[str], list[str]]]:
        tank = next(t for t in state.observation(0)["tanks"] if t["square"] == square)
        return {line["direction"]: (line["squares"], line["hits"]) for line in tank["fire"]}

    assert set(lines(rules, "c3")) == {"NW", "N", "NE"} and set(lines(table, "c3")) == {"N"}
    assert set(lines(rules, "h3")) == {"N"} and set(lines(table, "h3")) == {"NW", "N", "NE"}
    # The mortar on m3 shoots north into the fronts of the Medium and the Heavy, which face
    # south. The rules': 3 to 5 ahead (m6 to m8), gun V destroys both. The table's: 2 to 4
    # ahead (m5 to m7), gun II pierces neither front (V and III).
    assert lines(rules, "m3")["N"] == (["m6", "m7", "m8"], ["m6", "m7"])
    assert lines(table, "m3")["N"] == (["m5", "m6", "m7"], [])
    assert any(m.startswith("Rm3-") and " x" in m for m in moves(rules))
    assert not any(m.startswith("Rm3-") and " x" in m for m in moves(table))
    # The table's Light (gun II) destroys the Light on c6 from the front (armour 0, not I).
    assert "Lc3-c4N xc6" in moves(table) and "Lc3-c4N xc6" not in moves(rules)


def test_explanations_and_the_generator_agree_on_a_custom_table() -> None:
    # Every listed turn is legal by explain, and explain refuses what the list leaves out.
    rng = random.Random(5)
    g = game(REBALANCED, 16, ply_limit=200)
    state = g.new_initial_state()
    checked = 0
    while not state.is_terminal() and state.ply < 60:
        legal = state.legal_actions(state.turn)
        assert isinstance(legal, TankActions)
        listed = set(legal)
        for action in rng.sample(sorted(listed), min(20, len(listed))):
            assert explain(state.geo, state.board, state.turn, action) == ""
        for action in listed:  # the same turn aimed at another square: illegal, with its reason
            target = action >> 21
            if target != 511:
                other = action & ~(511 << 21) | (rng.randrange(256) << 21)
                if other not in listed and state.board[other >> 21] >= 128:
                    assert explain(state.geo, state.board, state.turn, other), state.position()
                    checked += 1
        for _ in range(10):
            assert legal.sample(rng) in listed
        state.apply(state.turn, legal.sample(rng))
    assert checked > 5


# --- the fast rules against the reference, with other figures -----------------------------------


def use_in_reference(monkeypatch: pytest.MonkeyPatch, types: TankTypes) -> None:
    """Give the reference implementation ``types``' figures (it reads its module's tables)."""
    monkeypatch.setattr(ref, "SPEED", dict(zip(KIND_LETTERS, types.speed, strict=True)))
    monkeypatch.setattr(ref, "GUN", dict(zip(KIND_LETTERS, types.gun, strict=True)))
    for i, name in enumerate(("FRONT", "SIDE", "REAR")):
        monkeypatch.setattr(ref, name, {k: a[i] for k, a in zip(KIND_LETTERS, types.armour, strict=True)})
    monkeypatch.setattr(
        ref, "FIXED_GUN", {k for k, t in zip(KIND_LETTERS, types.turret, strict=True) if not t}
    )
    monkeypatch.setattr(ref, "MORTAR_RANGE", types.mortar_range)


def crowded(rng: random.Random, size: int) -> str:
    """A random position, its tanks close together (at the far edge now and then), in position notation."""
    x0 = rng.randrange(size - 8)
    y0 = rng.choice((0, size - 8)) if rng.random() < 0.3 else rng.randrange(size - 8)
    near = [y * size + x for y in range(y0, y0 + 8) for x in range(x0, x0 + 8)]
    rng.shuffle(near)
    kinds = [
        (side, kind) for side in (0, 1) for kind in [3, *rng.choices((0, 1, 2, 4, 5), k=rng.randrange(2, 6))]
    ]
    tanks = tuple(
        sorted(((side, kind, near.pop(), rng.randrange(8)) for side, kind in kinds), key=lambda t: t[2])
    )
    obstacles = frozenset(near[: rng.randrange(8)])
    return format_position(Setup(size, rng.randrange(2), 0, obstacles, frozenset(), tanks))


def test_the_fast_rules_agree_with_the_reference_on_a_custom_table(monkeypatch: pytest.MonkeyPatch) -> None:
    types = load_tanks(REBALANCED, "option tanks")
    use_in_reference(monkeypatch, types)
    rng = random.Random(38)
    shots = escapes = 0
    for index in range(120):
        size = 16 if index % 3 else 20
        state = game(REBALANCED, size).state_from_position(crowded(rng, size))
        text = state.position()
        position = ref.read(text)
        fast = moves(state)
        assert fast == ref.legal_moves(position), text
        shots += any(" x" in m for m in fast)
        escapes += any(m.endswith("-off") for m in fast)
        move = rng.choice(sorted(fast))
        mover = position.turn
        state.apply_str(state.turn, move)
        after, winner = ref.play(position, move)
        if winner is None:
            assert state.announcements() == ref.announcements(after, mover), (text, move)
    assert shots > 60


# --- the movement cache never mixes two tables ----------------------------------------------


def test_interleaved_games_of_two_tables_play_as_each_plays_alone() -> None:
    slow = "[L]\nspeed = 2\n[M]\nspeed = 2\n[H]\nspeed = 2\n[C]\nspeed = 2"

    def alone(tanks: str, seed: int) -> list[int]:
        g = game(tanks, 16, ply_limit=120)
        g.geo.reach.clear()
        rng = random.Random(seed)
        state, played = g.new_initial_state(), []
        while not state.is_terminal():
            played.append(state.legal_actions(state.turn).sample(rng))
            state.apply(state.turn, played[-1])
        return played

    fresh = {tanks: alone(tanks, 7) for tanks in ("", slow)}
    assert fresh[""] != fresh[slow]
    assert game(slow).geo is not GEOMETRY[16] and game(slow).geo is game(slow).geo
    # Both games step by step, one turn each in turn, on the same board squares and tank codes.
    states = {tanks: game(tanks, 16, ply_limit=120).new_initial_state() for tanks in fresh}
    rngs = {tanks: random.Random(7) for tanks in fresh}
    played: dict[str, list[int]] = {tanks: [] for tanks in fresh}
    while not all(state.is_terminal() for state in states.values()):
        for tanks, state in states.items():
            if not state.is_terminal():
                played[tanks].append(state.legal_actions(state.turn).sample(rngs[tanks]))
                state.apply(state.turn, played[tanks][-1])
    assert played == fresh


def test_each_distinct_table_gets_one_geometry_sharing_the_boards_tables() -> None:
    a = load_tanks("[R]\nrange = [2, 3]", "option tanks")
    b = load_tanks('{"R": {"range": [2, 3]}}', "option tanks")
    assert a == b and hash(a) == hash(b) and geometry(20, a) is geometry(20, b)
    geo = geometry(20, a)
    assert geo.fwd is GEOMETRY[20].fwd and geo.types is a and geo.reach is not GEOMETRY[20].reach
    assert geo.mortar[0] == GEOMETRY[20].rays[0][1:3]  # a1 facing N: a3 and a4
    assert geometry(16, a) is not geo and geometry(16, a).size == 16


# --- bad documents ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[X]\nspeed = 3", "option tanks: unknown key 'X' (keys: L, M, H, C, D, R)"),
        ("[l]\nspeed = 3", "option tanks: unknown key 'l' (keys: L, M, H, C, D, R)"),
        ("L = 5", "option tanks: type L: 5 is not a table"),
        ("[L]\nspeed = 6", "option tanks: type L: speed is 6, not 1 to 5"),
        ("[L]\nspeed = 0", "option tanks: type L: speed is 0, not 1 to 5"),
        ("[L]\nspeed = 2.5", "option tanks: type L: speed is 2.5, not an integer"),
        ("[M]\ngun = 0", "option tanks: type M: gun is 0, not 1 to 5"),
        ("[M]\ngun = true", "option tanks: type M: gun is True, not an integer"),
        ("[H]\narmour = [3, 2]", "option tanks: type H: armour is [3, 2], not [front, side, rear] of 0 to 5"),
        ("[H]\narmour = [3, 2, 6]", "option tanks: type H: armour is [3, 2, 6], not [front, side, rear]"),
        ("[H]\narmour = 3", "option tanks: type H: armour is 3, not [front, side, rear]"),
        ("[D]\nturret = 1", "option tanks: type D: turret is 1, not true or false"),
        ("[D]\nspeeds = 1", "option tanks: type D: unknown key 'speeds' (keys: speed, gun, armour, turret)"),
        (
            "[R]\nturret = true",
            "option tanks: type R: unknown key 'turret' (keys: speed, gun, armour, range)",
        ),
        (
            "[L]\nrange = [3, 5]",
            "option tanks: type L: unknown key 'range' (keys: speed, gun, armour, turret)",
        ),
        (
            "[R]\nrange = [1, 5]",
            "option tanks: type R: range is [1, 5], not [nearest, farthest] squares ahead",
        ),
        ("[R]\nrange = [4, 3]", "option tanks: type R: range is [4, 3], not [nearest, farthest]"),
        ("[R]\nrange = [3, 6]", "option tanks: type R: range is [3, 6], not [nearest, farthest]"),
        ("[R]\nrange = 4", "option tanks: type R: range is 4, not [nearest, farthest]"),
        ("[L\nspeed = 3", "option tanks: not valid TOML"),
        ('{"L": {"speed": 9}}', "option tanks: type L: speed is 9, not 1 to 5"),
        ("tanks.toml", "a game reads no file: give the text itself"),
    ],
)
def test_a_bad_document_is_refused_in_one_line(text: str, message: str) -> None:
    with pytest.raises(OptionError) as info:
        game(text)
    said = str(info.value)
    assert message in said and "\n" not in said and said.startswith("option tanks"), said


# --- the local commands: a file, and balance A/B runs ----------------------------------------------


def test_balance_compares_the_standard_types_with_a_file_and_digests_it(tmp_path: Path) -> None:
    custom = tmp_path / "heavy.toml"
    custom.write_text("[H]\ngun = 5\nspeed = 4\n", encoding="utf-8")
    out = tmp_path / "run"
    result = CliRunner().invoke(
        cli,
        [
            *("balance", "tank-chess", "random", "random", "-n", "4", "-j", "1"),
            *("--out", str(out), "--compare-options", "tanks=standard", f"tanks={custom}"),
        ],
    )
    assert result.exit_code == 0, result.output
    text = custom.read_text(encoding="utf-8")
    plan = json.loads((out / "plan.json").read_text())
    assert [s["options"].get("tanks") for s in plan["slices"]] == ["standard", text]
    # The file's text is digested, with the file's name: a changed file refuses the run.
    about = json.loads((out / "provenance.json").read_text())
    (entry,) = [c for c in about["content"] if c["option"] == "tanks" and c["file"]]
    assert entry["sha256"] == hashlib.sha256(text.encode()).hexdigest() and entry["file"] == str(custom)
    # The tank-type figures are made for both tables.
    figures = json.dumps(json.loads((out / "figures.json").read_text()))
    assert "kill-matrix" in figures and "Heavy" in figures
