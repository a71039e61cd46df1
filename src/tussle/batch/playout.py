"""Whole games on a batched engine, each game drawn from its own number.

:func:`play_games` is what ``tussle balance --engine batch`` and ``tussle match
--engine batch`` play: games ``first`` to ``first + count - 1`` of a run, each
played by the agents given (the random agent, a uniform draw among the legal
actions as :class:`~tussle.agents.random_agent.RandomAgent` draws, or another
agent with a batched form: :meth:`~tussle.batch.BatchGame.agent_one`), seated
as ``run_match`` seats them, and by chance with the rules' odds. A game's keys
come from the run's seed and its number alone, so a game is the same however a
run is cut into chunks and however many games are played side by side
(``width``); the engine keeps ``width`` games going, and a slot whose game
ended takes the next game at once rather than idling until the longest game of
the batch ends.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from tussle.batch import BatchGame, BatchState, Trace
from tussle.game import Termination
from tussle.runner import GameSummary

#: Games played side by side by default: the best batch size of ``tussle bench --batch`` on two cores.
WIDTH = 1024

#: A costly agent (any but random) chooses for the slots it plays in this many parts of the width,
#: as many parts as those slots need: it is not computed for the slots another agent plays.
PARTS = 8


@dataclass(frozen=True)
class Playouts:
    """What each game of a :func:`play_games` call showed, one row per game in order of number."""

    returns: np.ndarray
    """float32[games, players]: the result's returns."""
    truncated: np.ndarray
    """bool[games]: cut by a limit of the simulation options (the scalar engine's ``cut_by_limit``)."""
    events: np.ndarray
    """int32[games]: every event, chance's included: the length of the game's record."""
    decisions: np.ndarray
    """int32[games]: the players' decisions."""
    choices: np.ndarray
    """int64[games]: the legal actions summed over the decisions (over ``decisions``: branching factor)."""
    choosing: np.ndarray
    """int32[games]: decisions with more than one legal action."""
    digest: np.ndarray
    """uint32[games, 2]: a digest of the game's events in order (:class:`~tussle.batch.Trace`)."""

    def __len__(self) -> int:
        return len(self.events)

    def rankings(self) -> np.ndarray:
        """int[games, players]: each player's place, 1 best, tied players sharing one (as ``Result``)."""
        above: np.ndarray = self.returns[:, None, :] > self.returns[:, :, None]
        places: np.ndarray = 1 + above.sum(axis=2)
        return places

    def winners(self) -> np.ndarray:
        """int[games]: the player alone in first place, or -1 (a draw, or a shared first place)."""
        first = self.rankings() == 1
        return np.where(first.sum(axis=1) == 1, first.argmax(axis=1), -1)


def base_key(seed: int) -> jax.Array:
    """The run's key: any integer seed (negative, or past 64 bits) to JAX's raw two-word key."""
    digest = hashlib.sha256(f"tussle.batch/{seed}".encode()).digest()
    return jnp.array(np.frombuffer(digest[:8], np.uint32))


