"""What an environment costs per decision, against the engine alone (``tussle bench --adapters``).

Each measurement plays whole random games for a budget of CPU time and divides
the time by the decisions made (a player's choice; chance events are played
but not counted):

- **engine**: tussle's core API alone, ``legal_actions(p).sample`` and ``apply``
  (the yardstick: the ratios are taken against it);
- **engine, listing** (``listing_us``, for reference): the same with every legal
  action listed first (``list(legal_actions(p))``), as any agent that sees its
  options needs; what the environments pay for their legal lists is mostly this;
- **gymnasium**: :class:`~tussle.adapters.gymnasium_env.TussleGymEnv` against
  random opponents, the learner picking uniformly among ``info["action_mask"]``;
  the opponents' decisions inside the environment count too;
- **gymnasium-sparse**: the same with ``mask="sparse"`` (the list of legal
  actions in ``info``, no dense mask);
- **gymnasium-steps**: the same with ``actions="steps"``, for the games that
  have a step-by-step encoding (a decision is then all the tokens of an action);
- **pettingzoo**: the AEC environment, every agent picking from its
  ``legal_actions`` (the dense mask built too);
- **pettingzoo-sparse**: the same with ``mask="sparse"``;
- **pettingzoo-steps**: the same with ``actions="steps"`` (and the dense mask of tokens);
- **openspiel**: the pyspiel state, every player picking from ``legal_actions``;
- **openspiel-steps**: the step-by-step registration (``load(..., steps=True)``),
  a decision counted when its last token is taken;
- **rl_environment**: OpenSpiel's ``rl_environment.Environment`` over the pyspiel
  game (its information-state tensors for every player at every step, its own
  chance sampling), every player picking from ``observations["legal_actions"]``.

Each way is measured twice, as an agent would choose (:data:`PICKS`): from the
**list** of legal numbers the library gives, and from the **mask** (the indices
of the ones in ``info["action_mask"]``, the observation's ``action_mask``,
pyspiel's ``legal_actions_mask``, or for ``rl_environment``, which gives no mask,
the mask its learners build from the list, as OpenSpiel's DQN does). The sparse
ways give no mask and are measured from the list alone.

The ratio of an environment's time per decision to the engine's is its
overhead: building the observation array and the mask (or the legal list) at
every decision, on top of the game itself. Every way picks its random choice
the same way, an index drawn by Python's ``random`` (NumPy's ``Generator.choice``
costs some 13 microseconds a call, more than a whole decision of some engines,
and is no part of what an environment costs).
"""

from __future__ import annotations

from tussle.adapters import require

require(__name__, "rl", "numpy", "gymnasium", "pettingzoo", "pyspiel")

import random
import time
from bisect import bisect_right
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from itertools import accumulate
from operator import itemgetter
from typing import Any

import numpy as np

from tussle.game import CHANCE
from tussle.registry import load_game, simulation_options

LIBRARIES = (
    "gymnasium",
    "gymnasium-sparse",
    "gymnasium-steps",
    "pettingzoo",
    "pettingzoo-sparse",
    "pettingzoo-steps",
    "openspiel",
    "openspiel-steps",
    "rl_environment",
)
#: How the agent chooses: from the library's list of legal numbers, or from its mask.
PICKS = ("list", "mask")
#: The ways that give no mask, measured from the list alone.
LIST_ONLY = ("gymnasium-sparse", "pettingzoo-sparse")
#: The most an environment's time per decision should be, as a multiple of the engine's.
TARGET = 3.0
#: What Gymnasium should meet on each game, in at least one of its ways and either pick: the
#: target, or where a game's engine decision is too cheap for it (Robo Battle Pigs' program,
#: drawn in 2 to 4 microseconds and never listed, five tokens step by step), a looser one.
GYMNASIUM_TARGETS: dict[str, float] = {"robo-pigs": 10.0}
#: The ways measured only on games with a step-by-step encoding.
STEPWISE = ("gymnasium-steps", "pettingzoo-steps", "openspiel-steps")
_second = itemgetter(1)


