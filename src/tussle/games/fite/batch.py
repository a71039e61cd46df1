"""FITE's batched engine: the rules of rules.py as pure JAX functions (tussle.batch, docs/ecosystem.md).

The same game as :class:`~tussle.games.fite.rules.FiteState`, step for step:
the same steps in the same order (the SETUP placement, placement, Swift,
split, four rolls, tactical choice, scoring), actions and rolls numbered as
:class:`~tussle.games.fite.encoding.FiteCodec` numbers them, and each
fighter's observation the array :class:`~tussle.games.fite.encoding.FiteFeatures`
writes. tests/test_batch.py plays both engines side by side and compares every
observation, mask and result.

What changes is the representation: a pool is six counts, one per face, not a
sorted tuple, since everything the rules ask of a pool (what it holds,
cancellation, a move or a turn) depends on its faces as a multiset:

- A pool holds the faces of a choice when each count covers the choice's.
- Cancellation (:func:`~tussle.games.fite.rules.count_cancelled`, a greedy
  largest matching) is counted by Hall's theorem: an offensive die of face o
  is cancelled by a defensive die of value d + shift >= o, so each die's
  neighbours are all the defensive dice above a threshold, nested sets. The
  dice left over are the largest excess, over the faces y, of offensive dice
  showing y or more over defensive dice showing y - shift or more.
- The tactical mask, 5,005 choices, is a grid of (no move or one of 54 moves)
  by (no turn or one of 90 turns), the codec's order: each move's legality,
  then each turn's on the pools the move leaves (one die of a face is there,
  or two of it), then the grid laid out as the codec numbers it.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import jax
import jax.numpy as jnp
import numpy as np

from tussle.batch import CHANCE, NOBODY, BatchGame, BatchState
from tussle.errors import OptionError
from tussle.game import Game
from tussle.games.fite.encoding import FiteCodec, FiteFeatures
from tussle.games.fite.notation import DEF, FACE_LOCATION, MAX_POOL, OFF, STAY, TAC
from tussle.games.fite.rules import LOCATION_MODIFIERS, ROLL, ROLL_ORDER, SETUP, START_DICE

PLACE, SWIFT, SPLIT, TACTICAL, OVER = 1, 2, 3, 5, 6
NO_MOVE = 0  # a move's number in the grid: 0 none, 1.. the codec's moves
FACES = 6


class FiteCore(NamedTuple):
    """One FITE game's fields (rules.FiteState's, pools as face counts)."""

    phase: jax.Array  # int32
    turn: jax.Array  # int32
    dice: jax.Array  # int32[2]
    used: jax.Array  # bool[2]: the coin flipped
    location: jax.Array  # int32[2]: -1 none yet, OFF, DEF, TAC
    face: jax.Array  # int32[2]: 0 none yet, 1..6
    pending: jax.Array  # int32[2]: the choice made at this step (-1: none yet)
    swift_to: jax.Array  # int32[2]: -1 or the location moved to by Swift this turn
    split: jax.Array  # int32[2, 2]: (off, def) dice; 0 before the split
    declared: jax.Array  # bool[2]: the power used this turn
    rolls: jax.Array  # int32[2, 2, 6]: each pool's count of each face (1..6), as rolled
    rolled: jax.Array  # bool[2, 2]
    roll_index: jax.Array  # int32: the next of ROLL_ORDER's four rolls
    size: jax.Array  # int32: the dice of the roll to come
    entitled: jax.Array  # int32[2]: 0 none, 1 one option, 2 both


def _tables(codec: FiteCodec) -> dict[str, np.ndarray]:
    """The codec's actions and rolls as arrays the rules read."""
    moves: list[tuple[int, tuple[int, ...]]] = []
    turns: list[tuple[tuple[int, int], ...]] = []
    for index in range(FiteCodec.TACTIC + 1, FiteCodec.TACTIC + 1 + 54 + 90):
        value: Any = codec.value(index)  # a tactic: ("tactic", source, moved, turned)
        _, source, moved, turned = value
        if source >= 0:
            moves.append((source, moved))
        else:
            turns.append(turned)
    assert len(moves) == 54 and len(turns) == 90
    # Each move: the change to the two pools' counts, and how many dice it takes from its pool.
    delta = np.zeros((55, 2, FACES), np.int32)
    taken = np.zeros((55, 2, FACES), np.int32)
    source = np.full(55, -1, np.int32)
    count = np.zeros(55, np.int32)
    for m, (src, moved) in enumerate(moves, start=1):
        source[m], count[m] = src, len(moved)
        for face in moved:
            delta[m, src, face - 1] -= 1
            delta[m, 1 - src, face - 1] += 1
            taken[m, src, face - 1] += 1
    # Each turn, as the places (pool * 6 + face - 1) of its first and second die; 12 stands for none.
    first = np.full(90, 12, np.int32)
    second = np.full(90, 12, np.int32)
    for t, turned in enumerate(turns):
        places = [pool * FACES + face - 1 for pool, face in turned]
        first[t] = places[0]
        if len(places) == 2:
            second[t] = places[1]
    # Each turn's dice as what it needs of the 12 places (pool * 6 + face - 1), as bits.
    need1 = np.zeros(90, np.int32)
    need2 = np.zeros(90, np.int32)
    for t, turned in enumerate(turns):
        for pool, face in turned:
            bit = 1 << (pool * FACES + face - 1)
            if need1[t] & bit:
                need2[t] |= bit
            need1[t] |= bit
    # Check the grid's layout against the codec: (move m, turn t) at 138 + 1 + 54 + 90 + (m-1) * 90 + (t-1).
    m, t = 7, 11
    both: Any = codec.value(FiteCodec.TACTIC + 1 + 54 + 90 + (m - 1) * 90 + (t - 1))
    assert both[1:3] == moves[m - 1] and both[3] == turns[t - 1]
    # Each roll's face counts and size.
    roll_counts = np.zeros((codec.num_chance, FACES), np.int32)
    for i in range(codec.num_chance):
        for face in codec._rolls[i]:
            roll_counts[i, face - 1] += 1
    # A roll's number from its counts: the codec's rolls of one size follow a mixed radix order.
    return {
        "delta": delta,
        "taken": taken,
        "source": source,
        "count": count,
        "first": first,
        "second": second,
        "need1": need1,
        "need2": need2,
        "bits": 1 << np.arange(2 * FACES, dtype=np.int32),
        "roll_counts": roll_counts,
    }


