"""The games' computer players and drawings read actions as values, not as notation.

Notation is read in one place per game (its notation or actions module) and from
people; a rule agent, a search policy or a text drawing learns what an action does
from the engine's value or its structured form.
"""

from __future__ import annotations

import ast
import random
from pathlib import Path

import pytest

from tussle import CHANCE, load_game
from tussle.games.fightopia import Fightopia
from tussle.games.fightopia.render import describe_move
from tussle.games.robo_pigs.actions import Program
from tussle.games.robo_pigs.search import RoboPigsPolicy

GAMES = Path(__file__).parents[2] / "src" / "tussle" / "games"
#: What reads or writes notation to learn an action's parts, or a position's.
NOTATION_CALLS = {"action_to_str", "parse_action", "apply_str", "position"}
#: Modules that still read notation, and why.
STILL_TEXT = {
    # It may import nothing of its game (test_robo_pigs), and its view can turn text into an
    # action but not a structured form: programs are written and varied as text until it can.
    "robo_pigs/rule_agent.py",
}


#: The fields of a Fightopia move that its words leave out, by kind.
_UNNAMED = {
    "pawn step": {"kind"},
    "giant step": {"kind"},
    "giant kill": {"kind", "from"},
    "tank move": {"kind"},
    "tank shot": {"kind"},
}


def _readers() -> list[Path]:
    return sorted(p for name in ("rule_agent", "search", "render") for p in GAMES.glob(f"*/{name}.py"))


@pytest.mark.parametrize("path", _readers(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_agents_searches_and_drawings_read_no_notation(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    calls = sorted(
        node.func.attr
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in NOTATION_CALLS
    )
    imported = [alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names]
    name = f"{path.parent.name}/{path.name}"
    if name in STILL_TEXT:
        assert calls, f"{name} reads no notation now: take it off STILL_TEXT"
        return
    assert not calls, f"{name} reads notation: {calls}"
    assert "re" not in imported, f"{name} imports re"


def test_fightopia_tells_each_move_from_its_structured_form() -> None:
    rng = random.Random(6)
    game = Fightopia(ply_limit=120, pivot_sweep=True)
    kinds = set()
    for _ in range(40):  # random games, until every kind of move has been told
        state = game.new_initial_state()
        while not state.is_terminal():
            player = state.to_act()[0]
            if player == CHANCE:
                state.apply(CHANCE, state.sample_chance(rng))
                continue
            color = ("White", "Black")[player]
            for action in state.legal_actions(player):
                move = state.action_to_json(player, action)
                assert move["kind"] != "first"
                words = describe_move(color.lower(), move)
                kinds.add(move["kind"])
                piece = move["kind"].split()[0].capitalize()
                assert words.startswith(f"{color}'s {piece} "), words
                # Every square of the move is named, but a Giant's corner where it crushes a Tank.
                named: list[object] = [v for k, v in move.items() if k not in _UNNAMED[move["kind"]]]
                squares = [s for v in named for s in (v if isinstance(v, list) else [v])]
                assert all(isinstance(s, str) and s in words for s in squares), (move, words)
            state.apply(player, state.legal_actions(player).sample(rng))
        if len(kinds) == 5:
            break
    assert kinds == {"pawn step", "giant step", "giant kill", "tank move", "tank shot"}


@pytest.mark.parametrize("extra_x", [False, True])
def test_robo_pigs_search_pieces_are_the_structured_forms_commands(extra_x: bool) -> None:
    # A program the search builds piece by piece is the one whose structured form lists those pieces.
    game = load_game("robo-pigs", extra_x=extra_x)
    policy = RoboPigsPolicy(game)
    rng = random.Random(8)
    for damage in range(5):
        state = game.state_from_position(f"c5E{damage} f5W0 3")
        for _ in range(60):
            prefix: tuple[str, ...] = ()
            while (pieces := policy.tokens(state, 0, prefix)) is not None:
                prefix += (rng.choice(list(pieces)),)
            action = policy.assemble(state, 0, prefix)
            assert action == Program.from_json({"commands": list(prefix)}).commands
            assert state.action_to_json(0, action) == {"commands": list(prefix)}
