"""Fixed integer action spaces and observation arrays: the generic part, for every game.

Reinforcement-learning libraries want each game's actions numbered once and for
all (``0 .. num_actions - 1``), with a mask of the legal ones, and each
player's observation as a fixed-size array. tussle's actions are objects with
a canonical notation; actions are numbered *through that notation*: each game
has an :class:`ActionCodec` that reads a canonical text (never a game's
internal objects) and gives its index, so the same action always has the
same number. Chance outcomes are numbered in a space of their own
(``0 .. num_chance - 1``).

Observation arrays are built from :meth:`tussle.game.State.observation` (plain
data) by one :class:`Features` per game; every value lies in ``[0, 1]``.

Each game's codec and features live in the ``encoding.py`` of its folder,
which its ``GameInfo.hooks.encoding`` names; this module holds what they share
and :func:`encoding_for`, which builds a game's encoding once.

>>> from tussle import load_game
>>> enc = encoding_for(load_game("fightopia"))
>>> enc.num_actions, enc.num_chance, enc.observation_shape
(11648, 2, (515,))
>>> state = enc.game.new_initial_state()
>>> [(enc.chance_label(i), p) for i, p, _ in enc.chance_outcomes(state)]
[('first white', 0.5), ('first black', 0.5)]
>>> _ = state.apply_str(-1, "first white")
>>> legal = enc.legal(state, 0)
>>> len(legal), enc.label(legal.indices[0])
(30, 'b1-b2')
>>> enc.index(state, 0, state.parse_action(0, "c3-c4"))
144

The numbering of each game is described in docs/ecosystem.md.
"""

from __future__ import annotations

from tussle.adapters import require

require(__name__, "rl", "numpy")

import functools
from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from tussle.errors import ActionError, TussleError
from tussle.game import CHANCE, Game, State

__all__ = [
    "ActionCodec",
    "EncodingError",
    "Features",
    "GameEncoding",
    "LegalMap",
    "encoding_for",
]

FloatArray = npt.NDArray[np.float32]
MaskArray = npt.NDArray[np.int8]
IndexArray = npt.NDArray[np.int64]


class EncodingError(TussleError):
    """A notation the action space cannot number (a bug in the codec, or a game whose notation changed)."""


# --- board coordinates shared by the codecs --------------------------------

FILES = "abcdefghijklmnopqrst"
#: Facings clockwise from north, with their steps (file, rank).
FACINGS = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
STEPS = ((0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1))
STEP_INDEX = {step: i for i, step in enumerate(STEPS)}


def parse_square(text: str, size: int) -> tuple[int, int]:
    """``'c3'`` as (file, rank) counted from 0, checked against a ``size`` board."""
    file = FILES.find(text[:1])
    rank = int(text[1:]) - 1 if text[1:].isdigit() else -1
    if not (0 <= file < size and 0 <= rank < size):
        raise ValueError(f"{text!r} is not a square of a {size}x{size} board")
    return file, rank


def square_name(file: int, rank: int, size: int) -> str | None:
    """The name of a square, or None off the board."""
    if 0 <= file < size and 0 <= rank < size:
        return f"{FILES[file]}{rank + 1}"
    return None


def sign(n: int) -> int:
    return (n > 0) - (n < 0)


# --- action codecs ---------------------------------------------------------


