"""A tussle agent against OpenSpiel's MCTSBot on the same game, at the same time per move.

Both play through the OpenSpiel adapter (:mod:`tussle.adapters.openspiel_game`):
the tussle agent (by default ``mcts`` with ``time=SECONDS``; or a shipped level
such as ``medium``, or any spec) searches tussle states directly; OpenSpiel's
MCTSBot (UCT with random rollouts to the end of the game, its defaults)
searches the pyspiel states, so it pays for the adapter on every step. MCTSBot
counts simulations, not seconds, so before each move it is given as many as it
managed per second on its previous move times the time allowed; the mean time
it really took is reported beside the budget. Against an agent that thinks for
a budget of iterations (the levels), the time allowed follows the agent: the
mean time the tussle side has taken per move so far (``SECONDS`` until it has
moved). Seats alternate from game to game.

Run it from the command line::

    python -m tussle.adapters.openspiel_bench fightopia --seconds 0.5 --games 10
    python -m tussle.adapters.openspiel_bench fightopia --agent medium --games 10

>>> result = compare_with_openspiel("fightopia", 0.01, 1, seed=3, options={"ply_limit": 4})
>>> result["games"], result["tussle_wins"] + result["openspiel_wins"] + result["draws"]
(1, 1)
"""

from __future__ import annotations

from tussle.adapters import require

require(__name__, "openspiel", "numpy", "pyspiel")

import argparse
import json
import random
import sys
import time
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from open_spiel.python.algorithms import mcts  # type: ignore[import-untyped]

from tussle.adapters.openspiel_game import TussleSpielGame, load, play
from tussle.agents import make_agent
from tussle.agents.base import Agent
from tussle.errors import OptionError, TussleError

__all__ = ["TimedMctsBot", "compare_with_openspiel", "main"]


class TimedMctsBot:
    """OpenSpiel's MCTSBot given a time per move instead of a number of simulations.

    ``iterations`` and ``seconds`` add up what it has searched.
    """

    def __init__(self, game: TussleSpielGame, seconds: float, seed: int, uct_c: float = 2.0) -> None:
        rng = np.random.RandomState(seed % 2**32)
        evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
        self.bot = mcts.MCTSBot(game, uct_c, 1, evaluator, random_state=rng)
        self.seconds_per_move = seconds
        self.rate = 0.0
        self.iterations = 0
        self.seconds = 0.0
        self.moves = 0

    def step(self, state: Any) -> int:
        started = time.perf_counter()
        if self.rate <= 0.0:
            # A first small search measures the speed here; it counts towards this move.
            self.bot.max_simulations = 2
            probe = self.bot.mcts_search(state)
            spent = time.perf_counter() - started
            self.iterations += probe.explore_count
            self.rate = probe.explore_count / max(spent, 1e-6)
        remaining = self.seconds_per_move - (time.perf_counter() - started)
        # Two at least: the first simulation only scores the root, the second expands it.
        self.bot.max_simulations = max(2, round(self.rate * remaining))
        search_started = time.perf_counter()
        root = self.bot.mcts_search(state)
        search_time = time.perf_counter() - search_started
        self.rate = root.explore_count / max(search_time, 1e-6)
        self.iterations += root.explore_count
        self.seconds += time.perf_counter() - started
        self.moves += 1
        return int(root.best_child().action)


