"""Every tussle game as an OpenSpiel (pyspiel) Python game.

Importing this module registers ``tussle_robo_pigs``, ``tussle_fite``,
``tussle_fightopia``, ``tussle_tank_chess`` and ``tussle_fight`` (the game id
with ``_`` for ``-``). Their parameters are ``players`` and the game's
options, with the game's simulation defaults (ply, round and turn limits), so
that every game ends and has a maximum length; a limit of 0 (none) is refused.

- **Game type.** Dynamics, chance mode and information come from the game's
  :class:`~tussle.game.GameInfo`. Robo Battle Pigs and FITE keep their
  simultaneous steps (``SIMULTANEOUS`` dynamics: every decision node is
  simultaneous; a player with nothing to do there has one legal action,
  ``pass``, numbered ``num_actions``). They are also registered in turns
  (``tussle_fite_turns``, ``load(..., turns=True)``): sequential, a step's
  submissions one after another in seat order, for algorithms that need
  turns; ``pyspiel.convert_to_turn_based`` works too. Robo Battle Pigs and
  Tank Chess are also registered step by step (``tussle_robo_pigs_steps``,
  ``load(..., steps=True)``): an action is a few small choices, one decision
  each (a program a command at a time; a tank, then where it ends, then its
  shot), in turns, so that no decision lists thousands of actions.
  Every game is zero-sum (results give a
  sole winner 1 and the others -1/(n-1), and shared places split that), with
  terminal rewards.
- **Actions** are the fixed integer space of :mod:`tussle.adapters.encoding`
  (step by step, its tokens); chance outcomes have their own numbers, below
  ``max_chance_outcomes``.
- **Observations**: strings are the player's observation as compact JSON
  (equal exactly when the observations are); tensors are the float arrays of
  the encoding. Information states (perfect recall) are the history, or in a
  game with hidden information the player's own observation history, as text
  (:meth:`_Core.information`) and as fixed-size tensors: a row per event
  where the game is short, else a summary whose size does not grow with the
  game (:class:`InformationLayout`); public and private observers too.
- **Lengths**: ``max_game_length`` counts decision nodes (a simultaneous
  step is one), bounded by the game's limit.

>>> import pyspiel
>>> import tussle.adapters.openspiel_game
>>> game = pyspiel.load_game("tussle_fightopia")
>>> game.num_distinct_actions(), game.max_chance_outcomes(), game.max_game_length()
(11648, 2, 2000)
>>> state = game.new_initial_state()
>>> state.is_chance_node(), state.chance_outcomes()
(True, [(0, 0.5), (1, 0.5)])
>>> state.apply_action(0)
>>> state.current_player(), len(state.legal_actions()), state.action_to_string(0, 144)
(0, 30, 'c3-c4')
"""

from __future__ import annotations

from tussle.adapters import require

require(__name__, "openspiel", "numpy", "pyspiel")

import bisect
import json
import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar

import numpy as np
import pyspiel  # type: ignore[import-not-found]

from tussle.adapters.encoding import GameEncoding, LegalMap, StepCodec, encoding_for
from tussle.agents.base import Agent, PlayerView
from tussle.errors import ActionError, OptionError, TussleError
from tussle.game import (
    CHANCE,
    PUBLIC,
    ChanceMode,
    Dynamics,
    Game,
    GameInfo,
    Information,
    Option,
    State,
    draw_outcome,
)
from tussle.registry import game_ids, game_info, load_game

__all__ = [
    "TussleSpielGame",
    "TussleSpielState",
    "load",
    "play",
    "register_all",
    "resampler",
    "spiel_name",
]

_DYNAMICS = {
    Dynamics.SEQUENTIAL: pyspiel.GameType.Dynamics.SEQUENTIAL,
    Dynamics.SIMULTANEOUS: pyspiel.GameType.Dynamics.SIMULTANEOUS,
}
_CHANCE = {
    ChanceMode.DETERMINISTIC: pyspiel.GameType.ChanceMode.DETERMINISTIC,
    ChanceMode.EXPLICIT: pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
}
_INFORMATION = {
    Information.PERFECT: pyspiel.GameType.Information.PERFECT_INFORMATION,
    Information.IMPERFECT: pyspiel.GameType.Information.IMPERFECT_INFORMATION,
}


def spiel_name(game_id: str) -> str:
    """The pyspiel name of a tussle game.

    >>> spiel_name("robo-pigs")
    'tussle_robo_pigs'
    """
    return "tussle_" + game_id.replace("-", "_")


def _spiel_value(opt: Option, value: Any) -> Any:
    """An option value as OpenSpiel's game strings read it back: digits are integers there."""
    value = opt.parse(value)
    if opt.kind == "choice" and all(c.isdigit() for c in opt.choices):
        return int(value)
    return value


