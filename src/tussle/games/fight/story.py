"""Fight!'s story: each event in plain words, as one seat (or a spectator) may know it.

A Warrior is named only where the viewer knows it once the event is played (the rules'
own ``known`` masks, which the observations read too); otherwise it is told by the family
on its back, which everybody sees. So a seat reads the cards it drew, its own Boost and
every card shown face up, and of another seat's draw or face-down Boost only the family.
"""

from __future__ import annotations

from typing import Any

from tussle.game import CHANCE, PUBLIC, State
from tussle.games.fight.actions import SCORE
from tussle.games.fight.cards import FAMILIES
from tussle.games.fight.rules import EVERYBODY, STEP_ARENA, STEP_BUFFER, STEP_GRAVE, STEP_TOP, FightState


def story(before: State[Any], player: int, action: Any, after: State[Any], viewer: int) -> list[str]:
    """The lines of one event as ``viewer`` may know it (the states either side of the event)."""
    assert isinstance(before, FightState) and isinstance(after, FightState)
    mask = EVERYBODY if viewer == PUBLIC else 1 << viewer

    def card(c: int, hidden: str) -> str:
        if after.known[c] & mask:
            return before.deck.warriors[c].name
        return f"a {FAMILIES[before.game.families[c]]} Warrior {hidden}".rstrip()

    if player == CHANCE:
        step = before.queue[0]
        if step == STEP_TOP:
            return [f"the top card of the Reserves shows a {FAMILIES[action]} back"]
        if step == STEP_ARENA:
            return [f"the next Arena is {before.deck.arenas[action].name}"]
        if step == STEP_GRAVE:
            return [f"{card(action, '')} goes from the Reserves to the Graveyard"]
        if step == STEP_BUFFER:
            return [f"the ability draws {card(action, '')}"]
        return [f"{before.player_name(step)} draws {card(action, '')}"]
    name = before.player_name(player)
    if isinstance(action, tuple):
        main, boost = action
        line = f"{name} plays {before.deck.warriors[main].name} as Main Warrior"
        if boost >= 0:
            return [f"{line} and {card(boost, 'face down')} as Boost"]
        return [f"{line}, with no Boost"]
    boost = before.boosts[player]
    if action == SCORE:
        return [f"{name} scores its Boost, {card(boost, 'face down')}"]
    target = f" on {before.player_name(action)}" if action >= 0 else ""
    return [f"{name} activates its Boost, {before.deck.warriors[boost].name}{target}"]
