"""What a newcomer meets first: the README's commands, the game-over line, the agent list."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from click.testing import CliRunner
from rich.console import Console

from tussle import CHANCE, game_ids, load_game
from tussle.agents.base import PlayerView
from tussle.agents.human import HumanAgent, PlayerQuitError
from tussle.cli import cli

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("game", game_ids())
def test_a_finished_game_is_told_in_one_line(game: str) -> None:
    options = {"robo-pigs": ["-o", "round_limit=20"], "fightopia": ["-o", "ply_limit=30"]}.get(game, [])
    options += ["-o", "ply_limit=30"] if game == "tank-chess" else []
    result = CliRunner().invoke(cli, ["play", game, "-p", "random,random", "--seed", "2", *options])
    assert result.exit_code == 0, result.output
    reason = result.output.rstrip().splitlines()[-1].split(": ", 1)[-1]
    assert result.output.count(reason) == 1, result.output[-600:]


def test_info_lists_only_the_agents_that_can_play_the_game() -> None:
    fite = CliRunner().invoke(cli, ["info", "fite", "--json"]).output
    assert '"smmcts"' in fite and '"alphabeta"' not in fite and '"mcts"' not in fite
    chess = CliRunner().invoke(cli, ["info", "tank-chess", "--json"]).output
    assert '"alphabeta"' in chess and '"smmcts"' not in chess


def test_the_readme_tours_output_folder_is_ignored_by_git() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "--record games/" in readme
    ignored = (ROOT / ".gitignore").read_text(encoding="utf-8").split()
    assert "/games/" in ignored


@pytest.mark.parametrize("game", game_ids())
def test_tussle_rules_prints_the_shipped_rules_and_notation(game: str) -> None:
    result = CliRunner().invoke(cli, ["rules", game])
    assert result.exit_code == 0, result.output
    assert "the rules in brief" in result.output and "Notation" in result.output
    assert len(result.output.splitlines()) > 30


@pytest.mark.parametrize("game", game_ids())
def test_question_mark_explains_the_notation_with_this_positions_actions(game: str) -> None:
    state = load_game(game).new_initial_state()
    while state.is_chance():
        state.apply(CHANCE, state.chance_outcomes()[0][0])
    player = state.to_act()[0]
    out = io.StringIO()
    human = HumanAgent(
        state.game, player, console=Console(file=out, width=100), stdin=io.StringIO("?\nquit\n")
    )
    with pytest.raises(PlayerQuitError):
        human.act(PlayerView(state, player))
    shown = out.getvalue()
    assert f"How to write an action: {state.game.info.notation}" in shown
    assert f"tussle rules {game}" in shown and "? WORD" in shown
    legal = {state.action_to_str(player, a) for a in state.legal_actions(player)}
    examples = shown.split("legal action", 1)[1].split("? WORD", 1)[0]
    assert any(name in examples for name in legal)


def test_robo_pigs_help_names_every_command() -> None:
    notation = load_game("robo-pigs").info.notation
    for symbol in (
        "^ forward",
        "v back",
        "\\ forward-left",
        "/ forward-right",
        "TL turn left",
        "TR turn right",
    ):
        assert symbol in notation
    for symbol in ("F fire", "H hit", "X do nothing", "R R R R R"):
        assert symbol in notation


def test_question_mark_and_a_square_lists_what_is_there_can_do() -> None:
    state = load_game("fightopia").new_initial_state()
    state.apply_str(CHANCE, "first white")
    out = io.StringIO()
    human = HumanAgent(
        state.game, 0, console=Console(file=out, width=100), stdin=io.StringIO("? c3\n? a2\nquit\n")
    )
    with pytest.raises(PlayerQuitError):
        human.act(PlayerView(state, 0))
    shown = out.getvalue()
    assert "5 legal actions with 'c3':" in shown
    assert "c3-b2" in shown and "c3-c4" in shown and "d3-d4" not in shown
    assert "Ta1a2-a3a4" in shown  # a square inside a Tank's name counts