def _parameters(info: GameInfo) -> dict[str, Any]:
    params: dict[str, Any] = {"players": info.min_players}
    simulation = dict(info.simulation_defaults)
    for opt in info.options:
        params[opt.name] = _spiel_value(opt, simulation.get(opt.name, opt.default))
    return params


#: The suffix of a simultaneous game's sequential registration (``tussle_fite_turns``).
TURNS = "_turns"
#: The suffix of a game's step-by-step registration (``tussle_robo_pigs_steps``).
STEPS = "_steps"


def _suffix(turns: bool, steps: bool) -> str:
    return STEPS if steps else TURNS if turns else ""


def _game_type(info: GameInfo, turns: bool = False, steps: bool = False) -> Any:
    long_name = f"tussle {info.name}" + (", step by step" if steps else ", in turns" if turns else "")
    return pyspiel.GameType(
        short_name=spiel_name(info.id) + _suffix(turns, steps),
        long_name=long_name,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL if turns or steps else _DYNAMICS[info.dynamics],
        chance_mode=_CHANCE[info.chance],
        information=_INFORMATION[info.information],
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=info.max_players,
        min_num_players=info.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_parameters(info),
    )


def _lengths(game: Game) -> tuple[int, int]:
    """(decision nodes, chance nodes) that a game can take at most, from its limits."""
    bound = game.length_bound()
    if bound is None:
        limits = ", ".join(name for name, _ in game.info.simulation_defaults) or "its limit"
        raise OptionError(f"{game.info.id}: OpenSpiel needs games of bounded length: set {limits} above 0")
    return bound


