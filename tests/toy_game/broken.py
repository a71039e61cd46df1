"""Deliberately broken versions of the dice race: each breaks one promise the conformance checks test."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, Self

from toy_game.rules import HOLD, ROLL, DiceRace, DiceRaceState
from tussle import CHANCE, PUBLIC, Result


class _BrokenGame(DiceRace):
    """Base of the broken versions: the same game, another state class."""

    state_class: type[DiceRaceState] = DiceRaceState

    def new_initial_state(self) -> DiceRaceState:
        return self.state_class(self)


class _ShallowCloneState(DiceRaceState):
    def clone(self) -> Self:
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


class _LaxLegalityState(DiceRaceState):
    def is_legal(self, player: int, action: Any) -> bool:
        return action == HOLD or super().is_legal(player, action)  # holds with an empty pot


class LaxLegality(_BrokenGame):
    state_class = _LaxLegalityState


class _LostStructureState(DiceRaceState):
    def action_to_json(self, player: int, action: Any) -> dict[str, object]:
        return {"kind": ROLL} if player != CHANCE else super().action_to_json(player, action)


class LostStructure(_BrokenGame):
    state_class = _LostStructureState


class _PeekingTextState(DiceRaceState):
    def observation_to_text(self, observation: Mapping[str, Any], player: int) -> str:
        return f"{super().observation_to_text(observation, player)}; turns {self.turns}"  # not in the view


class PeekingText(_BrokenGame):
    state_class = _PeekingTextState


class _HastyApplyState(DiceRaceState):
    def is_legal(self, player: int, action: Any) -> bool:
        self.pot += 0 if player == CHANCE else 1  # changes the state while checking
        return super().is_legal(player, action)


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
    def resample(self, player: int, rng: random.Random) -> Self:
        other = self.clone()
        other.scores = [rng.randrange(3) for _ in self.scores]  # redraws what everybody sees
        return other


class CarelessResample(_BrokenGame):
    state_class = _CarelessResampleState


class _PublicTupleState(DiceRaceState):
    def observation(self, player: int) -> dict[str, Any]:
        obs = super().observation(player)
        if player == PUBLIC:
            obs["scores"] = tuple(self.scores)  # the spectators' view alone is not plain data
        return obs


class PublicTuple(_BrokenGame):
    state_class = _PublicTupleState


class _ForgetfulResampleState(DiceRaceState):
    def observation(self, player: int) -> dict[str, Any]:
        obs = super().observation(player)
        if player == PUBLIC:
            obs["turns"] = self.turns  # shown to spectators only
        return obs

    def resample(self, player: int, rng: random.Random) -> Self:
        other = self.clone()
        other.turns = 0  # forgets what the public view shows, though every player saw it
        return other


class ForgetfulResample(_BrokenGame):
    state_class = _ForgetfulResampleState


BROKEN: tuple[type[_BrokenGame], ...] = (
    CarelessResample,
    ForgetfulResample,
    PublicTuple,
    ShallowClone,
    LoudNotation,
    LoadedDie,
    HastyApply,
    LaxLegality,
    LostStructure,
    PeekingText,
    TupleObservation,
    EarlyResult,
)
