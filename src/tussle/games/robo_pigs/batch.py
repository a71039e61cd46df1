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

from typing import ClassVar, NamedTuple

import jax
import jax.numpy as jnp
import numpy as np

from tussle.batch import MAX_SIMULATIONS, NOBODY, BatchGame, BatchState
from tussle.errors import AgentError
from tussle.game import Game
from tussle.games.robo_pigs.actions import DAMAGE, REPAIR
from tussle.games.robo_pigs.encoding import RoboPigsCodec, RoboPigsFeatures
from tussle.games.robo_pigs.rule_agent import DAMAGE_COST, LINE_BONUS, WEIGHTS, WIN
from tussle.games.robo_pigs.rules import RoboPigs

#: A digit of a program's number as the command it stands for (RoboPigsCodec's digits: the
#: eight free commands in the rules' order, then X); the repair program is REPAIR in every step.
DIGIT_COMMAND = np.array((0, 1, 2, 3, 4, 5, 6, 7, DAMAGE), np.int32)
#: A command's column in the observation's program blocks (RoboPigsFeatures' tokens: a
#: digit's column is the digit, R's is 9).
REPAIR_COLUMN = 9
POSES = 64 * 4
#: A step in each facing (N E S W, the rules' facing numbers) as file and rank deltas.
STEP = ((0, 1), (1, 0), (0, -1), (-1, 0))


def _in_line_table() -> np.ndarray:
    """bool[pose, square]: whether ``square`` lies straight ahead of a pig in ``pose`` (the rule
    agent's line, walls or not)."""
    table = np.zeros((POSES, 64), bool)
    for pose in range(POSES):
        square, facing = pose >> 2, pose & 3
        x, y = square % 8, square // 8
        dx, dy = STEP[facing]
        for target in range(64):
            tx, ty = target % 8, target // 8
            table[pose, target] = ty == y and (tx - x) * dx > 0 if dx else tx == x and (ty - y) * dy > 0
    return table


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
    batched_agents: ClassVar[dict[str, str]] = {"rule": "rule_agent"}

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

    def legal_program(self, key: jax.Array, damage: jax.Array) -> jax.Array:
        """A legal program of a pig with ``damage`` (at most 5), drawn uniformly: the k-th of its
        damage's list, one draw and no mask read."""
        return self.legal_listed[damage, jax.random.randint(key, (), 0, self.legal_count[damage])]

    def random_action_one(self, state: BatchState, key: jax.Array) -> jax.Array:
        program = self.legal_program(key, self._damage_of_current(state))
        return jnp.where(state.current_player >= 0, program, 0)

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

    # --- the rule agent -----------------------------------------------------------------------------

    def rule_agent(self, candidates: int, samples: int, finalists: int, variations: int) -> RuleAgentBatch:
        """The rule agent (:class:`RuleAgentBatch`) with these parameters (the scalar agent's)."""
        return RuleAgentBatch(self, candidates, samples, finalists, variations)

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


