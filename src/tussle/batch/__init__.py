"""Batched simulation: a game's rules as pure JAX functions over many states at once (extra ``jax``).

A game that has a batched engine declares it with its ``batch`` hook (a
function of a :class:`~tussle.game.Game` that returns a :class:`BatchGame`);
:func:`make` finds it. The interface follows pgx's ``Env`` where the two agree
(docs/ecosystem.md, "Batched simulation"): ``init(keys)`` and
``step(states, actions, keys)`` over a batch, a state that carries
``current_player``, ``legal_action_mask``, ``observation``, ``rewards``,
``terminated`` and ``truncated``, and ``observe(states, player)``.

Where tussle's games differ from pgx's:

- **Simultaneous steps** are played one fighter at a time, as the scalar engine
  takes them (:meth:`tussle.game.State.apply` one player after another): a
  fighter's choice stays hidden in the state until every fighter of the step
  has chosen, and ``acting`` says who the step still waits for (the scalar
  engine's ``to_act()``). ``current_player`` is the lowest of them.
- **Chance is a player.** ``step`` plays the chance events that follow a
  decision with the keys given, so that after it a player is to act or the game
  is over. ``decide`` and ``chance`` take one decision or one chance outcome
  (numbered as the game's :class:`~tussle.adapters.encoding.ActionCodec` numbers
  them), for replaying a record or another engine's game exactly.
- Actions are numbered as the RL adapters number them (the same codec), and the
  observation of a player is the same array the adapters give (``Features``):
  the differential tests compare the two engines on both.
"""

from __future__ import annotations

import functools
import json
from abc import ABC, abstractmethod
from collections.abc import Callable
from functools import cached_property
from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple

from tussle.adapters import require

require("tussle.batch", "jax", "jax")

import jax  # noqa: E402  (after the check that says which extra brings it)
import jax.numpy as jnp  # noqa: E402

if TYPE_CHECKING:
    from tussle.game import Game

#: A player number: the chance player (in ``current_player``).
CHANCE = -1
#: ``current_player`` of a game that is over.
NOBODY = -2

#: The most simulated rounds a batched agent may play for one decision, whatever its parameters
#: (its ``simulations``): they are all played at once, for every game it decides in.
MAX_SIMULATIONS = 20_000
#: The most simulated rounds played at once where every game of a batch decides together (the
#: opponents of a vector environment): ``num_envs`` times the agent's ``simulations``.
MAX_SIMULATIONS_AT_ONCE = 1 << 24


class BatchState(NamedTuple):
    """One game's state (a batch of them: every field with a leading batch axis).

    A NamedTuple is a JAX pytree as it is, so states go through ``jit``,
    ``vmap`` and ``lax`` loops without registration.
    """

    current_player: jax.Array
    """The player to decide now (the lowest still to choose at a simultaneous step), CHANCE or NOBODY."""
    acting: jax.Array
    """bool[players]: who the step waits for (the scalar engine's ``to_act()``; chance not included)."""
    legal_action_mask: jax.Array
    """bool[actions]: ``current_player``'s legal actions (all False for chance and at the end)."""
    observation: jax.Array
    """float32[features]: ``current_player``'s observation (player 0's for chance and at the end)."""
    rewards: jax.Array
    """float32[players]: what the last step paid (the game's returns when it ends, else 0)."""
    terminated: jax.Array
    """bool: the game ended by its rules."""
    truncated: jax.Array
    """bool: the game was cut by a limit of the simulation options (a turn limit): not the rules' end."""
    steps: jax.Array
    """int32: player decisions so far."""
    core: Any
    """The game's own fields (a NamedTuple of arrays)."""