class FiteBatch(BatchGame):
    """FITE with the options of its scalar game (``turn_dice=own``; ``any`` is not batched yet)."""

    num_players = 2
    max_chance = 4

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        options = game.options
        if options["turn_dice"] != "own":
            raise OptionError("fite's batched engine plays turn_dice=own only (turn_dice=any is scalar only)")
        self.codec = FiteCodec("own")
        self.features = FiteFeatures(int(options["turn_limit"] or 0), self.codec.num_actions)
        self.num_actions = self.codec.num_actions
        self.num_chance = self.codec.num_chance
        self.observation_size = self.features.size
        self.turn_limit = int(options["turn_limit"])
        self.start_dice = int(options["dice"])
        self.setup_placement = bool(options["setup_placement"])
        self.tactical = bool(options["tactical"])
        table = game.power_table  # type: ignore[attr-defined]
        names = (options["power_a"], options["power_b"])
        powers = [table[str(n)] if n != "none" else None for n in names]
        self.has_power = np.array([p is not None for p in powers])
        self.swift = np.array([bool(p and p.swift) for p in powers])
        self.cunning = np.array([bool(p and p.tactical) for p in powers])
        # [p]: what p's declared power adds to its own (off, def) and to the opponent's (off, def).
        self.own_bonus = np.array([(p.attack, p.defence) if p else (0, 0) for p in powers], np.int32)
        self.their_bonus = np.array(
            [(p.opponent_attack, p.opponent_defence) if p else (0, 0) for p in powers], np.int32
        )
        # The observation's power place of each fighter (-1: a power the features do not name).
        index = {power: i for i, power in enumerate(FiteFeatures.POWERS)}
        self.power_place = np.array([index.get(None if n == "none" else str(n), -1) for n in names], np.int32)
        t = _tables(self.codec)
        self.t = {k: jnp.asarray(v) for k, v in t.items()}
        # Values the observation writes, as float32 worked out in Python as FiteFeatures does.
        limit = self.features.turn_limit
        self.turn_values = jnp.asarray(
            np.array([min(1.0, turn / limit) for turn in range(limit + 1)], np.float32)
        )
        self.eighths = jnp.asarray(np.array([min(1.0, n / 8) for n in range(9)], np.float32))
        fifths = [max(0.0, min(1.0, (x + 2) / 5)) for x in range(-2, 4)]
        self.fifths = jnp.asarray(np.array(fifths, np.float32))  # for modifiers -2..3, clipped outside
        # The SETUP placement's phase: SETUP, or straight to turn 1's placement without it.
        self.start_phase = SETUP if self.setup_placement else PLACE
        self.face_location = jnp.asarray(np.array(FACE_LOCATION, np.int32))
        self.location_bonus = jnp.asarray(np.array((*LOCATION_MODIFIERS, (0, 0)), np.int32))

    # --- the state ----------------------------------------------------------------------------------

    def init_one(self, key: jax.Array) -> BatchState:
        i32 = jnp.int32
        core = FiteCore(
            phase=jnp.array(self.start_phase, i32),
            turn=jnp.array(0 if self.setup_placement else 1, i32),
            dice=jnp.full(2, self.start_dice, i32),
            used=jnp.zeros(2, bool),
            location=jnp.full(2, -1, i32),
            face=jnp.zeros(2, i32),
            **_turn_start(),
        )
        acting = jnp.ones(2, bool)
        no = jnp.array(False)
        return self._finish(core, acting, jnp.zeros(2, jnp.float32), terminated=no, truncated=no, steps=0)

    def _finish(
        self,
        core: FiteCore,
        acting: jax.Array,
        rewards: jax.Array,
        *,
        terminated: jax.Array,
        truncated: jax.Array,
        steps: Any,
    ) -> BatchState:
        """The state around ``core``: who decides (their mask and observation are :meth:`views_one`'s)."""
        over = terminated | truncated
        chance = (core.phase == ROLL) & ~over
        current = jnp.where(
            over, NOBODY, jnp.where(chance, CHANCE, jnp.where(acting[0], 0, jnp.where(acting[1], 1, NOBODY)))
        ).astype(jnp.int32)
        return BatchState(
            current_player=current,
            acting=acting & ~over,
            legal_action_mask=self.empty_mask(),
            observation=self.empty_observation(),
            rewards=rewards,
            terminated=terminated,
            truncated=truncated,
            steps=jnp.asarray(steps, jnp.int32),
            core=core,
        )

    # --- legal actions ------------------------------------------------------------------------------

    def legal_one(self, state: BatchState, p: jax.Array) -> jax.Array:
        c = state.core
        phase = c.phase
        # Placement: the six faces. Swift: stay, or one of the two other locations.
        place = jnp.ones(6, bool) & ((phase == SETUP) | (phase == PLACE))
        here = c.location[p]
        swift = (jnp.array([True, False, False, False]) | (jnp.arange(-1, 3) != here)) & (phase == SWIFT)
        # Split: 10 + declare * 64 + (off - 1) * 8 + (def - 1); off + def = dice, each 1..8.
        off = jnp.arange(1, MAX_POOL + 1)[:, None]
        dfn = jnp.arange(1, MAX_POOL + 1)[None, :]
        fits = (off + dfn == c.dice[p]).reshape(-1)
        can_declare = jnp.asarray(self.has_power & ~self.swift)[p] & ~c.used[p]
        split = jnp.concatenate([fits, fits & can_declare]) & (phase == SPLIT)
        tactic = self._tactic_mask(c, p) & (phase == TACTICAL) & (c.entitled[p] > 0)
        return jnp.concatenate([place, swift, split, tactic])

    def _tactic_mask(self, c: FiteCore, p: jax.Array) -> jax.Array:
        t = self.t
        pools = c.rolls[p]  # [2, 6]
        sizes = pools.sum(axis=1)
        src = t["source"]
        k = t["count"]
        holds = jnp.all(pools[None] >= t["taken"], axis=(1, 2))
        here = jnp.where(src >= 0, sizes[jnp.maximum(src, 0)], 9)
        there = jnp.where(src >= 0, sizes[1 - jnp.maximum(src, 0)], 0)
        move_ok = holds & (here - k >= 1) & (there + k <= MAX_POOL)  # [55]; none: always
        # A turn needs one or two dice of a face in a pool: as bits of the 12 places (pool, face),
        # ``need1`` where it needs one and ``need2`` where two. What each move leaves is two such
        # sets (a die there, two there), so each (move, turn) is a few integer operations, far
        # cheaper on the CPU than gathering each turn's dice.
        after = (pools[None] + t["delta"]).reshape(55, 2 * FACES)
        bits = t["bits"]
        one = jnp.sum(jnp.where(after >= 1, bits, 0), axis=1)[:, None]
        two = jnp.sum(jnp.where(after >= 2, bits, 0), axis=1)[:, None]
        turn_ok = ((~one & t["need1"][None]) | (~two & t["need2"][None])) == 0  # [55, 90]
        grid = move_ok[:, None] & jnp.concatenate([jnp.ones((55, 1), bool), turn_ok], axis=1)  # [55, 91]
        both = c.entitled[p] == 2
        return jnp.concatenate([grid[0, :1], grid[1:, 0], grid[0, 1:], (grid[1:, 1:] & both).reshape(-1)])

    # --- decisions ----------------------------------------------------------------------------------

    def decide_one(self, state: BatchState, action: jax.Array) -> BatchState:
        return self.decide_simultaneous(state, action, self._resolve, self._finish)

    def _resolve(self, c: FiteCore) -> tuple[FiteCore, jax.Array, jax.Array, jax.Array, jax.Array]:
        """Every fighter of the step has chosen (those with a choice ``pending``): the step's outcome."""
        chose = c.pending >= 0
        phase = c.phase
        no = jnp.array(False)
        zero = jnp.zeros(2, jnp.float32)
        # Placement.
        faces = c.pending + 1
        placed = c._replace(face=faces, location=self.face_location[jnp.clip(faces, 0, 6)])
        swift_now = jnp.asarray(self.swift) & ~placed.used
        after_setup = placed._replace(phase=jnp.array(PLACE, jnp.int32), turn=jnp.array(1, jnp.int32))
        after_setup = self._new_step(after_setup)
        to_swift = self._new_step(placed._replace(phase=jnp.array(SWIFT, jnp.int32)))
        to_split = self._new_step(placed._replace(phase=jnp.array(SPLIT, jnp.int32)))
        any_swift = jnp.any(swift_now)
        place_core = jax.tree.map(
            lambda s, w, x: jnp.where(phase == SETUP, s, jnp.where(any_swift, w, x)),
            after_setup,
            to_swift,
            to_split,
        )
        place_acting = jnp.where((phase == PLACE) & any_swift, swift_now, jnp.ones(2, bool))
        # Swift: 6 stay, 7 off, 8 def, 9 tac.
        to = c.pending - 7  # -1 stay (and a fighter that did not act: kept by chose below)
        moves = chose & (to != STAY)
        swifted = c._replace(
            location=jnp.where(moves, to, c.location),
            swift_to=jnp.where(moves, to, c.swift_to),
            used=c.used | moves,
            declared=c.declared | moves,
            phase=jnp.array(SPLIT, jnp.int32),
        )
        swift_core = self._new_step(swifted)
        # Split: 10 + declare * 64 + (off - 1) * 8 + (def - 1).
        number = c.pending - 10
        declare = number >= 64
        off = (number % 64) // 8 + 1
        dfn = number % 8 + 1
        split_core = self._new_step(
            c._replace(
                split=jnp.stack([off, dfn], axis=1),
                used=c.used | declare,
                declared=c.declared | declare,
                phase=jnp.array(ROLL, jnp.int32),
                size=off[0],
            )
        )
        # Tactical choices: the fight.
        fought, rewards, terminated, truncated = self._fight(c, chose)
        return (
            jax.tree.map(
                lambda a, b, s, f: jnp.where(
                    (phase == SETUP) | (phase == PLACE),
                    a,
                    jnp.where(phase == SWIFT, b, jnp.where(phase == SPLIT, s, f)),
                ),
                place_core,
                swift_core,
                split_core,
                fought,
            ),
            # Who acts next: the placement's (both, or the Swift owners); both at the split; nobody
            # while the dice roll; both at the next turn's placement unless the fight ended the game.
            jnp.where(
                (phase == SETUP) | (phase == PLACE),
                place_acting,
                jnp.where(
                    phase == SWIFT,
                    jnp.ones(2, bool),
                    jnp.where(
                        phase == SPLIT, jnp.zeros(2, bool), ~(terminated | truncated) & jnp.ones(2, bool)
                    ),
                ),
            ),
            jnp.where(phase == TACTICAL, rewards, zero),
            jnp.where(phase == TACTICAL, terminated, no),
            jnp.where(phase == TACTICAL, truncated, no),
        )

    def _new_step(self, c: FiteCore) -> FiteCore:
        return c._replace(pending=jnp.full(2, -1, jnp.int32))

    # --- chance -------------------------------------------------------------------------------------

    def sample_one(self, state: BatchState, key: jax.Array) -> jax.Array:
        size = state.core.size
        faces = jax.random.randint(key, (MAX_POOL,), 0, FACES)
        counts = jnp.zeros(FACES, jnp.int32).at[faces].add((jnp.arange(MAX_POOL) < size).astype(jnp.int32))
        return self._roll_number(counts, size)

    def _roll_number(self, counts: jax.Array, size: jax.Array) -> jax.Array:
        """The codec's number of a roll (its faces as counts, highest first in the codec's order)."""
        # The codec lists the rolls of k dice as combinations with replacement of 6..1, in
        # lexicographic order; a roll's rank among them counts the multisets that come before it.
        ranks = jnp.asarray(_ROLL_RANK)
        return ranks[size] + jnp.sum(_rank_terms(counts, size))

    def chance_one(self, state: BatchState, outcome: jax.Array) -> BatchState:
        c = state.core
        rolling = state.current_player == CHANCE
        index = jnp.clip(c.roll_index, 0, 3)
        order = jnp.asarray(np.array(ROLL_ORDER, np.int32))
        fighter, pool = order[index, 0], order[index, 1]
        counts = self.t["roll_counts"][outcome]
        rolls = c.rolls.at[fighter, pool].set(counts)
        rolled = c.rolled.at[fighter, pool].set(True)
        nxt = c.roll_index + 1
        nfighter, npool = order[jnp.clip(nxt, 0, 3), 0], order[jnp.clip(nxt, 0, 3), 1]
        size = c.split[nfighter, npool]
        core = c._replace(rolls=rolls, rolled=rolled, roll_index=nxt, size=size)
        done = nxt == len(ROLL_ORDER)
        # After the fourth roll: who may use a tactical option.
        at_tactical = (core.location == TAC) & self.tactical
        cunning = core.declared & jnp.asarray(self.cunning) & self.tactical
        entitled = jnp.where(at_tactical & cunning, 2, (at_tactical | cunning).astype(jnp.int32))
        tactical = core._replace(entitled=entitled, phase=jnp.array(TACTICAL, jnp.int32))
        tactical = self._new_step(tactical)
        fought, rewards, terminated, truncated = self._fight(
            core._replace(entitled=entitled), jnp.zeros(2, bool)
        )
        go_tactical = jnp.any(entitled > 0)
        after = jax.tree.map(
            lambda a, b, f: jnp.where(done, jnp.where(go_tactical, a, f), b), tactical, core, fought
        )
        fight_now = done & ~go_tactical
        acting = jnp.where(
            done, jnp.where(go_tactical, entitled > 0, ~(terminated | truncated)), jnp.zeros(2, bool)
        )
        rewards = jnp.where(fight_now, rewards, jnp.zeros(2, jnp.float32))
        new = self._finish(
            after,
            acting,
            rewards,
            terminated=fight_now & terminated,
            truncated=fight_now & truncated,
            steps=state.steps,
        )
        kept: BatchState = jax.tree.map(lambda a, b: jnp.where(rolling, a, b), new, state)
        return kept

    # --- the fight ----------------------------------------------------------------------------------

    def _fight(self, c: FiteCore, chose: jax.Array) -> tuple[FiteCore, jax.Array, jax.Array, jax.Array]:
        """The fight (``chose``: who took a tactical option, in ``pending``); the next turn or the end."""
        t = self.t
        tactic = jnp.clip(c.pending - FiteCodec.TACTIC, 0, 5004)
        move, turn = _grid_place(tactic)
        final = []
        for p in (0, 1):
            pools = c.rolls[p] + jnp.where(chose[p], t["delta"][move[p]], 0)
            flat = pools.reshape(-1)
            for place in (t["first"][jnp.maximum(turn[p] - 1, 0)], t["second"][jnp.maximum(turn[p] - 1, 0)]):
                live = chose[p] & (turn[p] > 0) & (place < 12)
                spot = jnp.minimum(place, 11)
                opposite = (spot // FACES) * FACES + (FACES - 1 - spot % FACES)
                flat = flat.at[spot].add(-live.astype(jnp.int32)).at[opposite].add(live.astype(jnp.int32))
            final.append(flat.reshape(2, FACES))
        mods = [self._modifiers(c, p) for p in (0, 1)]
        cancels = (
            _cancelled(final[1][OFF], final[0][DEF], mods[0][DEF] - mods[1][OFF]),
            _cancelled(final[0][OFF], final[1][DEF], mods[1][DEF] - mods[0][OFF]),
        )
        hits = (final[1][OFF].sum() - cancels[0], final[0][OFF].sum() - cancels[1])
        a = jnp.maximum(0, c.dice[0] - hits[0])
        b = jnp.maximum(0, c.dice[1] - hits[1])
        limit = self.turn_limit
        cut = (limit > 0) & (c.turn >= limit)
        ended = (a <= 1) | (b <= 1)
        # rules._ending: out (0 dice) before dazed (1 die); both alike a draw.
        win_a = jnp.where((a == 0) | (b == 0), (b == 0) & (a > 0), (b == 1) & (a > 1))
        win_b = jnp.where((a == 0) | (b == 0), (a == 0) & (b > 0), (a == 1) & (b > 1))
        rewards = jnp.where(
            ended, jnp.stack([win_a, win_b]).astype(jnp.float32) - jnp.stack([win_b, win_a]), 0.0
        )
        terminated = ended
        truncated = cut & ~ended
        i32 = jnp.int32
        nxt = c._replace(
            dice=jnp.stack([a, b]),
            phase=jnp.where(ended | cut, OVER, PLACE).astype(i32),
            turn=jnp.where(ended | cut, c.turn, c.turn + 1),
            **_turn_start(),
        )
        # At the end the turn's fields stay as the scalar state leaves them (its observation
        # shows none of them once the game is over, nor does this one).
        return nxt, rewards, terminated, truncated

    def _modifiers(self, c: FiteCore, p: Any) -> jax.Array:
        """Fighter ``p``'s (offence, defence) modifiers: its location's, then the powers declared."""
        base = self.location_bonus[jnp.where(c.location[p] < 0, 3, c.location[p])]
        mine = jnp.where(c.declared[p], jnp.asarray(self.own_bonus)[p], 0)
        theirs = jnp.where(c.declared[1 - p], jnp.asarray(self.their_bonus)[1 - p], 0)
        return base + mine + theirs

    # --- the observation ----------------------------------------------------------------------------

    def observe_one(self, state: BatchState, player: jax.Array) -> jax.Array:
        """FiteFeatures.write_state's array, from ``player``'s seat."""
        c = state.core
        m = jnp.zeros(self.observation_size, jnp.float32)
        order = jnp.stack([player, 1 - player])
        over = c.phase == OVER  # not the flags, which a new game carries from step_reset
        for k in (0, 1):
            q = order[k]
            base = 29 * k
            m = m.at[base + c.dice[q]].set(1.0)
            place = jnp.asarray(self.power_place)[q]
            m = m.at[base + 10 + jnp.maximum(place, 0)].add(jnp.where(place >= 0, 1.0, 0.0))
            m = m.at[base + 17].set(c.used[q].astype(jnp.float32))
            m = m.at[base + 19 + c.location[q]].set(1.0)
            m = m.at[base + 22 + c.face[q]].set(1.0)
        m = m.at[58 + c.phase].set(1.0)
        m = m.at[65].set(self.turn_values[jnp.minimum(c.turn, self.features.turn_limit)])
        m = m.at[66].set(state.acting[player].astype(jnp.float32))
        m = m.at[67].set((c.pending[player] >= 0).astype(jnp.float32))
        shown = ~over & (c.phase != SETUP) & (c.phase != PLACE)
        turn = jnp.zeros(self.observation_size, jnp.float32).at[68].set(1.0)
        split_made = c.split[0, 0] > 0
        for k in (0, 1):
            q = order[k]
            turn = turn.at[70 + 4 * k + c.swift_to[q]].set(1.0)
            made = c.split[q, 0] > 0
            turn = turn.at[77 + 3 * k].set(made.astype(jnp.float32))
            turn = turn.at[78 + 3 * k].set(jnp.where(made, self.eighths[c.split[q, 0]], 0.0))
            turn = turn.at[79 + 3 * k].set(jnp.where(made, self.eighths[c.split[q, 1]], 0.0))
            turn = turn.at[83 + k].set(c.declared[q].astype(jnp.float32))
            for pool, at in ((OFF, 89), (DEF, 96)):
                block = jnp.concatenate([jnp.ones(1), c.rolls[q, pool] * 0.125]).astype(jnp.float32)
                turn = turn.at[at + 14 * k : at + 14 * k + 7].set(jnp.where(c.rolled[q, pool], block, 0.0))
            mod = self._modifiers(c, q)
            values = self.fifths[jnp.clip(mod + 2, 0, 5)]
            turn = turn.at[85 + 2 * k].set(jnp.where(split_made, values[0], 0.0))
            turn = turn.at[86 + 2 * k].set(jnp.where(split_made, values[1], 0.0))
        in_tactical = c.roll_index == len(ROLL_ORDER)
        for k in (0, 1):
            q = order[k]
            turn = turn.at[117 + 3 * k + c.entitled[q]].add(jnp.where(in_tactical, 1.0, 0.0))
        rolling = (c.phase == ROLL) & ~in_tactical
        order_table = jnp.asarray(np.array(ROLL_ORDER, np.int32))
        roller = order_table[jnp.clip(c.roll_index, 0, 3), 0]
        rolled_pool = order_table[jnp.clip(c.roll_index, 0, 3), 1]
        spot = 125 + 2 * (roller != player).astype(jnp.int32) + rolled_pool
        turn = turn.at[spot].add(jnp.where(rolling, 1.0, 0.0))
        turn = turn.at[129].set(jnp.where(rolling, self.eighths[jnp.clip(c.size, 0, 8)], 0.0))
        return jnp.where(shown, m + turn, m)


def _turn_start() -> dict[str, jax.Array]:
    """The fields of the turn under way as a turn starts (none chosen, split or rolled yet)."""
    i32 = jnp.int32
    return {
        "pending": jnp.full(2, -1, i32),
        "swift_to": jnp.full(2, -1, i32),
        "split": jnp.zeros((2, 2), i32),
        "declared": jnp.zeros(2, bool),
        "rolls": jnp.zeros((2, 2, FACES), i32),
        "rolled": jnp.zeros((2, 2), bool),
        "roll_index": jnp.array(0, i32),
        "size": jnp.array(0, i32),
        "entitled": jnp.zeros(2, i32),
    }


def _grid_place(tactic: jax.Array) -> tuple[jax.Array, jax.Array]:
    """A tactical choice's (move, turn) in the grid (0: none) from its number counted from PASS."""
    # PASS 0; moves alone 1..54; turns alone 55..144; both 145.. ((move - 1) * 90 + turn - 1).
    both = tactic - 145
    move = jnp.where(
        tactic == 0, 0, jnp.where(tactic <= 54, tactic, jnp.where(tactic <= 144, 0, both // 90 + 1))
    )
    turn = jnp.where(tactic <= 54, 0, jnp.where(tactic <= 144, tactic - 54, both % 90 + 1))
    return move, turn


def _cancelled(offence: jax.Array, defence: jax.Array, shift: jax.Array) -> jax.Array:
    """rules.count_cancelled of two pools of face counts: the offensive dice cancelled, by Hall's theorem."""
    # at_least[y - 1]: dice showing y or more (y = 1..6); a defensive value above 6 covers nothing more.
    off_ge = jnp.cumsum(offence[::-1])[::-1]
    def_ge = jnp.concatenate([jnp.cumsum(defence[::-1])[::-1], jnp.zeros(1, jnp.int32)])
    y = jnp.arange(1, FACES + 1)
    need = y - shift  # a defensive die covers face y when it shows y - shift or more
    covering = jnp.where(need <= 1, defence.sum(), def_ge[jnp.clip(need - 1, 0, FACES)])
    excess = jnp.max(jnp.maximum(off_ge - covering, 0))
    return offence.sum() - excess


def _rank_tables() -> tuple[np.ndarray, np.ndarray]:
    """For numbering a roll: where each size starts, and how many multisets each choice passes."""
    # A roll of k dice, faces highest first, is a sequence f1 >= f2 >= ... >= fk; in the codec's
    # (lexicographic, from 6 down) order the rolls before it are counted digit by digit.
    from math import comb

    starts = np.zeros(MAX_POOL + 2, np.int64)
    for k in range(1, MAX_POOL + 1):
        starts[k + 1] = starts[k] + comb(FACES + k - 1, k)
    # passed[j, f]: multisets of j dice with faces <= f_prev that come before one starting at f:
    # those starting with a higher face g (f < g <= f_prev), each followed by j - 1 dice <= g.
    ways = np.zeros((MAX_POOL + 1, FACES + 1), np.int64)  # ways[j, f]: multisets of j dice from 1..f
    for j in range(MAX_POOL + 1):
        for f in range(FACES + 1):
            ways[j, f] = comb(f + j - 1, j) if f > 0 else int(j == 0)
    return starts, ways


_ROLL_START, _WAYS = _rank_tables()
_ROLL_RANK = _ROLL_START.astype(np.int32)


def _rank_terms(counts: jax.Array, size: jax.Array) -> jax.Array:
    """The rolls of ``size`` dice that the codec lists before this one, one term per die."""
    # The dice in the codec's order (highest first): die i shows faces[i]; the faces above it and
    # at most the previous die's face each start a block of ways[size - i - 1, g] rolls.
    faces = jnp.repeat(jnp.arange(FACES, 0, -1), counts[::-1], total_repeat_length=MAX_POOL)
    ways = jnp.asarray(_WAYS.astype(np.int32))
    i = jnp.arange(MAX_POOL)
    prev = jnp.concatenate([jnp.full(1, FACES), faces[:-1]])
    rest = jnp.clip(size - i - 1, 0, MAX_POOL)
    g = jnp.arange(1, FACES + 1)
    between = (g[None, :] > faces[:, None]) & (g[None, :] <= prev[:, None])
    terms = jnp.sum(jnp.where(between, ways[rest][:, 1:], 0), axis=1)
    return jnp.where(i < size, terms, 0)


def batch(game: Game) -> FiteBatch:
    """FITE's batched engine (its ``GameInfo.hooks.batch``)."""
    return FiteBatch(game)


__all__ = ["DEF", "OFF", "START_DICE", "FiteBatch", "FiteCore", "batch"]
