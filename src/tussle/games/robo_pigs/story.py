"""Robo Battle Pigs' story: each event in plain words, as one pig (or a spectator) may know it.

Both pigs write their programs at once; a program stays secret until the other pig has
written its own, when both are revealed and run. So the first program of a round is told
to the other pig and to spectators as "wrote a program", and the second event of the round
tells both programs.
"""

from __future__ import annotations

from typing import Any

from tussle.game import State
from tussle.games.robo_pigs.rules import RoboPigsState


def story(before: State[Any], player: int, action: Any, after: State[Any], viewer: int) -> list[str]:
    """The lines of one event as ``viewer`` may know it (the states either side of the event)."""
    assert isinstance(before, RoboPigsState)
    name = before.player_name(player)
    if before.to_act() != (player,):
        if viewer == player:
            return [f"{name} wrote {before.action_to_str(player, action)} (secret until both are written)"]
        return [f"{name} wrote a program"]
    other = 1 - player
    programs = {player: action, other: before._pending[other]}
    shown = ", ".join(f"{before.player_name(p)}: {before.action_to_str(p, programs[p])}" for p in (0, 1))
    lines = [f"{name} wrote a program", f"the round's programs revealed: {shown}"]
    assert isinstance(after, RoboPigsState)
    # What the round did to each pig's damage, as the board shows it to everybody.
    for p in (0, 1):
        was, now = before.damage[p], after.damage[p]
        if now > was:
            lines.append(f"{before.player_name(p)} took {now - was} damage ({now} in all)")
        elif now < was:
            lines.append(f"{before.player_name(p)} repaired to {now} damage")
    return lines