class Trace(NamedTuple):
    """What a game's events add up to as they are played: their number and a digest of them in order.

    Two games with the same events have the same digest (two 32-bit multiplicative
    hashes of each (player, action) pair, in order); it tells repeated games apart
    as a record's digest does, without keeping the events.
    """

    events: jax.Array  # int32
    digest: jax.Array  # uint32[2]

    @classmethod
    def empty(cls) -> Trace:
        return cls(jnp.int32(0), jnp.array([0x811C9DC5, 0x01000193], jnp.uint32))

    def add(self, player: jax.Array | int, action: jax.Array) -> Trace:
        digest = self.digest
        for part in (jnp.asarray(player, jnp.int32) + 2, jnp.asarray(action, jnp.int32)):
            digest = (digest ^ part.astype(jnp.uint32)) * jnp.array([0x9E3779B1, 0x85EBCA77], jnp.uint32)
            digest = digest ^ (digest >> 15)
        return Trace(self.events + 1, digest)


class BatchGame(ABC):
    """A game's batched engine: one state's rules as pure JAX functions, batched here with ``vmap``.

    A game implements the one-state methods (``*_one``); this class makes the
    batched, compiled functions of them. The game's scalar options are fixed
    when it is made: they are constants of the compiled functions. Its
    constructor takes the game alone (:meth:`for_playouts` makes a second
    engine with it).
    """

    num_players: int
    num_actions: int
    num_chance: int
    observation_size: int
    #: The most chance events that can follow one decision (``step`` plays them in a bounded loop).
    max_chance: int
    #: Whether states carry legal-action masks and observations (see :meth:`for_playouts`).
    masks: bool = True
    observations: bool = True
    #: Whether the game draws a random legal action and counts its legal actions without a mask
    #: (it overrides :meth:`random_action_one` and :meth:`legal_count_one`).
    draws_without_mask: bool = False
    #: The agents besides ``random`` that have a batched form: each name's method, which takes
    #: the scalar agent's parameters and gives its one-state choice (see :meth:`agent_one`).
    batched_agents: ClassVar[dict[str, str]] = {}

    def __init__(self, game: Game) -> None:
        self.game = game

    def for_playouts(self) -> BatchGame:
        """This engine for random playouts: its states carry no observation, and no mask if it can.

        Random play reads neither view: it draws with :meth:`random_action_one`
        and counts with :meth:`legal_count_one`, which read the mask unless the
        game draws and counts without it (``draws_without_mask``). A view is
        made at every decision, and a mask is a byte per action: 59,050 in
        Robo Battle Pigs, where making and carrying it costs far more than the
        rules. The games are the same, draw for draw. It is made once an
        engine, so its compiled calls are kept.
        """
        if not self.observations:
            return self
        found: BatchGame | None = self.__dict__.get("_for_playouts")
        if found is None:
            # Made anew from the game rather than copied: a copy would carry whatever this engine
            # has compiled (its calls make both views) to wherever it keeps it.
            found = type(self)(self.game)
            found.observations = False
            found.masks = not self.draws_without_mask
            self.__dict__["_for_playouts"] = found
        return found

    def agent_one(self, spec: str) -> Callable[[BatchState, jax.Array], jax.Array]:
        """The agent ``spec`` names as one state's choice: ``choose(state, key)``, the action of
        ``current_player`` (any action where no player is to act).

        The spec is read as the scalar agent reads it, with its parameters, their checks and
        their one-line errors; ``random`` is :meth:`random_action_one`. An agent with no
        batched form is a one-line :class:`~tussle.errors.AgentError`.
        """
        from tussle.agents import make_agent, parse_spec
        from tussle.errors import AgentError

        scalar = make_agent(spec, self.game, 0, seed=0)
        name = parse_spec(spec)[0]
        if name == "random":
            return self.random_action_one
        method = self.batched_agents.get(name)
        if method is None:
            have = " and ".join(["random", *self.batched_agents])
            raise AgentError(
                f"{spec!r} has no batched form for {self.id} (it has {have}): play it with --engine scalar"
            )
        try:
            choose: Callable[[BatchState, jax.Array], jax.Array] = getattr(self, method)(**scalar.params)
        except AgentError as refused:  # a budget the batched form cannot play
            raise AgentError(f"{spec!r}: {refused}") from None
        return choose

    def empty_mask(self) -> jax.Array:
        """A state's mask before :meth:`views_one` makes it (empty where for_playouts leaves it out)."""
        return jnp.zeros(self.num_actions if self.masks else 0, bool)

    def empty_observation(self) -> jax.Array:
        """A state's observation before :meth:`views_one` makes it (empty where it is left out)."""
        return jnp.zeros(self.observation_size if self.observations else 0, jnp.float32)

    @property
    def id(self) -> str:
        return self.game.info.id

    # --- one state: what a game implements ------------------------------------------------------
    #
    # The transitions (init_one, decide_one, chance_one) keep who is to act, the rewards and the
    # ends right but leave ``legal_action_mask`` and ``observation`` as they were: views_one makes
    # those once, after a decision and the chance events that follow it, rather than at each.

    @abstractmethod
    def init_one(self, key: jax.Array) -> BatchState:
        """A new game (``key`` for any chance at the start), before its views."""

    @abstractmethod
    def decide_one(self, state: BatchState, action: jax.Array) -> BatchState:
        """``current_player`` takes ``action`` (a legal one); a state whose player is not a player is kept."""

    @abstractmethod
    def chance_one(self, state: BatchState, outcome: jax.Array) -> BatchState:
        """The chance event takes ``outcome`` (the codec's chance number); other states are kept."""

    @abstractmethod
    def sample_one(self, state: BatchState, key: jax.Array) -> jax.Array:
        """A chance outcome drawn with the rules' odds (its number)."""

    @abstractmethod
    def legal_one(self, state: BatchState, player: jax.Array) -> jax.Array:
        """``player``'s legal actions as a mask (meaningful when ``player`` is to act)."""

    @abstractmethod
    def observe_one(self, state: BatchState, player: jax.Array) -> jax.Array:
        """``player``'s observation array."""

    def decide_simultaneous(
        self,
        state: BatchState,
        action: jax.Array,
        resolve: Callable[[Any], tuple[Any, jax.Array, jax.Array, jax.Array, jax.Array]],
        finish: Callable[..., BatchState],
    ) -> BatchState:
        """:meth:`decide_one` of a game of simultaneous steps, whose core keeps each choice in ``pending``.

        ``current_player`` records ``action``; when no one is left to act,
        ``resolve(core)`` plays the step: the core after it, who acts next, the
        step's rewards, ``terminated`` and ``truncated``. ``finish`` is the
        game's state around a core (``finish(core, acting, rewards, *,
        terminated, truncated, steps)``). As in pgx, a step pays once (what the
        last one paid is gone after the next), and a state whose player is not
        a player is kept, its rewards cleared.
        """
        state = state._replace(rewards=jnp.zeros_like(state.rewards))
        p = state.current_player
        c = state.core
        playing = p >= 0
        seat = jnp.maximum(p, 0)
        c = c._replace(pending=c.pending.at[seat].set(jnp.where(playing, action, c.pending[seat])))
        acting = state.acting.at[seat].set(jnp.where(playing, False, state.acting[seat]))
        resolving = playing & ~jnp.any(acting)
        resolved, next_acting, rewards, terminated, truncated = resolve(c)
        c = jax.tree.map(lambda a, b: jnp.where(resolving, a, b), resolved, c)
        acting = jnp.where(resolving, next_acting, acting)
        rewards = jnp.where(resolving, rewards, jnp.zeros_like(rewards))
        # A game a player decides in is on: any end it shows is a finished game's (step_reset's).
        kept = finish(
            c,
            acting,
            rewards,
            terminated=resolving & terminated,
            truncated=resolving & truncated,
            steps=state.steps + playing.astype(jnp.int32),
        )
        out: BatchState = jax.tree.map(lambda a, b: jnp.where(playing, a, b), kept, state)
        return out

    def views_one(self, state: BatchState) -> BatchState:
        """The state with ``current_player``'s legal-action mask and observation made."""
        player = state.current_player
        seat = jnp.maximum(player, 0)
        mask = self.legal_one(state, seat) & (player >= 0) if self.masks else self.empty_mask()
        seen = self.observe_one(state, seat) if self.observations else self.empty_observation()
        return state._replace(legal_action_mask=mask, observation=seen)

    def random_action_one(self, state: BatchState, key: jax.Array) -> jax.Array:
        """A legal action of ``current_player`` drawn uniformly (:func:`random_actions` on its mask)."""
        return random_actions(state, key)

    def legal_count_one(self, state: BatchState) -> jax.Array:
        """How many legal actions ``current_player`` has (0 for chance and at the end): its mask's count."""
        return state.legal_action_mask.sum(dtype=jnp.int32)

    def roll_one(self, state: BatchState, key: jax.Array) -> BatchState:
        """The chance events due now, drawn with ``key`` (none when a player is to act)."""
        return self.roll_traced_one(state, key, None)[0]

    def roll_traced_one(
        self, state: BatchState, key: jax.Array, trace: Trace | None
    ) -> tuple[BatchState, Trace | None]:
        """:meth:`roll_one`, each chance event also counted and mixed into ``trace`` (unless None)."""

        def rolling(carry: tuple[jax.Array, BatchState, Trace | None]) -> jax.Array:
            i, s, _ = carry
            return (s.current_player == CHANCE) & (i < self.max_chance)

        def roll(
            carry: tuple[jax.Array, BatchState, Trace | None],
        ) -> tuple[jax.Array, BatchState, Trace | None]:
            i, s, t = carry
            outcome = self.sample_one(s, jax.random.fold_in(key, i))
            return i + 1, self.chance_one(s, outcome), None if t is None else t.add(CHANCE, outcome)

        # A while loop, not a loop of max_chance rounds: batched, it stops when no game rolls.
        _, rolled, traced = jax.lax.while_loop(rolling, roll, (jnp.int32(0), state, trace))
        return rolled, traced

    def step_one(self, state: BatchState, action: jax.Array, key: jax.Array) -> BatchState:
        """A decision, then the chance events after it, so that a player is to act or the game is over."""
        return self.views_one(self.roll_one(self.decide_one(state, action), key))

    def step_reset_one(self, state: BatchState, action: jax.Array, key: jax.Array) -> BatchState:
        """:meth:`step_one`, then a new game in place of one that ended (pgx's ``auto_reset``).

        As in pgx, the new game's state carries the ended game's ``rewards``,
        ``terminated`` and ``truncated``, so that a loop sees every end; the next
        decision clears them.
        """
        play, new, draw = jax.random.split(key, 3)
        after = self.roll_one(self.decide_one(state, action), play)
        fresh = self.roll_one(self.init_one(new), draw)
        fresh = fresh._replace(rewards=after.rewards, terminated=after.terminated, truncated=after.truncated)
        over = after.terminated | after.truncated
        kept: BatchState = jax.tree.map(lambda a, b: jnp.where(over, a, b), fresh, after)
        return self.views_one(kept)

    # --- a batch ---------------------------------------------------------------------------------

    @cached_property
    def init(self) -> Callable[[jax.Array], BatchState]:
        """New games, one per key (``keys``: ``jax.random.split(key, n)``), chance at the start played."""

        def one(key: jax.Array) -> BatchState:
            first, rest = jax.random.split(key)
            return self.views_one(self.roll_one(self.init_one(first), rest))

        return jax.jit(jax.vmap(one))

    @cached_property
    def init_exact(self) -> Callable[[jax.Array], BatchState]:
        """New games with any chance at the start left to play (for :attr:`chance`)."""
        return jax.jit(jax.vmap(lambda key: self.views_one(self.init_one(key))))

    @cached_property
    def step(self) -> Callable[[BatchState, jax.Array, jax.Array], BatchState]:
        """``step(states, actions, keys)``: each game's current player takes its action, then chance plays."""
        return jax.jit(jax.vmap(self.step_one))

    @cached_property
    def decide(self) -> Callable[[BatchState, jax.Array], BatchState]:
        """``decide(states, actions)``: one decision each, no chance played after it."""
        return jax.jit(jax.vmap(lambda s, a: self.views_one(self.decide_one(s, a))))

    @cached_property
    def chance(self) -> Callable[[BatchState, jax.Array], BatchState]:
        """``chance(states, outcomes)``: the pending chance event of each game takes the outcome given."""
        return jax.jit(jax.vmap(lambda s, o: self.views_one(self.chance_one(s, o))))

    @cached_property
    def observe(self) -> Callable[[BatchState, jax.Array], jax.Array]:
        """``observe(states, players)``: each game's observation array from one player's seat."""
        return jax.jit(jax.vmap(self.observe_one))

    @cached_property
    def step_reset(self) -> Callable[[BatchState, jax.Array, jax.Array], BatchState]:
        """``step_reset(states, actions, keys)``: :attr:`step`, each game that ended replaced by a new one."""
        return jax.jit(jax.vmap(self.step_reset_one))


