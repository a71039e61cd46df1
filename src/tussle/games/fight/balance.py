"""Fight!'s balance measures (``tussle balance fight``): Warriors, Families, Arenas and abilities.

Every Fight, once scored, leaves its account in ``last_fight`` (a new
:class:`FightReport` per Fight), so one walk through the record reads each
Fight once, as it is scored. The rows (docs/games/fight.md, "Balance measures"),
one per Fight unless said otherwise:

- ``main``: the Main Warrior a seat played (killed or not);
- ``family``: that Main Warrior's family;
- ``boost``: the Boost Warrior a seat played, whatever became of it;
- ``activated``: that Boost, when its owner activated it;
- ``scored``: that Boost, when its owner scored it (not one taken by another's ability);
- ``killed``: a seat's Main Warrior that an ability killed;
- ``arena``: the Arena a seat took, valued at its Glory;
- ``arena_taken`` (seat -1): the Arena fought over, 1 if somebody took it, 0 if nobody;
- ``arena_tie`` (seat -1): an Arena taken, 1 if another Main Warrior met its condition as
  well as the winner's and the tie went to the seat closest to the 1st player;
- ``ability_changed_winner``: one per activated Boost, on its owner's seat: 1 if the Fight's
  winner differs from the winner it would have had with that activation left out
  (:meth:`FightState.resolve_again`), else 0;
- ``ability_won_fight``: the same, 1 only if the change gave the Fight to the Boost's owner;
- ``glory`` (once per game and seat, at the end): component ``arenas``, the Glory of the Arenas
  taken, and ``scored``, the Glory of the scored pile (one per Warrior in it);
- ``series:Glory of the Arenas taken``: after each Fight (component: its number), each seat's
  Glory of the Arenas taken so far (a trajectory, docs/balance.md);
- ``duration`` (seat -1): component ``Fights``, the Fights played.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from tussle.balance.feel import DURATION, SERIES
from tussle.balance.measures import Data, Figure, Measures, Row
from tussle.game import Game
from tussle.games.fight.cards import FAMILIES
from tussle.games.fight.rules import LOG_ACTIVATE, FightReport, FightState
from tussle.record import Record


class FightMeasures(Measures):
    """What a game of Fight! did with its Warriors, Families, Arenas and abilities."""

    def events(self, game: Game, record: Record) -> Iterable[Row]:
        return list(self._rows(record))

    def _rows(self, record: Record) -> Iterator[Row]:
        last: FightReport | None = None
        first = 0  # the 1st player of the Fight under way, as the state before the Fight's end shows
        state: FightState | None = None
        fights = 0
        for i, walked in enumerate(record.walk()):
            assert isinstance(walked, FightState)
            state = walked
            report = state.last_fight
            if i == 0:
                last = report  # a position may start after a Fight: its account is not this game's
            elif report is not None and report is not last:
                last = report
                yield from self.fight_rows(state, report, first)
                fights += 1
                for p in range(state.game.num_players):
                    glory = sum(state.deck.arenas[a].glory for a in state.won[p])
                    yield Row(p, SERIES + "Glory of the Arenas taken", f"{fights:02d}", float(glory))
            first = state.first
        yield Row(-1, DURATION, "Fights", float(fights))
        if state is not None and state.result() is not None:
            for p in range(state.game.num_players):
                arenas = sum(state.deck.arenas[a].glory for a in state.won[p])
                yield Row(p, "glory", "arenas", float(arenas))
                yield Row(p, "glory", "scored", float(len(state.scored[p])))

    def fight_rows(self, state: FightState, report: FightReport, first: int) -> Iterator[Row]:
        """The rows of one Fight: ``state`` just after ``report`` is scored; ``first``: its 1st player."""
        deck = state.deck
        warriors = deck.warriors
        seats = state.seat_reports(report)
        for q, seat in enumerate(seats):
            if seat.main >= 0:
                main = warriors[seat.main]
                yield Row(q, "main", main.name)
                yield Row(q, "family", FAMILIES[main.family])
                if seat.killed:
                    yield Row(q, "killed", main.name)
            boost = seat.boost
            if boost < 0 and seat.pile >= 0:
                boost = state.scored[seat.pile][seat.place]
            if boost >= 0:
                name = warriors[boost].name
                yield Row(q, "boost", name)
                if seat.activated:
                    yield Row(q, "activated", name)
                elif seat.pile == q:
                    yield Row(q, "scored", name)
        arena = deck.arenas[report.arena]
        yield Row(-1, "arena_taken", arena.name, 1.0 if report.winner >= 0 else 0.0)
        if report.winner >= 0:
            yield Row(report.winner, "arena", arena.name, float(arena.glory))
            keys = [
                arena.condition.key(warriors[m].family, report.powers[q]) if m >= 0 else None
                for q, m in enumerate(report.mains)
            ]
            tie = any(q != report.winner and key == keys[report.winner] for q, key in enumerate(keys))
            yield Row(-1, "arena_tie", arena.name, 1.0 if tie else 0.0)
        activations = [entry for entry in report.log if entry[0] == LOG_ACTIVATE]
        for k, (_, p, card, _target) in enumerate(activations):
            winner = state.resolve_again(report, first, without=k).leader()
            name = warriors[card].name
            yield Row(p, "ability_changed_winner", name, 1.0 if winner != report.winner else 0.0)
            yield Row(p, "ability_won_fight", name, 1.0 if report.winner == p != winner else 0.0)

    def figures(self, data: Data) -> list[Figure]:
        return [
            data.component_wins(
                "main",
                "warriors-main",
                "Warriors as Main: win rate of a player who played it as Main minus one who did not",
            ),
            data.component_wins(
                "boost",
                "warriors-boost",
                "Warriors as Boost: win rate of a player who played it as Boost minus one who did not",
            ),
            data.component_wins(
                "activated",
                "warriors-activated",
                "Warriors activated: win rate of a player who activated it as Boost minus one who did not",
            ),
            data.component_wins(
                "scored",
                "warriors-scored",
                "Warriors scored: win rate of a player who scored it as Boost minus one who did not",
            ),
            data.component_wins(
                "family",
                "families",
                "Families: win rate of a player who played a Main of the family minus one who did not",
            ),
            data.component_wins(
                "arena",
                "arenas",
                "Arenas: win rate of a player who took the Arena minus one who did not",
                "An Arena is one of 7 of the 12 in a game: 'without' counts the players of games "
                "without it too.",
            ),
            data.by_outcome(
                "arena",
                "arenas-glory",
                "Arenas: Glory taken there per game, winners against losers",
            ),
            data.shares(
                "arena_taken",
                "arenas-taken",
                "Arenas: share of the Fights fought there that somebody took",
                "A Fight nobody takes: every Main Warrior killed or none meeting the condition.",
            ),
            data.shares(
                "arena_tie",
                "arenas-ties",
                "Arenas: share of the Fights taken there that a tie decided (for the player closest "
                "to the 1st player)",
            ),
            data.shares(
                "ability_changed_winner",
                "abilities-change-winner",
                "Abilities: share of activations that changed the winner of the Fight",
                "The winner with the ability against the winner of the same Fight resolved again "
                "without it, every other choice as it was made.",
            ),
            data.shares(
                "ability_won_fight",
                "abilities-win-fight",
                "Abilities: share of activations that won the Fight for their owner",
                "Fights the owner took with the ability and would not have taken without it.",
            ),
            data.by_outcome(
                "glory",
                "glory-sources",
                "Glory from Arenas and from scored Warriors, winners against losers",
            ),
        ]


measures = FightMeasures()
