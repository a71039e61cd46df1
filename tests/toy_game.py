"""A tiny dice game for testing the core itself, with chance and turns; not registered.

Players take turns. On your turn you roll a die (a chance event) as often as you
like: a 1 loses what you rolled this turn and passes the turn; any other number
adds to it. Holding (allowed once you have rolled) banks it and passes the turn.
The first to reach ``target`` points wins.

Tests register it for a moment with :func:`registered`, and its deliberately
broken subclasses show that the conformance checks catch real mistakes.

>>> state = DiceRace(players=2, target=5).new_initial_state()
>>> state.apply_str(0, "roll"), state.to_act()
('roll', (-1,))
>>> state.apply_str(CHANCE, "6"), state.legal_actions(0)
(6, ListActions(['roll', 'hold']))
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from tussle import (
    CHANCE,
    ActionError,
    Actions,
    ChanceMode,
    Dynamics,
    Game,
    GameInfo,
    Information,
    ListActions,
    Option,
    Result,
    State,
    registry,
)

ROLL, HOLD = "roll", "hold"
_NOTHING: ListActions[Any] = ListActions(())


@contextmanager
def registered(cls: type[Game] | None = None) -> Iterator[str]:
    """Register ``cls`` (DiceRace by default, under its id) while the block runs."""
    cls = cls or DiceRace
    target = f"{__name__}:{cls.__name__}"
    old = registry._GAMES.get(cls.info.id)
    registry._GAMES[cls.info.id] = target
    try:
        yield cls.info.id
    finally:
        if old is None:
            del registry._GAMES[cls.info.id]
        else:
            registry._GAMES[cls.info.id] = old


class DiceRace(Game):
    info = GameInfo(
        id="dice-race",
        name="Dice race",
        description="Roll to score, hold to bank; a 1 loses the turn's points.",
        min_players=2,
        max_players=4,
        dynamics=Dynamics.SEQUENTIAL,
        chance=ChanceMode.EXPLICIT,
        information=Information.PERFECT,
        options=(
            Option("target", "int", 12, "points to win", minimum=1, maximum=100),
            Option("die", "choice", "d6", "the die rolled", choices=("d6", "d4")),
        ),
    )

    def new_initial_state(self) -> DiceRaceState:
        return DiceRaceState(self)


class DiceRaceState(State):
    def __init__(self, game: DiceRace) -> None:
        self.game = game
        self.scores = [0] * game.num_players
        self.turn = 0
        self.pot = 0
        self.rolling = False
        self.winner: int | None = None

    def to_act(self) -> tuple[int, ...]:
        if self.winner is not None:
            return ()
        return (CHANCE,) if self.rolling else (self.turn,)

    def legal_actions(self, player: int) -> Actions[Any]:
        if self.winner is not None or self.rolling or player != self.turn:
            return _NOTHING
        return ListActions((ROLL, HOLD) if self.pot else (ROLL,))

    def chance_outcomes(self) -> list[tuple[Any, float]]:
        if not self.rolling or self.winner is not None:
            return []
        sides = 6 if self.game.options["die"] == "d6" else 4
        return [(k, 1 / sides) for k in range(1, sides + 1)]

    def _apply(self, player: int, action: Any) -> None:
        if player == CHANCE:
            self.rolling = False
            if action == 1:
                self.pot = 0
                self._pass_turn()
            else:
                self.pot += action
        elif action == ROLL:
            self.rolling = True
        else:
            self.scores[player] += self.pot
            self.pot = 0
            if self.scores[player] >= self.game.options["target"]:
                self.winner = player
            else:
                self._pass_turn()

    def _pass_turn(self) -> None:
        self.turn = (self.turn + 1) % self.num_players

    def action_to_str(self, player: int, action: Any) -> str:
        return str(action)

    def _parse_action(self, player: int, text: str) -> Any:
        word = text.strip().lower()
        if player == CHANCE:
            if len(word) == 1 and word in "123456":
                return int(word)
            raise ActionError(f"{text!r}: a roll is a number from 1 to 6")
        if word in (ROLL, HOLD):
            return word
        raise ActionError(f"{text!r}: say roll or hold")

    def _why_illegal(self, player: int, action: Any) -> str:
        return ": nothing to hold yet" if action == HOLD and not self.pot else ""

    def result(self) -> Result | None:
        if self.winner is None:
            return None
        return Result.win(self.winner, self.num_players, f"player {self.winner} reached the target")

    def clone(self) -> DiceRaceState:
        other = DiceRaceState.__new__(type(self))
        other.__dict__.update(self.__dict__)
        other.scores = list(self.scores)
        return other

    def observation(self, player: int) -> dict[str, Any]:
        return {
            "scores": list(self.scores),
            "turn": self.turn,
            "pot": self.pot,
            "rolling": self.rolling,
            "winner": self.winner,
        }

    def observation_text(self, player: int) -> str:
        return self.render()

    def render(self) -> str:
        scores = " ".join(f"{p}:{s}" for p, s in enumerate(self.scores))
        return f"scores {scores}; player {self.turn} has {self.pot}{' rolling' if self.rolling else ''}"


# --- deliberately broken versions: each breaks one promise ----------------------


class _BrokenGame(DiceRace):
    """Base of the broken versions: the same game, another state class."""

    state_class: type[DiceRaceState] = DiceRaceState

    def new_initial_state(self) -> DiceRaceState:
        return self.state_class(self)


class _ShallowCloneState(DiceRaceState):
    def clone(self) -> DiceRaceState:
        other = DiceRaceState.__new__(type(self))
        other.__dict__.update(self.__dict__)  # shares the scores list
        return other


class ShallowClone(_BrokenGame):
    state_class = _ShallowCloneState


class _LoudNotationState(DiceRaceState):
    def action_to_str(self, player: int, action: Any) -> str:
        return "r" if action == ROLL else str(action)  # the parser does not read "r"


class LoudNotation(_BrokenGame):
    state_class = _LoudNotationState


class _LoadedDieState(DiceRaceState):
    def chance_outcomes(self) -> list[tuple[Any, float]]:
        return [(k, 0.15) for k in range(1, 7)] if self.rolling and self.winner is None else []


class LoadedDie(_BrokenGame):
    state_class = _LoadedDieState


class _HastyApplyState(DiceRaceState):
    def apply(self, player: int, action: Any) -> None:
        self.pot += 0 if player == CHANCE else 1  # changes the state before checking
        super().apply(player, action)


class HastyApply(_BrokenGame):
    state_class = _HastyApplyState


class _TupleObservationState(DiceRaceState):
    def observation(self, player: int) -> dict[str, Any]:
        obs = super().observation(player)
        obs["scores"] = tuple(self.scores)  # a tuple comes back from JSON as a list
        return obs


class TupleObservation(_BrokenGame):
    state_class = _TupleObservationState


class _EarlyResultState(DiceRaceState):
    def result(self) -> Result | None:
        return Result.draw(self.num_players) if self.winner is None else super().result()


class EarlyResult(_BrokenGame):
    state_class = _EarlyResultState


class _CarelessResampleState(DiceRaceState):
    def resample(self, player: int, rng: random.Random) -> DiceRaceState:
        other = self.clone()
        other.scores = [rng.randrange(3) for _ in self.scores]  # redraws what everybody sees
        return other


class CarelessResample(_BrokenGame):
    state_class = _CarelessResampleState


BROKEN: tuple[type[_BrokenGame], ...] = (
    CarelessResample,
    ShallowClone,
    LoudNotation,
    LoadedDie,
    HastyApply,
    TupleObservation,
    EarlyResult,
)
