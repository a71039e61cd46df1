"""Fight! (Alexandros Kapidakis): arena managers send Warriors into 7 Arenas, with a data-driven deck."""

from tussle.games.fight.cards import Deck, default_deck, load_deck
from tussle.games.fight.rules import Fight, FightState

__all__ = ["Deck", "Fight", "FightState", "default_deck", "load_deck"]
