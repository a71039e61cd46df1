"""``tussle bench --batch``: a batched engine's decisions per second by batch size, beside the scalar engine.

Both engines play uniformly random games with the game's simulation options
(:func:`tussle.registry.simulation_options`) in the same run, in interleaved
rounds: the scalar engine in this process (:func:`tussle.bench.play_out`, one
core), then the batched one at each batch size, its games chosen by
:func:`tussle.batch.random_actions` and each game that ends replaced by a new
one (:attr:`tussle.batch.BatchGame.step_reset`), so that every batch stays
full. Each size is measured both ways: with the views (legal-action masks and
observations) that pgx's interface makes at every step, and without them
(:meth:`~tussle.batch.BatchGame.for_playouts`), as ``balance`` and ``match
--engine batch`` play, where the game draws its actions and counts them
without a mask if it can (:attr:`~tussle.batch.BatchGame.draws_without_mask`).
A decision is a player's choice (chance events are not counted, as in
``tussle bench``). Rates are per second of wall-clock time: JAX spreads a
batch over the machine's cores, the scalar engine uses one.
"""

from __future__ import annotations

import os
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import jax
import jax.numpy as jnp

from tussle.batch import BatchGame, BatchState, make, random_actions
from tussle.bench import Spread, machine, play_out
from tussle.registry import load_game, simulation_options

#: The batch sizes measured unless others are asked for.
SIZES = (1, 4, 16, 64, 256, 1024, 4096)
#: Issue 41's targets at the best batch size on two CPU cores: decisions per second, or (a float
#: below 1,000) a multiple of the scalar engine's rate.
TARGETS: dict[str, float] = {
    "fite": 2_000_000,
    "robo-pigs": 2_000_000,
    "fight": 1_000_000,
    "fightopia": 10.0,
    "tank-chess": 10.0,
}


@dataclass(frozen=True)
class SizeRate:
    """One batch size's figures."""

    size: int
    decisions_per_s: Spread
    compile_s: float
    steps_per_call: int
    #: Whether the states carried their views, masks and observations (False: for_playouts).
    views: bool = True

    def to_json(self) -> dict[str, Any]:
        return {
            "size": self.size,
            "views": self.views,
            "decisions_per_s": self.decisions_per_s.to_json(0),
            "compile_s": round(self.compile_s, 2),
            "steps_per_call": self.steps_per_call,
        }


@dataclass(frozen=True)
class BatchFigures:
    """A game's batched engine against its scalar engine, measured in one run."""

    game: str
    options: dict[str, Any]
    scalar: Spread
    sizes: tuple[SizeRate, ...]

    @property
    def best(self) -> SizeRate:
        """The fastest row: a batch size, with views or without."""
        return max(self.sizes, key=lambda rate: rate.decisions_per_s.median)

    @property
    def speedup(self) -> float:
        """The best batch size's median rate over the scalar engine's median."""
        return self.best.decisions_per_s.median / self.scalar.median if self.scalar.median else 0.0

    @property
    def target(self) -> float | None:
        """Decisions per second the best batch size should reach (issue 41), if the game has a target."""
        goal = TARGETS.get(self.game)
        if goal is None:
            return None
        return goal * self.scalar.median if goal < 1000 else goal

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "options": self.options,
            "scalar_decisions_per_s": self.scalar.to_json(0),
            "sizes": [rate.to_json() for rate in self.sizes],
            "best_size": self.best.size,
            "best_views": self.best.views,
            "speedup": round(self.speedup, 2),
            "target_decisions_per_s": None if self.target is None else round(self.target),
            "target_met": None if self.target is None else self.best.decisions_per_s.median >= self.target,
        }


