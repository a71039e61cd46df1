"""Robo Battle Pigs' batched engine: the rules of rules.py as pure JAX functions (tussle.batch).

The same game as :class:`~tussle.games.robo_pigs.rules.RoboPigsState`, round
for round: each pig submits its program in turn (pig A, then pig B, as the
scalar engine takes a simultaneous step), the programs stay hidden in the state
until both are in, and then the round runs step by step with the collision
rules of :func:`~tussle.games.robo_pigs.rules.play_steps`. Programs are
numbered as :class:`~tussle.games.robo_pigs.encoding.RoboPigsCodec` numbers them
(five base-9 digits, the first command the highest; then the repair program),
and each pig's observation is the array
:class:`~tussle.games.robo_pigs.encoding.RoboPigsFeatures` writes.
tests/test_batch.py plays both engines side by side and compares every
observation, mask and result.

The board's tables come from the scalar game (:attr:`RoboPigs.tables`), so a
custom board (walls, a smaller size, other starts) plays here as it plays
there. Robo Battle Pigs has no chance: ``step`` never rolls.

A program's legality depends only on the pig's damage (the X it owes, and
whether it may repair), so the masks are one table row per damage, made once.
The mask is the cost of this engine: 59,050 actions a decision, where FITE has
5,143 (docs/performance.md).
"""

from __future__ import annotations

from typing import NamedTuple

import jax
import jax.numpy as jnp
import numpy as np

from tussle.batch import NOBODY, BatchGame, BatchState
from tussle.game import Game
from tussle.games.robo_pigs.actions import DAMAGE, REPAIR
from tussle.games.robo_pigs.encoding import RoboPigsCodec, RoboPigsFeatures
from tussle.games.robo_pigs.rules import RoboPigs

#: A digit of a program's number as the command it stands for (RoboPigsCodec's digits: the
#: eight free commands in the rules' order, then X); the repair program is REPAIR in every step.
DIGIT_COMMAND = np.array((0, 1, 2, 3, 4, 5, 6, 7, DAMAGE), np.int32)
#: A command's column in the observation's program blocks (RoboPigsFeatures' tokens: a
#: digit's column is the digit, R's is 9).
REPAIR_COLUMN = 9
POSES = 64 * 4


class RoboPigsCore(NamedTuple):
    """One game's fields (rules.RoboPigsState's, each pig's square and facing as one pose)."""

    pose: jax.Array  # int32[2]: square * 4 + facing
    damage: jax.Array  # int32[2]
    round: jax.Array  # int32: the round being programmed (from 1)
    pending: jax.Array  # int32[2]: the program submitted this round (its number), -1 none yet
    last: jax.Array  # int32[2]: the programs of the round just played, -1 before the first