@dataclass(frozen=True)
class Cost:
    """Decisions made and CPU seconds spent by one way of playing."""

    decisions: int
    seconds: float

    @property
    def per_decision_us(self) -> float:
        return self.seconds / max(self.decisions, 1) * 1e6


def _budget(seconds: float, play: Callable[[int], int]) -> Cost:
    """``play(game_number)`` (returning its decisions) until ``seconds`` of CPU time are spent."""
    start = time.process_time()
    decisions = games = 0
    while games == 0 or time.process_time() - start < seconds:
        decisions += play(games)
        games += 1
    return Cost(decisions, time.process_time() - start)


def engine_cost(game_id: str, seconds: float, listing: bool = False) -> Cost:
    """The engine alone; with ``listing``, every legal action listed before one is picked."""
    game = load_game(game_id, **simulation_options(game_id, None))
    rng = random.Random(1)

    def pick(state: Any, p: int) -> Any:
        if listing:
            legal = list(state.legal_actions(p))
            return legal[rng.randrange(len(legal))]
        return state.legal_actions(p).sample(rng)

    def play(_: int) -> int:
        state = game.new_initial_state()
        decisions = 0
        while acting := state.to_act():
            if acting == (CHANCE,):
                state.apply(CHANCE, state.sample_chance(rng))
                continue
            chosen = [(p, pick(state, p)) for p in acting]
            for p, action in chosen:
                state.apply(p, action)
            decisions += len(chosen)
        return decisions

    return _budget(seconds, play)


def _from_mask(mask: Any) -> Any:
    """The legal numbers as an agent choosing from a mask finds them: the indices of its ones."""
    return np.flatnonzero(mask)


def gymnasium_cost(
    game_id: str, seconds: float, actions: str = "flat", mask: str = "dense", pick: str = "list"
) -> Cost:
    from tussle.adapters.gymnasium_env import TussleGymEnv

    env = TussleGymEnv(game_id, "random", actions=actions, mask=mask)
    rng = random.Random(1)
    masked = pick == "mask"

    def play(number: int) -> int:
        _, info = env.reset(seed=number)
        done = False
        while not done:
            legal = _from_mask(info["action_mask"]) if masked else info["legal_actions"]
            action = int(legal[rng.randrange(len(legal))])
            _, _, terminated, truncated, info = env.step(action)
            done = terminated or truncated
        return env.decisions

    return _budget(seconds, play)


def pettingzoo_cost(
    game_id: str, seconds: float, actions: str = "flat", mask: str = "dense", pick: str = "list"
) -> Cost:
    from tussle.adapters.pettingzoo_env import env as make_env

    env = make_env(game_id, actions=actions, mask=mask)
    rng = random.Random(1)
    masked = pick == "mask"

    def play(number: int) -> int:
        env.reset(seed=number)
        decisions = 0
        for _agent in env.agent_iter():
            observation, _, terminated, truncated, info = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            player = env.possible_agents.index(_agent)
            legal = _from_mask(observation["action_mask"]) if masked else info["legal_actions"]
            env.step(int(legal[rng.randrange(len(legal))]))
            # Step by step, a decision is counted when its last token is taken.
            if actions == "flat" or not env._table.prefix.get(player):
                decisions += 1
        return decisions

    return _budget(seconds, play)


def openspiel_cost(game_id: str, seconds: float, steps: bool = False, pick: str = "list") -> Cost:
    from tussle.adapters.openspiel_game import load

    game = load(game_id, steps=steps)
    rng = random.Random(1)
    masked = pick == "mask"

    def choose(state: Any, *player: int) -> int:
        legal = _from_mask(state.legal_actions_mask(*player)) if masked else state.legal_actions(*player)
        return int(legal[rng.randrange(len(legal))])

    def play(_: int) -> int:
        state = game.new_initial_state()
        decisions = 0
        while not state.is_terminal():
            if state.is_chance_node():
                # As OpenSpiel's C++ samples an outcome: a running total, walked in C here
                # (unpacking the pairs with zip(*...) cost more than the game's whole decision).
                outcomes = state.chance_outcomes()
                totals = list(accumulate(map(_second, outcomes)))
                at = bisect_right(totals, rng.random() * totals[-1])
                state.apply_action(outcomes[min(at, len(outcomes) - 1)][0])
            elif state.is_simultaneous_node():
                acting = state.tussle_state.to_act()
                state.apply_actions([choose(state, p) for p in range(game.num_players())])
                decisions += len(acting)
            else:
                state.apply_action(choose(state))
                # Step by step, a decision is counted when its last token is taken.
                decisions += not steps or not state._core.prefix
        return decisions

    return _budget(seconds, play)