def steps_per_call(size: int) -> int:
    """Steps each compiled call plays (a whole batch a step): about 64,000 decisions a call, 8 to 512 steps.

    >>> steps_per_call(1), steps_per_call(1024), steps_per_call(65536)
    (512, 64, 8)
    """
    return max(8, min(512, 65536 // size))


def batch_runner(
    env: BatchGame, size: int
) -> Callable[[BatchState, jax.Array], tuple[BatchState, jax.Array]]:
    """A compiled call: ``steps_per_call(size)`` random steps of every game, and the decisions made.

    An engine whose states carry no masks (:meth:`~BatchGame.for_playouts`) draws each action itself.
    """
    steps = steps_per_call(size)
    draw = jax.vmap(env.random_action_one)

    def choose_actions(states: BatchState, key: jax.Array) -> jax.Array:
        return random_actions(states, key) if env.masks else draw(states, jax.random.split(key, size))

    def one_step(
        carry: tuple[BatchState, jax.Array], key: jax.Array
    ) -> tuple[tuple[BatchState, jax.Array], None]:
        states, decisions = carry
        choose, play = jax.random.split(key)
        decisions = decisions + jnp.sum(states.current_player >= 0)
        states = env.step_reset(states, choose_actions(states, choose), jax.random.split(play, size))
        return (states, decisions), None

    def run(states: BatchState, key: jax.Array) -> tuple[BatchState, jax.Array]:
        carry, _ = jax.lax.scan(one_step, (states, jnp.int32(0)), jax.random.split(key, steps))
        return carry

    return jax.jit(run)


def _rate_of(play: Callable[[], int], seconds: float) -> float:
    """Decisions per wall-clock second of calls to ``play`` (each returns its decisions) over ``seconds``."""
    decisions = 0
    start = time.perf_counter()
    while True:
        decisions += play()
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return decisions / elapsed


def _player(
    run: Callable[[BatchState, jax.Array], tuple[BatchState, jax.Array]], states: BatchState, key: jax.Array
) -> Callable[[], int]:
    """Calls of ``run`` that go on from where the last left its games; each returns its decisions."""
    held: dict[str, Any] = {"states": states, "key": key}

    def play() -> int:
        held["key"], sub = jax.random.split(held["key"])
        held["states"], decided = run(held["states"], sub)
        return int(decided)  # waits for the call to finish

    return play


def measure_batch(
    game_id: str,
    *,
    sizes: Sequence[int] = SIZES,
    seconds: float = 2.0,
    rounds: int = 3,
    seed: int = 1,
    on_step: Callable[[str], None] | None = None,
) -> BatchFigures:
    """The scalar and the batched engine's random playouts of one game, in ``rounds`` interleaved rounds."""
    options = simulation_options(game_id)
    game = load_game(game_id, **options)
    env = make(game_id, **options)
    rng = random.Random(seed)

    def scalar() -> int:
        return play_out(game.new_initial_state(), rng)[0]

    runners: list[tuple[int, bool, Callable[[], int], float]] = []
    key = jax.random.PRNGKey(seed)
    for size in sizes:
        for engine in engines(env):
            key, start, first = jax.random.split(key, 3)
            run = batch_runner(engine, size)
            began = time.perf_counter()
            play = _player(run, engine.init(jax.random.split(start, size)), first)
            play()  # compiles
            compile_s = time.perf_counter() - began
            runners.append((size, engine.observations, play, compile_s))
            if on_step:
                on_step(f"compiled {game_id} at {size}")
    scalar_rates: list[float] = []
    batch_rates: list[list[float]] = [[] for _ in runners]
    for _ in range(rounds):
        scalar_rates.append(_rate_of(scalar, seconds))
        if on_step:
            on_step(f"{game_id} scalar")
        for rates, (size, _, play, _) in zip(batch_rates, runners, strict=True):
            rates.append(_rate_of(play, seconds))
            if on_step:
                on_step(f"{game_id} at {size}")
    return BatchFigures(
        game=game_id,
        options=dict(game.options),
        scalar=Spread.of(scalar_rates),
        sizes=tuple(
            SizeRate(size, Spread.of(rates), compile_s, steps_per_call(size), views)
            for rates, (size, views, _, compile_s) in zip(batch_rates, runners, strict=True)
        ),
    )


def engines(env: BatchGame) -> list[BatchGame]:
    """The engine as measured: with its views, then as random playouts play it."""
    return [env, env.for_playouts()]


def environment() -> dict[str, Any]:
    """What the figures were measured on: the machine and JAX's devices."""
    return {
        **machine(),
        "jax": jax.__version__,
        "devices": [str(device) for device in jax.devices()],
        "cores_available": len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else None,
    }