class RoboPigsBatch(BatchGame):
    """Robo Battle Pigs with every option of its scalar game, custom boards included."""

    num_players = 2
    num_chance = 0
    max_chance = 0
    draws_without_mask = True

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        assert isinstance(game, RoboPigs)
        options = game.options
        self.steps = int(options["program_length"])
        self.lethal = int(options["damage_limit"])
        self.round_limit = int(options["round_limit"])
        self.repair_at_start = options["repair_at"] == "start"
        extra_x = bool(options["extra_x"])
        self.codec = RoboPigsCodec(extra_x, self.steps)
        self.features = RoboPigsFeatures(self.round_limit)
        self.num_actions = self.codec.num_actions
        self.observation_size = self.features.size
        self.repair_action = self.codec.REPAIR
        (square_a, facing_a), (square_b, facing_b) = game.board.starts
        self.start_pose = np.array((square_a * 4 + facing_a, square_b * 4 + facing_b), np.int32)
        # The board's geometry: where each command takes each pose, and the squares it attacks.
        tables = game.tables
        self.pose_after = jnp.asarray(np.array(tables.pose_after, np.int32))
        squares = np.arange(64, dtype=np.uint64)
        masks = np.array(tables.attack_mask, np.uint64)  # [command, pose]
        self.attack = jnp.asarray(((masks[:, :, None] >> squares) & np.uint64(1)).astype(bool))
        # Each program's commands (by step) and observation columns; the repair program last.
        number = np.arange(self.num_actions, dtype=np.int64)
        place = 9 ** np.arange(self.steps - 1, -1, -1, dtype=np.int64)
        digits = (number[:, None] // place[None, :]) % 9
        digits[self.repair_action] = 0
        commands = DIGIT_COMMAND[digits]
        commands[self.repair_action] = REPAIR
        columns = digits.astype(np.int32)
        columns[self.repair_action] = REPAIR_COLUMN
        self.commands = jnp.asarray(commands.astype(np.int32))
        self.columns = jnp.asarray(columns)
        # The legal programs by damage (0 .. 5): the X owed (at least that many with extra_x), or
        # the repair program for a damaged pig: the codec's own count (RoboPigsCodec.fast_legal).
        x_count = (digits == 8).sum(axis=1)
        x_count[self.repair_action] = -1
        legal = np.zeros((6, self.num_actions), bool)
        for damage in range(6):
            owed = min(damage, self.steps)
            legal[damage] = (x_count >= owed) if extra_x else (x_count == owed)
            legal[damage, self.repair_action] = damage > 0
        self.legal = jnp.asarray(legal)
        # The same, listed: each damage's legal programs in order, and how many there are.
        self.legal_count = jnp.asarray(legal.sum(axis=1, dtype=np.int32))
        listed = np.zeros((6, int(legal.sum(axis=1).max())), np.int32)
        for damage in range(6):
            found = np.flatnonzero(legal[damage])
            listed[damage, : len(found)] = found
        self.legal_listed = jnp.asarray(listed)
        # The round's place in the observation, as float32 worked out as RoboPigsFeatures does.
        scale = self.features.round_limit
        self.round_values = jnp.asarray(np.array([min(1.0, r / scale) for r in range(scale + 1)], np.float32))

    # --- the state ----------------------------------------------------------------------------------

    def init_one(self, key: jax.Array) -> BatchState:
        i32 = jnp.int32
        core = RoboPigsCore(
            pose=jnp.asarray(self.start_pose),
            damage=jnp.zeros(2, i32),
            round=jnp.array(1, i32),
            pending=jnp.full(2, -1, i32),
            last=jnp.full(2, -1, i32),
        )
        no, zero = jnp.array(False), jnp.int32(0)
        return self._finish(
            core, jnp.ones(2, bool), jnp.zeros(2, jnp.float32), terminated=no, truncated=no, steps=zero
        )

    def _finish(
        self,
        core: RoboPigsCore,
        acting: jax.Array,
        rewards: jax.Array,
        *,
        terminated: jax.Array,
        truncated: jax.Array,
        steps: jax.Array,
    ) -> BatchState:
        """The state around ``core``: who decides (their mask and observation are :meth:`views_one`'s)."""
        over = terminated | truncated
        current = jnp.where(over, NOBODY, jnp.where(acting[0], 0, jnp.where(acting[1], 1, NOBODY)))
        return BatchState(
            current_player=current.astype(jnp.int32),
            acting=acting & ~over,
            legal_action_mask=self.empty_mask(),
            observation=self.empty_observation(),
            rewards=rewards,
            terminated=terminated,
            truncated=truncated,
            steps=steps,
            core=core,
        )

    def legal_one(self, state: BatchState, player: jax.Array) -> jax.Array:
        return self.legal[jnp.minimum(state.core.damage[player], 5)]

    def _damage_of_current(self, state: BatchState) -> jax.Array:
        return jnp.minimum(state.core.damage[jnp.maximum(state.current_player, 0)], 5)

    def random_action_one(self, state: BatchState, key: jax.Array) -> jax.Array:
        # A legal program is the k-th of its damage's list: one draw, no mask read.
        damage = self._damage_of_current(state)
        pick = jax.random.randint(key, (), 0, self.legal_count[damage])
        return jnp.where(state.current_player >= 0, self.legal_listed[damage, pick], 0)

    def legal_count_one(self, state: BatchState) -> jax.Array:
        on = state.current_player >= 0
        return jnp.where(on, self.legal_count[self._damage_of_current(state)], 0).astype(jnp.int32)

    # --- decisions ----------------------------------------------------------------------------------

    def decide_one(self, state: BatchState, action: jax.Array) -> BatchState:
        return self.decide_simultaneous(state, action, self._round, self._finish)

    def _round(self, c: RoboPigsCore) -> tuple[RoboPigsCore, jax.Array, jax.Array, jax.Array, jax.Array]:
        """Both programs are in: the round played (rules.RoboPigsState._run_round), who programs
        next (both pigs), its pay and end."""
        lethal = self.lethal
        program = jnp.maximum(c.pending, 0)
        commands = self.commands[program]  # [2, steps]
        repair = (c.pending == self.repair_action).astype(jnp.int32)
        damage = c.damage - repair if self.repair_at_start else c.damage
        pose = c.pose
        for k in range(self.steps):
            ca, cb = commands[0, k], commands[1, k]
            pose_a, pose_b = pose[0], pose[1]
            old_a, old_b = pose_a >> 2, pose_b >> 2
            new_a, new_b = self.pose_after[ca, pose_a], self.pose_after[cb, pose_b]
            sa, sb = new_a >> 2, new_b >> 2
            moves_a, moves_b = sa != old_a, sb != old_b
            # play_steps' collision rules: onto one square or through each other, both stay; onto
            # a pig that stays, the mover stays.
            clash = moves_a & moves_b & ((sa == sb) | ((sa == old_b) & (sb == old_a)))
            stay_a = clash | (moves_a & ~moves_b & (sa == old_b))
            stay_b = clash | (moves_b & ~moves_a & (sb == old_a))
            new_a = jnp.where(stay_a, pose_a, new_a)
            new_b = jnp.where(stay_b, pose_b, new_b)
            sa, sb = new_a >> 2, new_b >> 2
            hits = jnp.stack([self.attack[cb, new_b, sa], self.attack[ca, new_a, sb]]).astype(jnp.int32)
            # The game ends at once when a pig reaches the limit: later steps are not played.
            on = jnp.all(damage < lethal)
            pose = jnp.where(on, jnp.stack([new_a, new_b]), pose)
            damage = jnp.where(on, damage + hits, damage)
        dead = damage >= lethal
        if not self.repair_at_start:
            # A repair at the end counts only if the game goes on.
            damage = jnp.where(jnp.any(dead), damage, damage - repair)
        round_number = c.round + 1
        terminated = jnp.any(dead)
        truncated = ~terminated & (self.round_limit > 0) & (round_number > self.round_limit)
        # Result.win: the winner +1, the loser -1; both at the limit in one step, or the round limit: 0.
        alone = dead[0] != dead[1]
        rewards = jnp.where(alone, jnp.where(dead, -1.0, 1.0), 0.0).astype(jnp.float32)
        played = RoboPigsCore(
            pose=pose, damage=damage, round=round_number, pending=jnp.full(2, -1, jnp.int32), last=c.pending
        )
        return played, jnp.ones(2, bool), rewards, terminated, truncated

    # --- no chance ----------------------------------------------------------------------------------

    def sample_one(self, state: BatchState, key: jax.Array) -> jax.Array:
        return jnp.zeros((), jnp.int32)

    def chance_one(self, state: BatchState, outcome: jax.Array) -> BatchState:
        return state

    # --- the observation ----------------------------------------------------------------------------

    def observe_one(self, state: BatchState, player: jax.Array) -> jax.Array:
        """RoboPigsFeatures.write_state's array, from ``player``'s seat."""
        c = state.core
        order = jnp.stack([player, 1 - player])
        pose = c.pose[order]
        damage = c.damage[order]
        f32 = jnp.float32
        squares = (jnp.arange(64)[None, :] == (pose >> 2)[:, None]).reshape(-1)
        facings = (jnp.arange(4)[None, :] == (pose & 3)[:, None]).reshape(-1)
        hurt = (jnp.arange(6)[None, :] == damage[:, None]).reshape(-1)
        limit = self.features.round_limit
        round_value = self.round_values[jnp.clip(c.round, 0, limit)]
        mine = c.pending[player]
        programs = jnp.stack([mine, c.last[order[0]], c.last[order[1]]])  # [3]: -1 where none
        columns = self.columns[jnp.maximum(programs, 0)]  # [3, steps]
        blocks = (jnp.arange(10)[None, None, :] == columns[:, :, None]) & (programs >= 0)[:, None, None]
        blocks = jnp.pad(blocks, ((0, 0), (0, 5 - self.steps), (0, 0))).reshape(3, 50)
        return jnp.concatenate(
            [
                squares.astype(f32),
                facings.astype(f32),
                hurt.astype(f32),
                jnp.stack([round_value, (mine >= 0).astype(f32)]),
                blocks.reshape(-1).astype(f32),
            ]
        )


def batch(game: Game) -> RoboPigsBatch:
    """Robo Battle Pigs' batched engine (its ``GameInfo.hooks.batch``)."""
    return RoboPigsBatch(game)


__all__ = ["RoboPigsBatch", "RoboPigsCore", "batch"]
