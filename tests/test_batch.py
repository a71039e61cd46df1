"""The batched engines (tussle.batch) against the scalar ones: the same game, event for event.

Random games are played on both engines at once with the same decisions and
the same chance outcomes (the scalar engine's draws, given to the batched one
by number); at every event the test compares who is to act, the legal actions
of the player deciding, both players' observation arrays, and, at the end, the
result. ``TUSSLE_BATCH_GAMES`` sets how many games each case plays (the
default keeps the suite quick; docs/ecosystem.md gives the long run's command).
"""

from __future__ import annotations

import json
import os
import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("jax")

import jax
import jax.numpy as jnp
import numpy as np

from tussle.adapters.encoding import encoding_for
from tussle.batch import CHANCE, NOBODY, BatchGame, make, random_actions
from tussle.errors import OptionError
from tussle.game import CHANCE as SCALAR_CHANCE
from tussle.game import Termination
from tussle.record import Record
from tussle.registry import load_game, simulation_options

GAMES = int(os.environ.get("TUSSLE_BATCH_GAMES", "30"))
# A random game of Robo Battle Pigs is about 150 decisions (FITE's, 40): half as many games by default.
ROBO_PIGS_GAMES = int(os.environ.get("TUSSLE_BATCH_GAMES", "15"))
GOLDEN = Path(__file__).parent / "data" / "golden"

FITE_CASES: list[dict[str, Any]] = [
    {"turn_limit": 100},
    {"turn_limit": 6, "power_a": "cunning", "power_b": "swift"},
    {"turn_limit": 100, "power_a": "brutal", "power_b": "tough"},
    {"turn_limit": 100, "power_a": "aggressive", "power_b": "fast"},
    {"turn_limit": 100, "power_a": "swift", "power_b": "cunning", "setup_placement": False},
    {"turn_limit": 0, "dice": 3, "tactical": False, "power_a": "cunning"},
]
ROBO_PIGS_CASES: list[dict[str, Any]] = [
    {"round_limit": 100},
    {"repair_at": "start", "extra_x": True, "round_limit": 30},
    {"program_length": 3, "damage_limit": 3, "round_limit": 0},
    # A custom board: a smaller one, a wall, other starts (docs/games/robo-pigs.md, "Custom boards").
    {"round_limit": 20, "board": 'size = [5, 4]\nwalls = ["c2"]\na = "a4E"\nb = "e1W"'},
]
CASES = [("fite", options) for options in FITE_CASES] + [("robo-pigs", o) for o in ROBO_PIGS_CASES]


def _where(flags: np.ndarray, a: Any, b: Any) -> Any:
    chosen = jnp.asarray(flags)
    return jax.tree.map(lambda x, y: jnp.where(chosen.reshape((-1,) + (1,) * (x.ndim - 1)), x, y), a, b)


def play_side_by_side(
    game_id: str, options: dict[str, Any], games: int, seed: int, records: Sequence[Record] = ()
) -> int:
    """Play ``games`` random games on both engines, or ``records``' games; return the events compared."""
    game = load_game(game_id, **options)
    encoding = encoding_for(game)
    env: BatchGame = make(game_id, **options)
    rng = random.Random(seed)
    scalars = [record.initial_state() for record in records] or [
        game.new_initial_state() for _ in range(games)
    ]
    games = len(scalars)

    def recorded(g: int, player: int, state: Any) -> Any:
        """The record's next event of game ``g``, which must be ``player``'s."""
        who, text = records[g].events[played[g]]
        assert who == player, f"record {g} event {played[g]}: {who} where the engine has {player} to act"
        return state.parse_action(player, text)

    batch = env.init_exact(jax.random.split(jax.random.PRNGKey(seed), games))
    events = 0
    played = [0] * games
    players = range(env.num_players)
    while True:
        current = np.asarray(batch.current_player)
        masks = np.asarray(batch.legal_action_mask)
        obs = [np.asarray(env.observe(batch, jnp.full(games, p, jnp.int32))) for p in players]
        acting = np.asarray(batch.acting)
        actions = np.zeros(games, np.int32)
        outcomes = np.zeros(games, np.int32)
        is_chance = np.zeros(games, bool)
        live = False
        for g, state in enumerate(scalars):
            where = f"{game_id} {options} game {g} after {played[g]} events"
            to_act = state.to_act()
            for p in players:
                want = encoding.observation(state, int(p))
                wrong = np.flatnonzero(obs[p][g] != want)
                assert not wrong.size, (
                    f"{where}: player {p}'s view at {wrong}: {obs[p][g][wrong]} not {want[wrong]}"
                )
            if not to_act:
                result = state.result()
                assert result is not None
                assert current[g] == NOBODY, where
                cut = result.termination == Termination.LIMIT
                assert bool(batch.truncated[g]) == cut and bool(batch.terminated[g]) == (not cut), where
                continue
            live = True
            if to_act == (SCALAR_CHANCE,):
                assert current[g] == CHANCE, where
                outcome = recorded(g, SCALAR_CHANCE, state) if records else state.sample_chance(rng)
                outcomes[g] = encoding.codec.chance_index(state, outcome)
                is_chance[g] = True
                state.apply(SCALAR_CHANCE, outcome)
            else:
                assert tuple(np.flatnonzero(acting[g])) == to_act, where
                p = min(to_act)
                assert current[g] == p, where
                legal = encoding.legal(state, p)
                assert np.flatnonzero(masks[g]).tolist() == legal.indices, f"{where}: legal actions"
                if records:
                    action = recorded(g, p, state)
                    index = encoding.codec.encode(state.action_to_str(p, action))
                    assert legal.action(state, index) == action, f"{where}: the action's number"
                else:
                    index = rng.choice(legal.indices)
                    action = legal.action(state, index)
                actions[g] = index
                state.apply(p, action)
            events += 1
            played[g] += 1
        if not live:
            break
        before = batch
        decided = env.decide(before, jnp.asarray(actions))
        rolled = env.chance(before, jnp.asarray(outcomes))
        batch = _where(is_chance, rolled, decided)
        for g, state in enumerate(scalars):
            result = state.result()
            if result is not None and state.to_act() == ():
                rewards = np.asarray(batch.rewards[g])
                if not bool(before.terminated[g] | before.truncated[g]):
                    assert rewards.tolist() == list(result.returns), f"{game_id} game {g}: rewards"
    return events