class _Core:
    """The tussle state behind one pyspiel state, with caches; cloned by tussle's own ``clone``.

    pyspiel copies a Python state by deep-copying its attributes, so this one
    attribute defines its own copy (a tussle clone, sharing the encoding) and
    its own pickling (the game and the actions so far, replayed on loading).

    Step by step (``steps`` set), a player's event is one token of an action
    (:class:`~tussle.adapters.encoding.StepCodec`): the tokens chosen so far
    wait in :attr:`prefix` until they make a whole action, which is then
    applied to the tussle state.
    """

    __slots__ = (
        "_chance",
        "_context",
        "_current",
        "_legal",
        "_pairs",
        "_recall",
        "_state",
        "encoding",
        "events",
        "game",
        "prefix",
        "steps",
    )

    def __init__(
        self,
        game: Game,
        encoding: GameEncoding,
        state: State[Any] | None = None,
        steps: StepCodec | None = None,
    ) -> None:
        self.game = game
        self.encoding = encoding
        self._state = state
        self.steps = steps
        #: The tokens of the action being chosen step by step (by the player to act).
        self.prefix: list[int] = []
        # What the tokens of this decision depend on (StepCodec.start), read once a decision.
        self._context: Any = None
        # The pyspiel player to act, once asked (pyspiel asks several times a step).
        self._current: int | None = None
        # The chance outcomes as pyspiel's (index, probability) pairs, once asked.
        self._pairs: Sequence[tuple[int, float]] | None = None
        self._legal: dict[int, LegalMap] = {}
        self._chance: list[tuple[int, float, Any]] | None = None
        #: The (player, index) events so far as nested pairs, shared by clones; None once resampled.
        self.events: tuple[Any, ...] | None = ()
        # Each player's observation history, once its information state has been asked for:
        # kept up to date event by event from then on, so that asking again costs nothing.
        self._recall: dict[int, _Recall] = {}

    @property
    def state(self) -> State[Any]:
        # Made on first use: pyspiel builds a fresh state for every clone, then overwrites it.
        if self._state is None:
            self._state = self.game.new_initial_state()
        return self._state

    def __deepcopy__(self, memo: dict[int, Any]) -> _Core:
        state = self._state.clone() if self._state is not None else None
        other = _Core(self.game, self.encoding, state, self.steps)
        other.events = self.events
        # The step context may hold this state: the copy reads its own again when needed.
        other.prefix = self.prefix.copy()
        other._recall = {player: recall.copy() for player, recall in self._recall.items()}
        return other

    def __reduce__(self) -> tuple[Any, ...]:
        if self.events is None:
            raise TussleError("a resampled state cannot be serialized: its history is not the game's")
        options = dict(self.game.options)
        steps = self.steps is not None
        return (_restore, (self.game.info.id, self.game.num_players, options, self.history(), steps))

    def history(self) -> list[tuple[int, int]]:
        """The (player, action index) events so far, in order."""
        if self.events is None:
            raise TussleError("a resampled state has no history: it was drawn, not played")
        flat: list[tuple[int, int]] = []
        node = self.events
        while node:
            node, player, index = node
            flat.append((player, index))
        flat.reverse()
        return flat

    def information(self, player: int, perfect: bool) -> str:
        """``player``'s information state as text, with perfect recall.

        Perfect information: every event so far (``player:index``, chance as
        ``c``). Otherwise what the player saw along the way: its observation at
        the start and after every event, and its own actions; another player's
        action or a chance outcome shows only through the observations that
        follow it, so nothing hidden gets in. A simultaneous step's submissions
        count as events in seat order (an order fixed by the rules, not by who
        chose first); until the step resolves a submission shows only to its maker.
        """
        if perfect:
            return " ".join(f"{'c' if p == CHANCE else p}:{i}" for p, i in self.history())
        return "\n".join(self._recall_of(player).lines)

    def information_tensor(self, player: int, layout: InformationLayout) -> np.ndarray[Any, Any]:
        """``player``'s information state as a fixed-size float32 array: :meth:`information` as numbers.

        One row per event, zero rows after the last, or a summary where that
        would be larger (see :class:`InformationLayout`).
        """
        if layout.summary:
            return self._summary(player, layout)
        out = np.zeros((layout.rows, layout.width), dtype=np.float32)
        if layout.perfect:
            for row, (p, index) in enumerate(self.history()):
                out[row, p + 1] = 1.0  # the actor, chance (-1) first
                out[row, layout.actors :] = _bits(index, layout.bits)
            return out
        recall = self._recall_of(player)
        size = layout.width - 2 - layout.bits
        for row, (seen, mine) in enumerate(zip(recall.arrays, recall.mine, strict=True)):
            out[row, :size] = seen
            out[row, size] = 1.0  # a row that happened, even if its observation is all zero
            if mine >= 0:
                out[row, size + 1] = 1.0
                out[row, size + 2 :] = _bits(mine, layout.bits)
        return out

    def _summary(self, player: int, layout: InformationLayout) -> np.ndarray[Any, Any]:
        """``player``'s information state as a fixed-size summary (see :class:`InformationLayout`)."""
        recall = self._recall_of(player)
        out = np.zeros(layout.size, dtype=np.float32)
        size = layout.observation
        out[:size] = recall.arrays[-1]
        out[size : 2 * size] = recall.total / (layout.events + 1)
        at = 2 * size
        most = max(layout.events, 1)
        out[at] = (len(recall.mine) - 1) / most
        out[at + 1] = recall.own / most
        at += 2
        latest: list[tuple[int, int] | None] = []
        if layout.perfect:  # everyone's events: the history's latest, walked back no further
            node = self.events
            if node is None:
                raise TussleError("a resampled state has no history: it was drawn, not played")
            while node and len(latest) < WINDOW:
                node, p, index = node
                latest.append((p, index))
        else:  # the player's own actions; the others' events show only that they happened
            for mine in reversed(recall.mine[1:][-WINDOW:]):
                latest.append((player, mine) if mine >= 0 else None)
        for event in latest:
            out[at] = 1.0
            if event is not None:
                out[at + 1 + event[0] + 1] = 1.0  # the actor, chance (-1) first
                out[at + 1 + layout.actors : at + layout.event_width] = _bits(event[1], layout.bits)
            at += layout.event_width
        return out

    def _recall_of(self, player: int) -> _Recall:
        """``player``'s observation history: replayed from the start the first time, then kept."""
        recall = self._recall.get(player)
        if recall is None:
            history = self.history()
            replay = _Core(self.game, self.encoding, steps=self.steps)
            recall = replay._recall[player] = _Recall()
            recall.see(replay, player)
            for p, index in history:
                replay.apply(p, index)
            self._recall[player] = recall
        return recall

    def tokens(self, player: int) -> list[int]:
        """Step by step: the tokens ``player`` may take next (none unless it is the one to act)."""
        assert self.steps is not None
        acting = self.state.to_act()
        if not acting or acting[0] != player:
            return []
        return self.steps.tokens(self._step_context(player), self.prefix)

    def _step_context(self, player: int) -> Any:
        assert self.steps is not None
        if self._context is None:
            self._context = self.steps.start(self.state, player)
        return self._context

    def shown_prefix(self, player: int) -> list[int]:
        """The tokens chosen so far that ``player`` sees: its own, or any in a game of perfect information."""
        acting = self.state.to_act() if self.prefix else ()
        if acting and (acting[0] == player or self.game.info.information == Information.PERFECT):
            return self.prefix
        return []

    def legal(self, player: int) -> LegalMap:
        legal = self._legal.get(player)
        if legal is None:
            legal = self._legal[player] = self.encoding.legal(self.state, player)
        return legal

    def chance(self) -> list[tuple[int, float, Any]]:
        if self._chance is None:
            self._chance = self.encoding.chance_outcomes(self.state)
        return self._chance

    def apply(self, player: int, index: int) -> None:
        state = self.state
        if player == CHANCE:
            chance = self.chance()  # by index: found by bisection, not by a dict of them all
            at = bisect.bisect_left(chance, index, key=_first)
            if at == len(chance) or chance[at][0] != index:
                raise ActionError(f"{index} is not a possible chance outcome now")
            action = chance[at][2]
        elif self.steps is not None:
            if self.state.to_act()[:1] != (player,):
                raise ActionError(f"{state.player_name(player)} does not choose now")
            prefix = self.prefix.copy()  # a refused token leaves the prefix as it was
            text = self.steps.take(self._step_context(player), prefix, index)
            if text is None:
                self.prefix = prefix
                self.note(player, index)
                return
            action = self.steps.action(state, player, prefix, text)
        else:
            action = self.legal(player).action(state, index)
        state.apply(player, action)
        self.prefix = []
        self._context = None
        self.note(player, index)

    def note(self, player: int, index: int) -> None:
        """Take note of an event just applied to the tussle state."""
        self._legal = {}
        self._chance = None
        self._pairs = None
        self._current = None
        if self.events is not None:
            self.events = (self.events, player, index)
        for seer, recall in self._recall.items():
            recall.see(self, seer, index if seer == player else -1)