class ActionCodec(ABC):
    """Numbers one game's actions (and chance outcomes) by their canonical notation.

    Subclasses set :attr:`num_actions` and :attr:`num_chance` and implement
    :meth:`_encode`, :meth:`_encode_chance` and the labels. The index of a
    text depends on the text alone, never on the state, so it is cached.
    """

    num_actions: int = 0
    num_chance: int = 0
    #: What an action's text depends on besides this codec's game, where not the state too:
    #: ``"action"`` (the action alone) or ``"player"`` (the action and whose it is). Each
    #: action is then written out once and its number kept; None (the default) writes it
    #: at every call.
    numbered_by: str | None = None

    def __init__(self) -> None:
        self._cache: dict[str, int] = {}
        self._chance_cache: dict[str, int] = {}
        self._numbers: dict[int, dict[Hashable, int]] = {}

    def encode(self, text: str) -> int:
        """The index of a player action written ``text`` (canonical notation)."""
        try:
            return self._cache[text]
        except KeyError:
            pass
        try:
            index = self._encode(text)
        except (ValueError, KeyError, IndexError) as exc:
            raise EncodingError(f"{type(self).__name__}: {text!r} has no index ({exc})") from None
        if not 0 <= index < self.num_actions:
            raise EncodingError(f"{type(self).__name__}: {text!r} got index {index} out of range")
        if len(self._cache) > 500_000:  # a long session: forget, rather than grow without end
            self._cache.clear()
        self._cache[text] = index
        return index

    def action_index(self, state: State[Any], player: int, action: Any) -> int:
        """The index of ``player``'s legal action ``action``: its notation's, written once where it can be.

        Where :attr:`numbered_by` says what an action's text depends on, each
        action is written out once and its number kept; otherwise it is written
        at every call (writing every legal action at every decision can cost
        more than the game).
        """
        if self.numbered_by is None:
            return self.encode(state.action_to_str(player, action))
        numbers = self.kept_numbers(player)
        try:
            index = numbers.get(action)
        except TypeError:  # not hashable: none of this game's actions; its text says what it is
            return self.encode(state.action_to_str(player, action))
        if index is None:
            index = self.encode(state.action_to_str(player, action))
            if len(numbers) > 100_000:  # bounded, as the text cache is
                numbers.clear()
            numbers[action] = index
        return index

    def kept_numbers(self, player: int) -> dict[Hashable, int]:
        """The numbers kept of ``player``'s actions (everyone's, when :attr:`numbered_by` is ``"action"``)."""
        seat = player if self.numbered_by == "player" else 0
        numbers = self._numbers.get(seat)
        if numbers is None:
            numbers = self._numbers[seat] = {}
        return numbers

    def chance_index(self, state: State[Any], outcome: Any) -> int:
        """The index of ``state``'s chance outcome ``outcome``: its notation's, unless the codec knows better.

        A game's codec may read the index off the outcome itself (FITE's rolls
        are numbered by their faces alone) where writing every outcome out
        at every chance node would cost more than the game.
        """
        return self.encode_chance(state.action_to_str(CHANCE, outcome))

    def encode_chance(self, text: str) -> int:
        """The index of a chance outcome written ``text``."""
        try:
            return self._chance_cache[text]
        except KeyError:
            pass
        try:
            index = self._encode_chance(text)
        except (ValueError, KeyError, IndexError) as exc:
            raise EncodingError(f"{type(self).__name__}: chance {text!r} has no index ({exc})") from None
        if not 0 <= index < self.num_chance:
            raise EncodingError(f"{type(self).__name__}: chance {text!r} got index {index} out of range")
        self._chance_cache[text] = index
        return index

    @abstractmethod
    def _encode(self, text: str) -> int: ...

    def _encode_chance(self, text: str) -> int:
        raise ValueError("this game has no chance events")

    @abstractmethod
    def label(self, index: int) -> str:
        """What action number ``index`` stands for, in notation where the index alone says it."""

    def chance_label(self, index: int) -> str:
        """What chance outcome number ``index`` stands for."""
        raise ValueError("this game has no chance events")

    def decode(self, index: int) -> str | None:
        """The canonical notation of the action numbered ``index``, when the index alone says it; else None.

        Codecs with a :meth:`fast_legal` shortcut must give one: their legal
        actions are then never listed, only parsed from this text when chosen.
        """
        return None

    def fast_legal(self, state: State[Any], player: int, legal: Sequence[Any]) -> IndexArray | None:
        """The sorted indices of ``legal`` without listing it, when the codec knows how; else None.

        The caller checks the count, and a few members, against ``legal``.
        """
        return None


# --- observation arrays ----------------------------------------------------


