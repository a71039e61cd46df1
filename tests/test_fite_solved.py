"""The FITE solver and the ``fite:solved`` agent: matrix games, exact odds checked by the engine, play."""

from __future__ import annotations

import itertools
import json
import math
import random
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tussle import CHANCE, load_game
from tussle.agents import agent_names, make_agent, parse_spec
from tussle.agents.base import PlayerView
from tussle.errors import AgentError
from tussle.game import State
from tussle.games.fite.notation import parse_tactic
from tussle.games.fite.rules import apply_tactic, tactic_actions
from tussle.games.fite.solved import FiteSolvedAgent, shipped_strategy, tactical_choices
from tussle.games.fite.solver import (
    LOCATION_PAIRS,
    LOCATIONS,
    POWERS,
    Solver,
    SolverError,
    best_reply_gap,
    fight_hits,
    hit_chances,
    modifiers,
    next_value,
    solve_matrix_game,
    split_options,
    state_keys,
    strategy_from_json,
    strategy_to_json,
    turn_lowest,
    uncancelled,
    uncancelled_by_counts,
)
from tussle.runner import play_game

# --- matrix games -----------------------------------------------------------------


def test_matching_pennies_is_a_fair_coin() -> None:
    sol = solve_matrix_game([[1, -1], [-1, 1]])
    assert sol.value == pytest.approx(0.0, abs=1e-12)
    assert sol.row == pytest.approx((0.5, 0.5))
    assert sol.col == pytest.approx((0.5, 0.5))


def test_rock_paper_scissors_is_uniform() -> None:
    sol = solve_matrix_game([[0, -1, 1], [1, 0, -1], [-1, 1, 0]])
    assert sol.value == pytest.approx(0.0, abs=1e-12)
    assert sol.row == pytest.approx((1 / 3,) * 3)
    assert sol.col == pytest.approx((1 / 3,) * 3)


def test_a_dominated_row_gets_no_weight() -> None:
    # Row 2 is worse than row 0 against every column; the rest is a 2x2 game of value 1/7.
    sol = solve_matrix_game([[3, -1], [-2, 1], [2, -2]])
    assert sol.row[2] == 0.0
    assert sol.value == pytest.approx(1 / 7)
    assert sol.row[:2] == pytest.approx((3 / 7, 4 / 7))
    assert sol.col == pytest.approx((2 / 7, 5 / 7))


def test_a_saddle_point_is_pure() -> None:
    sol = solve_matrix_game([[4, 2, 5], [1, 0, 7], [3, 1, 9]])
    assert (sol.value, sol.row, sol.col) == (2.0, (1.0, 0.0, 0.0), (0.0, 1.0, 0.0))


@settings(max_examples=60, deadline=None)
@given(
    st.integers(1, 9).flatmap(
        lambda m: st.integers(1, 9).flatmap(
            lambda n: st.lists(st.lists(st.integers(-5, 5), min_size=n, max_size=n), min_size=m, max_size=m)
        )
    )
)
def test_random_games_are_solved_to_an_equilibrium(payoff: list[list[int]]) -> None:
    sol = solve_matrix_game(payoff)
    assert sum(sol.row) == pytest.approx(1.0) and min(sol.row) >= 0.0
    assert sum(sol.col) == pytest.approx(1.0) and min(sol.col) >= 0.0
    assert best_reply_gap(payoff, sol.row, sol.col) < 1e-9
    # The value is what each side guarantees.
    guaranteed = min(
        sum(p * row[j] for p, row in zip(sol.row, payoff, strict=True)) for j in range(len(payoff[0]))
    )
    assert guaranteed == pytest.approx(sol.value, abs=1e-9)


@pytest.mark.parametrize(
    ("payoff", "message"),
    [
        ([], "at least one row"),
        ([[1, 2], [3]], "row 1 has 1 entries"),
        ([[1.0, math.nan]], "not a finite payoff"),
    ],
)
def test_bad_matrices_are_refused_in_one_line(payoff: Any, message: str) -> None:
    with pytest.raises(SolverError, match=message):
        solve_matrix_game(payoff)


# --- the fight's arithmetic ----------------------------------------------------------


