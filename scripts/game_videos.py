#!/usr/bin/env python3
"""Write a short animated picture (GIF) of each game, as environments draw it (``rgb_array``).

    .venv/bin/python scripts/game_videos.py                 # every game, into docs/images/video-<game>.gif
    .venv/bin/python scripts/game_videos.py fite --view 0   # one game, seat 0's view (default: public)

Each game is played by its rule agents (random ones in Robo Battle Pigs) from a fixed seed, so running it
again writes the same frames; a frame is drawn after every event (a chance
event, a decision) up to ``--frames``. The pictures come from
:mod:`tussle.adapters.pictures`, the same as Gymnasium's and PettingZoo's
``render()``; Pillow writes the GIF, so nothing else is needed.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

from PIL import Image

import tussle
from tussle import load_game
from tussle.adapters.pictures import picture
from tussle.agents import make_agent
from tussle.agents.base import PlayerView
from tussle.game import CHANCE, draw_outcome

OUT = Path(__file__).resolve().parent.parent / "docs" / "images"
#: The players of each game's video where not the rule agents: Robo Battle Pigs' rule agents end a
#: game in two or three rounds, random pigs wander the board longer.
AGENTS = {"robo-pigs": "random"}


def frames(game_id: str, view: int | str, count: int, seed: int) -> list[Image.Image]:
    """Up to ``count`` pictures of one game between rule agents, an event apart."""
    game = load_game(game_id)
    spec = AGENTS.get(game_id, "rule")
    agents = [make_agent(spec, game, p, seed=seed + p) for p in range(game.num_players)]
    rng = random.Random(seed)
    state = game.new_initial_state()
    shot = [Image.fromarray(picture(state, view))]
    while not state.is_terminal() and len(shot) < count:
        acting = state.to_act()
        if acting == (CHANCE,):
            state.apply(CHANCE, draw_outcome(state.chance_outcomes(), rng.random()))
        else:
            for player in acting:  # a simultaneous step's choices one after another, each blind
                state.apply(player, agents[player].act(PlayerView(state, player)))
        shot.append(Image.fromarray(picture(state, view)))
    return shot


def write(game_id: str, view: int | str, count: int, seed: int, out: Path) -> Path:
    shot = frames(game_id, view, count, seed)
    out.mkdir(parents=True, exist_ok=True)
    path = out / f"video-{game_id}.gif"
    # One palette for every frame (from the first, middle and last together) keeps the file small
    # and the colours steady.
    picked = [shot[0], shot[len(shot) // 2], shot[-1]]
    sheet = Image.new("RGB", (picked[0].width, picked[0].height * len(picked)))
    for k, frame in enumerate(picked):
        sheet.paste(frame, (0, k * frame.height))
    palette = sheet.quantize(colors=160, method=Image.Quantize.MEDIANCUT)
    small = [frame.quantize(palette=palette, dither=Image.Dither.NONE) for frame in shot]
    durations = [900] * (len(small) - 1) + [2500]  # the last frame stays, before the loop starts again
    small[0].save(path, save_all=True, append_images=small[1:], duration=durations, loop=0, optimize=True)
    return path


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games", nargs="*", help="game ids (default: every game)")
    parser.add_argument("--view", default="public", help="a seat number, or 'public' (default)")
    parser.add_argument("--frames", type=int, default=40, help="pictures at most per game (default 40)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    view: int | str = int(args.view) if args.view.isdigit() else args.view
    for game_id in args.games or tussle.game_ids():
        path = write(game_id, view, args.frames, args.seed, args.out)
        print(f"{path.name}: {path.stat().st_size:,} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
