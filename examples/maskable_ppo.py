"""Train sb3-contrib's MaskablePPO on one seat of a tussle game, then score it against random.

    pip install 'tussle[train]'
    python examples/maskable_ppo.py fite --timesteps 60000
    python examples/maskable_ppo.py fightopia --timesteps 200000

The environment is ``tussle/<game>-v0`` (one seat against a tussle agent, the
others' moves and chance drawn inside); MaskablePPO finds the legal actions
through the environment's ``action_masks()``. The score is over fresh games
against ``--opponent`` with the policy deterministic; wins count 1, draws 1/2.
The script prints one JSON line: the score, the games, the CPU seconds the
training took, and the timesteps.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

import gymnasium
import numpy as np

import tussle.adapters
from tussle.errors import TussleError
from tussle.registry import game_info

gymnasium.register_envs(tussle.adapters)


def train(game: str, timesteps: int, *, opponent: str, seed: int) -> Any:
    """A MaskablePPO policy trained for ``timesteps`` learner decisions on seat 0."""
    import torch
    from sb3_contrib import MaskablePPO

    # One thread: the networks are small, and extra threads only fight over the cores.
    torch.set_num_threads(1)
    env = gymnasium.make(f"tussle/{game}-v0", opponents=opponent)
    model = MaskablePPO("MlpPolicy", env, seed=seed, verbose=0, device="cpu")
    model.learn(total_timesteps=timesteps)
    return model


def score(model: Any, game: str, games: int, *, opponent: str, seed: int) -> float:
    """The policy's score (wins plus half the draws, over ``games``) against ``opponent``."""
    env = gymnasium.make(f"tussle/{game}-v0", opponents=opponent)
    points = 0.0
    for g in range(games):
        obs, info = env.reset(seed=seed + g)
        done = False
        reward = 0.0
        while not done:
            mask = info["action_mask"].astype(bool)
            action, _ = model.predict(obs, action_masks=mask, deterministic=True)
            obs, r, terminated, truncated, info = env.step(int(action))
            reward = float(r)
            done = terminated or truncated
        points += 1.0 if reward > 0 else 0.5 if reward == 0 else 0.0
    return points / games


def _count(minimum: int) -> Any:
    """An argparse type: a whole number of at least ``minimum``."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"{value} is below {minimum}")
        return value

    return parse


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", help="a tussle game id, such as fite or fightopia")
    parser.add_argument("--timesteps", type=_count(0), default=60_000, help="learner decisions to train on")
    parser.add_argument("--games", type=_count(1), default=500, help="games to score the policy on")
    parser.add_argument("--opponent", default="random", help="the agent spec of the other seats")
    parser.add_argument("--seed", type=_count(0), default=0, help="seeds the training and scoring")
    args = parser.parse_args(argv)
    try:
        game_info(args.game)  # an unknown game: tussle's one line, with the closest name
        start = time.process_time()
        model = train(args.game, args.timesteps, opponent=args.opponent, seed=args.seed)
        cpu = time.process_time() - start
        result = score(model, args.game, args.games, opponent=args.opponent, seed=10**6 + args.seed)
    except TussleError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    line = {
        "game": args.game,
        "opponent": args.opponent,
        "timesteps": args.timesteps,
        "train_cpu_seconds": round(cpu, 1),
        "games": args.games,
        "score": round(result, 3),
    }
    print(json.dumps(line))
    return 0


if __name__ == "__main__":
    np.seterr(all="ignore")
    sys.exit(main())