def brute_uncancelled(offence: list[int], defence: list[int]) -> int:
    """Uncancelled dice under the largest cancellation, tried every way."""

    def most(i: int, free: frozenset[int]) -> int:
        if i == len(defence):
            return 0
        options = [most(i + 1, free)]
        options += [1 + most(i + 1, free - {k}) for k in free if offence[k] <= defence[i]]
        return max(options)

    return len(offence) - most(0, frozenset(range(len(offence))))


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.integers(1, 6), min_size=1, max_size=5),
    st.lists(st.integers(1, 6), min_size=1, max_size=5),
    st.integers(-3, 3),
)
def test_cancellation_by_tail_counts_agrees_with_the_greedy_and_brute_force(
    offence: list[int], defence: list[int], edge: int
) -> None:
    def tails(faces: list[int]) -> list[int]:
        return [sum(f >= m for f in faces) for m in range(8)]

    greedy = uncancelled(offence, [d + edge for d in defence])
    assert uncancelled_by_counts(tails(offence), tails(defence), edge) == greedy
    assert brute_uncancelled(offence, [d + edge for d in defence]) == greedy


def test_turn_lowest_turns_only_faces_one_to_three() -> None:
    assert turn_lowest((1, 2, 3, 4), 2) == (6, 5, 4, 3)
    assert turn_lowest((3, 4, 5), 2) == (5, 4, 4)
    assert turn_lowest((4, 5), 2) == (5, 4)
    assert turn_lowest((2, 1), 0) == (2, 1)


@pytest.mark.parametrize(
    ("attack", "attack_turns", "defence", "defence_turns", "edge"),
    [(1, 0, 1, 0, 0), (2, 2, 2, 0, -1), (3, 1, 2, 1, 2), (2, 0, 3, 2, -3), (3, 2, 3, 1, 1), (4, 0, 1, 0, 3)],
)
def test_hit_chances_are_exact(
    attack: int, attack_turns: int, defence: int, defence_turns: int, edge: int
) -> None:
    counts = [0] * (attack + 1)
    for off in itertools.product(range(1, 7), repeat=attack):
        final_off = turn_lowest(off, attack_turns)
        for dfn in itertools.product(range(1, 7), repeat=defence):
            final_def = turn_lowest(dfn, defence_turns)
            counts[uncancelled(final_off, [d + edge for d in final_def])] += 1
    total = 6 ** (attack + defence)
    assert hit_chances(attack, attack_turns, defence, defence_turns, edge) == tuple(
        float(Fraction(c, total)) for c in counts
    )


def test_the_end_of_a_fight_follows_the_rules() -> None:
    assert next_value(0, 0) == 0.0  # both out: a draw
    assert next_value(0, 5) == -1.0 and next_value(5, 0) == 1.0
    assert next_value(1, 0) == 1.0  # out loses to finished off
    assert next_value(1, 1) == 0.0 and next_value(1, 2) == -1.0 and next_value(2, 1) == 1.0
    assert next_value(2, 2) is None


# --- the model against the engine ----------------------------------------------------


def plan_text(pools: tuple[tuple[int, ...], tuple[int, ...]], in_off: int) -> str:
    named = []
    for index, (name, count) in enumerate((("off", in_off), ("def", 2 - in_off))):
        taken = [f for f in sorted(pools[index])[:count] if f <= 3]
        if taken:
            named.append(f"{name} {','.join(str(f) for f in sorted(taken, reverse=True))}")
    return "turn " + " ".join(named) if named else "pass"


def to_split(state: State[Any], places: tuple[int, int]) -> None:
    """Past the SETUP placement and turn 1's placement: the faces give the locations."""
    for _ in range(2):
        for p in (0, 1):
            state.apply_str(p, str(places[p]))


