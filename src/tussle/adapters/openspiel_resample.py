"""Honest resampling for OpenSpiel: a state drawn for a player by playing a sampled history.

OpenSpiel's information-set searches (``ISMCTSBot``) ask a state for
``resample_from_infostate(player, sampler)``: a state the player cannot tell
from this one. :func:`resample_core` makes it by playing the game again from
the start, event by event:

- the player's own actions are played as they were;
- every other event (a chance outcome, another player's action) is drawn
  afresh: a chance outcome by its probability, another player's action
  uniformly among its legal actions *in the drawn game*; a draw is kept when
  the player's observation after it is the one it had in the true game, so
  public events (dice shown to all, a card played face up) come out as they
  were and hidden ones (a card drawn by another player, a secret
  submission) vary;
- an event drawn differently that a later observation contradicts (a secret
  choice that a step's resolution reveals, a card drawn that is later played
  face up) is set back to the true event, and the game played on from there:
  what the player saw later shows that event, so keeping it gives nothing
  away.

The drawn state's ``history()`` is the drawn history, which rebuilds it
when played again, and its information state for the player is the true
one, string for string. Candidate sets of up to :data:`ENUMERATE` events are
tried whole in a random order (so the draw is exact: by probability among
the events consistent with the player's next observation); larger ones
(rolls of many dice, Robo Battle Pigs' programs) get :data:`TRIES` random
draws before the true event, which is then taken only where none of the
draws fitted: a public event, or a rare hidden one.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from itertools import accumulate
from typing import Any

import pyspiel  # type: ignore[import-not-found]

from tussle.adapters.openspiel_game import _Core
from tussle.errors import TussleError
from tussle.game import CHANCE

#: Candidate sets this small are tried whole, in a random order.
ENUMERATE = 64
#: Larger candidate sets: this many random draws, then the true event.
TRIES = 16


class _Truth:
    """What the player saw along a true history, and which events it saw outright.

    Kept for the last history resampled and extended when the next one goes
    on from it: ISMCTS resamples one root many times, then the next move's.
    """

    __slots__ = ("core", "nodes", "player", "seen", "visible")

    def __init__(self, core: _Core, player: int) -> None:
        self.player = player
        self.core = _Core(core.game, core.encoding, steps=core.steps)  # the true game, replayed
        self.nodes: list[Any] = []  # nodes[t]: the history node ending with event t
        self.seen = [self.core.state.observation(player)]  # at the start and after each event
        #: visible[t]: no other candidate for event t shows the player what it saw.
        self.visible: list[bool] = []

    def extend(self, nodes: Sequence[Any], history: Sequence[tuple[int, int]]) -> None:
        for t in range(len(self.nodes), len(history)):
            actor, true = history[t]
            before = self.core
            after = _copy(before)
            after.apply(actor, true)
            shown = after.state.observation(self.player)
            self.visible.append(actor == self.player or self._only(before, actor, true, shown))
            self.core = after
            self.seen.append(shown)
            self.nodes.append(nodes[t])

    def _only(self, before: _Core, actor: int, true: int, shown: Any) -> bool:
        """Whether no other candidate event (of a small set, or of a large one's draws) shows ``shown``."""
        candidates = _candidates(before, actor, true, self.player, random.Random(len(self.nodes)))
        for index in candidates:
            if index == true:
                continue
            other = _copy(before)
            try:
                other.apply(actor, index)
            except TussleError:
                continue
            if other.state.observation(self.player) == shown:
                return False
        return True


def _copy(core: _Core) -> _Core:
    """A core of a clone of ``core``'s state, with its history and tokens so far (no caches)."""
    other = _Core(core.game, core.encoding, core.state.clone(), core.steps)
    other.events = core.events
    other.prefix = core.prefix.copy()
    return other


_TRUTH: list[_Truth] = []


def _truth(core: _Core, player: int, history: Sequence[tuple[int, int]]) -> _Truth:
    """The player's view of ``core``'s true history: the last one kept, extended, or made afresh."""
    nodes: list[Any] = []
    node = core.events
    while node:
        nodes.append(node)
        node = node[0]
    nodes.reverse()
    kept = _TRUTH[0] if _TRUTH else None
    if (
        kept is None
        or kept.player != player
        or kept.core.game is not core.game
        or kept.core.steps is not core.steps
        or len(kept.nodes) > len(nodes)
        or (kept.nodes and nodes[len(kept.nodes) - 1] is not kept.nodes[-1])
    ):
        kept = _Truth(core, player)
        _TRUTH[:] = [kept]
    kept.extend(nodes, history)
    return kept


class _Frame:
    """One event of the drawn history: the game before it, the candidates left, the one taken."""

    __slots__ = ("before", "candidates", "chosen")

    def __init__(self, before: _Core, candidates: list[int]) -> None:
        self.before = before
        self.candidates = candidates
        self.chosen = -1


def _weighted_order(pairs: Sequence[tuple[int, float]], rng: random.Random) -> list[int]:
    """The indices in a random order, each next one drawn by probability among those left."""
    keyed = [(rng.random() ** (1.0 / p) if p > 0 else 0.0, index) for index, p in pairs]
    keyed.sort(reverse=True)
    return [index for _, index in keyed]


def _candidates(core: _Core, actor: int, true: int, player: int, rng: random.Random) -> list[int]:
    """The events to try at this point, in order, the true one last (where it is not tried before)."""
    if actor == player:
        return [true]
    state = core.state
    if actor == CHANCE:
        if not state.is_chance():
            return []
        pairs = [(index, prob) for index, prob, _ in core.chance()]
        if len(pairs) <= ENUMERATE:
            return _weighted_order(pairs, rng)
        cumulative = list(accumulate(p for _, p in pairs))
        drawn = rng.choices([i for i, _ in pairs], cum_weights=cumulative, k=TRIES)
    else:
        if actor not in state.to_act():
            return []
        legal = core.tokens(actor) if core.steps is not None else core.legal(actor).indices
        if len(legal) <= ENUMERATE:
            order = list(legal)
            rng.shuffle(order)
            return order
        drawn = [legal[rng.randrange(len(legal))] for _ in range(TRIES)]
    return [*dict.fromkeys(i for i in drawn if i != true), true]


def resample_core(core: _Core, player: int, rng: random.Random) -> _Core:
    """A game ``player`` cannot tell from ``core``'s, reached by a drawn history (see the module)."""
    history = core.history()
    truth = _truth(core, player, history)
    seen, visible = truth.seen, truth.visible
    pinned: set[int] = set()  # events set back to the truth: a later observation shows them
    needed: set[tuple[int, int]] = set()  # outcomes a later shown event needs: drawn for no other

    def candidates(at: _Core, t: int) -> list[int]:
        actor, true = history[t]
        if t in pinned or visible[t]:  # the player saw it: nothing else fits
            return [true]
        return [i for i in _candidates(at, actor, true, player, rng) if i == true or (actor, i) not in needed]

    start = _Core(core.game, core.encoding, steps=core.steps)
    frames = [_Frame(start, candidates(start, 0) if history else [])]
    t = 0
    while t < len(history):
        frame = frames[t]
        actor, true = history[t]
        if not frame.candidates:
            # Nothing fits here. Where an earlier drawn event took this one's outcome (a card
            # drawn into a hidden hand that is now shown), draw that one again without it;
            # otherwise set back the latest event drawn differently.
            drawn = [j for j in range(t - 1, -1, -1) if frames[j].chosen != history[j][1]]
            if not drawn:
                raise TussleError(f"cannot resample: the true event {t} does not fit its own history")
            taken = [j for j in drawn if history[j][0] == actor and frames[j].chosen == true]
            needed.add((actor, true))
            back = taken[0] if taken else drawn[0]
            del frames[back + 1 :]
            if taken:
                frames[back].candidates = candidates(frames[back].before, back)
            else:
                pinned.add(back)
                frames[back].candidates = [history[back][1]]
            t = back
            continue
        index = frame.candidates.pop(0)
        child = _copy(frame.before)
        try:
            child.apply(actor, index)
        except TussleError:
            continue
        if child.state.observation(player) != seen[t + 1]:
            continue
        frame.chosen = index
        t += 1
        if t < len(history):
            frames.append(_Frame(child, candidates(child, t)))
        else:
            return child
    return frames[-1].before


def sampler_rng(probability_sampler: Any) -> random.Random:
    """A random number generator seeded from OpenSpiel's sampler (a callable giving numbers in [0, 1))."""
    if callable(probability_sampler):
        return random.Random(int(float(probability_sampler()) * 2**53))
    return random.Random()


def replayed(game: Any, events: Sequence[tuple[int, int]]) -> Any:
    """A new pyspiel state of ``game`` reached by the tussle events ``events`` (a core's history).

    Played through pyspiel, so that the state's own ``history()`` (OpenSpiel
    keeps it, not the state's Python side) is the drawn one: at a
    simultaneous node, the acting players' events and ``pass`` for the rest.
    """
    state = game.new_initial_state()
    n = game.num_players()
    at = 0
    while at < len(events):
        if state.is_chance_node() or not state.is_simultaneous_node():
            state.apply_action(events[at][1])
            at += 1
            continue
        joint = [state.legal_actions(p)[0] for p in range(n)]  # pass, for an idle player
        for p in state.tussle_state.to_act():
            joint[p] = events[at][1]
            at += 1
        state.apply_actions(joint)
    return state


# --- OpenSpiel's turn-based conversion (pyspiel.convert_to_turn_based) -----------------------

_INNER: dict[str, Any] = {}


def resample_turn_based(state: Any, player: int, rng: random.Random) -> Any:
    """``state`` of ``pyspiel.convert_to_turn_based(tussle game)`` redrawn for ``player``.

    The converted state is OpenSpiel's own (C++, without a resampler of its
    own): the tussle state under it is rebuilt from its history, redrawn by
    :func:`resample_core`, and played again into a new converted state. The
    actions chosen so far at the current simultaneous node by players before
    ``player`` (which the conversion hides from it) are drawn afresh among
    their legal actions.
    """
    outer = state.get_game()
    name = str(outer)
    inner = _INNER.get(name)
    if inner is None:
        prefix = "turn_based_simultaneous_game(game="
        if not name.startswith(prefix):
            raise TussleError(f"not a tussle game or its turn-based conversion: {name}")
        inner = _INNER[name] = pyspiel.load_game(name[len(prefix) : -1])
    n = inner.num_players()
    # The tussle game under the converted one: a joint action every n turns.
    under = inner.new_initial_state()
    partial: list[int] = []
    for action in state.history():
        if under.is_chance_node():
            under.apply_action(action)
            continue
        partial.append(action)
        if len(partial) == n:
            under.apply_actions(partial)
            partial = []
    drawn = replayed(inner, resample_core(under._core, player, rng).history())
    # Played again into a converted state: OpenSpiel lists a joint action's parts in seat order.
    out = outer.new_initial_state()
    for action in drawn.history():
        out.apply_action(action)
    for p in range(len(partial)):
        legal = drawn.legal_actions(p)
        out.apply_action(legal[rng.randrange(len(legal))] if p != player else partial[p])
    return out


def resampler(seed: int | None = None) -> Callable[[Any, int], Any]:
    """A resampler for ``ISMCTSBot.set_resampler``: tussle's states and their turn-based conversion."""
    rng = random.Random(seed)

    def resample(state: Any, player: int) -> Any:
        if hasattr(state, "_core"):
            return replayed(state.get_game(), resample_core(state._core, player, rng).history())
        return resample_turn_based(state, player, rng)

    return resample
