"""A rule-of-thumb agent for Robo Battle Pigs that plays from its own view only.

It writes many candidate programs (some uniformly random, most biased towards
firing, hitting and short manoeuvres, plus repair when damaged), plays each one
against the same sample of opponent programs on copies of the game drawn from
its view, and keeps the one with the best average outcome. The best few are then
varied one command at a time and checked against a fresh sample, so that a
lucky score on one sample does not decide. Outcomes are scored by damage dealt
minus damage taken, with damage counted more the closer a pig is to five (each
point also costs an X in every later program), a win or a loss outweighing
everything, and a small bonus for ending the round with the opponent in front
of the laser and out of its line.

Everything goes through :class:`~tussle.agents.base.PlayerView`: the
observation, notation and legal actions, and sampled states to try programs on
(read back through the game's position notation, ``d8S0 e1N0 1``).

>>> from tussle import load_game
>>> from tussle.agents.base import PlayerView
>>> game = load_game("robo-pigs")
>>> state = game.new_initial_state()
>>> agent = RoboPigsRuleAgent(game, 0, seed=1, params={"candidates": "24", "samples": "6"})
>>> action = agent.act(PlayerView(state, 0))
>>> action in state.legal_actions(0)
True
"""

from __future__ import annotations

from typing import Any, ClassVar

from tussle.agents.base import Agent, PlayerView
from tussle.agents.params import Param
from tussle.errors import ActionError
from tussle.game import State

# The eight free commands in the rule text's notation (the rules' order), and how
# often the biased generator picks each: attacks most, then moves, then turns.
_FREE = ("^", "v", "\\", "/", "TL", "TR", "F", "H")
WEIGHTS = (3, 2, 2, 2, 2, 2, 6, 3)
_REPAIR = "R R R R R"

# The cost of having d damage points: more than linear because each point is
# also an X in every later program and the fifth ends the game.
DAMAGE_COST = (0.0, 1.0, 2.2, 3.6, 5.2)
WIN = 50.0
LINE_BONUS = 0.25

_DELTA = {"N": (0, 1), "E": (1, 0), "S": (0, -1), "W": (-1, 0)}


def _pigs(position: str) -> list[tuple[int, int, str, int]]:
    """Each pig's file, rank (0-based), facing and damage, from position notation like ``d8S0``."""
    return [("abcdefgh".index(pig[0]), int(pig[1]) - 1, pig[2], int(pig[3:])) for pig in position.split()[:2]]


def _steps(observation: Any) -> int:
    """The commands of a program: five, or the ``program_length`` variant's."""
    return int(observation["options"].get("program_length", 5))


def _in_line(pig: tuple[int, int, str, int], target: tuple[int, int, str, int]) -> bool:
    """Whether ``target`` stands straight ahead of ``pig`` (where its laser reaches)."""
    x, y, facing, _ = pig
    tx, ty, _, _ = target
    dx, dy = _DELTA[facing]
    if dx:
        return ty == y and (tx - x) * dx > 0
    return tx == x and (ty - y) * dy > 0


