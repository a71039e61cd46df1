"""Robo Battle Pigs' balance measures (``tussle balance robo-pigs``): commands, repairs, collisions, hits.

A round is played when the second program is in; the state then holds the
round's programs, steps and repairs (``last_programs``, ``last_steps``,
``last_repaired``), so one walk through the record reads each round once. The
rows, each a pig's total over the game (docs/games/robo-pigs.md, "Balance
measures"):

- ``command``: a command by name (``fire``, ``forward``, ..., ``repair``,
  ``damage`` for X), how many times the pig wrote it in its programs;
- ``repair``: ``rounds``, the repair programs (R R R R R) it wrote; ``points``,
  the damage points they took off;
- ``blocked``: ``edge`` or ``pig``, the steps in which its move did not happen;
- ``attack``: ``laser`` or ``fist``, the steps in which it fired or hit (as
  played: steps after the game's end are not);
- ``hit``: ``laser`` or ``fist``, the damage it dealt with each; ``taken``, the
  damage it took;
- ``accuracy``: ``laser`` or ``fist``, the share of its attacks with that weapon
  that hit (only for a pig that attacked with it);
- ``series:damage``: after each round (component: its number), each pig's damage (a
  trajectory, docs/balance.md);
- ``duration`` (seat -1): component ``rounds``, the rounds played.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from tussle.balance.feel import DURATION, SERIES
from tussle.balance.measures import Data, Figure, Measures, Row
from tussle.game import Game
from tussle.games.robo_pigs.actions import COMMAND_NAMES, FIRE, HIT, REPAIR_PROGRAM
from tussle.games.robo_pigs.rules import RoboPigsState
from tussle.record import Record

#: The attack commands by the names of their weapons.
WEAPONS = {FIRE: "laser", HIT: "fist"}


class RoboPigsMeasures(Measures):
    """What each pig programmed and what came of it."""

    def events(self, game: Game, record: Record) -> Iterable[Row]:
        counts: list[Counter[tuple[str, str]]] = [Counter(), Counter()]
        played = 0
        damage: list[Row] = []  # the trajectory: each pig's damage after each round
        for state in record.walk():
            assert isinstance(state, RoboPigsState)
            programs = state.last_programs
            # A round is over when the round number moves on (a half-submitted one does not).
            if programs is None or state.round - 1 == played:
                continue
            played = state.round - 1
            damage.extend(Row(p, SERIES + "damage", f"{played:03d}", float(state.damage[p])) for p in (0, 1))
            for p in (0, 1):
                tally = counts[p]
                for command in programs[p]:
                    tally["command", COMMAND_NAMES[command]] += 1
                if programs[p] == REPAIR_PROGRAM:
                    tally["repair", "rounds"] += 1
                    tally["repair", "points"] += state.last_repaired[p]
            for step in state.last_steps:
                for p in (0, 1):
                    tally = counts[p]
                    if step.blocked[p]:
                        tally["blocked", step.blocked[p]] += 1
                    weapon = WEAPONS.get(step.commands[p])
                    if weapon:
                        tally["attack", weapon] += 1
                        if step.hits[1 - p]:
                            tally["hit", weapon] += 1
                    if step.hits[p]:
                        tally["hit", "taken"] += 1
        rows = [
            Row(p, kind, component, float(n))
            for p in (0, 1)
            for (kind, component), n in sorted(counts[p].items())
            if n
        ]
        for p in (0, 1):
            for weapon in WEAPONS.values():
                if counts[p]["attack", weapon]:
                    rows.append(
                        Row(p, "accuracy", weapon, counts[p]["hit", weapon] / counts[p]["attack", weapon])
                    )
        return [*rows, *damage, Row(-1, DURATION, "rounds", float(played))]

    def figures(self, data: Data) -> list[Figure]:
        return [
            data.by_outcome("command", "commands", "Commands programmed per game, winners against losers"),
            data.by_outcome(
                "repair",
                "repairs",
                "Repairs per game (programs written, points taken off), winners against losers",
            ),
            data.by_outcome(
                "blocked",
                "collisions",
                "Moves blocked per game, by the board's edge or by the other pig, winners against losers",
            ),
            data.by_outcome(
                "attack", "attacks", "Attacks made per game (steps played), winners against losers"
            ),
            data.by_outcome(
                "hit",
                "hits",
                "Damage dealt by laser and by fist, and taken, per game, winners against losers",
            ),
            data.means(
                "accuracy",
                "accuracy",
                "Accuracy: share of a pig's attacks in a game that hit, by weapon",
                "The mean over the pigs that attacked with the weapon, each game and pig counting once.",
            ),
        ]


measures = RoboPigsMeasures()
