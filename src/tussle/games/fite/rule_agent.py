"""A rule-of-thumb agent for FITE that plays from its own view only.

* Placement: always the tactical location. Moving or turning two rolled dice
  is worth far more than +1 on one pool (placed only there, this agent won 244
  of 300 games against itself placed only at the offensive location, and lost
  13), and the choice cannot be punished: a location changes only its own
  fighter's bonuses.
* Swift: moves to the tactical location if the fighter stands elsewhere.
* Split: a mixed strategy solving the split as a small zero-sum game (see
  :func:`split_strategy`) whose payoff is the fighter's expected strength after
  the fight minus the opponent's, where a fighter with 0 or 1 die counts as
  nothing. Hit chances come from tables estimated once by seeded simulation.
  The super power is declared when it raises the value of that game by a
  quarter of a die or more (Cunning: when the fighter stands at the tactical
  location, so that it gets both options).
* Tactical options: every legal choice is tried on a copy of the game drawn
  from the view; the one that leaves the best hits dealt minus hits taken
  against the opponent's pools as rolled (or as the choice turned them, under
  ``turn_dice=any``) wins (ties: the simplest choice).

Everything goes through :class:`~tussle.agents.base.PlayerView`: the
observation, the legal actions and sampled states to try choices on. Its
choices are the rules' own values (:mod:`.notation`'s tuples), made without
writing notation to parse.

>>> from tussle import load_game
>>> from tussle.agents.base import PlayerView
>>> game = load_game("fite")
>>> state = game.new_initial_state()
>>> agent = FiteRuleAgent(game, 0, seed=1)
>>> state.action_to_str(0, agent.act(PlayerView(state, 0)))
'tac 5'
"""

from __future__ import annotations

import functools
import random
from collections.abc import Mapping, Sequence
from typing import Any, cast

from tussle.agents.base import Agent, PlayerView
from tussle.games.fite.notation import PASS, STAY, TAC, PlaceAction, SplitAction, SwiftAction
from tussle.games.fite.powers import Power
from tussle.games.fite.rules import Fite, FiteState

#: The estimated gain (in dice) a super power's declaration must bring.
_DECLARE_GAIN = 0.25
#: Simulated fights behind each table of hit chances.
_SAMPLES = 400
#: Rounds of fictitious play that solve the split game.
_ROUNDS = 400


def uncancelled(attack: Sequence[int], defence: Sequence[int]) -> int:
    """How many ``attack`` values stay uncancelled: each defence value cancels one value at most its own.

    >>> uncancelled([6, 5, 4, 2, 2], [6, 6, 3, 2, 1, 1])
    1
    """
    off = sorted(attack)
    i = 0
    for value in sorted(defence):
        if i < len(off) and off[i] <= value:
            i += 1
    return len(off) - i


@functools.cache
def hit_chances(attack: int, defence: int, edge: int) -> tuple[float, ...]:
    """The chances of 0, 1, ... ``attack`` uncancelled dice of ``attack`` dice against ``defence`` dice.

    ``edge`` is what the defence's modifiers exceed the attack's by. Estimated
    by a simulation seeded by the arguments, so it is the same every time.

    >>> chances = hit_chances(1, 1, 0)
    >>> len(chances), round(sum(chances), 9), chances[1] < chances[0]
    (2, 1.0, True)
    """
    rng = random.Random(f"fite/{attack}/{defence}/{edge}")
    draw = rng.random
    counts = [0] * (attack + 1)
    for _ in range(_SAMPLES):
        off = [int(draw() * 6) for _ in range(attack)]
        dfn = [int(draw() * 6) + edge for _ in range(defence)]
        counts[uncancelled(off, dfn)] += 1
    return tuple(c / _SAMPLES for c in counts)


def strength(dice: int) -> float:
    """What a fighter with ``dice`` dice is worth: a fighter with 0 or 1 is as good as out.

    >>> strength(1), strength(5)
    (0.0, 5.0)
    """
    return float(dice) if dice >= 2 else 0.0


@functools.cache
def _expected_strength(dice: int, attack: int, defence: int, edge: int) -> float:
    """The expected strength of a fighter with ``dice`` dice after ``attack`` dice hit its ``defence``."""
    return sum(p * strength(dice - hits) for hits, p in enumerate(hit_chances(attack, defence, edge)))


