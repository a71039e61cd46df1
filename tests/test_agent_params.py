"""Tests of how agents declare and read their parameters (the agent base class, make_agent)."""

from __future__ import annotations

from typing import Any, ClassVar

import pytest

from tussle import AgentError, load_game
from tussle.agents import agent_names, make_agent
from tussle.agents.base import Agent, PlayerView
from tussle.agents.params import Param
from tussle.agents.random_agent import RandomAgent
from tussle.games.fight.rule_agent import FightRuleAgent
from tussle.registry import game_ids


@pytest.mark.parametrize(
    ("spec", "game_id", "message"),
    [
        ("random:x=1", "robo-pigs", "agent 'random:x=1': random takes no parameters (got 'x')"),
        ("rule:x=1", "fite", "agent 'rule:x=1': rule takes no parameters (got 'x')"),
        (
            "human:colour=red",
            "fite",
            "agent 'human:colour=red': unknown parameter 'colour' (human takes only name)",
        ),
        (
            "rule:depth=2",
            "fight",
            "agent 'rule:depth=2': unknown parameter 'depth' (rule takes only samples)",
        ),
        (
            "fite:solved:depth=3",
            "fite",
            "agent 'fite:solved:depth=3': unknown parameter 'depth' (fite:solved takes only tactics)",
        ),
        (
            "rule:depth=2",
            "robo-pigs",
            "agent 'rule:depth=2': unknown parameter 'depth' "
            "(parameters: candidates, samples, finalists, variations)",
        ),
        (
            "alphabeta:c=1",
            "tank-chess",
            "agent 'alphabeta:c=1': unknown parameter 'c' "
            "(parameters: time, iterations, depth, width, contempt)",
        ),
        (
            "smmcts:x=1",
            "fite",
            "agent 'smmcts:x=1': unknown parameter 'x' "
            "(parameters: time, iterations, c, rollout, depth, widen, select, gamma, final)",
        ),
    ],
)
def test_an_undeclared_parameter_is_one_line_naming_the_agents_parameters(
    spec: str, game_id: str, message: str
) -> None:
    with pytest.raises(AgentError) as caught:
        make_agent(spec, load_game(game_id), 0, seed=0)
    assert str(caught.value) == message


def test_an_agent_built_directly_checks_its_parameters_too() -> None:
    game = load_game("fight")
    with pytest.raises(
        AgentError, match=r"^agent 'RandomAgent': RandomAgent takes no parameters \(got 'x'\)$"
    ):
        RandomAgent(game, 0, params={"x": "1"})
    with pytest.raises(AgentError, match=r"unknown parameter 'depth' \(FightRuleAgent takes only samples\)$"):
        FightRuleAgent(game, 0, params={"depth": "2"})
    assert FightRuleAgent(game, 0, params={"samples": "9"}).samples == 9


@pytest.mark.parametrize("game_id", game_ids())
def test_every_agent_keeps_every_parameter_it_declares_with_its_default(game_id: str) -> None:
    game = load_game(game_id)
    for name in agent_names(game_id):
        try:
            agent = make_agent(name, game, 0, seed=0)
        except AgentError:  # a search made for other kinds of game
            continue
        assert agent.params == {key: param.default for key, param in type(agent).PARAMS.items()}, name


class _Buggy(Agent):
    """An agent with a bug in its setup: a TypeError that is no fault of the spec."""

    PARAMS: ClassVar[dict[str, Param]] = {"depth": Param("int", 1, "how deep")}

    def setup(self) -> None:
        self.depth = len(self.params["depth"])  # an int has no len(): the bug

    def act(self, view: PlayerView) -> Any:
        return view.legal_actions()[0]


@pytest.fixture
def buggy(monkeypatch: pytest.MonkeyPatch) -> str:
    from tussle import agents

    monkeypatch.setitem(agents._GENERAL, "buggy", f"{__name__}:_Buggy")
    monkeypatch.setitem(agents._HELP, "buggy", "an agent with a bug")
    return "buggy"


def test_a_type_error_inside_an_agent_is_its_own_not_a_parameter_error(buggy: str) -> None:
    game = load_game("fite")
    for spec in (buggy, f"{buggy}:depth=2"):
        with pytest.raises(TypeError, match="has no len"):
            make_agent(spec, game, 0, seed=0)
    # Its parameters are still checked before its setup runs.
    with pytest.raises(AgentError, match=r"unknown parameter 'width' \(buggy takes only depth\)"):
        make_agent(f"{buggy}:width=2", game, 0, seed=0)


def test_a_text_parameter_is_read_as_given() -> None:
    human = make_agent("human:name=Ann Lee", load_game("fite"), 1)
    assert human.params == {"name": "Ann Lee"}