def rl_environment_cost(game_id: str, seconds: float, pick: str = "list") -> Cost:
    """OpenSpiel's ``rl_environment`` over the pyspiel game, every player a learner."""
    from open_spiel.python import rl_environment  # type: ignore[import-untyped]

    from tussle.adapters.openspiel_game import load

    game = load(game_id)
    env = rl_environment.Environment(game, seed=1)
    actions = game.num_distinct_actions()
    rng = random.Random(1)
    masked = pick == "mask"

    def choose(legal: list[int]) -> int:
        if masked:  # as OpenSpiel's learners make their mask from the list, and choose from it
            mask = np.zeros(actions)
            mask[legal] = 1
            legal = _from_mask(mask)
        return int(legal[rng.randrange(len(legal))])

    def play(_: int) -> int:
        step = env.reset()
        decisions = 0
        while not step.last():
            legal = step.observations["legal_actions"]
            if env.is_turn_based:
                step = env.step([choose(legal[step.observations["current_player"]])])
                decisions += 1
            else:
                decisions += len(env.get_state.tussle_state.to_act())
                step = env.step([choose(legal[p]) for p in range(env.num_players)])
        return decisions

    return _budget(seconds, play)


def gymnasium_sparse_cost(game_id: str, seconds: float, pick: str = "list") -> Cost:
    """The Gymnasium environment with ``mask="sparse"``: the legal list alone, no dense mask."""
    return gymnasium_cost(game_id, seconds, mask="sparse", pick=pick)


def gymnasium_steps_cost(game_id: str, seconds: float, pick: str = "list") -> Cost:
    """The Gymnasium environment with ``actions="steps"`` (a decision is a whole action's tokens)."""
    return gymnasium_cost(game_id, seconds, actions="steps", pick=pick)


#: Each way's cost, given the game, the CPU seconds and the pick (``list`` or ``mask``).
_COSTS: dict[str, Callable[..., Cost]] = {
    "gymnasium": gymnasium_cost,
    "gymnasium-sparse": gymnasium_sparse_cost,
    "gymnasium-steps": gymnasium_steps_cost,
    "pettingzoo": pettingzoo_cost,
    "pettingzoo-sparse": lambda game_id, seconds, pick="list": pettingzoo_cost(
        game_id, seconds, mask="sparse", pick=pick
    ),
    "pettingzoo-steps": lambda game_id, seconds, pick="list": pettingzoo_cost(
        game_id, seconds, actions="steps", pick=pick
    ),
    "openspiel": openspiel_cost,
    "openspiel-steps": lambda game_id, seconds, pick="list": openspiel_cost(
        game_id, seconds, steps=True, pick=pick
    ),
    "rl_environment": rl_environment_cost,
}