class _Recall:
    """One player's observation history: text lines, observation arrays and its own action after each."""

    __slots__ = ("arrays", "lines", "mine", "own", "total")

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.arrays: list[np.ndarray[Any, Any]] = []
        #: The player's own action that led to each observation, or -1.
        self.mine: list[int] = []
        #: How many of the events were the player's own actions.
        self.own = 0
        #: The sum of the observation arrays so far (a new array each time: copies share it).
        self.total: np.ndarray[Any, Any] = np.zeros(0)

    def copy(self) -> _Recall:
        other = _Recall()
        other.lines = self.lines.copy()
        other.arrays = self.arrays.copy()  # the arrays themselves are never changed
        other.mine = self.mine.copy()
        other.own = self.own
        other.total = self.total
        return other

    def see(self, core: _Core, player: int, mine: int = -1) -> None:
        if mine >= 0:
            self.lines.append(f"me:{mine}")
            self.own += 1
        self.lines.append(_compact(core.state.observation(player)))
        array = core.encoding.observation(core.state, player).ravel()
        self.arrays.append(array)
        # Summed in float64, in the order seen: the same observations give the same sum.
        self.total = array.astype(np.float64) if not self.mine else self.total + array
        self.mine.append(mine)


def _first(item: tuple[int, float, Any]) -> int:
    return item[0]


def _bits(number: int, width: int) -> np.ndarray[Any, Any]:
    """``number`` in binary, lowest bit first, as ``width`` floats."""
    return ((number >> np.arange(width)) & 1).astype(np.float32)


#: How many of the latest events a summarised information state spells out one by one.
WINDOW = 8


class InformationLayout:
    """The shape of a game's information-state tensors: the whole history where it is small, else a summary.

    **History** (``summary`` False), one row per event, at most ``rows`` of them:

    - Perfect information (the history): a row per event so far, the actor
      one-hot (chance, then each seat) and the event's number (action, or
      chance outcome) in binary, lowest bit first.
    - Otherwise (the player's own observation history): row 0 is the player's
      first observation; each event adds a row with the player's observation
      after it, a flag that the row happened, a flag that the event was the
      player's own action and then that action's number in binary (zeros for
      anyone else's action or a chance outcome, which show only through the
      observations).

    ``rows`` comes from the game's limits: the most events a game can have.

    **Summary** (``summary`` True; chosen when the history would be larger), one
    flat vector whose size does not depend on the game's length:

    - the player's observation now;
    - the sum of its observations so far (the first and one after each event),
      divided by the most there can be: how often each feature has been seen;
    - the events so far and the player's own actions so far, each divided by
      the most events;
    - the latest :data:`WINDOW` events, newest first, a row each: a flag that it
      happened, the actor one-hot (chance, then each seat) and its number in
      binary, where the player knows them (everyone's in a game of perfect
      information; otherwise its own actions only, other rows blank but for
      the flag).

    Everything in it comes from the information-state string, so equal strings
    give equal tensors; two different strings can give the same summary (two
    histories with the same latest events, counts and sum of observations).
    """

    def __init__(
        self, encoding: GameEncoding, perfect: bool, events: int, players: int, steps: bool = False
    ) -> None:
        self.perfect = perfect
        self.actors = players + 1
        actions = encoding.steps.num_tokens if steps and encoding.steps is not None else encoding.num_actions
        largest = max(actions, encoding.num_chance, 2)
        self.bits = (largest - 1).bit_length()
        self.events = events
        self.rows = events + (0 if perfect else 1)
        observation = int(np.prod(encoding.observation_shape))
        self.width = self.actors + self.bits if perfect else observation + 2 + self.bits
        #: The length of one observation array, and of one event of the summary's window.
        self.observation = observation
        self.event_width = 1 + self.actors + self.bits
        summary_size = 2 * observation + 2 + WINDOW * self.event_width
        #: Whether the tensor is the summary (else the history, row by row).
        self.summary = self.rows * self.width > summary_size
        self.size = summary_size if self.summary else self.rows * self.width

    @property
    def shape(self) -> tuple[int, ...]:
        return (self.size,) if self.summary else (self.rows, self.width)