class RoboPigsRuleAgent(Agent):
    """Samples and compares programs by trying them against sampled opponent programs.

    Parameters (``rule:candidates=96,samples=16``): ``candidates``, programs
    tried in the first round of comparison; ``samples``, opponent programs each
    is tried against; ``finalists``, how many of the best are varied and
    re-checked; ``variations``, how many one-command variations of each.
    """

    PARAMS: ClassVar[dict[str, Param]] = {
        "candidates": Param("int", 96, "programs tried in the first round of comparison", 1, 10_000),
        "samples": Param("int", 16, "opponent programs each candidate is tried against", 1, 10_000),
        "finalists": Param("int", 6, "how many of the best are varied and re-checked", 1, 10_000),
        "variations": Param("int", 6, "one-command variations of each finalist", 1, 10_000),
    }

    def setup(self) -> None:
        self.candidates: int = self.params["candidates"]
        self.samples: int = self.params["samples"]
        self.finalists: int = self.params["finalists"]
        self.variations: int = self.params["variations"]

    # --- writing programs -----------------------------------------------------

    def _biased_program(self, damage: int, steps: int = 5) -> str:
        """A program in notation of ``steps`` commands with exactly ``damage`` X (``steps``
        at most), free commands drawn by weight."""
        damage = min(damage, steps)
        commands = self.rng.choices(_FREE, WEIGHTS, k=steps - damage)
        for _ in range(damage):
            commands.insert(self.rng.randrange(len(commands) + 1), "X")
        return " ".join(commands)

    def _variation(self, text: str) -> str:
        """``text`` with one free command changed, or one X moved to another step."""
        commands = text.split()
        if set(commands) == {"R"}:  # the repair program, of any length
            return text
        free = [i for i, c in enumerate(commands) if c != "X"]
        if "X" in commands and self.rng.random() < 0.25:
            i = self.rng.choice([i for i, c in enumerate(commands) if c == "X"])
            j = self.rng.randrange(len(commands))
            commands[i], commands[j] = commands[j], commands[i]
        elif free:
            commands[self.rng.choice(free)] = self.rng.choices(_FREE, WEIGHTS)[0]
        return " ".join(commands)

    def _legal(self, view: PlayerView, text: str) -> Any | None:
        try:
            return view.parse_action(text)
        except ActionError:
            return None

    # --- judging programs -----------------------------------------------------

    def _value(self, state: State[Any]) -> float:
        """How good ``state`` (after a round) is for this agent's pig."""
        me, opp = self.player, 1 - self.player
        result = state.result()
        if result is not None and result.winner is not None:
            return WIN if result.winner == me else -WIN
        # The position notation is the cheapest public summary of a state between rounds.
        pigs = _pigs(state.position())
        mine, theirs = pigs[me][3], pigs[opp][3]
        if result is not None:  # a draw: judge by damage only
            return float(theirs - mine)
        value = DAMAGE_COST[min(theirs, 4)] - DAMAGE_COST[min(mine, 4)]
        if _in_line(pigs[me], pigs[opp]):
            value += LINE_BONUS
        if _in_line(pigs[opp], pigs[me]):
            value -= LINE_BONUS
        return value

    def _score(self, action: Any, trials: list[tuple[State[Any], Any | None]]) -> float:
        """The mean value of playing ``action`` in each trial (a sampled state and a reply)."""
        me, opp = self.player, 1 - self.player
        total = 0.0
        for base, reply in trials:
            state = base.clone()
            state.apply(me, action)
            if reply is not None:
                state.apply(opp, reply)
            total += self._value(state)
        return total / len(trials)

    def _trials(self, view: PlayerView, count: int) -> list[tuple[State[Any], Any | None]]:
        """``count`` opponent programs to try candidates against, each with a sampled state.

        Half the programs are uniformly random, half biased like this agent's
        own, so that both careless and aggressive opponents are covered. If the
        opponent has already submitted, each sampled state holds its own guess
        at that program and there is no reply to choose (``None``).
        """
        opp = 1 - self.player
        observation = view.observation()
        damage = int(observation["pigs"][opp]["damage"])
        steps = _steps(observation)
        base = view.sample_state(self.rng)
        if opp not in base.to_act():
            return [(view.sample_state(self.rng), None) for _ in range(count)]
        legal = base.legal_actions(opp)
        trials: list[tuple[State[Any], Any | None]] = []
        for i in range(count):
            reply = None
            if i % 2:
                try:
                    reply = base.parse_action(opp, self._biased_program(damage, steps))
                except ActionError:
                    reply = None
            trials.append((base, reply if reply is not None else legal.sample(self.rng)))
        return trials

    def act(self, view: PlayerView) -> Any:
        legal = view.legal_actions()
        observation = view.observation()
        damage = int(observation["pigs"][self.player]["damage"])
        steps = _steps(observation)
        repair_text = _REPAIR if steps == 5 else " ".join("R" * steps)
        pool: dict[Any, str] = {}
        repair = self._legal(view, repair_text)
        if repair is not None:
            pool[repair] = repair_text
        for i in range(self.candidates):
            if i % 4 == 0:
                action = legal.sample(self.rng)
                text = view.action_to_str(action)
            else:
                text = self._biased_program(damage, steps)
                action = self._legal(view, text)
            if action is not None:
                pool.setdefault(action, text)
        trials = self._trials(view, self.samples)
        scored = sorted(
            ((self._score(action, trials), i, action) for i, action in enumerate(pool)),
            key=lambda item: (-item[0], item[1]),
        )
        finalists = [action for _, _, action in scored[: self.finalists]]
        for action in list(finalists):
            for _ in range(self.variations):
                varied = self._legal(view, self._variation(pool[action]))
                if varied is not None and varied not in pool:
                    pool[varied] = view.action_to_str(varied)
                    finalists.append(varied)
        # Re-judge the finalists and their variations on a fresh, larger sample.
        trials = self._trials(view, self.samples * 2)
        best = max(enumerate(finalists), key=lambda item: (self._score(item[1], trials), -item[0]))
        return best[1]
