"""Tests of the search agents (mcts, ismcts, smmcts, alphabeta) and the strength levels.

Every search here runs on an iteration budget, so each test is reproducible and
quick; the agents' strength is measured by `tussle ladder` (docs/strength.md), not here.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from test_hidden_information import SamplesFrom
from tussle import AgentError, load_game, simulation_options
from tussle.agents import agent_names, make_agent
from tussle.agents.base import PlayerView
from tussle.agents.levels import LEVEL_NAMES, LevelAgent, level_spec
from tussle.game import CHANCE, PUBLIC, Game, State
from tussle.games.fight import default_deck
from tussle.games.fight.cards import FAMILIES
from tussle.games.fight.search import FightPolicy, _arena_key
from tussle.games.fightopia.rule_agent import evaluate as rule_evaluate
from tussle.games.fightopia.search import FightopiaPolicy, fightopia_score
from tussle.games.robo_pigs.search import RoboPigsPolicy
from tussle.games.tank_chess.search import TankChessPolicy, escape_distance, escape_steps
from tussle.registry import game_ids, game_info
from tussle.runner import play_game
from tussle.search.mcts import Mcts
from tussle.search.policy import GamePolicy

# Short games: options that end them early, so that a few games take a moment.
SHORT: dict[str, dict[str, Any]] = {
    "robo-pigs": {"round_limit": 3},
    "fite": {"turn_limit": 3},
    "fightopia": {"ply_limit": 16},
    "tank-chess": {"ply_limit": 8},
    "fight": {},
}

# Which agent plays which game.
APPLICABLE = {
    "mcts": ("fightopia", "tank-chess"),
    "alphabeta": ("fightopia", "tank-chess"),
    "ismcts": ("robo-pigs", "fite", "fightopia", "tank-chess", "fight"),
    "smmcts": ("robo-pigs", "fite"),
}
BUDGET = {
    "mcts": "iterations=30",
    "alphabeta": "iterations=60",
    "ismcts": "iterations=25",
    "smmcts": "iterations=40",
}

CASES = [(name, game) for name, games in APPLICABLE.items() for game in games]


def short_game(game_id: str, players: int | None = None) -> Game:
    return load_game(game_id, players=players, **simulation_options(game_id, SHORT[game_id]))


def to_decision(state: State[Any], rng: random.Random) -> State[Any]:
    """Play chance events (and nothing else) until a player must decide."""
    while state.to_act() == (CHANCE,):
        state.apply(CHANCE, state.sample_chance(rng))
    return state


# --- playing ------------------------------------------------------------------------


@pytest.mark.parametrize(("name", "game_id"), CASES)
def test_search_agents_play_whole_games(name: str, game_id: str) -> None:
    game = short_game(game_id)
    spec = f"{name}:{BUDGET[name]}"
    agents = [make_agent(spec, game, 0, seed=1), make_agent("random", game, 1, seed=2)]
    state, _ = play_game(game, agents, seed=3)
    assert state.is_terminal()
    stats = agents[0].last_stats  # type: ignore[attr-defined]
    assert {"iterations", "seconds"} <= set(stats)
    assert all(isinstance(v, float) for v in stats.values())


@pytest.mark.parametrize("game_id", ["fite", "robo-pigs"])
def test_regret_matching_plays_simultaneous_steps(game_id: str) -> None:
    game = short_game(game_id)
    agents = [make_agent("smmcts:iterations=30,select=rm,final=mix", game, p, seed=p) for p in range(2)]
    state, _ = play_game(game, agents, seed=6)
    assert state.is_terminal()


@pytest.mark.parametrize("players", [3, 4])
def test_ismcts_plays_fight_with_several_players(players: int) -> None:
    game = short_game("fight", players)
    agents = [make_agent("ismcts:iterations=10", game, p, seed=p) for p in range(players)]
    state, _ = play_game(game, agents, seed=5)
    assert state.is_terminal()


@pytest.mark.parametrize(("name", "game_id"), CASES)
def test_the_budget_of_iterations_is_kept(name: str, game_id: str) -> None:
    game = short_game(game_id)
    state = to_decision(game.new_initial_state(), random.Random(1))
    player = state.to_act()[0]
    agent = make_agent(f"{name}:iterations=37", game, player, seed=4)
    action = agent.act(PlayerView(state, player))
    assert action in state.legal_actions(player)
    done = agent.last_stats["iterations"]  # type: ignore[attr-defined]
    # Tree searches stop exactly at the budget; alpha-beta stops at it or earlier,
    # once its deepest search is done.
    assert done == 37 if name != "alphabeta" else 1 <= done <= 37


@pytest.mark.parametrize(("name", "game_id"), CASES)
def test_a_seed_and_iterations_repeat_a_game_exactly(name: str, game_id: str) -> None:
    def play() -> list[Any]:
        game = short_game(game_id)
        agents = [make_agent(f"{name}:iterations=12", game, p, seed=10 + p) for p in range(2)]
        if game_id == "fightopia":  # a long game otherwise: two searches, a few moves
            game = load_game("fightopia", ply_limit=6)
            agents = [make_agent(f"{name}:iterations=12", game, p, seed=10 + p) for p in range(2)]
        _, record = play_game(game, agents, seed=7)
        return record.events

    assert play() == play()


def test_a_level_plays_each_game_from_the_table() -> None:
    for game_id in game_ids():
        game = short_game(game_id)
        agent = make_agent("easy", game, 0, seed=1)
        assert isinstance(agent, LevelAgent)
        assert agent.inner.spec == level_spec(game_id, "easy")


def levels_of(game_id: str) -> dict[str, str]:
    return dict(game_info(game_id).hooks.levels)


def test_every_game_has_every_level_and_each_names_a_working_agent() -> None:
    for game_id in game_ids():
        levels = levels_of(game_id)
        assert tuple(levels) == LEVEL_NAMES
        game = short_game(game_id)
        for spec in levels.values():
            make_agent(spec, game, 0, seed=0)  # a bad spec in the table raises here
            # A budget of iterations: a level plays the same moves for a seed on any machine,
            # so the measured ladder (docs/strength.md) is the level people play.
            assert "iterations=" in spec and "time=" not in spec


def test_the_levels_and_search_agents_are_listed_with_help() -> None:
    names = agent_names("fite")
    for name in ("mcts", "ismcts", "smmcts", "alphabeta", "easy", "medium", "hard"):
        assert names[name]


def test_medium_is_the_default_computer_opponent() -> None:
    from tussle.cli import computer_agent

    assert all(computer_agent(game_id) == "medium" for game_id in game_ids())


# --- never reading hidden information ---------------------------------------------------


@pytest.mark.parametrize("name", ["smmcts", "ismcts"])
def test_the_opponents_secret_program_does_not_change_the_choice(name: str) -> None:
    game = load_game("robo-pigs")
    choices = set()
    for secret in ("F F F X X", "^ X TL X v", "X \\ X TR F"):
        state = game.state_from_position("c5E1 f5W2 3")
        state.apply_str(1, secret)  # pig B has submitted; A cannot see what
        agent = make_agent(f"{name}:iterations=200", game, 0, seed=5)
        choices.add(agent.act(PlayerView(state, 0)))
    assert len(choices) == 1


@pytest.mark.parametrize("name", ["smmcts", "ismcts"])
def test_the_opponents_secret_split_does_not_change_the_choice(name: str) -> None:
    game = load_game("fite", setup_placement=False)
    choices = set()
    for secret in ("1/8", "4/5", "8/1"):
        state = game.new_initial_state()
        state.apply_str(0, "tac 5")
        state.apply_str(1, "off 1")
        state.apply_str(1, secret)  # B has split; A cannot see how
        agent = make_agent(f"{name}:iterations=60", game, 0, seed=6)
        choices.add(state.action_to_str(0, agent.act(PlayerView(state, 0))))
    assert len(choices) == 1


def test_the_hands_of_the_other_players_do_not_change_the_choice() -> None:
    """Two Fight! states that differ only in what p0 cannot see: p0's choice is the same.

    Both views sample from the same source, so anything an agent learns through
    the view is the same in both; an agent that looked past the view would see
    different hands.
    """
    game = load_game("fight", players=3)
    rng = random.Random(8)
    state = to_decision(game.new_initial_state(), rng)
    while state.to_act() != (0,):
        state.apply(state.to_act()[0], state.legal_actions(state.to_act()[0]).sample(rng))
        to_decision(state, rng)
    other = state.resample(0, random.Random(9))
    assert other.observation(0) == state.observation(0)
    assert other.observation(1) != state.observation(1)  # the others' hands differ
    choices = set()
    for true_state in (state, other):
        agent = make_agent("ismcts:iterations=80", game, 0, seed=3)
        choices.add(agent.act(SamplesFrom(true_state, 0, state)))
    assert len(choices) == 1


def _fight_play_step(seed: int) -> State[Any]:
    """A two-player Fight! state where p1 plays, after p0 has played at random."""
    rng = random.Random(seed)
    state = to_decision(load_game("fight").new_initial_state(), rng)
    while state.to_act() != (1,) or not isinstance(state.legal_actions(1)[0], tuple):
        p = state.to_act()[0]
        state.apply(p, state.legal_actions(p).sample(rng))
        to_decision(state, rng)
    return state


@pytest.mark.parametrize("seed", range(12))
def test_the_fight_opponent_model_takes_the_arena_if_it_can_else_plays_its_worst_main(seed: int) -> None:
    state = _fight_play_step(seed)
    obs = state.observation(PUBLIC)
    deck = default_deck()
    condition = deck.arena(obs["arena"]["name"]).condition
    table = obs["seats"][0]["main"]
    bar = condition.key(FAMILIES.index(table["family"]), table["current_power"])

    def key(text: str) -> float:
        w = deck.warrior(text.split(" boost ", maxsplit=1)[0][5:])
        k = condition.key(w.family, w.power)
        return -1000.0 if k is None else k

    legal = state.legal_actions(1)
    keys = [key(state.action_to_str(1, a)) for a in legal]
    chosen = key(
        state.action_to_str(
            1, FightPolicy(load_game("fight")).opponent_play(state, 1, legal, random.Random(seed))
        )
    )
    winners = [k for k in keys if k > -1000.0 and (bar is None or k > bar)]
    assert chosen == (max(winners) if winners else min(keys))


def test_the_fight_arena_rules_read_as_the_game_reads_them() -> None:
    for arena in default_deck().arenas:
        key = _arena_key(arena.condition.to_json())
        for family, name in enumerate(FAMILIES):
            for power in range(0, 100):
                expected = arena.condition.key(family, power) if power >= 1 else None
                assert key(name, power) == expected, (arena.name, name, power)


def test_the_fight_search_tree_tells_an_opponents_plays_apart_by_the_main_only() -> None:
    game = load_game("fight")
    state = to_decision(game.new_initial_state(), random.Random(2))
    policy = FightPolicy(game)
    view = PlayerView(state, 0)
    rng = random.Random(3)
    tree = Mcts(policy, 0, rng, c=0.7, rollout="random", depth=30, widen=0.0, resample=True)
    for _ in range(300):
        tree.iterate(view.sample_state(rng))
    mine = list(tree.root.children)
    assert mine and all(isinstance(joint[0], tuple) for joint in mine)  # my own play, Main and Boost
    theirs = [joint for child in tree.root.children.values() for joint in child.children]
    assert theirs and all(isinstance(joint[0], int) for joint in theirs)  # p1's play: its Main only
    assert policy.seen(1, (4, 9), 0) == 4 and policy.seen(0, (4, 9), 0) == (4, 9)


# --- finding wins ------------------------------------------------------------------------

# White kills Black's last Tank with its Giant.
FIGHTOPIA_WIN_IN_ONE = "8/gg6/gg6/2GGv3/2GGv3/8/8/HH6 w 40"
# White's Giant steps to rank 7, then to rank 8 whatever Black does (Black needs two moves).
FIGHTOPIA_WIN_IN_TWO = "v7/v7/3GG3/3GG3/6gg/6gg/8/HH6 w 20"
# White's Command tank on h15 drives off the far edge at once.
TANK_CHESS_WIN_IN_ONE = "turn=white white=Ch15N,Hc1N black=Ca3S,Hn16S"


def _wins_at_once(state: State[Any], player: int) -> bool:
    for action in state.legal_actions(player):
        child = state.clone()
        child.apply(player, action)
        result = child.result()
        if result is not None and result.winner == player:
            return True
    return False


@pytest.mark.parametrize("spec", ["mcts:iterations=50", "ismcts:iterations=50", "alphabeta:iterations=200"])
def test_a_win_in_one_is_taken(spec: str) -> None:
    for game_id, position in (("fightopia", FIGHTOPIA_WIN_IN_ONE), ("tank-chess", TANK_CHESS_WIN_IN_ONE)):
        game = load_game(game_id)
        state = game.state_from_position(position)
        agent = make_agent(spec, game, 0, seed=2)
        state.apply(0, agent.act(PlayerView(state, 0)))
        assert state.result() is not None and state.result().winner == 0, (spec, game_id)  # type: ignore[union-attr]


@pytest.mark.parametrize("spec", ["mcts:iterations=600", "alphabeta:depth=3", "alphabeta:depth=3,width=2"])
def test_a_forced_win_in_two_is_found(spec: str) -> None:
    game = load_game("fightopia")
    state = game.state_from_position(FIGHTOPIA_WIN_IN_TWO)
    assert not _wins_at_once(state, 0)
    agent = make_agent(spec, game, 0, seed=2)
    state.apply(0, agent.act(PlayerView(state, 0)))
    for reply in state.legal_actions(1):  # whatever Black does, White then wins at once
        after = state.clone()
        after.apply(1, reply)
        assert _wins_at_once(after, 0), state.action_to_str(1, reply)


def test_alphabeta_scores_a_forced_win_as_won() -> None:
    game = load_game("fightopia")
    agent = make_agent("alphabeta:depth=3", game, 0, seed=1)
    agent.act(PlayerView(game.state_from_position(FIGHTOPIA_WIN_IN_TWO), 0))
    assert agent.last_stats["value"] > 90  # type: ignore[attr-defined]


def test_alphabeta_width_prunes_only_from_the_agents_second_move() -> None:
    game = load_game("fightopia")
    state = game.state_from_position(FIGHTOPIA_WIN_IN_TWO)
    nodes = {}
    for width in (0, 1):
        agent = make_agent(f"alphabeta:depth=3,width={width}", game, 0, seed=1)
        agent.act(PlayerView(state, 0))
        nodes[width] = agent.last_stats["iterations"]  # type: ignore[attr-defined]
    # Width 1: every move and every reply, then one move each: at most 1 + n + n * m * 2 states.
    first = len(state.legal_actions(0))
    most_replies = 0
    for move in state.legal_actions(0):
        after = state.clone()
        after.apply(0, move)
        if after.result() is None:
            most_replies = max(most_replies, len(after.legal_actions(1)))
    assert nodes[1] < nodes[0]
    assert nodes[1] <= 3 * (1 + first + first * most_replies * 2)


def test_alphabeta_does_not_walk_back_into_a_position_of_the_game() -> None:
    game = load_game("fightopia")
    state = game.new_initial_state()
    state.apply(CHANCE, state.chance_outcomes()[0][0])
    moves = {}
    for contempt in ("0", "1"):
        agent = make_agent(f"alphabeta:depth=2,contempt={contempt}", game, state.to_act()[0], seed=1)
        # Meeting the same position twice is what a repetition looks like to the agent.
        view = PlayerView(state, state.to_act()[0])
        moves[contempt] = (agent.act(view), agent.act(view))
    # Nothing has repeated yet at the first look, so contempt changes nothing there...
    assert moves["0"][0] == moves["1"][0]
    # ... but at the second, the move that leads back into a position already met is the worst.
    assert moves["1"][0] != moves["1"][1]


def test_a_game_without_a_repetition_key_never_scores_repetitions() -> None:
    game = load_game("fightopia")
    assert GamePolicy(game).repetition_key(game.new_initial_state()) is None


# --- bad parameters ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("spec", "game_id", "message"),
    [
        ("mcts:iterations=0", "fightopia", r"iterations=0 is below the minimum 1"),
        ("mcts:iterations=ten", "fightopia", r"iterations='ten' is not a whole number"),
        ("mcts:time=-1", "fightopia", r"time=-1 is below the minimum"),
        ("mcts:time=nan", "fightopia", r"time='nan' is not a finite number"),
        ("mcts:cc=1", "fightopia", r"unknown parameter 'cc' \(parameters: time, iterations, c, "),
        ("mcts:rollout=smart", "tank-chess", r"rollout='smart' is not one of random, rule"),
        ("ismcts:depth=-2", "fight", r"depth=-2 is below the minimum 0"),
        ("smmcts:select=best", "fite", r"select='best' is not one of ucb, rm"),
        ("alphabeta:depth=0", "fightopia", r"depth=0 is below the minimum 1"),
        ("alphabeta:width=-1", "tank-chess", r"width=-1 is below the minimum 0"),
        ("mcts:iterations=5", "fight", r"mcts is for sequential games of perfect information"),
        ("alphabeta", "robo-pigs", r"alphabeta is for two-player sequential games"),
        ("smmcts", "tank-chess", r"smmcts is for games with simultaneous steps"),
        ("medium:time=2", "fite", r"a level takes no parameters"),
    ],
)
def test_bad_parameters_are_one_line_agent_errors(spec: str, game_id: str, message: str) -> None:
    with pytest.raises(AgentError, match=message) as caught:
        make_agent(spec, load_game(game_id), 0, seed=0)
    assert "\n" not in str(caught.value)


# --- the game policies -----------------------------------------------------------------------


def test_the_fightopia_evaluation_fears_the_giant_that_moves_next() -> None:
    game = load_game("fightopia")
    # White has just moved; Black's Giant touches White's Tank on c5-c6 and Black moves next.
    exposed = game.state_from_position("v6v/v6v/2Vgg3/2Vgg3/8/8/3GG2V/3GG2V b 10")
    away = game.state_from_position("v6v/v6v/3gg3/V2gg3/V7/8/3GG2V/3GG2V b 10")
    assert rule_evaluate(exposed.observation(0), 0) < rule_evaluate(away.observation(0), 0) - 30
    assert fightopia_score(exposed.position()) < fightopia_score(away.position()) - 30
    # With White to move instead, White's Tank simply leaves: much less is at stake.
    flipped = game.state_from_position("v6v/v6v/2Vgg3/2Vgg3/8/8/3GG2V/3GG2V w 10")
    assert fightopia_score(flipped.position()) > fightopia_score(exposed.position()) + 25


def test_the_fast_fightopia_score_matches_the_rule_agents_evaluation() -> None:
    game = load_game("fightopia")
    rng = random.Random(4)
    state = to_decision(game.new_initial_state(), rng)
    for _ in range(150):
        if state.is_terminal():
            break
        player = state.to_act()[0]
        # Scored for the player who has just moved, as the rule agent scores its choices.
        moved = 1 - player
        expected = rule_evaluate(state.observation(moved), moved) * (1 if moved == 0 else -1)
        assert fightopia_score(state.position()) == pytest.approx(expected)
        state.apply(player, state.legal_actions(player).sample(rng))


def test_fightopia_pressure_counts_enemy_pawns_anywhere_on_a_tanks_line() -> None:
    game = load_game("fightopia")
    # White's Tank a1-a2 stands on the a-file with Black Pawns on a5 and a7 (its own Pawn
    # on a3 in between); Black's Tank f6-g6 lies on the 6th rank with White's Pawn on b6.
    position = "4gg2/pp2gg2/1P3hh1/p7/8/P7/V2GG3/V2GG3 w 10"
    game.state_from_position(position)  # a legal position
    base = fightopia_score(position)
    assert fightopia_score(position, pressure=1.0) == pytest.approx(base + (2 - 1))
    assert fightopia_score(position, pressure=2.5) == pytest.approx(base + 2.5 * (2 - 1))
    # The search weighs it; the rule agent's evaluation (pressure 0) does not.
    policy, without = FightopiaPolicy(game), FightopiaPolicy(game)
    assert policy.pressure > 0
    without.pressure = 0.0
    state = game.state_from_position(position)
    assert without.evaluate(state)[0] < policy.evaluate(state)[0]


@pytest.mark.parametrize("extra_x", [False, True])
def test_programs_are_built_command_by_command_into_legal_programs(extra_x: bool) -> None:
    game = load_game("robo-pigs", extra_x=extra_x)
    policy = RoboPigsPolicy(game)
    rng = random.Random(2)
    for damage in range(5):
        state = game.state_from_position(f"c5E{damage} f5W0 3")
        seen_repair = False
        for _ in range(40):
            prefix: tuple[str, ...] = ()
            while (pieces := policy.tokens(state, 0, prefix)) is not None:
                prefix += (rng.choice(list(pieces)),)
            action = policy.assemble(state, 0, prefix)
            assert action in state.legal_actions(0)
            seen_repair |= prefix == ("R",) * 5
        assert seen_repair == (damage > 0)


def test_the_escape_distance_goes_round_tanks_in_the_way() -> None:
    table = escape_steps(16, frozenset(), 0)
    assert escape_distance(16, table, set(), (3, 14, 0)) == 2  # forward, then off
    assert escape_distance(16, table, {(3, 15)}, (3, 14, 0)) == 3  # turn, diagonal step, off


def test_the_tank_chess_evaluation_favours_the_command_tank_nearer_its_edge() -> None:
    game = load_game("tank-chess")
    policy = TankChessPolicy(game)
    ahead = game.state_from_position("turn=black white=Ch12N,Hc1N black=Ci16S,Hn16S")
    behind = game.state_from_position("turn=black white=Ch2N,Hc1N black=Ci16S,Hn16S")
    assert policy.evaluate(ahead)[0] > policy.evaluate(behind)[0]


def test_the_docs_show_the_shipped_levels() -> None:
    # The level table in docs/agents.md and the ladders in docs/strength.md must be of
    # the levels people play: a level changed in levels.py without a new ladder fails here.
    root = Path(__file__).resolve().parent.parent
    agents_doc = (root / "docs" / "agents.md").read_text(encoding="utf-8")
    strength_doc = (root / "docs" / "strength.md").read_text(encoding="utf-8")
    for game_id in game_ids():
        levels = levels_of(game_id)
        row = f"| {game_id} | " + " | ".join(f"`{levels[name]}`" for name in LEVEL_NAMES) + " |"
        assert row in agents_doc, row
        section = strength_doc.split(f"(`{game_id}`)\n", 1)[1].split("\n## ", 1)[0]
        for name in LEVEL_NAMES:
            assert f"| {name} | `{levels[name]}` |" in section, (game_id, name)


def test_the_kept_ladders_are_the_tables_in_the_strength_doc() -> None:
    # docs/ladders/<game>.json is what a ladder's --reuse extends: its ratings must be the ones shown.
    root = Path(__file__).resolve().parent.parent
    strength_doc = (root / "docs" / "strength.md").read_text(encoding="utf-8")
    kept = sorted((root / "docs" / "ladders").glob("*.json"))
    assert kept
    for path in kept:
        ladder = json.loads(path.read_text(encoding="utf-8"))
        assert path.stem == ladder["game"]
        section = strength_doc.split(f"(`{ladder['game']}`)\n", 1)[1].split("\n## ", 1)[0]
        assert f"ladders/{path.name}" in section
        assert f"{ladder['games_per_pair']} games per pair, seed {ladder['seed']}" in section
        plays = dict(zip(ladder["agents"], ladder["plays"], strict=True))
        for row in ladder["ratings"]:
            line = f"| {row['agent']} | `{plays[row['agent']]}` | {row['rating']:.0f} | "
            assert line in section, (path.name, line)