def _restore(
    game_id: str, players: int, options: dict[str, Any], events: list[tuple[int, int]], steps: bool = False
) -> _Core:
    game = load_game(game_id, players=players, **options)
    encoding = encoding_for(game)
    core = _Core(game, encoding, steps=encoding.steps if steps else None)
    for player, index in events:
        core.apply(player, index)
    return core


class TussleSpielGame(pyspiel.Game):  # type: ignore[misc]
    """One tussle game with its parameters, as a pyspiel game; one subclass per game sets ``game_id``."""

    game_id: ClassVar[str] = ""
    #: Played in turns: each submission of a simultaneous step is a decision of its own.
    turns: ClassVar[bool] = False
    #: Played step by step: each action a few tokens, each a decision (in turns, too).
    steps: ClassVar[bool] = False

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        game_id = self.game_id
        params = params or {}
        info = game_info(game_id)
        values = {**_parameters(info), **dict(params)}
        options = {k: v for k, v in values.items() if k != "players"}
        game = load_game(game_id, players=int(values["players"]), **options)
        encoding = encoding_for(game)
        decisions, chance_nodes = _lengths(game)
        n = game.num_players
        simultaneous = info.dynamics == Dynamics.SIMULTANEOUS
        in_turns = self.turns or self.steps
        #: At a simultaneous node every player acts: those with nothing to do pass (this number).
        self.pass_action: int | None = encoding.num_actions if simultaneous and not in_turns else None
        if simultaneous and in_turns:
            decisions *= n  # a step's submissions, one after another
        #: The step-by-step encoding, when the game is played so.
        self.step_codec: StepCodec | None = None
        actions = encoding.num_actions + (self.pass_action is not None)
        if self.steps:
            if encoding.steps is None:
                raise OptionError(f"{game_id} has no step-by-step actions")
            self.step_codec = encoding.steps
            decisions *= encoding.steps.max_steps
            actions = encoding.steps.num_tokens
        super().__init__(
            _game_type(info, self.turns, self.steps),
            pyspiel.GameInfo(
                num_distinct_actions=actions,
                max_chance_outcomes=encoding.num_chance if info.chance == ChanceMode.EXPLICIT else 0,
                num_players=n,
                min_utility=-1.0 / (n - 1) if n > 1 else 0.0,
                max_utility=1.0,
                utility_sum=0.0,
                max_game_length=decisions,
            ),
            values,
        )
        self.tussle_game = game
        self.encoding = encoding
        self._chance_nodes = chance_nodes
        events = decisions * (n if self.pass_action is not None else 1) + chance_nodes
        perfect = info.information == Information.PERFECT
        #: The shape of the information-state tensors (the history, or the player's own).
        self.information_layout = InformationLayout(encoding, perfect, events, n, self.steps)

    def new_initial_state(self) -> TussleSpielState:
        return TussleSpielState(self)

    def max_chance_nodes_in_history(self) -> int:
        return self._chance_nodes

    def make_py_observer(
        self, iig_obs_type: Any = None, params: Mapping[str, Any] | None = None
    ) -> TussleObserver | None:
        """The observer of ``iig_obs_type``, or None for a kind tussle does not offer (OpenSpiel's rule)."""
        if params:
            raise OptionError(f"tussle observers take no parameters, got {dict(params)}")
        kind = _kind(iig_obs_type)
        if kind is None:
            return None
        return TussleObserver(self.encoding, kind, self.information_layout, self.step_codec)