class RuleAgentBatch:
    """:class:`~tussle.games.robo_pigs.rule_agent.RoboPigsRuleAgent` as one state's choice.

    The same agent, in distribution though not in random stream: its pool of programs (the
    repair program where it is legal, then every fourth candidate a legal program drawn
    uniformly and the rest biased ones, duplicates dropped), each scored by its mean value
    over the same sampled opponent programs; the best ``finalists`` varied one command at a
    time; the finalists and their new variations judged again on twice the samples. Ties go
    to the earlier program, as there. Every candidate's rounds are played at once. The
    parts are methods so that tests/test_batch_agents.py can hold each to the scalar agent's.
    """

    #: The most programs the agent may hold at once for one decision (each compared with the others).
    MAX_PROGRAMS = 1_000

    def __init__(self, engine: RoboPigsBatch, candidates: int, samples: int, finalists: int, variations: int):
        # The scalar agent's bounds allow 10,000 of each; here every round of a decision is played
        # at once, for every game the agent decides in, so the batched form has bounds of its own.
        finals = min(finalists, candidates + 1)
        programs = candidates + 1 + finals * (1 + variations)
        #: Simulated rounds a decision: each candidate, then each finalist and variation on twice the samples.
        self.simulations = (candidates + 1) * samples + finals * (1 + variations) * 2 * samples
        if programs > self.MAX_PROGRAMS or self.simulations > MAX_SIMULATIONS:
            raise AgentError(
                f"{programs:,} programs and {self.simulations:,} simulated rounds a decision, "
                f"more than the batched agent's {self.MAX_PROGRAMS:,} and {MAX_SIMULATIONS:,}: lower "
                "candidates, samples, finalists or variations, or play it with --engine scalar"
            )
        self.engine = engine
        self.candidates, self.samples = candidates, samples
        self.finalists, self.variations = finalists, variations
        self.steps = engine.steps
        self.place = jnp.asarray(9 ** np.arange(self.steps - 1, -1, -1), jnp.int32)
        self.weight_ends = jnp.asarray(np.cumsum(WEIGHTS), jnp.uint32)
        self.cost = jnp.asarray(DAMAGE_COST, jnp.float32)
        self.in_line = jnp.asarray(_in_line_table())

    # The program writers draw their random words in one call each and make every choice of
    # them by arithmetic: each jax.random call is a graph of its own, and they were most of
    # the agent's time to compile.

    def _weighted(self, word: jax.Array) -> jax.Array:
        """A free command drawn by weight from a random word."""
        return jnp.sum(_below(word, self.weight_ends[-1]) >= self.weight_ends)

    def biased(self, key: jax.Array, damage: jax.Array) -> jax.Array:
        """The scalar agent's ``_biased_program``: X in a uniformly drawn set of min(damage, steps)
        steps (it inserts them one at a time at uniform places: the same law), the free commands
        drawn by weight."""
        words = jax.random.bits(key, (2, self.steps))
        free = jax.vmap(self._weighted)(words[0])
        order = jnp.argsort(words[1])  # a uniform order of the steps (ties: one in 2^32)
        owed = jnp.minimum(damage, self.steps)
        x = jnp.zeros(self.steps, bool).at[order].set(jnp.arange(self.steps) < owed)
        return jnp.sum(jnp.where(x, 8, free) * self.place).astype(jnp.int32)

    def varied(self, key: jax.Array, program: jax.Array) -> jax.Array:
        """The scalar agent's ``_variation``: one X swapped with any step a quarter of the time
        when there is one, else one free command redrawn by weight; the repair program kept."""
        digits = (program // self.place) % 9
        x = digits == 8
        n_x, n_free = x.sum(), (~x).sum()
        coin, pick, to, command = jax.random.bits(key, (4,))
        swap = (n_x > 0) & (coin < 1 << 30)  # a quarter of the words
        # The k-th X, or the k-th free step: the first step whose running count passes k.
        k = _below(pick, jnp.maximum(jnp.where(swap, n_x, n_free), 1))
        i = jnp.argmax(jnp.cumsum(jnp.where(swap, x, ~x)) > k)
        j = _below(to, self.steps)
        swapped = digits.at[i].set(digits[j]).at[j].set(digits[i])
        redrawn = digits.at[i].set(self._weighted(command))
        out = jnp.where(swap, swapped, jnp.where(n_free > 0, redrawn, digits))
        repair = self.engine.repair_action
        return jnp.where(program == repair, repair, jnp.sum(out * self.place)).astype(jnp.int32)

    def value(self, core: RoboPigsCore, me: jax.Array, program: jax.Array, reply: jax.Array) -> jax.Array:
        """The scalar agent's ``_value`` of the round ``me`` plays ``program`` in and the other
        pig ``reply``."""
        opp = 1 - me
        pending = jnp.zeros(2, jnp.int32).at[me].set(program).at[opp].set(reply)
        after, _, rewards, terminated, truncated = self.engine._round(core._replace(pending=pending))
        hurt, dealt = after.damage[me], after.damage[opp]
        mine, theirs = after.pose[me], after.pose[opp]
        line = self.in_line[mine, theirs >> 2].astype(jnp.float32) - self.in_line[theirs, mine >> 2]
        going = self.cost[jnp.minimum(dealt, 4)] - self.cost[jnp.minimum(hurt, 4)] + LINE_BONUS * line
        ended = jnp.where(terminated | truncated, (dealt - hurt).astype(jnp.float32), going)
        return jnp.where(rewards[me] > 0, WIN, jnp.where(rewards[me] < 0, -WIN, ended))

    def __call__(self, state: BatchState, key: jax.Array) -> jax.Array:
        c = state.core
        me = jnp.maximum(state.current_player, 0)
        opp = 1 - me
        mine, theirs = jnp.minimum(c.damage[me], 5), jnp.minimum(c.damage[opp], 5)
        # An opponent still to program gets half its replies biased; one that has programmed
        # holds a hidden program, which the scalar agent's sampled states draw uniformly.
        replying = state.acting[opp]
        repair = self.engine.repair_action

        def trials(key: jax.Array, count: int) -> jax.Array:
            keys = jax.random.split(key, count)
            plain = jax.vmap(self.engine.legal_program, in_axes=(0, None))(keys, theirs)
            bent = jax.vmap(self.biased, in_axes=(0, None))(keys, theirs)
            return jnp.where(replying & ((jnp.arange(count) % 2) == 1), bent, plain)

        def scores(programs: jax.Array, replies: jax.Array, valid: jax.Array) -> jax.Array:
            each = jax.vmap(lambda p: jax.vmap(lambda r: self.value(c, me, p, r))(replies))(programs)
            return jnp.where(valid, each.mean(axis=1), -jnp.inf)

        pool_key, trial_key, vary_key, final_key = jax.random.split(key, 4)
        keys = jax.random.split(pool_key, self.candidates)
        drawn = jnp.where(
            (jnp.arange(self.candidates) % 4) == 0,
            jax.vmap(self.engine.legal_program, in_axes=(0, None))(keys, mine),
            jax.vmap(self.biased, in_axes=(0, None))(keys, mine),
        )
        programs = jnp.concatenate([jnp.array([repair], jnp.int32), drawn])
        legal = jnp.concatenate([self.engine.legal[mine, repair][None], jnp.ones(self.candidates, bool)])
        pool = _firsts(programs, legal)
        first = scores(programs, trials(trial_key, self.samples), pool)
        best, top = jax.lax.top_k(first, min(self.finalists, self.candidates + 1))  # ties: the earlier
        kept = best > -jnp.inf
        keys = jax.random.split(vary_key, top.shape[0] * self.variations)
        news = jax.vmap(self.varied)(keys, jnp.repeat(programs[top], self.variations))
        known = jnp.any(news[:, None] == jnp.where(pool, programs, -1), axis=1)
        fresh = _firsts(news, jnp.repeat(kept, self.variations) & ~known)
        judged = jnp.concatenate([programs[top], news])
        last = scores(judged, trials(final_key, 2 * self.samples), jnp.concatenate([kept, fresh]))
        return judged[jnp.argmax(last)]


def _below(word: jax.Array, n: jax.Array | int) -> jax.Array:
    """A uniform integer below ``n`` (at most 65,535) from a random 32-bit word: ``word * n``'s
    high 32 bits, in 32-bit arithmetic (bias at most n / 2^32)."""
    size = jnp.asarray(n, jnp.uint32)
    high = (word >> 16) * size + (((word & 0xFFFF) * size) >> 16)
    below: jax.Array = (high >> 16).astype(jnp.int32)
    return below


def _firsts(programs: jax.Array, valid: jax.Array) -> jax.Array:
    """``valid`` where no earlier valid program is the same (a dict's first insertion)."""
    n = programs.shape[0]
    same = (programs[:, None] == programs[None, :]) & valid[None, :]
    earlier = jnp.arange(n)[None, :] < jnp.arange(n)[:, None]
    return valid & ~jnp.any(same & earlier, axis=1)


def batch(game: Game) -> RoboPigsBatch:
    """Robo Battle Pigs' batched engine (its ``GameInfo.hooks.batch``)."""
    return RoboPigsBatch(game)


__all__ = ["RoboPigsBatch", "RoboPigsCore", "RuleAgentBatch", "batch"]