def _case_id(case: tuple[str, dict[str, Any]]) -> str:
    game_id, options = case
    return game_id + ":" + ",".join(f"{k}={v}" for k, v in options.items()).replace("\n", " ")


@pytest.mark.parametrize("case", CASES, ids=_case_id)
def test_batch_plays_the_scalar_game(case: tuple[str, dict[str, Any]]) -> None:
    game_id, options = case
    games = ROBO_PIGS_GAMES if game_id == "robo-pigs" else GAMES
    assert play_side_by_side(game_id, options, games, seed=len(str(options))) > games * 10


@pytest.mark.parametrize(("game_id", "least"), [("fite", 10), ("robo-pigs", 9)])
def test_golden_records_replay_through_the_batched_engine(game_id: str, least: int) -> None:
    # Every committed golden record of the game (each shipped agent's seeded games, tests/data/golden):
    # each event given to both engines, the masks, both players' views and the results compared.
    groups: dict[str, list[Record]] = {}
    for path in sorted(GOLDEN.glob(f"{game_id}--*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            record = Record.from_json(json.loads(line))
            groups.setdefault(json.dumps(record.options, sort_keys=True), []).append(record)
    assert sum(map(len, groups.values())) >= least
    compared = 0
    for options, records in groups.items():
        compared += play_side_by_side(game_id, json.loads(options), 0, 0, records=records)
    assert compared == sum(len(r.events) for rs in groups.values() for r in rs)


@pytest.mark.parametrize("game_id", ["fite", "robo-pigs"])
def test_playout_engine_draws_and_counts_as_the_masks_say(game_id: str) -> None:
    # for_playouts' states carry no observation (and no mask where the game draws without one);
    # its draws are random_actions' on the full engine's masks, key for key, and its counts theirs.
    env = make(game_id, **simulation_options(game_id))
    n = 256
    # The full engine compiles first: none of its compiled calls may reach the playout engine.
    full_states = env.init(jax.random.split(jax.random.PRNGKey(7), n))
    lean = env.for_playouts()
    assert lean is not env and lean.for_playouts() is lean and env.for_playouts() is lean
    lean_states = lean.init(jax.random.split(jax.random.PRNGKey(7), n))
    assert lean_states.observation.shape == (n, 0)
    assert lean_states.legal_action_mask.shape == ((n, 0) if env.draws_without_mask else (n, env.num_actions))
    draw_full = jax.jit(jax.vmap(env.random_action_one))
    draw_lean = jax.jit(jax.vmap(lean.random_action_one))
    count = jax.jit(jax.vmap(lean.legal_count_one))
    step_full, step_lean = jax.jit(env.step_reset), jax.jit(lean.step_reset)
    key = jax.random.PRNGKey(8)
    for _ in range(60):
        key, choose, play = jax.random.split(key, 3)
        keys = jax.random.split(choose, n)
        actions = draw_full(full_states, keys)
        assert (np.asarray(draw_lean(lean_states, keys)) == np.asarray(actions)).all()
        counted = np.asarray(full_states.legal_action_mask).sum(axis=1)
        assert (np.asarray(count(lean_states)) == counted).all()
        assert np.asarray(full_states.legal_action_mask)[np.arange(n), np.asarray(actions)].all()
        full_states = step_full(full_states, actions, jax.random.split(play, n))
        lean_states = step_lean(lean_states, actions, jax.random.split(play, n))
        same = jax.tree.map(lambda a, b: bool(jnp.all(a == b)), full_states.core, lean_states.core)
        assert all(jax.tree.leaves(same))


def test_fite_batch_refuses_what_it_does_not_play() -> None:
    with pytest.raises(OptionError, match="turn_dice=own only"):
        make("fite", turn_dice="any")
    with pytest.raises(OptionError, match="no batched engine"):
        make("tank-chess")


def test_fite_batch_random_play_ends_every_game() -> None:
    env = make("fite", turn_limit=100)
    states = env.init(jax.random.split(jax.random.PRNGKey(3), 64))
    key = jax.random.PRNGKey(4)
    step = jax.jit(lambda s, k: env.step(s, random_actions(s, k), jax.random.split(k, 64)))
    for _ in range(400):
        key, sub = jax.random.split(key)
        states = step(states, sub)
    assert bool(jnp.all(states.terminated | states.truncated))
    assert not bool(jnp.any(states.legal_action_mask))


def test_step_reset_starts_a_new_game_where_one_ends() -> None:
    env = make("fite", turn_limit=100)
    n = 64
    states = env.init(jax.random.split(jax.random.PRNGKey(5), n))
    key = jax.random.PRNGKey(6)
    step = jax.jit(lambda s, k: env.step_reset(s, random_actions(s, k), jax.random.split(k, n)))
    ended = 0
    for _ in range(300):
        key, sub = jax.random.split(key)
        states = step(states, sub)
        over = np.asarray(states.terminated | states.truncated)
        rewards = np.asarray(states.rewards)
        # Every game is on (a player to act, with a legal action); one that just ended shows its result.
        assert (np.asarray(states.current_player) >= 0).all()
        assert np.asarray(states.legal_action_mask).any(axis=1).all()
        assert (rewards.sum(axis=1) == 0).all() and (rewards[~over] == 0).all()
        ended += int(over.sum())
    assert ended >= n


def test_random_actions_are_uniform_over_the_legal_ones() -> None:
    env = make("fite", turn_limit=100)
    states = env.init(jax.random.split(jax.random.PRNGKey(0), 1))
    mask = np.zeros((8000, env.num_actions), bool)
    legal = [0, 138, 139, 5000, env.num_actions - 1]
    mask[:, legal] = True
    mask[0] = False  # a game with no legal action gets 0
    many = jax.tree.map(lambda x: jnp.repeat(x, 8000, axis=0), states)._replace(
        legal_action_mask=jnp.asarray(mask)
    )
    picks = np.asarray(random_actions(many, jax.random.PRNGKey(1)))
    assert picks[0] == 0
    chosen, counts = np.unique(picks[1:], return_counts=True)
    assert chosen.tolist() == legal
    # Each is drawn with probability 1/5: within 5 standard deviations of 7,999 / 5.
    assert (np.abs(counts - 7999 / 5) < 5 * (7999 * 0.2 * 0.8) ** 0.5).all()


def test_bench_batch_measures_both_engines_in_one_run() -> None:
    from click.testing import CliRunner

    from tussle.cli import cli

    result = CliRunner().invoke(
        cli, ["bench", "--batch", "fite", "--sizes", "4", "-s", "0.1", "--rounds", "2", "--json"]
    )
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    (fite,) = report["games"]
    assert fite["game"] == "fite" and fite["options"]["turn_limit"] == 100
    # Each size twice: with the views pgx's interface makes, and as random playouts play it.
    assert [(row["size"], row["views"]) for row in fite["sizes"]] == [(4, True), (4, False)]
    assert fite["scalar_decisions_per_s"]["median"] > 0
    assert all(row["decisions_per_s"]["min"] > 0 for row in fite["sizes"])
    best = max(fite["sizes"], key=lambda row: row["decisions_per_s"]["median"])
    assert (fite["best_size"], fite["best_views"]) == (best["size"], best["views"])
    # The report gives the speedup to two decimals and each median to a whole decision.
    assert fite["speedup"] == pytest.approx(
        best["decisions_per_s"]["median"] / fite["scalar_decisions_per_s"]["median"], abs=0.0051
    )
    assert fite["target_decisions_per_s"] == 2_000_000
    assert report["environment"]["devices"]


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--sizes", "0"], "--sizes '0': give batch sizes from 1 to 65536"),
        (["--sizes", "1,x"], "give batch sizes from 1 to 65536"),
        (["tank-chess"], "tank-chess has no batched engine yet"),
    ],
)
def test_bench_batch_refuses_in_one_line(args: list[str], says: str) -> None:
    from click.testing import CliRunner

    from tussle.cli import cli

    result = CliRunner().invoke(cli, ["bench", "--batch", *args])
    assert result.exit_code != 0
    assert says in result.output and "Traceback" not in result.output
    assert len(result.output.strip().splitlines()) == 1
