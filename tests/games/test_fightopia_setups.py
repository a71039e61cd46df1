"""Fightopia's setups as documents (the setup option): the rules' own, a changed one, bad ones."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tussle import OptionError, load_game
from tussle.agents import make_agent
from tussle.cli.common import load_with_options
from tussle.games.fightopia import START
from tussle.games.fightopia.setups import setup_position, standard_text
from tussle.runner import play_game


def game_of(seed: int, agents: tuple[str, str], **options: Any) -> tuple[list[tuple[int, str]], Any]:
    """The events and the result of one seeded game (the options themselves left out)."""
    game = load_game("fightopia", ply_limit=300, **options)
    players = [make_agent(spec, game, seat, seed=seed * 10 + seat) for seat, spec in enumerate(agents)]
    _, record = play_game(game, players, seed=seed)
    return record.events, record.result


def test_the_standard_setup_as_a_document_plays_the_same_games() -> None:
    assert setup_position(standard_text()) == START
    for seed, agents in ((1, ("rule", "random")), (2, ("random", "rule")), (3, ("random", "random"))):
        plain = game_of(seed, agents)
        assert game_of(seed, agents, setup=standard_text()) == plain
        assert game_of(seed, agents, setup="STANDARD") == plain
        assert game_of(seed, agents, setup=START) == plain


# Each side a Giant a step from its goal and one Tank: the rules' ending by walking the Giant
# comes within a few plies.
SPRINT = """
# A sprint: both Giants near the far side, a Tank each, no Pawns.
8
2GG4
2GG4
8
8
4gg2
v3gg1V
v6V
"""


def test_a_changed_setup_starts_there_and_changes_play() -> None:
    state = load_game("fightopia", setup=SPRINT).new_initial_state()
    assert state.position() == "8/2GG4/2GG4/8/8/4gg2/v3gg1V/v6V - 0"
    events, result = game_of(4, ("rule", "rule"), setup=SPRINT)
    plain, _ = game_of(4, ("rule", "rule"))
    assert len(events) < 10 < len(plain)  # a Giant walks home at once
    assert result["reason"] and "Giant" in str(result["reason"])


def test_a_setup_file_through_the_command_line(tmp_path: Path) -> None:
    path = tmp_path / "sprint.txt"
    path.write_text(SPRINT, encoding="utf-8")
    assert load_with_options("fightopia", 2, {"setup": str(path)}).options["setup"] == SPRINT
    path.write_text(SPRINT.replace("2GG4", "3GG3", 1), encoding="utf-8")
    with pytest.raises(OptionError, match=r"sprint\.txt"):
        load_with_options("fightopia", 2, {"setup": str(path)})


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("# only a comment\n", "the setup holds no board"),
        ("8/8/8/8/8/8/8/8 w 0", "before the first player is drawn: '- 0', not 'w 0'"),
        (START.replace(" - 0", " - 7"), "not '- 7'"),
        ("8\n8\n8\n", "or 8 lines of a rank each, not 3 lines"),
        ("8/8/8/8/8/8/8/8 - 0", "White needs exactly one Giant"),
        ("vppggppv/v1pggp1v/2pppp2/8/8/2PPPP2/V1PGGP1V/VPPGGPPX", "not a digit or one of PGVH pgvh"),
        ("vppggppv/v1pggp1v/2pppp2/8/8/2PPPP2/V1PGGP1V/VPPGGPP", "covers 7 squares"),
        ("4gg2/4gg2/8/8/8/8/V2GG3/V2GG3", "the game is already over"),
        ("P" * 300, "too long for a setup"),
    ],
)
def test_bad_setups_are_refused_in_one_line(text: str, message: str) -> None:
    with pytest.raises(OptionError) as caught:
        load_game("fightopia", setup=text)
    said = str(caught.value)
    assert said.startswith("option setup: ") and message in said and "\n" not in said, said
    assert "reads no file" not in said