class TussleSpielState(pyspiel.State):  # type: ignore[misc]
    """A pyspiel state holding a tussle state (``tussle_state``)."""

    def __init__(self, game: TussleSpielGame) -> None:
        super().__init__(game)
        self._core = _Core(game.tussle_game, game.encoding, steps=game.step_codec)
        self._pass = game.pass_action

    @property
    def tussle_state(self) -> State[Any]:
        """The tussle state behind this one (read it; changing it desynchronizes the two)."""
        return self._core.state

    def current_player(self) -> int:
        core = self._core
        current = core._current
        if current is None:
            current = core._current = self._to_act()
        return current

    def _to_act(self) -> int:
        acting = self._core.state.to_act()
        if not acting:
            return int(pyspiel.PlayerId.TERMINAL)
        if acting == (CHANCE,):
            return int(pyspiel.PlayerId.CHANCE)
        if self._pass is not None:
            # Every decision node of a simultaneous game is simultaneous: the idle pass.
            return int(pyspiel.PlayerId.SIMULTANEOUS)
        return acting[0]  # sequential; in turns, a step's submissions in seat order

    def _legal_actions(self, player: int) -> list[int]:
        acting = self._core.state.to_act()
        if player not in acting:
            # A player with nothing to do at a simultaneous node has one action: pass.
            return [self._pass] if self._pass is not None and acting and acting != (CHANCE,) else []
        if self._core.steps is not None:
            return self._core.tokens(player)
        return list(self._core.legal(player).indices)  # the caller's: the map's list is shared

    def chance_outcomes(self) -> list[tuple[int, float]]:
        core = self._core
        if core._pairs is None:
            if core.encoding.keeps_pairs:
                core._pairs = core.encoding.chance_pairs(core.state)
            else:  # from the outcomes that applying one needs anyway: listed once
                core._pairs = [(index, prob) for index, prob, _ in core.chance()]
        return list(core._pairs)

    def _apply_action(self, action: int) -> None:
        acting = self._core.state.to_act()
        if acting != (CHANCE,) and self._pass is not None:
            raise ActionError("every player acts at a simultaneous node: use apply_actions")
        self._core.apply(acting[0], int(action))

    def _apply_actions(self, actions: Sequence[int]) -> None:
        acting = self._core.state.to_act()
        for p, action in enumerate(actions):
            if p not in acting and int(action) != self._pass:
                raise ActionError(f"player {p} does not act now: its action must be pass ({self._pass})")
        # Read every choice before applying any, so that a bad one changes nothing.
        chosen = [(p, self._core.legal(p).action(self._core.state, int(actions[p]))) for p in acting]
        core = self._core
        for p, action in chosen:
            core.state.apply(p, action)
            core.note(p, int(actions[p]))

    def _action_to_string(self, player: int, action: int) -> str:
        if action == self._pass and player >= 0:
            return "pass"
        core = self._core
        if core.steps is not None and player >= 0:
            prefix = core.prefix if core.state.to_act()[:1] == (player,) else []
            return core.steps.token_label(prefix, int(action))
        if player == CHANCE:
            for index, _, outcome in core.chance() if core.state.is_chance() else []:
                if index == action:
                    return core.state.action_to_str(CHANCE, outcome)
            return core.encoding.chance_label(int(action))
        if player in core.state.to_act():
            text = core.legal(player).text(core.state, int(action))
            if text is not None:
                return text
        return core.encoding.label(int(action))

    def is_terminal(self) -> bool:
        return self._core.state.is_terminal()

    def returns(self) -> list[float]:
        result = self._core.state.result()
        if result is None:
            return [0.0] * self._core.game.num_players
        return [float(r) for r in result.returns]

    def rewards(self) -> list[float]:
        return self.returns()

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> TussleSpielState:
        """A state ``player_id`` cannot tell from this one, reached by a drawn history.

        OpenSpiel's ``ISMCTSBot`` asks for it in its default mode. The player's
        own actions and what it saw stay; hidden chance outcomes and others'
        hidden choices are drawn afresh (:mod:`tussle.adapters.openspiel_resample`).
        """
        from tussle.adapters.openspiel_resample import replayed, resample_core, sampler_rng

        drawn = resample_core(self._core, int(player_id), sampler_rng(probability_sampler))
        state: TussleSpielState = replayed(self.get_game(), drawn.history())
        return state

    def __str__(self) -> str:
        core = self._core
        text = core.state.render()
        if core.steps is not None and core.prefix:
            # The whole state: the tokens chosen so far are part of it, though not yet the game's.
            chosen = [core.steps.token_label(core.prefix[:k], t) for k, t in enumerate(core.prefix)]
            text += f"\nchosen so far by {core.state.player_name(core.state.to_act()[0])}: {' '.join(chosen)}"
        return text


#: The observations a tussle game offers OpenSpiel, by (public info, perfect recall, private info).
_KINDS = {
    (True, False, "SINGLE_PLAYER"): "observation",
    (True, False, "NONE"): "public",
    (False, False, "SINGLE_PLAYER"): "private",
    (True, True, "SINGLE_PLAYER"): "information",
}


def _kind(iig_obs_type: Any) -> str | None:
    """Which of tussle's observations an OpenSpiel observation type asks for; None if none fits."""
    if iig_obs_type is None:
        return "observation"
    private = getattr(iig_obs_type.private_info, "name", str(iig_obs_type.private_info))
    return _KINDS.get((bool(iig_obs_type.public_info), bool(iig_obs_type.perfect_recall), private))