def make(game_id: str, **options: Any) -> BatchGame:
    """The batched engine of a game with these options (a one-line error if it has none).

    >>> env = make("fite", turn_limit=100)
    >>> env.num_players, env.num_actions, env.observation_size
    (2, 5143, 130)
    """
    from tussle.errors import OptionError
    from tussle.registry import load_game

    game = load_game(game_id, **options)
    target = game.info.hooks.batch
    if not target:
        raise OptionError(
            f"{game.info.id} has no batched engine yet (docs/ecosystem.md, 'Batched simulation')"
        )
    engine: BatchGame = game.hook(target)(game)
    return engine


def shared(game_id: str, options: dict[str, Any]) -> BatchGame:
    """:func:`make`, once a process for each game and options: an engine compiles its calls once."""
    return _shared(game_id, json.dumps(options, sort_keys=True, default=str))


@functools.cache
def _shared(game_id: str, options: str) -> BatchGame:
    return make(game_id, **json.loads(options))


def random_actions(states: BatchState, key: jax.Array) -> jax.Array:
    """One legal action per game, uniformly among those of its mask (0 where there are none).

    One uniform draw per game picks the k-th legal action. A categorical draw
    would draw a number per action (5,143 a game in FITE), and counting through
    the whole mask is slow on the CPU, so the count goes by levels: the mask's
    bytes four to a 32-bit word (their population counts), words in rows; the
    row the pick falls in, then the word, then the byte.
    """
    mask = states.legal_action_mask
    lead = mask.shape[:-1]
    size = mask.shape[-1]
    columns = max(1, int((size / 4) ** 0.5 + 0.999))
    rows = -(-size // (4 * columns))
    flags = jnp.pad(mask.astype(jnp.uint8), [(0, 0)] * len(lead) + [(0, rows * columns * 4 - size)])
    flags = flags.reshape((*lead, rows, columns, 4))
    counts = jax.lax.population_count(jax.lax.bitcast_convert_type(flags, jnp.uint32)).astype(jnp.int32)
    total = counts.sum(axis=(-2, -1))
    pick = jax.random.randint(key, lead, 0, jnp.maximum(total, 1))

    def find(running: jax.Array, k: jax.Array) -> tuple[jax.Array, jax.Array]:
        """Where the k-th (from 0) falls in counts whose running sum is given, and k within it."""
        at = jnp.argmax(running > k[..., None], axis=-1)
        before = jnp.where(
            at > 0, jnp.take_along_axis(running, jnp.maximum(at - 1, 0)[..., None], -1)[..., 0], 0
        )
        return at, k - before

    row, k = find(jnp.cumsum(counts.sum(axis=-1), axis=-1), pick)
    in_row = jnp.take_along_axis(counts, row[..., None, None], axis=-2)[..., 0, :]
    column, k = find(jnp.cumsum(in_row, axis=-1), k)
    word = jnp.take_along_axis(flags, row[..., None, None, None], axis=-3)[..., 0, :, :]
    word = jnp.take_along_axis(word, column[..., None, None], axis=-2)[..., 0, :].astype(jnp.int32)
    byte, _ = find(jnp.cumsum(word, axis=-1), k)
    chosen = (row * columns + column) * 4 + byte
    return jnp.where(total > 0, chosen, 0).astype(jnp.int32)
