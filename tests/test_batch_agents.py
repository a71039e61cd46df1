"""The batched forms of agents (``BatchGame.agent_one``) against the scalar agents they stand for.

Robo Battle Pigs' rule agent (:class:`~tussle.games.robo_pigs.batch.RuleAgentBatch`) is
held to :class:`~tussle.games.robo_pigs.rule_agent.RoboPigsRuleAgent` part by part:
its judgement of a round exactly, on the rounds of random games played on both engines;
its program writers (uniform, biased, varied) in distribution, many draws of each against
many of the scalar agent's, with chi-square tests of homogeneity; and its whole choice in
distribution, in positions on both sides of a simultaneous step and with damaged pigs.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

import pytest

pytest.importorskip("jax")

import jax
import jax.numpy as jnp
import numpy as np
from scipy.stats import chi2_contingency

from tussle.adapters.encoding import encoding_for
from tussle.agents import make_agent
from tussle.agents.base import PlayerView
from tussle.batch import make
from tussle.errors import AgentError
from tussle.games.robo_pigs.rule_agent import RoboPigsRuleAgent
from tussle.games.robo_pigs.rules import RoboPigsState
from tussle.registry import load_game, simulation_options

OPTIONS = simulation_options("robo-pigs")
SCALAR_DECISIONS = 150
BATCH_DECISIONS = 1500
#: Below this p-value a summary's two samples are called different (six tests: the suite's
#: false alarms stay near one in 30,000 runs, while an agent that judges otherwise is caught).
ALPHA = 1e-5
#: Draws of each program writer, on either side.
DRAWS = 20_000


def _homogeneous(scalar: Sequence[Any], batch: Sequence[Any]) -> float:
    """The p-value of a chi-square test that two samples come from one distribution."""
    a, b = Counter(scalar), Counter(batch)
    keys = sorted(set(a) | set(b), key=str)
    if len(keys) < 2:
        return 1.0
    return float(chi2_contingency(np.array([[a[k] for k in keys], [b[k] for k in keys]])).pvalue)


def _rule(player: int = 0) -> RoboPigsRuleAgent:
    agent = make_agent("rule", load_game("robo-pigs", **OPTIONS), player, seed=0)
    assert isinstance(agent, RoboPigsRuleAgent)
    return agent


def _robo_pigs_state(state: Any) -> RoboPigsState:
    assert isinstance(state, RoboPigsState)
    return state


def _batched_rule() -> Any:
    return make("robo-pigs", **OPTIONS).agent_one("rule")


def test_the_batched_rule_agent_values_each_round_as_the_scalar_one() -> None:
    # Random games on both engines; at each round, both pigs' values of random programs.
    game = load_game("robo-pigs", **OPTIONS)
    codec = encoding_for(game).codec
    env = make("robo-pigs", **OPTIONS)
    agent = _batched_rule()
    rng = random.Random(5)
    judges = [_rule(0), _rule(1)]
    cores, mes, programs, replies, expected = [], [], [], [], []
    for g in range(12):
        state = game.new_initial_state()
        states = env.init(jax.random.split(jax.random.PRNGKey(g), 1))
        while not state.is_terminal():
            for me in (0, 1):
                program, reply = state.legal_actions(me).sample(rng), state.legal_actions(1 - me).sample(rng)
                after = state.clone()
                after.apply(me, program)
                after.apply(1 - me, reply)
                expected.append(judges[me]._value(after))
                cores.append(jax.tree.map(lambda a: a[0], states.core))
                mes.append(me)
                programs.append(codec.encode(state.action_to_str(me, program)))
                replies.append(codec.encode(state.action_to_str(1 - me, reply)))
            for player in (0, 1):
                action = state.legal_actions(player).sample(rng)
                states = env.decide(states, jnp.array([codec.encode(state.action_to_str(player, action))]))
                state.apply(player, action)
    stacked = jax.tree.map(lambda *a: jnp.stack(a), *cores)
    values = jax.jit(jax.vmap(agent.value))(stacked, jnp.array(mes), jnp.array(programs), jnp.array(replies))
    assert len(expected) > 500 and {abs(v) for v in expected} >= {50.0, 0.25}
    np.testing.assert_allclose(np.asarray(values), np.array(expected), rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("damage", [0, 2, 5])
def test_the_batched_rule_agent_writes_programs_as_the_scalar_one(damage: int) -> None:
    scalar = _rule()
    agent = _batched_rule()
    keys = jax.random.split(jax.random.PRNGKey(damage), DRAWS)
    codec = encoding_for(load_game("robo-pigs", **OPTIONS)).codec

    def drawn(write: Callable[[jax.Array, jax.Array], jax.Array]) -> list[str]:
        return [
            codec.label(int(a)) for a in np.asarray(jax.jit(jax.vmap(write, in_axes=(0, None)))(keys, damage))
        ]

    biased = drawn(agent.biased)
    theirs = [scalar._biased_program(damage) for _ in range(DRAWS)]
    # Where the X stand, and each step's command: each compared on its own.
    assert (
        _homogeneous(
            [tuple(c == "X" for c in p.split()) for p in theirs],
            [tuple(c == "X" for c in p.split()) for p in biased],
        )
        > ALPHA
    )
    for step in range(5):
        assert _homogeneous([p.split()[step] for p in theirs], [p.split()[step] for p in biased]) > ALPHA


@pytest.mark.parametrize("program", ["F X ^ X H", "F F F F F", "X X X X X", "X H X X X", "R R R R R"])
def test_the_batched_rule_agent_varies_programs_as_the_scalar_one(program: str) -> None:
    scalar = _rule()
    agent = _batched_rule()
    codec = encoding_for(load_game("robo-pigs", **OPTIONS)).codec
    number = jnp.int32(codec.encode(program))
    keys = jax.random.split(jax.random.PRNGKey(9), DRAWS)
    batch = [
        codec.label(int(a))
        for a in np.asarray(jax.jit(jax.vmap(agent.varied, in_axes=(0, None)))(keys, number))
    ]
    theirs = [scalar._variation(program) for _ in range(DRAWS)]
    assert _homogeneous(theirs, batch) > ALPHA, (
        Counter(theirs).most_common(4),
        Counter(batch).most_common(4),
    )


def _position(damaged: bool, second: bool) -> list[tuple[int, str]]:
    """The events of a seeded random game up to a position: pig A to program, the pigs at most
    three squares apart, both damaged (``damaged``) or neither; then pig A's program too when
    ``second`` (pig B to program)."""
    game = load_game("robo-pigs", **OPTIONS)
    rng = random.Random(3)
    while True:
        state, events = _robo_pigs_state(game.new_initial_state()), []
        while not state.is_terminal():
            (xa, ya), (xb, yb) = (divmod(square, 8)[::-1] for square in state.squares)
            near = abs(xa - xb) + abs(ya - yb) <= 3
            hurt = min(state.damage) >= 1 if damaged else max(state.damage) == 0
            if near and hurt and state.to_act() == (0, 1):
                break
            for player in state.to_act():
                action = state.legal_actions(player).sample(rng)
                events.append((player, state.action_to_str(player, action)))
                state.apply(player, action)
        if not state.is_terminal():
            break
    if second:
        action = state.legal_actions(0).sample(rng)
        events.append((0, state.action_to_str(0, action)))
    return events


def _differ(scalar: list[str], batch: list[str]) -> list[float]:
    """The p-values of chi-square tests on two summaries of the samples' programs: the program
    itself (the batched agent's eight most frequent, the rest as one), and its first command."""
    common = {p for p, _ in Counter(batch).most_common(8)}
    summaries: list[Callable[[str], str]] = [lambda p: p if p in common else "other", lambda p: p.split()[0]]
    return [_homogeneous(list(map(summary, scalar)), list(map(summary, batch))) for summary in summaries]


@pytest.mark.parametrize(("damaged", "second"), [(False, False), (False, True), (True, False)])
def test_the_batched_rule_agent_chooses_as_the_scalar_one(damaged: bool, second: bool) -> None:
    game = load_game("robo-pigs", **OPTIONS)
    codec = encoding_for(game).codec
    events = _position(damaged, second)
    state = _robo_pigs_state(game.new_initial_state())
    for player, text in events:
        state.apply(player, state.parse_action(player, text))
    player = 1 if second else 0
    assert player in state.to_act() and (min(state.damage) >= 1) == damaged
    scalar = []
    for seed in range(SCALAR_DECISIONS):
        agent = make_agent("rule", game, player, seed=seed)
        scalar.append(state.action_to_str(player, agent.act(PlayerView(state, player))))

    env = make("robo-pigs", **OPTIONS)
    states = env.init(jax.random.split(jax.random.PRNGKey(0), 1))
    for _, text in events:
        states = env.decide(states, jnp.array([codec.encode(text)], jnp.int32))
    assert int(states.current_player[0]) == player
    many = jax.tree.map(lambda a: np.repeat(np.asarray(a), BATCH_DECISIONS, axis=0), states)
    choose = jax.jit(jax.vmap(env.agent_one("rule")))
    chosen = np.asarray(choose(many, jax.random.split(jax.random.PRNGKey(1), BATCH_DECISIONS)))
    mask = np.asarray(states.legal_action_mask[0])
    assert mask[chosen].all()  # every choice legal
    batch = [codec.label(int(a)) for a in chosen]
    p_values = _differ(scalar, batch)
    assert min(p_values) > ALPHA, (p_values, Counter(scalar).most_common(5), Counter(batch).most_common(5))


def test_an_agent_without_a_batched_form_is_refused_in_one_line() -> None:
    env = make("robo-pigs", **OPTIONS)
    with pytest.raises(
        AgentError, match=r"^'medium' has no batched form for robo-pigs \(it has random and rule\)"
    ):
        env.agent_one("medium")
    with pytest.raises(AgentError, match="unknown parameter"):
        env.agent_one("rule:depth=3")
    assert env.agent_one("random") == env.random_action_one


@pytest.mark.parametrize(
    ("spec", "says"),
    [
        # The scalar agent's bounds (10,000 each) would be 10^8 rounds a decision here, for 128 games
        # at once: memory ran out with a traceback.
        ("rule:candidates=10000,samples=10000", "100,850,000 simulated rounds a decision"),
        ("rule:candidates=5000,samples=1", "5,043 programs and 5,085 simulated rounds"),
        ("rule:finalists=100,variations=100", "9,894 programs"),
    ],
)
def test_a_budget_the_batched_agent_cannot_play_is_refused_in_one_line(spec: str, says: str) -> None:
    env = make("robo-pigs", **OPTIONS)
    with pytest.raises(AgentError, match=rf"^'{spec}': .*{says}") as refused:
        env.agent_one(spec)
    assert "\n" not in str(refused.value) and "--engine scalar" in str(refused.value)
    assert env.agent_one("rule:candidates=900,samples=20").simulations == 19_700  # type: ignore[attr-defined]