@pytest.mark.parametrize("seed", range(4))
def test_single_fights_match_the_engine(seed: int) -> None:
    """Random powers, locations, splits, declarations and rolls: the model's hits are the engine's."""
    rng = random.Random(seed)
    for _ in range(40):
        powers = (rng.choice(POWERS), rng.choice(POWERS))
        game = load_game("fite", power_a=powers[0], power_b=powers[1])
        state = game.new_initial_state()
        places = (rng.randint(1, 6), rng.randint(1, 6))
        to_split(state, places)
        if state.observation(0)["phase"] == "swift":
            for p in state.to_act():
                state.apply_str(p, "stay")
        locs = [(places[p] - 1) // 2 for p in (0, 1)]
        offs = (rng.randint(1, 8), rng.randint(1, 8))
        declares = [rng.random() < 0.5 and powers[p] not in ("none", "swift") for p in (0, 1)]
        for p in (0, 1):
            state.apply_str(p, f"{offs[p]}/{9 - offs[p]}" + (" +power" if declares[p] else ""))
        while state.to_act() == (CHANCE,):
            state.apply(CHANCE, state.sample_chance(rng))
        declared = [powers[p] if declares[p] else None for p in (0, 1)]
        mods = [modifiers(locs[p], declared[p], declared[1 - p]) for p in (0, 1)]
        obs = state.observation(0)
        # Nobody entitled to the tactical options: the fight is over already.
        fight = obs["fight"] if obs["phase"] == "tactical" else obs["last_fight"]
        assert [(m["off"], m["def"]) for m in fight["modifiers"]] == mods
        pools = [(tuple(fight["rolls"][p]["off"]), tuple(fight["rolls"][p]["def"])) for p in (0, 1)]
        plans = (rng.randint(0, 2), rng.randint(0, 2))
        final = list(pools)
        for p in state.to_act() if obs["phase"] == "tactical" else ():
            state.apply_str(p, plan_text(pools[p], plans[p]))
            final[p] = (turn_lowest(pools[p][0], plans[p]), turn_lowest(pools[p][1], 2 - plans[p]))
        entitled = [locs[p] == 2 or declared[p] == "cunning" for p in (0, 1)]
        for p in (0, 1):
            assert bool(fight["tactical"]["entitled"][p] != "none") == entitled[p]
        last = state.observation(0)["last_fight"]
        assert tuple(last["hits"]) == fight_hits(final, mods)


@pytest.mark.parametrize(
    ("places", "powers", "plans"),
    [
        ((1, 5), ("cunning", "fast"), (2, 1)),
        ((5, 3), ("none", "brutal"), (1, 0)),
        ((5, 6), ("tough", "none"), (0, 2)),
    ],
)
def test_hit_odds_match_the_engine_exactly(
    places: tuple[int, int], powers: tuple[str, str], plans: tuple[int, int]
) -> None:
    """A's 2 offensive dice on B's 3 defensive dice: every roll the engine offers, with its chance."""
    game = load_game("fite", power_a=powers[0], power_b=powers[1])
    state = game.new_initial_state()
    to_split(state, places)
    declares = [p not in ("none", "swift") for p in powers]
    state.apply_str(0, "2/7" + (" +power" if declares[0] else ""))
    state.apply_str(1, "6/3" + (" +power" if declares[1] else ""))
    locs = [(f - 1) // 2 for f in places]
    declared = [powers[p] if declares[p] else None for p in (0, 1)]
    mods = [modifiers(locs[p], declared[p], declared[1 - p]) for p in (0, 1)]
    entitled = [locs[p] == 2 or declared[p] == "cunning" for p in (0, 1)]
    odds = [0.0] * 3
    for a_off, p_off in state.chance_outcomes():
        s1 = state.clone()
        s1.apply(CHANCE, a_off)
        s1.apply_str(CHANCE, "6,5,4,3,2,1,1")
        s1.apply_str(CHANCE, "6,5,4,3,2,1")
        for b_def, p_def in s1.chance_outcomes():
            s2 = s1.clone()
            s2.apply(CHANCE, b_def)
            fight = s2.observation(0)["fight"]["rolls"]
            for p in s2.to_act():
                pools = (tuple(fight[p]["off"]), tuple(fight[p]["def"]))
                s2.apply_str(p, plan_text(pools, plans[p]))
            odds[s2.observation(0)["last_fight"]["hits"][1]] += p_off * p_def
    turns_a = plans[0] if entitled[0] else 0
    turns_b = 2 - plans[1] if entitled[1] else 0
    model = hit_chances(2, turns_a, 3, turns_b, mods[1][1] - mods[0][0])
    assert model == pytest.approx(odds, abs=1e-12)


def test_split_options_follow_the_pool_limits_and_entitlement() -> None:
    assert [o.off for o in split_options(9, "none", 0)] == list(range(1, 9))
    assert {o.plan for o in split_options(5, "none", 2)} == {0, 1, 2}
    assert {(o.declare, o.plan) for o in split_options(2, "brutal", 0)} == {(False, None), (True, None)}


# --- the agent's tactical choices against the engine's ------------------------------


@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.integers(1, 6), min_size=1, max_size=6),
    st.lists(st.integers(1, 6), min_size=1, max_size=6),
    st.sampled_from(["one", "both"]),
)
def test_tactical_choices_reach_exactly_the_pools_the_rules_allow(
    off: list[int], dfn: list[int], entitled: str
) -> None:
    pools = (tuple(sorted(off, reverse=True)), tuple(sorted(dfn, reverse=True)))
    mine = tactical_choices(pools, entitled)
    engine = {apply_tactic(pools, action) for action in tactic_actions(pools, 1 if entitled == "one" else 2)}
    assert set(mine) == engine
    for pools_after, text in list(mine.items())[:30]:
        # The text names a choice the engine reads to the same pools.
        assert apply_tactic(pools, parse_tactic(text)) == pools_after, text


