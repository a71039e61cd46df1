"""FITE's story: each event in plain words, as one fighter (or a spectator) may know it.

Both fighters choose at once at every step; a choice stays secret from the other until
the step resolves, when every choice of the step shows on the table (the placement's
face, the Swift move, the split and its declared power, the tactical options). So an
opponent's choice is told as "chose a placement" when it is made, and the event that
completes the step tells every choice of it. The rolls are public.
"""

from __future__ import annotations

from typing import Any

from tussle.game import CHANCE, State
from tussle.games.fite.rules import PLACE, SETUP, SPLIT, SWIFT, FiteState

#: What a fighter is choosing at each step, as a secret choice is told.
_CHOOSING = {
    SETUP: "where to place a die for the setup",
    PLACE: "where to place a die",
    SWIFT: "whether to move with Swift",
    SPLIT: "how to split the dice",
}


def story(before: State[Any], player: int, action: Any, after: State[Any], viewer: int) -> list[str]:
    """The lines of one event as ``viewer`` may know it (the states either side of the event)."""
    assert isinstance(before, FiteState) and isinstance(after, FiteState)
    lines = _told(before, player, action, viewer)
    # The fight scored by this event: the dice each fighter lost, as the table shows everybody.
    for p in (0, 1):
        lost = before.dice[p] - after.dice[p]
        if lost > 0:
            dice = "die" if lost == 1 else "dice"
            lines.append(f"{before.player_name(p)} loses {lost} {dice} ({after.dice[p]} left)")
    return lines


def _told(before: FiteState, player: int, action: Any, viewer: int) -> list[str]:
    if player == CHANCE:
        return [f"rolled {before.action_to_str(CHANCE, action)}"]
    name = before.player_name(player)
    choosing = _CHOOSING.get(before.phase, "a tactical option")
    if before.to_act() != (player,):
        # The other fighter has still to choose: this choice stays with its maker.
        if viewer == player:
            return [f"{name} chose {before.action_to_str(player, action)} (secret until the step resolves)"]
        return [f"{name} chose {choosing}"]
    chosen: dict[int, Any] = {p: before.pending[p] for p in before.acting if p != player}
    chosen[player] = action
    if len(chosen) == 1:
        return [f"{name} chose {before.action_to_str(player, action)}"]
    shown = ", ".join(
        f"{before.player_name(p)}: {before.action_to_str(p, chosen[p])}" for p in sorted(chosen)
    )
    return [f"{name} chose {choosing}", f"both choices revealed: {shown}"]