class Features(ABC):
    """Turns one game's observation data into a flat float32 array with values in ``[0, 1]``."""

    size: int = 0

    def array(self, obs: Mapping[str, Any], player: int) -> FloatArray:
        """A fresh array for ``obs``, the observation of ``player``."""
        out = np.zeros(self.size, dtype=np.float32)
        self.write(obs, player, out)
        return out

    @abstractmethod
    def write(self, obs: Mapping[str, Any], player: int, out: FloatArray) -> None:
        """Fill ``out`` (zeros on entry) from ``obs``."""

    def write_state(self, state: State[Any], player: int, out: FloatArray) -> None:
        """Fill ``out`` (zeros on entry) with ``player``'s observation of ``state``.

        By default the observation is made (``state.observation(player)``) and
        written with :meth:`write`. A game may write the array straight from its
        state instead, skipping the observation's dict: the array must then be
        exactly the one :meth:`write` gives (a test compares the two on every
        game), so that it shows no more than the observation does.
        """
        self.write(state.observation(player), player, out)

    #: The length of :meth:`write_hidden`'s block; 0 for a game that hides nothing from seat 0.
    hidden_size: int = 0

    def write_hidden(self, state: State[Any], codec: ActionCodec, out: FloatArray) -> None:  # noqa: B027
        """Fill ``out`` (zeros on entry, :attr:`hidden_size` long) with what seat 0's array leaves out.

        Seat 0's observation array and this block are the whole state
        (:meth:`GameEncoding.state_array`): every player's secrets, and what no
        player sees. A game reads them from its own state. Nothing by default:
        in a game of perfect information seat 0's array holds everything.
        """


def bits(out: FloatArray, offset: int, number: int, width: int) -> None:
    """Write ``number`` into ``out[offset : offset + width]`` in binary, lowest bit first."""
    for bit in range(width):
        out[offset + bit] = float(number >> bit & 1)


def hot(out: FloatArray, offset: int, index: int | None, width: int) -> None:
    """Set position ``index`` of the one-hot block at ``offset`` (nothing for None or out of range)."""
    if index is not None and 0 <= index < width:
        out[offset + index] = 1.0


def frac(value: Any, scale: float) -> float:
    """``value / scale`` clipped to [0, 1]; non-numbers count as 0."""
    if isinstance(value, bool) or not isinstance(value, int | float) or scale <= 0:
        return 0.0
    return float(min(1.0, max(0.0, value / scale)))


def find(seq: Sequence[Any], item: Any) -> int | None:
    try:
        return seq.index(item)
    except ValueError:
        return None


def board_index(text: Any, size: int) -> int | None:
    """The index (rank * size + file) of the square named ``text``, or None if it names none.

    >>> board_index("c3", 8), board_index("z9", 8), board_index(None, 8)
    (18, None, None)
    """
    if not isinstance(text, str):
        return None
    return _board_index(text, size)


@functools.lru_cache(maxsize=4096)
def _board_index(text: str, size: int) -> int | None:
    # Observations name the same few hundred squares over and over: each is read once.
    try:
        x, y = parse_square(text, size)
    except ValueError:
        return None
    return y * size + x


# --- one game's encoding ---------------------------------------------------


class LegalMap:
    """The legal actions of one player at one moment, by index.

    ``indices`` is sorted, and may be shared with other maps' users: do not
    change it. :meth:`action` gives the action an index stands for in the state
    the map was made from (or an identical copy of it).
    """

    __slots__ = ("_actions", "_array", "_decode", "_player", "_set", "indices")

    def __init__(
        self,
        indices: Sequence[int],
        player: int,
        actions: dict[int, Any] | None = None,
        decode: Callable[[int], str | None] | None = None,
    ) -> None:
        self.indices: list[int] = list(indices)
        self._player = player
        self._actions = actions
        self._decode = decode
        self._set: frozenset[int] | None = None
        self._array: IndexArray | None = None

    def array(self) -> IndexArray:
        """``indices`` as a read-only int64 array, made once (a map may be shared: do not change it)."""
        if self._array is None:
            self._array = np.array(self.indices, dtype=np.int64)
            self._array.flags.writeable = False
        return self._array

    def __len__(self) -> int:
        return len(self.indices)

    def __contains__(self, index: object) -> bool:
        if self._actions is not None:
            return index in self._actions
        if self._set is None:
            self._set = frozenset(self.indices)
        return index in self._set

    def text(self, state: State[Any], index: int) -> str | None:
        """The canonical notation of the legal action numbered ``index``, or None if it is not legal."""
        if self._actions is not None:
            action = self._actions.get(index)
            return state.action_to_str(self._player, action) if action is not None else None
        if index in self and self._decode is not None:
            return self._decode(index)
        return None

    def action(self, state: State[Any], index: int) -> Any:
        """The legal action numbered ``index``; :class:`ActionError` if there is none."""
        index = int(index)
        if self._actions is not None:
            try:
                return self._actions[index]
            except KeyError:
                pass
        elif index in self and self._decode is not None:
            text = self._decode(index)
            if text is not None:
                return state.parse_action(self._player, text)
        who = state.player_name(self._player)
        raise ActionError(f"action {index} is not one of the {len(self)} legal actions of {who} now")


