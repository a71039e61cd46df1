"""Robo Battle Pigs' boards as documents (the board option): the rules' own, changed ones, bad ones."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tussle import OptionError, PositionError, load_game
from tussle.agents import make_agent
from tussle.cli.common import load_with_options
from tussle.games.robo_pigs import RoboPigsState
from tussle.games.robo_pigs.boards import STANDARD_BOARD, load_board, standard_text
from tussle.games.robo_pigs.rules import STANDARD_GEOMETRY, make_geometry
from tussle.runner import play_game


def game_of(seed: int, agents: tuple[str, str], **options: Any) -> tuple[list[tuple[int, str]], Any]:
    """The events and the result of one seeded game (the options themselves left out)."""
    game = load_game("robo-pigs", round_limit=100, **options)
    players = [make_agent(spec, game, seat, seed=seed * 10 + seat) for seat, spec in enumerate(agents)]
    _, record = play_game(game, players, seed=seed)
    return record.events, record.result


def test_the_standard_board_as_a_document_is_the_rules_board() -> None:
    assert load_board(standard_text(), "board.toml") == STANDARD_BOARD
    # The tables made from a board's size and walls are the rules' own tables on the rules' board.
    assert make_geometry(STANDARD_BOARD) == STANDARD_GEOMETRY
    for seed, agents in ((1, ("rule", "rule")), (2, ("random", "rule")), (3, ("rule", "random"))):
        plain = game_of(seed, agents)
        assert game_of(seed, agents, board=standard_text()) == plain
        assert game_of(seed, agents, board="Standard") == plain
    state = load_game("robo-pigs", board=standard_text()).new_initial_state()
    assert "board" not in state.observation(0) and state.position() == "d8S0 e1N0 1"


CORRIDOR = """
size = [6, 4]
walls = ["c2", "c3"]
a = "a2E"
b = "e2W"
"""


def at(position: str, board: str = CORRIDOR) -> RoboPigsState:
    state = load_game("robo-pigs", board=board).state_from_position(position)
    assert isinstance(state, RoboPigsState)
    return state


def test_walls_stop_lasers_and_moves_and_the_edge_is_the_boards() -> None:
    state = at("a2E0 e2W0 1")
    state.apply_str(0, "F ^ ^ TR ^")  # the laser stops at the wall on c2; b2, then the wall
    state.apply_str(1, "F TR ^ ^ ^")  # e2 fires west into the wall; up to e4, then the edge
    steps = state.last_steps
    assert not any(step.hits[0] or step.hits[1] for step in steps)
    assert [s.blocked[0] for s in steps] == ["", "", "wall", "", ""]
    assert [s.blocked[1] for s in steps] == ["", "", "", "", "edge"]
    assert state.position() == "b1S0 e4N0 2"
    view = state.observation(0)
    assert view["board"] == {"width": 6, "height": 4, "walls": ["c2", "c3"]}
    text = state.observation_text(0)
    assert "  2  .  .  #  .  .  .   2" in text and "blocked by a wall" in text and " g " not in text
    # Without the walls, the same laser crosses the board.
    open_board = at("a2E0 e2W0 1", CORRIDOR.replace('walls = ["c2", "c3"]', "walls = []"))
    open_board.apply_str(0, "F ^ ^ TR ^")
    open_board.apply_str(1, "F TR ^ ^ ^")
    assert open_board.damage == (1, 1)


def test_a_smaller_board_changes_play() -> None:
    # Twelve seeded games of rule against rule: on a 5x5 board the pigs meet at once.
    small = "size = [5, 5]\na = 'c5S'\nb = 'c1N'\n"
    rounds = [len(game_of(seed, ("rule", "rule"), board=small)[0]) for seed in range(12)]
    plain = [len(game_of(seed, ("rule", "rule"))[0]) for seed in range(12)]
    assert sum(rounds) * 1.5 < sum(plain)
    state = load_game("robo-pigs", board=small).new_initial_state()
    assert state.position() == "c5S0 c1N0 1"
    with pytest.raises(PositionError, match="pig B is on f1, off the 5x5 board"):
        load_game("robo-pigs", board=small).state_from_position("c5S0 f1N0 1")


def test_a_board_file_through_the_command_line(tmp_path: Path) -> None:
    path = tmp_path / "corridor.toml"
    path.write_text(CORRIDOR, encoding="utf-8")
    assert load_with_options("robo-pigs", 2, {"board": str(path)}).options["board"] == CORRIDOR
    path.write_text(CORRIDOR.replace('"a2E"', '"c2E"'), encoding="utf-8")
    with pytest.raises(OptionError, match=r"corridor\.toml.*pig A starts on the wall c2"):
        load_with_options("robo-pigs", 2, {"board": str(path)})


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("size = [9, 8]\na = 'a1N'\nb = 'b1N'", "size is [9, 8], not [width, height] of 4 to 8 squares each"),
        ("size = [3, 8]\na = 'a1N'\nb = 'b1N'", "size is [3, 8]"),
        ("size = 8\na = 'a1N'\nb = 'b1N'", "size is 8"),
        ("a = 'a1N'\nb = 'b1N'\nholes = []", "unknown key 'holes' (keys: size, walls, a, b)"),
        ("a = 'a1N'", "it gives no start for pig B"),
        ("a = 'a1N'\nb = 'b1Q'", "pig B's start is 'b1Q', not a square and a facing"),
        ("a = 'a1N'\nb = 'a1S'", "both pigs start on a1"),
        ("size = [5, 5]\na = 'a1N'\nb = 'f1N'", "pig B's start f1 is off the 5x5 board (a1 to e5)"),
        ("walls = ['d9']\na = 'a1N'\nb = 'b1N'", "the wall 'd9' is not a square like d4"),
        ("walls = ['d4', 'D4']\na = 'a1N'\nb = 'b1N'", "the wall D4 is listed twice"),
        ("walls = 'd4'\na = 'a1N'\nb = 'b1N'", "walls is 'd4', not a list of squares"),
        ("walls = ['b1']\na = 'a1N'\nb = 'b1N'", "pig B starts on the wall b1"),
        ("walls = ['a2', 'b1']\na = 'a1N'\nb = 'h8S'", "the walls shut the pigs apart"),
        ('{"a": "a1N", "b": ', "not valid JSON"),
        ("a = ", "not valid TOML"),
    ],
)
def test_bad_boards_are_refused_in_one_line(text: str, message: str) -> None:
    with pytest.raises(OptionError) as caught:
        load_game("robo-pigs", board=text)
    said = str(caught.value)
    assert said.startswith("option board: ") and message in said and "\n" not in said, said