class TussleObserver:
    """One kind of observation of a tussle game, as OpenSpiel's Python observers give them.

    - ``observation`` (the default: public and private, no recall): the player's
      observation as compact JSON, and the encoding's array as the tensor;
    - ``public`` (public only): the public view (``observation(PUBLIC)``) as JSON;
    - ``private`` (private only): the parts of the player's observation that differ
      from the public view, as JSON;
    - ``information`` (perfect recall, the information state): for a game of
      perfect information the history (every event so far); otherwise the
      player's own history, the observation after each event and the player's
      own actions (see :meth:`_Core.information`).

    The default kind's tensor is the encoding's array; the information state's
    is :meth:`_Core.information_tensor` (rows of events, or their summary: see
    :class:`InformationLayout`); public and private have none.

    Step by step, the observation also shows the tokens chosen so far of the
    action being chosen, to the player choosing it (and to everyone in a game
    of perfect information): as ``"tokens"`` in the JSON, and as one one-hot
    row per step after the encoding's array (as the Gymnasium environment's
    ``actions="steps"`` does). The information state has them already (the
    player's own actions, or the history).
    """

    def __init__(
        self, encoding: GameEncoding, kind: str, layout: InformationLayout, steps: StepCodec | None = None
    ) -> None:
        self._encoding = encoding
        self.kind = kind
        self._layout = layout
        self._perfect = layout.perfect
        self._steps = steps
        self.tensor: Any = None
        self.dict: dict[str, Any] = {}
        if kind == "observation":
            size = int(np.prod(encoding.observation_shape))
            if steps is not None:
                size += steps.chosen_size
            self.tensor = np.zeros(size, dtype=np.float32)
            self.dict = {"observation": self.tensor}
        elif kind == "information":
            self.tensor = np.zeros(layout.shape, dtype=np.float32)
            self.dict = {"information_state": self.tensor}

    def set_from(self, state: TussleSpielState, player: int) -> None:
        if self.kind == "observation":
            array = self._encoding.observation(state.tussle_state, player).ravel()
            self.tensor[: array.size] = array
            if self._steps is not None:
                self.tensor[array.size :] = 0.0
                self._steps.mark_chosen(self.tensor, state._core.shown_prefix(player))
        elif self.kind == "information":
            self.tensor[:] = state._core.information_tensor(player, self._layout)

    def string_from(self, state: TussleSpielState, player: int) -> str:
        if self.kind == "information":
            return state._core.information(player, self._perfect)
        core = state._core

        def seen(who: int) -> Mapping[str, Any]:
            obs: Mapping[str, Any] = core.state.observation(who)
            return {**obs, "tokens": core.shown_prefix(who)} if core.steps is not None else obs

        if self.kind == "public":
            return _compact(seen(PUBLIC))
        mine = seen(player)
        if self.kind == "private":
            public = seen(PUBLIC)
            mine = {key: value for key, value in mine.items() if public.get(key, None) != value}
        return _compact(mine)


def _compact(data: Any) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


#: The pyspiel game class of each tussle game id.
GAME_CLASSES: dict[str, type[TussleSpielGame]] = {}


def register_all() -> list[str]:
    """Register every tussle game with pyspiel (once); return their pyspiel names.

    A game with simultaneous steps is registered twice: as it is, and in turns
    (``tussle_fite_turns``), sequential, for algorithms that need turns. A game
    with a step-by-step encoding is registered step by step too
    (``tussle_robo_pigs_steps``, in turns).
    """
    known = set(pyspiel.registered_names())
    names = []
    for gid in game_ids():
        info = game_info(gid)
        kinds = [(False, False)]
        if info.dynamics == Dynamics.SIMULTANEOUS:
            kinds.append((True, False))
        if _has_steps(info):
            kinds.append((False, True))
        for turns, steps in kinds:
            suffix = _suffix(turns, steps)
            name, key = spiel_name(gid) + suffix, gid + suffix
            cls = GAME_CLASSES.get(key)
            if cls is None:
                # A class per game (not a closure): pyspiel keeps the creator until the
                # interpreter has shut down, and a class outlives that safely.
                title = "".join(part.title() for part in gid.split("-")) + suffix.strip("_").title()
                cls = GAME_CLASSES[key] = type(
                    f"{title}SpielGame",
                    (TussleSpielGame,),
                    {"game_id": gid, "turns": turns, "steps": steps, "__module__": __name__},
                )
                # Found by name in this module, as pickle looks classes up: games pickle
                # (multiprocessing, Ray, OpenSpiel's own pickling checks).
                globals()[cls.__name__] = cls
            if name not in known:
                pyspiel.register_game(_game_type(info, turns, steps), cls)
            names.append(name)
    return names


def _has_steps(info: GameInfo) -> bool:
    """Whether a game has a step-by-step encoding (built with its default parameters, as loading does)."""
    options = {k: v for k, v in _parameters(info).items() if k != "players"}
    game = load_game(info.id, players=info.min_players, **options)
    return encoding_for(game).steps is not None