@dataclass(frozen=True)
class Overhead:
    """One game: the engine's time per decision and each library's, with the ratios.

    ``library_us`` holds each way with the agent choosing from the list, ``mask_us``
    the same ways (those that give a mask) with the agent choosing from the mask.
    """

    game: str
    engine_us: float
    library_us: dict[str, float]
    #: The engine with every legal action listed at every decision (for reference).
    listing_us: float = 0.0
    #: The ways that give a mask, the agent choosing from it.
    mask_us: dict[str, float] = field(default_factory=dict)

    @property
    def ratios(self) -> dict[str, float]:
        return {name: us / self.engine_us for name, us in self.library_us.items()}

    @property
    def mask_ratios(self) -> dict[str, float]:
        return {name: us / self.engine_us for name, us in self.mask_us.items()}

    @property
    def over_target(self) -> list[str]:
        """The ways whose time per decision is more than :data:`TARGET` times the engine's.

        At the precision the table shows, one decimal: 3.04x is 3.0x, within it. A way
        chosen from the mask is named with ``:mask`` after it.
        """
        over = [name for name, ratio in self.ratios.items() if round(ratio, 1) > TARGET]
        return over + [f"{name}:mask" for name, ratio in self.mask_ratios.items() if round(ratio, 1) > TARGET]

    @property
    def gymnasium_best(self) -> tuple[str, float] | None:
        """Gymnasium's quickest way on this game, either pick (``:mask`` after a mask's), and its ratio."""
        ways = {name: r for name, r in self.ratios.items() if name.startswith("gymnasium")}
        ways.update({f"{n}:mask": r for n, r in self.mask_ratios.items() if n.startswith("gymnasium")})
        return min(ways.items(), key=_second) if ways else None

    @property
    def gymnasium_target(self) -> float:
        """What Gymnasium should meet on this game in one of its ways (:data:`GYMNASIUM_TARGETS`)."""
        return GYMNASIUM_TARGETS.get(self.game, TARGET)

    @property
    def gymnasium_within(self) -> bool:
        """Whether one of Gymnasium's ways is within :attr:`gymnasium_target`, at one decimal."""
        best = self.gymnasium_best
        return best is not None and round(best[1], 1) <= self.gymnasium_target

    def to_json(self) -> dict[str, Any]:
        best = self.gymnasium_best
        return {
            **asdict(self),
            "engine_us": round(self.engine_us, 2),
            "listing_us": round(self.listing_us, 2),
            "library_us": {k: round(v, 2) for k, v in self.library_us.items()},
            "ratios": {k: round(v, 2) for k, v in self.ratios.items()},
            "mask_us": {k: round(v, 2) for k, v in self.mask_us.items()},
            "mask_ratios": {k: round(v, 2) for k, v in self.mask_ratios.items()},
            "over_target": self.over_target,
            "gymnasium_best": None if best is None else {"way": best[0], "ratio": round(best[1], 2)},
            "gymnasium_target": self.gymnasium_target,
            "gymnasium_within": self.gymnasium_within,
        }


def measure_overhead(
    game_id: str, seconds: float = 1.0, rounds: int = 1, picks: tuple[str, ...] = PICKS
) -> Overhead:
    """The engine and every library on ``game_id``, ``seconds`` of CPU time each, side by side.

    Every way that gives a mask is measured once for each of ``picks``. The time is
    split into ``rounds`` turns, every way taking its turn before any takes its next,
    and each way's best turn counts: a busy machine slows some turns and never speeds
    one up, and a slow spell falls on every way alike.
    """
    from tussle.adapters.encoding import encoding_for

    stepwise = encoding_for(load_game(game_id, **simulation_options(game_id, None))).steps is not None
    ways: dict[str, Callable[[str, float], Cost]] = {"engine": engine_cost}
    for name, cost in _COSTS.items():
        if not stepwise and name in STEPWISE:
            continue
        for pick in picks:
            if pick == "mask" and name in LIST_ONLY:
                continue
            key = name if pick == "list" else f"{name}:mask"
            ways[key] = cost if pick == "list" else _picking(cost, pick)
    ways["listing"] = lambda game_id, seconds: engine_cost(game_id, seconds, listing=True)
    best: dict[str, float] = {}
    for _ in range(rounds):
        for name, cost in ways.items():
            us = cost(game_id, seconds / rounds).per_decision_us
            best[name] = min(best.get(name, us), us)
    engine, listing = best.pop("engine"), best.pop("listing")
    listed = {k: v for k, v in best.items() if not k.endswith(":mask")}
    masked = {k.removesuffix(":mask"): v for k, v in best.items() if k.endswith(":mask")}
    return Overhead(game_id, engine, listed, listing, masked)


def _picking(cost: Callable[..., Cost], pick: str) -> Callable[[str, float], Cost]:
    return lambda game_id, seconds: cost(game_id, seconds, pick=pick)