@functools.cache
def split_strategy(
    dice: int, their_dice: int, mine: tuple[int, int], theirs: tuple[int, int]
) -> tuple[list[int], list[float], float]:
    """A mixed strategy for the split and its value, as an equilibrium of the split game.

    The payoff of offensive dice ``off`` against the opponent's ``their_off``
    is the fighter's expected :func:`strength` after the fight minus the
    opponent's. ``mine`` and ``theirs`` are the (offensive, defensive)
    modifiers. Found by fictitious play: each side keeps answering the other's
    average play. Returns the offensive counts, their weights and the value.

    >>> offs, weights, value = split_strategy(9, 9, (0, 0), (0, 0))
    >>> offs[0], len(offs) == len(weights), abs(value) < 0.3
    (1, True, True)
    """
    offs = list(range(max(1, dice - 8), min(8, dice - 1) + 1))
    their_offs = list(range(max(1, their_dice - 8), min(8, their_dice - 1) + 1))
    payoff = [
        [
            _expected_strength(dice, their_off, dice - off, mine[1] - theirs[0])
            - _expected_strength(their_dice, off, their_dice - their_off, theirs[1] - mine[0])
            for their_off in their_offs
        ]
        for off in offs
    ]
    mine_count = [0] * len(offs)
    their_count = [0] * len(their_offs)
    # Running payoffs of each pure split against the other side's play so far.
    mine_total = [0.0] * len(offs)
    their_total = [0.0] * len(their_offs)
    for _ in range(_ROUNDS):
        i = max(range(len(offs)), key=mine_total.__getitem__)
        j = min(range(len(their_offs)), key=their_total.__getitem__)
        mine_count[i] += 1
        their_count[j] += 1
        for a in range(len(offs)):
            mine_total[a] += payoff[a][j]
        row = payoff[i]
        for b in range(len(their_offs)):
            their_total[b] += row[b]
    weights = [c / _ROUNDS for c in mine_count]
    value = sum(
        weights[a] * their_count[b] / _ROUNDS * payoff[a][b]
        for a in range(len(offs))
        for b in range(len(their_offs))
    )
    return offs, weights, value


#: Its placement (a die at the tactical location) and Swift choices, as the rules' values.
_PLACE_TAC: PlaceAction = ("place", 5)
_SWIFT_TAC: SwiftAction = ("swift", TAC)
_STAY: SwiftAction = ("swift", STAY)


def _location_mods(location: str | None) -> tuple[int, int]:
    return (int(location == "off"), int(location == "def"))


class FiteRuleAgent(Agent):
    """Plays FITE by the rules of thumb in the module's description."""

    default_spec = "rule"

    def act(self, view: PlayerView) -> Any:
        obs = view.observation()
        phase = obs["phase"]
        if phase in ("setup", "place"):
            return _PLACE_TAC
        if phase == "swift":
            return _STAY if obs["fighters"][self.player]["location"] == "tac" else _SWIFT_TAC
        if phase == "split":
            return self._split(obs, cast(Fite, view.game).power_table)
        return self._tactic(view)

    # --- the split ----------------------------------------------------------------

    def _split(self, obs: Mapping[str, Any], powers: Mapping[str, Power]) -> SplitAction:
        me, them = obs["fighters"][self.player], obs["fighters"][1 - self.player]
        mine = list(_location_mods(me["location"]))
        theirs = list(_location_mods(them["location"]))
        splits, mix, value = split_strategy(me["dice"], them["dice"], tuple(mine), tuple(theirs))
        power = me["power"]
        declare = False
        effects = powers[power] if power is not None else None
        if effects is not None and not effects.swift and not me["power_used"]:
            modifies = (
                effects.attack or effects.defence or effects.opponent_attack or effects.opponent_defence
            )
            if effects.tactical and not modifies:
                # Kept for the tactical location, where it makes one option two.
                declare = me["location"] == "tac"
            else:
                # A power of a powers document that also gives a tactical option is judged by
                # its modifiers alone.
                mine[0] += effects.attack
                mine[1] += effects.defence
                theirs[0] += effects.opponent_attack
                theirs[1] += effects.opponent_defence
                with_power = split_strategy(me["dice"], them["dice"], tuple(mine), tuple(theirs))
                if with_power[2] - value >= _DECLARE_GAIN:
                    declare = True
                    splits, mix = with_power[0], with_power[1]
        off = self.rng.choices(splits, mix)[0]
        return ("split", off, me["dice"] - off, declare)

    # --- the tactical options -----------------------------------------------------

    def _tactic(self, view: PlayerView) -> Any:
        me, other = self.player, 1 - self.player
        base = view.sample_state(self.rng)
        if other in base.to_act():
            # Scored against the pools as rolled, so the opponent's choice does not matter here.
            base.apply(other, PASS)
        best_action, best = None, None
        for action in view.legal_actions():
            trial = base.clone()
            trial.apply(me, action)
            # The values after the choice, modifiers added: both fighters', as a turn may
            # reach the opponent's dice too (turn_dice=any).
            # The state's own record, only read: no observation's copy of it is needed.
            assert isinstance(trial, FiteState) and trial.last_fight is not None
            values = trial.last_fight["values"]
            dealt = uncancelled(values[me]["off"], values[other]["def"])
            taken = uncancelled(values[other]["off"], values[me]["def"])
            # Simplest first among equals: legal actions list pass, then moves, then turns.
            score = (dealt - taken, -taken)
            if best is None or score > best:
                best_action, best = action, score
        assert best_action is not None
        return best_action