class StepCodec(ABC):
    """A game's actions chosen a few small choices ("tokens") at a time, where the flat space is huge.

    Robo Battle Pigs' 59,050 programs become five choices of one command out of
    ten: a learner's output layer and its mask shrink from 59,050 to 10. For each
    decision, :meth:`start` reads what the choice depends on (once); then each
    step offers the tokens legal after those chosen so far (:meth:`legal_tokens`,
    out of ``num_tokens``), an action takes at most ``max_steps`` of them, and
    :meth:`complete` says when the chosen tokens make a whole action. Like
    :class:`ActionCodec`, it reads the game through its public API and its
    notation only.
    """

    num_tokens: int
    max_steps: int
    # The last answer of tokens(): an environment asks for the same tokens twice a step.
    _last: tuple[Any, tuple[int, ...], list[int]] | None = None

    def token_label(self, prefix: Sequence[int], token: int) -> str:
        """What ``token`` means after ``prefix`` (for messages)."""
        return str(token)

    @abstractmethod
    def start(self, state: State[Any], player: int) -> Any:
        """What ``player``'s choices depend on now, read once per decision."""

    @abstractmethod
    def legal_tokens(self, context: Any, prefix: Sequence[int]) -> list[int]:
        """The tokens that can follow ``prefix`` in some legal action (``context`` from :meth:`start`)."""

    @abstractmethod
    def complete(self, context: Any, prefix: Sequence[int]) -> str | None:
        """The action's canonical text once ``prefix`` makes a whole action, else None."""

    def tokens_of(self, text: str) -> list[int] | None:
        """The tokens that choose the action written ``text``, when the codec can tell; else None.

        This is how an agent that chooses whole actions plays step by step.
        """
        return None

    def tokens(self, context: Any, prefix: Sequence[int]) -> list[int]:
        """:meth:`legal_tokens`, remembered for the last context and prefix asked (do not change the list)."""
        key = tuple(prefix)
        last = self._last
        if last is not None and last[0] is context and last[1] == key:
            return last[2]
        tokens = self.legal_tokens(context, prefix)
        self._last = (context, key, tokens)
        return tokens

    def take(self, context: Any, prefix: list[int], token: int) -> str | None:
        """Add ``token`` to ``prefix`` (in place); the action's text if that completes it.

        A token that cannot follow ``prefix`` raises :class:`ActionError` and changes nothing.
        """
        if token not in self.tokens(context, prefix):
            before = [self.token_label(prefix[:k], t) for k, t in enumerate(prefix)]
            shown = self.token_label(prefix, token)
            raise ActionError(f"token {token} ({shown}) cannot follow [{', '.join(before)}]")
        prefix.append(token)
        return self.complete(context, prefix)

    def action(self, state: State[Any], player: int, tokens: Sequence[int], text: str) -> Any:
        """The action of ``player`` that ``tokens`` chose, whose text :meth:`take` gave.

        By default the text parsed (:meth:`State.parse_action`, which checks it is legal); a
        codec that can build the action from its tokens may say so, if it checks as much.
        """
        return state.parse_action(player, text)

    @property
    def chosen_size(self) -> int:
        """The floats an observation gains for the tokens chosen: one one-hot row per step."""
        return self.max_steps * self.num_tokens

    def with_room(self, array: FloatArray) -> FloatArray:
        """``array`` flattened, followed by :attr:`chosen_size` zeros for the tokens chosen."""
        return np.concatenate([array.ravel(), np.zeros(self.chosen_size, dtype=np.float32)])

    def mark_chosen(self, out: FloatArray, prefix: Sequence[int]) -> None:
        """Set the tokens of ``prefix`` in the last :attr:`chosen_size` floats of ``out`` (zeros there)."""
        at = out.size - self.chosen_size
        for token in prefix:
            out[at + token] = 1.0
            at += self.num_tokens