# --- the shipped data --------------------------------------------------------------


def test_the_shipped_data_covers_every_state() -> None:
    strategy = shipped_strategy()
    assert set(strategy) == set(state_keys())
    for key, st_ in strategy.items():
        dice, _, power, _ = key
        assert sum(st_.place) == pytest.approx(1.0)
        assert set(st_.split) == set(LOCATION_PAIRS)
        for (la, _), mix in st_.split.items():
            assert set(mix) <= {o.code for o in split_options(dice, power, la)}, key
            assert sum(mix.values()) == pytest.approx(1.0)
        assert bool(st_.swift) == (power == "swift")
        for (la, _), mix in st_.swift.items():
            assert set(mix) <= {"stay"} | {loc for i, loc in enumerate(LOCATIONS) if i != la}
        mirrored = strategy[(key[1], key[0], key[3], key[2])]
        assert st_.value == pytest.approx(-mirrored.value, abs=2e-6)


#: Small states, closed under the moves of the game (fewer dice, powers used): quick to solve again.
SMALL = [
    k
    for k in state_keys()
    if k[0] <= 3 and k[1] <= 3 and {k[2], k[3]} <= {"none", "swift", "cunning", "fast"}
]


def test_the_shipped_data_is_what_the_solver_computes() -> None:
    """The small states, solved again here, give the shipped values and strategies (as rounded)."""
    keys = SMALL
    solver = Solver()
    solver.solve(keys)
    shipped = shipped_strategy()
    fresh = strategy_from_json(json.loads(json.dumps(strategy_to_json({**shipped, **solver.strategies}))))
    for key in keys:
        assert fresh[key].value == pytest.approx(shipped[key].value, abs=1e-9)
        assert fresh[key].place == shipped[key].place
        assert fresh[key].split == shipped[key].split
        assert fresh[key].swift == shipped[key].swift


def test_a_best_reply_gains_next_to_nothing_against_the_shipped_strategy() -> None:
    keys = SMALL
    shipped = shipped_strategy()
    reply = Solver(fixed=shipped)
    reply.solve(keys)
    assert max(shipped[k].value - reply.values[k] for k in keys) < 1e-5
    assert min(shipped[k].value - reply.values[k] for k in keys) > -1e-5


def test_a_damaged_file_is_refused_in_one_line() -> None:
    with pytest.raises(SolverError, match="not a FITE strategy file"):
        strategy_from_json({"format": "something else"})
    data = strategy_to_json(shipped_strategy())
    del data["states"]["9,9,none,none"]
    with pytest.raises(SolverError, match="lacks state 9,9,none,none"):
        strategy_from_json(data)


# --- the agent ------------------------------------------------------------------------


