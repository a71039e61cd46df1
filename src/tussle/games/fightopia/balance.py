"""Fightopia's balance measures (``tussle balance fightopia``).

For each played game: how it ended (a Giant crossed, the second Tank killed, a
player without a legal action, the ply limit), which seat moved first (the
chance event), per seat the Pawns and Tanks it lost, the actions it took of
each kind and how far its Giant got. docs/games/fightopia.md (Balance measures)
defines every row and figure. The game's duration (docs/balance.md, "Game feel") is a
``duration`` row: ``moves``, the players' moves.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from typing import Any

from tussle.balance.feel import DURATION
from tussle.balance.measures import Data, Figure, Measures, Row
from tussle.game import CHANCE, Game, State
from tussle.games.fightopia.board import GOAL_CORNER_RANK
from tussle.games.fightopia.rules import FightopiaState
from tussle.record import Record

#: The ``ending`` components, one per way a game of Fightopia ends.
CROSSED = "Giant crossed"
TANKS_KILLED = "Tanks killed"
STALEMATE = "no legal action"
LIMIT = "limit"

#: The ``actions`` components, in the order of the rules.
ACTIONS = ("Pawn step", "Giant step", "Giant kill", "Tank move", "Tank pivot", "Tank shot")


def _action(before: FightopiaState, after: FightopiaState, player: int) -> str:
    """What ``player``'s action was, from the pieces before and after it."""
    enemy = 1 - player
    if after.giants[player] != before.giants[player]:
        return "Giant step"
    if len(after.tanks[enemy]) < len(before.tanks[enemy]):
        return "Giant kill"
    if after.pawns[enemy] != before.pawns[enemy]:
        return "Tank shot"
    if after.tanks[player] != before.tanks[player]:
        (old,) = set(before.tanks[player]) - set(after.tanks[player])
        (new,) = set(after.tanks[player]) - set(before.tanks[player])
        # A Tank's code is its lowest square times two plus 1 when it stands along a file.
        return "Tank pivot" if (old ^ new) & 1 else "Tank move"
    return "Pawn step"


def _rank(state: FightopiaState, color: int) -> int:
    return state.giants[color] >> 3


class FightopiaMeasures(Measures):
    """The endings, the first mover, losses, actions and the Giants' advance."""

    def events(self, game: Game, record: Record) -> Iterable[Row]:
        moves = sum(player >= 0 for player, _ in record.events)
        return [*self._rows(record.walk(), record.events), Row(-1, DURATION, "moves", float(moves))]

    def _rows(self, walk: Iterator[State[Any]], events: list[tuple[int, str]]) -> Iterator[Row]:
        state = next(walk)
        assert isinstance(state, FightopiaState)
        start = [(state.pawns[c].bit_count(), len(state.tanks[c])) for c in (0, 1)]
        home = [_rank(state, c) for c in (0, 1)]
        advance = [0, 0]
        actions: list[Counter[str]] = [Counter(), Counter()]
        first = -1
        for player, _ in events:
            # ``walk`` changes one state in place: keep what the action may change.
            before = state.clone()
            state = next(walk)
            assert isinstance(state, FightopiaState)
            if player == CHANCE:
                continue
            if first < 0:
                first = player
            actions[player][_action(before, state, player)] += 1
            advance[player] = max(advance[player], abs(_rank(state, player) - home[player]))
        result = state.result()
        if result is not None:
            yield Row(-1, "ending", self._ending(state))
        if first >= 0:
            yield Row(first, "first", "moved first")
        for color in (0, 1):
            pawns, tanks = start[color]
            yield Row(color, "losses", "Pawn", pawns - state.pawns[color].bit_count())
            yield Row(color, "losses", "Tank", tanks - len(state.tanks[color]))
            for name in ACTIONS:
                yield Row(color, "actions", name, actions[color][name])
            yield Row(color, "giant", "ranks advanced", advance[color])

    def _ending(self, state: FightopiaState) -> str:
        if state.cut_by_limit():
            return LIMIT
        result = state.result()
        winner = result.winner if result is not None else None
        if winner is None:
            return STALEMATE
        if _rank(state, winner) == GOAL_CORNER_RANK[winner]:
            return CROSSED
        return TANKS_KILLED

    def figures(self, data: Data) -> list[Figure]:
        return [
            data.outcome_shares(
                "ending",
                "endings",
                "How games end: a Giant crossed, the second Tank killed, no legal action, the ply limit",
            ),
            data.component_wins(
                "first",
                "first-mover",
                "The first mover's advantage: win rate of the seat that moved first against the other",
                "the seat that moves first is a chance event, so this is the advantage of the first move",
            ),
            data.by_outcome("losses", "losses", "Pieces lost per game: winners against losers"),
            data.by_outcome("actions", "actions", "Actions of each kind per game: winners against losers"),
            data.by_outcome(
                "giant",
                "giant-advance",
                "How far the Giant got (most ranks from its start): winners against losers",
            ),
        ]


measures = FightopiaMeasures()