register_all()


def load(
    game_id: str, players: int | None = None, *, turns: bool = False, steps: bool = False, **options: Any
) -> TussleSpielGame:
    """``pyspiel.load_game`` for a tussle game id, checking the parameters with tussle's messages.

    ``turns`` loads a game with simultaneous steps in turns (``tussle_fite_turns``);
    ``steps`` loads a game with a step-by-step encoding so, a token at a time
    (``tussle_robo_pigs_steps``; in turns).

    >>> load("fight", players=3).num_players()
    3
    >>> load("fite", turns=True).get_type().dynamics
    <Dynamics.SEQUENTIAL: 1>
    """
    info = game_info(game_id)
    if turns and info.dynamics != Dynamics.SIMULTANEOUS:
        raise OptionError(f"{game_id} is played in turns already: it has no simultaneous steps")
    if turns and steps:
        raise OptionError("steps are taken in turns already: give steps or turns, not both")
    if steps and spiel_name(game_id) + STEPS not in pyspiel.registered_names():
        raise OptionError(f"{game_id} has no step-by-step actions")
    params: dict[str, Any] = {"players": players if players is not None else info.min_players}
    for name, value in options.items():
        params[name] = _spiel_value(info.option(name), value)
    game: TussleSpielGame = pyspiel.load_game(spiel_name(game_id) + _suffix(turns, steps), params)
    return game


def resampler(seed: int | None = None) -> Callable[[Any, int], Any]:
    """A resampler for OpenSpiel's ISMCTS (``bot.set_resampler(resampler(seed))``), seeded.

    It draws as :meth:`TussleSpielState.resample_from_infostate` does (which
    the bot's default mode uses without it), reproducibly from ``seed``, and
    also resamples the states of ``pyspiel.convert_to_turn_based`` of a
    tussle game, which have no resampling of their own.
    """
    from tussle.adapters.openspiel_resample import resampler as honest

    return honest(seed)


def play(
    game: TussleSpielGame,
    seats: Sequence[Agent | Any],
    *,
    seed: int | None = None,
    on_move: Callable[[int, int, float], None] | None = None,
) -> TussleSpielState:
    """Play one game between tussle agents and OpenSpiel bots; return the final state.

    ``seats[p]`` is a tussle :class:`~tussle.agents.base.Agent` (it sees its
    own :class:`~tussle.agents.base.PlayerView` of the tussle state) or an
    OpenSpiel bot (anything with ``step(state) -> action``). Chance outcomes
    are drawn with ``seed``. ``on_move(player, action, seconds)`` is called
    after every decision with the time it took. Step by step, a tussle agent
    chooses a whole action at its first token, which is then played a token
    a decision (the time on the first).

    >>> from tussle.agents import make_agent
    >>> g = load("fightopia", ply_limit=6)
    >>> agents = [make_agent("random", g.tussle_game, p, seed=p) for p in (0, 1)]
    >>> final = play(g, agents, seed=1)
    >>> final.is_terminal(), final.returns()
    (True, [0.0, 0.0])
    """
    import time

    rng = random.Random(seed)
    encoding = game.encoding
    steps = game.step_codec
    state: TussleSpielState = game.new_initial_state()
    # Step by step: the tokens still to play of the action a tussle agent chose.
    queued: dict[int, list[int]] = {}

    def choose(player: int) -> int:
        seat = seats[player]
        started = time.perf_counter()
        if isinstance(seat, Agent) and steps is not None:
            if not queued.get(player):
                action = seat.act(PlayerView(state.tussle_state, player))
                tokens = steps.tokens_of(state.tussle_state.action_to_str(player, action))
                if not tokens:
                    raise TussleError(
                        f"{game.game_id} cannot write an action as its tokens: seat no tussle agent"
                    )
                queued[player] = tokens
            index = queued[player].pop(0)
        elif isinstance(seat, Agent):
            action = seat.act(PlayerView(state.tussle_state, player))
            index = encoding.index(state.tussle_state, player, action)
        else:
            index = int(seat.step(state))
        if on_move is not None:
            on_move(player, index, time.perf_counter() - started)
        return index

    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(draw_outcome(state.chance_outcomes(), rng.random()))
        elif state.is_simultaneous_node():
            acting = state.tussle_state.to_act()
            if any(not isinstance(seats[p], Agent) for p in acting):
                raise TussleError("OpenSpiel bots play sequential games: use pyspiel.convert_to_turn_based")
            joint = [state.legal_actions(p)[0] for p in range(game.num_players())]  # pass, if idle
            for p in acting:
                joint[p] = choose(p)
            state.apply_actions(joint)
        else:
            state.apply_action(choose(state.current_player()))
    return state
