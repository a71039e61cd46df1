"""The rules of the dice race: the toy game's only required module."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self

from tussle import (
    CHANCE,
    ActionError,
    Actions,
    AgentHook,
    ChanceMode,
    Dynamics,
    Game,
    GameInfo,
    Hooks,
    Information,
    ListActions,
    Option,
    Result,
    State,
)

ROLL, HOLD = "roll", "hold"
_NOTHING: ListActions[Any] = ListActions(())


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
            Option("turn_limit", "int", 0, "end as a draw after this many turns (0: no limit)", minimum=0),
        ),
        # Its parts beyond the rules, each in its own module of this folder.
        hooks=Hooks(
            rule_agent=".rule_agent:DiceRaceRuleAgent",
            search=".search:DiceRacePolicy",
            encoding=".encoding:encoding",
            levels=(
                ("easy", "mcts:iterations=20"),
                ("medium", "mcts:iterations=200"),
                ("hard", "mcts:iterations=800"),
            ),
            agents=(AgentHook("greedy", ".rule_agent:GreedyAgent", "rolls until the target is in reach"),),
        ),
    )

    def length_bound(self) -> tuple[int, int] | None:
        # A turn is at most 99 rolls of a 2 and a hold before the target of at most 100.
        limit = self.int_option("turn_limit")
        return (51 * limit, 50 * limit) if limit else None

    def new_initial_state(self) -> DiceRaceState:
        return DiceRaceState(self)


class DiceRaceState(State[str | int]):
    def __init__(self, game: DiceRace) -> None:
        self.game = game
        self.scores = [0] * game.num_players
        self.turn = 0
        self.pot = 0
        self.rolling = False
        self.winner: int | None = None
        self.turns = 0
        self.drawn = False

    def to_act(self) -> tuple[int, ...]:
        if self.winner is not None or self.drawn:
            return ()
        return (CHANCE,) if self.rolling else (self.turn,)

    def legal_actions(self, player: int) -> Actions[Any]:
        if self.winner is not None or self.drawn or self.rolling or player != self.turn:
            return _NOTHING
        return ListActions((ROLL, HOLD) if self.pot else (ROLL,))

    def chance_outcomes(self) -> list[tuple[Any, float]]:
        if not self.rolling or self.winner is not None or self.drawn:
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
            if self.scores[player] >= self.game.int_option("target"):
                self.winner = player
            else:
                self._pass_turn()

    def _pass_turn(self) -> None:
        self.turn = (self.turn + 1) % self.num_players
        self.turns += 1
        limit = self.game.int_option("turn_limit")
        self.drawn = bool(limit) and self.turns >= limit

    def action_to_str(self, player: int, action: Any) -> str:
        return str(action)

    def action_to_json(self, player: int, action: Any) -> dict[str, object]:
        # A roll's face for chance, the word for a player: what a drawing would show.
        return {"kind": "face", "face": action} if player == CHANCE else {"kind": action}

    def _action_from_json(self, player: int, data: dict[str, object]) -> Any:
        kind = data.get("kind")
        if player == CHANCE and kind == "face" and set(data) == {"kind", "face"}:
            face = data["face"]
            if type(face) is int and 1 <= face <= 6:
                return face
        elif kind in (ROLL, HOLD) and set(data) == {"kind"}:
            return kind
        raise ActionError(f"{data!r} is not a dice race action")

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
        if self.drawn:
            return Result.draw(self.num_players, "the turn limit")
        if self.winner is None:
            return None
        return Result.win(self.winner, self.num_players, f"player {self.winner} reached the target")

    def clone(self) -> Self:
        other = DiceRaceState.__new__(type(self))
        other.__dict__.update(self.__dict__)
        other.scores = list(self.scores)
        return other

    def observation(self, player: int) -> dict[str, Any]:
        """Everything: nothing is hidden, so every seat and the public view (PUBLIC) see the same."""
        return {
            "scores": list(self.scores),
            "turn": self.turn,
            "pot": self.pot,
            "rolling": self.rolling,
            "winner": self.winner,
        }

    def observation_to_text(self, observation: Mapping[str, Any], player: int) -> str:
        scores = " ".join(f"{p}:{s}" for p, s in enumerate(observation["scores"]))
        rolling = " rolling" if observation["rolling"] else ""
        return f"scores {scores}; player {observation['turn']} has {observation['pot']}{rolling}"

    def render(self) -> str:
        scores = " ".join(f"{p}:{s}" for p, s in enumerate(self.scores))
        return f"scores {scores}; player {self.turn} has {self.pot}{' rolling' if self.rolling else ''}"