def test_the_spec_names_the_agent_whole() -> None:
    assert parse_spec("fite:solved") == ("fite:solved", {})
    assert parse_spec(" fite:solved:tactics=plan ") == ("fite:solved", {"tactics": "plan"})
    assert parse_spec("rule") == ("rule", {})
    assert "fite:solved" in agent_names("fite")
    assert "fite:solved" not in agent_names("robo-pigs")
    agent = make_agent("fite:solved", load_game("fite"), 1, seed=3)
    assert isinstance(agent, FiteSolvedAgent) and agent.tactics == "value"


@pytest.mark.parametrize(
    ("spec", "game", "message"),
    [
        ("fite:solved", "robo-pigs", "plays fite only"),
        ("fite:solved:tactics=maybe", "fite", "tactics='maybe' is not one of value, plan"),
        ("fite:solved:depth=3", "fite", "unknown parameter 'depth'"),
        ("fite:solved:tactics", "fite", "is not key=value"),
    ],
)
def test_bad_specs_are_refused_in_one_line(spec: str, game: str, message: str) -> None:
    with pytest.raises(AgentError, match=message):
        make_agent(spec, load_game(game), 0, seed=1)


def test_the_other_reading_of_the_tactical_turn_is_refused_in_one_line() -> None:
    # The model turns a fighter's own dice only (ruling 7's default reading).
    with pytest.raises(AgentError, match="models only turn_dice=own") as info:
        make_agent("fite:solved", load_game("fite", turn_dice="any"), 0, seed=1)
    assert "\n" not in str(info.value)
    assert isinstance(make_agent("fite:solved", load_game("fite", turn_dice="own"), 0), FiteSolvedAgent)


@pytest.mark.parametrize(
    ("powers", "opponent", "seed"),
    [
        (("none", "none"), "random", 1),
        (("swift", "cunning"), "rule", 2),
        (("cunning", "swift"), "random", 3),
        (("brutal", "aggressive"), "rule", 4),
        (("fast", "tough"), "fite:solved", 5),
        (("swift", "swift"), "fite:solved:tactics=plan", 6),
    ],
)
def test_the_agent_plays_whole_games_legally_from_either_seat(
    powers: tuple[str, str], opponent: str, seed: int
) -> None:
    game = load_game("fite", power_a=powers[0], power_b=powers[1], turn_limit=100)
    for seats in (("fite:solved", opponent), (opponent, "fite:solved")):
        agents = [make_agent(spec, game, p, seed=seed + p) for p, spec in enumerate(seats)]
        state, record = play_game(game, agents, seed=seed)  # play_game applies (and so checks) every action
        assert state.result() is not None
        assert len(record.events) > 10


def test_a_seed_repeats_a_game() -> None:
    game = load_game("fite", power_a="cunning", power_b="swift", turn_limit=100)

    def events(seed: int) -> list[tuple[int, str]]:
        agents = [
            make_agent("fite:solved", game, 0, seed=seed),
            make_agent("fite:solved", game, 1, seed=seed + 1),
        ]
        _, record = play_game(game, agents, seed=11)
        return record.events

    assert events(5) == events(5)
    assert any(events(5) != events(seed) for seed in (6, 7, 8))


def test_with_a_lone_tactical_fighter_the_agent_takes_the_lead() -> None:
    """A at the tactical location, 1 offensive die showing 1 against B's 5s: passing leaves 9 v 9.

    Any hit puts A a die ahead, which the model values as a sure win (a lead
    never shrinks when the leader attacks with all but one die); passing would
    leave the even game.
    """
    game = load_game("fite")
    state = game.new_initial_state()
    to_split(state, (5, 3))
    state.apply_str(0, "1/8")
    state.apply_str(1, "1/8")
    for roll in ("1", "6,6,6,6,6,6,6,6", "6", "4,4,4,4,4,4,4,4"):
        state.apply_str(CHANCE, roll)
    agent = FiteSolvedAgent(game, 0, seed=1)
    state.apply(0, agent.act(PlayerView(state, 0)))
    hits = state.observation(0)["last_fight"]["hits"]
    assert hits[0] == 0 and hits[1] >= 1


def test_a_lead_of_one_die_is_a_sure_win_in_the_model() -> None:
    strategy = shipped_strategy()
    for (a, b, _, _), st_ in strategy.items():
        if a != b:
            assert st_.value == pytest.approx(1.0 if a > b else -1.0, abs=1e-9)
