"""Fight!'s plays and chance outcomes as the rule text words them, slowly, for tests only.

The rules (``tussle.games.fight.rules``) build a seat's plays lazily from the
hand and the family rule's cases, and test a chance outcome against tables
kept up to date at every draw. These read the sentences instead: every pair of
two different Warriors of the hand, kept if it plays as many Warriors of
another family than the last Main Warrior's as any pair can; every Warrior of
the Reserves, of the family on the top card's back when it shows. When both
agree on every state of many games, both are very likely right.
"""

from __future__ import annotations

from tussle.games.fight.cards import FAMILIES, Deck

Play = tuple[int, int]


def plays(deck: Deck, hand: list[int], last_family: int, main_only: bool) -> set[Play]:
    """The legal (Main, Boost) plays of ``hand``; ``(card, -1)`` with one Warrior left.

    "Of a family other than the last Main Warrior played when they can": with
    ``family_rule=both`` both Warriors, as many as can be, with ``main`` the Main alone.
    """
    if len(hand) == 1:
        return {(hand[0], -1)}
    pairs = {(m, b) for m in hand for b in hand if m != b}
    if last_family < 0:
        return pairs

    def other(card: int) -> int:
        return 1 if deck.warriors[card].family != last_family else 0

    if main_only:
        return {(m, b) for m, b in pairs if other(m)} or pairs
    most = max(other(m) + other(b) for m, b in pairs)
    return {(m, b) for m, b in pairs if other(m) + other(b) == most}


def draws(deck: Deck, reserves: list[int], top: int) -> set[int]:
    """The Warriors a draw may bring: any in the Reserves, of the top card's family once its back shows."""
    return {c for c in reserves if top < 0 or deck.warriors[c].family == top}


def tops(deck: Deck, reserves: list[int]) -> set[int]:
    """The families the top card's back may show: those of the Warriors in the Reserves."""
    return {f for f in range(len(FAMILIES)) if any(deck.warriors[c].family == f for c in reserves)}


def arenas(deck: Deck, revealed: list[int]) -> set[int]:
    """The Arenas the next reveal may bring: any not revealed yet."""
    return set(range(len(deck.arenas))) - set(revealed)