def _runner(
    engine: BatchGame, width: int, capacity: int, agents: tuple[str, ...], openings: int
) -> Callable[[jax.Array, jax.Array], Any]:
    """A compiled call playing games 0 to ``count - 1`` of ``keys`` (``capacity`` of them at most).

    The states carry no views (:meth:`BatchGame.for_playouts`): no batched agent reads them.
    """
    engine = engine.for_playouts()
    k = engine.num_players
    # The random agent's chooser first: it also plays each seat's first ``openings`` decisions
    # (the scalar runs' _Opening).
    distinct = list(dict.fromkeys(["random", *agents] if openings else agents))
    choosers = [engine.agent_one(spec) for spec in distinct]
    # The agent of seat s in game g is agents[(s + g) % k] (run_match's rotation), as its chooser.
    which = jnp.asarray([distinct.index(spec) for spec in agents], jnp.int32)

    def chooser(state: BatchState, game: jax.Array, made: jax.Array) -> jax.Array:
        """The chooser of the player to act in slot's game ``game``, ``made`` its seats' decisions."""
        seat = jnp.maximum(state.current_player, 0)
        return jnp.where(made[seat] < openings, 0, which[(seat + game) % k])

    part = -(-width // PARTS)

    def in_parts(
        one: Callable[[BatchState, jax.Array], jax.Array],
        mine: jax.Array,
        states: BatchState,
        keys: jax.Array,
        actions: jax.Array,
    ) -> jax.Array:
        """``actions`` with ``one``'s choice in the slots ``mine``, computed for those slots only."""
        order = jnp.argsort(~mine, stable=True)  # its slots first

        def chunk(i: jax.Array, actions: jax.Array) -> jax.Array:
            # The last part's start is moved back to fit the width: a slot chosen twice gets the same action.
            slots = jax.lax.dynamic_slice(order, (i * part,), (part,))
            got = jax.vmap(one)(jax.tree.map(lambda a: a[slots], states), keys[slots])
            return actions.at[slots].set(jnp.where(mine[slots], got, actions[slots]))

        done: jax.Array = jax.lax.fori_loop(0, -(-mine.sum() // part), chunk, actions)
        return done

    def choose(states: BatchState, keys: jax.Array, who: jax.Array) -> jax.Array:
        """Each slot's action by its chooser ``who``.

        Under ``vmap`` a switch between choosers would compute every chooser for every
        slot; so the random one (cheap) chooses everywhere, and each other one only for
        the slots it plays, gathered first and taken part by part.
        """
        actions = jnp.zeros(width, jnp.int32)
        for c, (spec, one) in enumerate(zip(distinct, choosers, strict=True)):
            if spec == "random" or len(choosers) == 1:
                actions = jnp.where(who == c, jax.vmap(one)(states, keys), actions)
            else:
                actions = in_parts(one, who == c, states, keys, actions)
        return actions

    def new_game(key: jax.Array) -> tuple[BatchState, Trace]:
        first, rest = jax.random.split(jax.random.fold_in(key, 0))
        state, trace = engine.roll_traced_one(engine.init_one(first), rest, Trace.empty())
        assert trace is not None
        return engine.views_one(state), trace

    def turn_keys(key: jax.Array, turn: jax.Array) -> jax.Array:
        """The keys of a game's turn: its choice's and its chance's."""
        return jax.random.split(jax.random.fold_in(key, turn))

    def play(
        state: BatchState, trace: Trace, action: jax.Array, chance: jax.Array
    ) -> tuple[BatchState, Trace]:
        trace = trace.add(state.current_player, action)
        state, traced = engine.roll_traced_one(engine.decide_one(state, action), chance, trace)
        assert traced is not None
        return engine.views_one(state), traced

    def pick(take: jax.Array, new: Any, old: Any) -> Any:
        return jax.tree.map(
            lambda a, b: jnp.where(take.reshape(take.shape + (1,) * (a.ndim - 1)), a, b), new, old
        )

    def run(keys: jax.Array, count: jax.Array) -> tuple[jax.Array, ...]:
        slot = jnp.arange(width, dtype=jnp.int32)
        game = jnp.where(slot < count, slot, -1)
        states, traces = jax.vmap(new_game)(keys[jnp.maximum(game, 0)])
        zeros = jnp.zeros((capacity + 1,), jnp.int32)  # the last row: where nothing is written
        out = (
            jnp.zeros((capacity + 1, engine.num_players), jnp.float32),
            jnp.zeros((capacity + 1,), bool),
            zeros,
            zeros,
            zeros,
            zeros,
            jnp.zeros((capacity + 1, 2), jnp.uint32),
        )
        carry = (
            states,
            traces,
            game,
            jnp.ones(width, jnp.int32),
            zeros[:width],
            zeros[:width],
            jnp.minimum(count, width),
            jnp.zeros((width, engine.num_players), jnp.int32),
            out,
        )

        def going(carry: tuple[Any, ...]) -> jax.Array:
            return jnp.any(carry[2] >= 0)

        def turn(carry: tuple[Any, ...]) -> tuple[Any, ...]:
            states, traces, game, turns, choices, choosing, handed, made, out = carry
            live = (game >= 0) & (states.current_player >= 0)
            legal = jax.vmap(engine.legal_count_one)(states)
            choices = choices + jnp.where(live, legal, 0)
            choosing = choosing + (live & (legal > 1))
            number = jnp.maximum(game, 0)
            deciding = states.current_player
            who = jax.vmap(chooser)(states, number, made)
            split = jax.vmap(turn_keys)(keys[number], turns)
            actions = choose(states, split[:, 0], who)
            states, traces = jax.vmap(play)(states, traces, actions, split[:, 1])
            # Each seat's decisions so far, for its opening.
            made = made + (live[:, None] & (deciding[:, None] == jnp.arange(engine.num_players)))
            over = (game >= 0) & (states.terminated | states.truncated)
            row = jnp.where(over, game, capacity)
            out = (
                out[0].at[row].set(states.rewards),
                out[1].at[row].set(states.truncated),
                out[2].at[row].set(traces.events),
                out[3].at[row].set(states.steps),
                out[4].at[row].set(choices),
                out[5].at[row].set(choosing),
                out[6].at[row].set(traces.digest),
            )
            following = handed + jnp.cumsum(over, dtype=jnp.int32) - 1
            take = over & (following < count)
            game = jnp.where(over, jnp.where(take, following, -1), game)
            fresh_states, fresh_traces = jax.vmap(new_game)(keys[jnp.maximum(game, 0)])
            states = pick(take, fresh_states, states)
            traces = pick(take, fresh_traces, traces)
            turns = jnp.where(take, 1, turns + 1)
            choices = jnp.where(take, 0, choices)
            choosing = jnp.where(take, 0, choosing)
            made = jnp.where(take[:, None], 0, made)
            handed = jnp.minimum(handed + over.sum(dtype=jnp.int32), count)
            return states, traces, game, turns, choices, choosing, handed, made, out

        return jax.lax.while_loop(going, turn, carry)[-1]

    return jax.jit(run)


def play_games(
    engine: BatchGame,
    seed: int,
    first: int,
    count: int,
    agents: Sequence[str] | None = None,
    *,
    openings: int = 0,
    width: int = WIDTH,
) -> Playouts:
    """Games ``first`` to ``first + count - 1`` of the run of ``seed``, between ``agents`` (specs).

    One agent a seat, seated as ``run_match`` seats them: agent ``(s + g) % players``
    in seat ``s`` of game ``g``. None is the random agent in every seat. Each seat's
    first ``openings`` decisions are random, as in a scalar balance run.
    """
    if count <= 0:
        raise ValueError("play at least one game")
    specs = tuple(agents) if agents is not None else ("random",) * engine.num_players
    if len(specs) != engine.num_players:
        raise ValueError(f"give one agent a seat: {engine.num_players}, not {len(specs)}")
    # Compiled once per engine, width and capacity (a power of two, WIDTH at least): the last,
    # smaller chunk of a run, and any call of up to WIDTH games, reuse one compiled call.
    capacity = max(WIDTH, 1 << max(0, (count - 1).bit_length()))
    width = max(1, min(width, capacity))
    runners = engine.__dict__.setdefault("_playout_runners", {})
    run = runners.get((width, capacity, specs, openings))
    if run is None:
        run = runners[width, capacity, specs, openings] = _runner(engine, width, capacity, specs, openings)
    numbers = jnp.arange(first, first + capacity, dtype=jnp.uint32)
    keys = jax.vmap(jax.random.fold_in, in_axes=(None, 0))(base_key(seed), numbers)
    out = [np.asarray(part)[:count] for part in run(keys, jnp.int32(count))]
    return Playouts(
        returns=out[0],
        truncated=out[1],
        events=out[2],
        decisions=out[3],
        choices=out[4].astype(np.int64),
        choosing=out[5],
        digest=out[6],
    )


def check_agents(engine: BatchGame, specs: Sequence[str]) -> None:
    """A one-line error, before any game is played, for an agent the engine cannot play."""
    for spec in dict.fromkeys(specs):
        engine.agent_one(spec)


def match_games(
    engine: BatchGame, n: int, seed: int, agents: Sequence[str] | None = None, *, chunk: int = 16384
) -> Iterator[GameSummary]:
    """Games 0 to ``n - 1`` of a match, as :func:`~tussle.runner.run_match` gives them (random agents
    where ``agents`` is None).

    Seats rotate as in ``run_match`` (agent ``(s + index) % players`` sits in seat ``s``),
    so a summary's figures read alike; the games themselves are drawn otherwise.
    """
    k = engine.num_players
    for first in range(0, n, chunk):
        games = play_games(engine, seed, first, min(n, first + chunk) - first, agents)
        rankings = games.rankings()
        for g in range(len(games)):
            index = first + g
            seats = tuple((s + index) % k for s in range(k))
            by_agent_rank = [0] * k
            by_agent_return = [0.0] * k
            for s in range(k):
                by_agent_rank[seats[s]] = int(rankings[g, s])
                by_agent_return[seats[s]] = float(games.returns[g, s])
            yield GameSummary(
                index,
                seats,
                tuple(by_agent_rank),
                tuple(by_agent_return),
                int(games.events[g]),
                None,
                termination=Termination.LIMIT if games.truncated[g] else Termination.RULES,
            )