class GameEncoding:
    """One game's integer action space and observation arrays (see the module docs)."""

    def __init__(
        self, game: Game, codec: ActionCodec, features: Features, steps: StepCodec | None = None
    ) -> None:
        self.game = game
        self.codec = codec
        self.features = features
        #: The step-by-step action encoding, for the games that have one.
        self.steps = steps
        self.num_actions = codec.num_actions
        self.num_chance = codec.num_chance
        self.observation_shape: tuple[int, ...] = (features.size,)
        # Legal maps by the very actions object a state gave, where a codec numbers actions by
        # themselves: games that keep tables of actions shared between states (FITE's steps,
        # Fight!'s) give the same object again, and the same object has the same numbers.
        self._maps: dict[tuple[int, int], tuple[Any, LegalMap]] = {}

    def label(self, index: int) -> str:
        """What action number ``index`` stands for (see :meth:`ActionCodec.label`)."""
        return self.codec.label(index)

    def chance_label(self, index: int) -> str:
        return self.codec.chance_label(index)

    def index(self, state: State[Any], player: int, action: Any) -> int:
        """The index of ``action`` by ``player`` (or a chance outcome with ``player=CHANCE``) in ``state``."""
        if player == CHANCE:
            return self.codec.encode_chance(state.action_to_str(player, action))
        return self.codec.action_index(state, player, action)

    def legal(self, state: State[Any], player: int) -> LegalMap:
        """``player``'s legal actions in ``state`` by index (empty when it is not to act)."""
        actions = state.legal_actions(player)
        if len(actions) > 1024:
            fast = self.codec.fast_legal(state, player, actions)
            if fast is not None and self._agrees(state, player, actions, fast):
                return LegalMap(fast.tolist(), player, decode=self.codec.decode)
        codec = self.codec
        if codec.numbered_by is not None:
            key = (player, id(actions))
            kept_map = self._maps.get(key)
            if kept_map is not None and kept_map[0] is actions:
                return kept_map[1]
            # Read at once from the numbers the codec keeps, when it has them all (after a
            # game's first few decisions); two actions on one number go the general way.
            kept = codec.kept_numbers(player)
            try:
                quick = {kept[action]: action for action in actions}
            except (KeyError, TypeError):  # one not numbered yet, or not this game's
                quick = {}
            if quick and len(quick) == len(actions):
                return self._keep(actions, LegalMap(sorted(quick), player, actions=quick))
        listed = list(actions)
        number = codec.action_index
        numbers = [number(state, player, action) for action in listed]
        by_index = dict(zip(numbers, listed, strict=True))
        if len(by_index) < len(listed):
            self._shared_index(state, player, listed, numbers)
        legal = LegalMap(sorted(by_index), player, actions=by_index)
        return self._keep(actions, legal) if codec.numbered_by is not None else legal

    def _keep(self, actions: Any, legal: LegalMap) -> LegalMap:
        """Keep ``legal`` for the very object ``actions``, to give it again (see :meth:`legal`)."""
        if len(self._maps) >= 256:  # bounded; holding the object keeps its id unique
            self._maps.clear()
        self._maps[legal._player, id(actions)] = (actions, legal)
        return legal

    def _shared_index(self, state: State[Any], player: int, actions: list[Any], numbers: list[int]) -> None:
        """Raise the error naming two legal actions given one index (a bug in a codec)."""
        first: dict[int, Any] = {}
        fmt = state.action_to_str
        for index, action in zip(numbers, actions, strict=True):
            if index in first:
                raise EncodingError(
                    f"{self.game.info.id}: {fmt(player, action)!r} and {fmt(player, first[index])!r} "
                    f"share action index {index}"
                )
            first[index] = action

    def _agrees(self, state: State[Any], player: int, actions: Sequence[Any], fast: IndexArray) -> bool:
        """Whether a codec's shortcut matches the game: the same count, and sampled members inside."""
        if len(fast) != len(actions):
            return False
        picks = {0, len(actions) // 3, len(actions) // 2, len(actions) - 1}
        for i in picks:
            index = self.codec.encode(state.action_to_str(player, actions[i]))
            at = int(np.searchsorted(fast, index))
            if at >= len(fast) or int(fast[at]) != index:
                return False
        return True

    def mask(self, legal: LegalMap) -> MaskArray:
        """A fresh 0/1 array over the whole action space, 1 at the legal indices."""
        out = np.zeros(self.num_actions, dtype=np.int8)
        if legal.indices:
            out[np.asarray(legal.indices, dtype=np.int64)] = 1
        return out

    def chance_outcomes(self, state: State[Any]) -> list[tuple[int, float, Any]]:
        """The pending chance event's outcomes as (index, probability, outcome), by index."""
        out = [
            (self.codec.chance_index(state, outcome), prob, outcome)
            for outcome, prob in state.chance_outcomes()
            if prob > 0
        ]
        out.sort(key=lambda item: item[0])
        return out

    #: Whether :meth:`chance_pairs` is quicker than :meth:`chance_outcomes` (kept, not made).
    keeps_pairs = False

    def chance_pairs(self, state: State[Any]) -> Sequence[tuple[int, float]]:
        """:meth:`chance_outcomes` as (index, probability) pairs, as OpenSpiel lists them (do not change it).

        A game whose outcomes repeat may keep the pairs too (FITE's rolls, by
        pool size), and say so with :attr:`keeps_pairs`; otherwise the OpenSpiel
        adapter makes the pairs from the outcomes it lists to apply one.
        """
        return [(index, prob) for index, prob, _ in self.chance_outcomes(state)]

    def observation(self, state: State[Any], player: int) -> FloatArray:
        """``player``'s observation of ``state`` as a fresh float32 array of :attr:`observation_shape`."""
        out = np.zeros(self.features.size, dtype=np.float32)
        self.features.write_state(state, player, out)
        return out

    @property
    def state_size(self) -> int:
        """The length of :meth:`state_array`."""
        return self.features.size + self.features.hidden_size

    def state_array(self, state: State[Any]) -> FloatArray:
        """The whole of ``state`` as one float32 array in ``[0, 1]``, for centralised critics.

        Seat 0's observation array (everything public, and seat 0's own
        secrets), then the game's hidden block (:meth:`Features.write_hidden`):
        every seat's secrets and what nobody sees. Never give it to a player.
        """
        out = np.zeros(self.state_size, dtype=np.float32)
        size = self.features.size
        self.features.write_state(state, 0, out[:size])
        self.features.write_hidden(state, self.codec, out[size:])
        return out


_ENCODINGS: dict[tuple[str, int, tuple[tuple[str, Any], ...]], GameEncoding] = {}


def encoding_for(game: Game) -> GameEncoding:
    """The encoding of ``game`` (one per game id, player count and options; built once).

    >>> from tussle import load_game
    >>> encoding_for(load_game("tank-chess", size=20)).num_actions
    2710800
    """
    key = (game.info.id, game.num_players, tuple(sorted(game.options.items())))
    encoding = _ENCODINGS.get(key)
    if encoding is None:
        encoding = _ENCODINGS[key] = _build(game)
    return encoding


def _build(game: Game) -> GameEncoding:
    target = game.info.hooks.encoding
    if not target:
        raise EncodingError(f"no integer encoding for the game {game.info.id!r} yet")
    encoding: GameEncoding = game.hook(target)(game)
    return encoding