def compare_with_openspiel(
    game_id: str,
    seconds_per_move: float,
    games: int,
    seed: int = 0,
    *,
    options: Mapping[str, Any] | None = None,
    agent: str | None = None,
) -> dict[str, Any]:
    """Play ``games`` games of a tussle agent against OpenSpiel's MCTSBot; return the tally and speeds.

    ``agent`` is the tussle side's spec (default ``mcts:time=SECONDS``, with
    MCTSBot at ``seconds_per_move`` too); with another spec MCTSBot gets the
    tussle side's mean time per move so far. The result holds the wins of each
    side and the draws, the mean seconds each side took per move, and the
    search iterations per second of each (tussle's iterations and MCTSBot's
    simulations: each adds one node and scores it with a playout).
    """
    if games < 1:
        raise OptionError(f"games must be at least 1, not {games}")
    if seconds_per_move <= 0:
        raise OptionError(f"seconds per move must be positive, not {seconds_per_move}")
    game = load(game_id, **dict(options or {}))
    spec = agent if agent is not None else f"mcts:time={seconds_per_move}"
    follow = agent is not None  # MCTSBot's time follows the agent's, not a fixed budget
    rng = random.Random(seed)
    tally = {"tussle": 0, "openspiel": 0, "draws": 0}
    spent = {"tussle": [0.0, 0, 0], "openspiel": [0.0, 0, 0]}  # seconds, moves, iterations
    lengths = []
    for index in range(games):
        tussle_seat = index % 2
        player: Agent = make_agent(spec, game.tussle_game, tussle_seat, seed=rng.getrandbits(62))
        if player.interactive:
            raise OptionError(f"agent {spec!r} needs a person at the terminal, not a benchmark")
        bot = TimedMctsBot(game, seconds_per_move, rng.getrandbits(62))
        if follow and spent["tussle"][1]:
            bot.seconds_per_move = spent["tussle"][0] / spent["tussle"][1]
        seats: list[Any] = [bot, bot]
        seats[tussle_seat] = player

        def on_move(  # noqa: PLR0917 (play's callback, with this game's values bound)
            who: int,
            action: int,
            seconds: float,
            agent: Agent = player,
            seat: int = tussle_seat,
            bot: Any = bot,
        ) -> None:
            if who == seat:
                stats = getattr(agent, "last_stats", {})
                spent["tussle"][0] += float(stats.get("seconds", seconds))
                spent["tussle"][1] += 1
                spent["tussle"][2] += int(stats.get("iterations", 0))
                if follow:
                    bot.seconds_per_move = spent["tussle"][0] / spent["tussle"][1]

        final = play(game, seats, seed=rng.getrandbits(62), on_move=on_move)
        spent["openspiel"][0] += bot.seconds
        spent["openspiel"][1] += bot.moves
        spent["openspiel"][2] += bot.iterations
        result = final.tussle_state.result()
        lengths.append(len(final.history()))
        winner = result.winner if result is not None else None
        if winner is None:
            tally["draws"] += 1
        elif winner == tussle_seat:
            tally["tussle"] += 1
        else:
            tally["openspiel"] += 1

    def rate(side: str) -> float:
        seconds, _, iterations = spent[side]
        return round(iterations / seconds, 1) if seconds else 0.0

    def per_move(side: str) -> float:
        seconds, moves, _ = spent[side]
        return round(seconds / moves, 4) if moves else 0.0

    return {
        "game": game_id,
        "agent": spec,
        "options": dict(game.tussle_game.options),
        "seconds_per_move": seconds_per_move,
        "games": games,
        "seed": seed,
        "tussle_wins": tally["tussle"],
        "openspiel_wins": tally["openspiel"],
        "draws": tally["draws"],
        "tussle_seconds_per_move": per_move("tussle"),
        "openspiel_seconds_per_move": per_move("openspiel"),
        "tussle_iterations_per_second": rate("tussle"),
        "openspiel_iterations_per_second": rate("openspiel"),
        "mean_length": round(sum(lengths) / len(lengths), 1),
    }


def main(argv: Sequence[str] | None = None) -> int:
    """The command line: ``GAME [--seconds S] [--games N] [--seed K] [-o name=value]``."""
    parser = argparse.ArgumentParser(
        prog="python -m tussle.adapters.openspiel_bench",
        description="tussle's MCTS against OpenSpiel's MCTSBot at the same time per move.",
    )
    parser.add_argument("game", help="a game id, e.g. fightopia or tank-chess")
    parser.add_argument(
        "--seconds",
        type=float,
        default=0.5,
        help="seconds per move for both (default 0.5); with --agent, MCTSBot's first move",
    )
    parser.add_argument(
        "--agent", default=None, help="the tussle side (default mcts:time=SECONDS), e.g. medium"
    )
    parser.add_argument("--games", type=int, default=10, help="games to play, seats alternating (default 10)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the whole comparison (default 0)")
    parser.add_argument("-o", "--option", action="append", default=[], help="a game option, name=value")
    args = parser.parse_args(argv)
    options: dict[str, str] = {}
    for item in args.option:
        name, eq, value = item.partition("=")
        if not eq:
            parser.error(f"option {item!r} is not name=value")
        options[name] = value
    try:
        result = compare_with_openspiel(
            args.game, args.seconds, args.games, args.seed, options=options, agent=args.agent
        )
    except TussleError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
