"""OpenSpiel's own random simulation test on every tussle game, and OpenSpiel's bots playing them."""

from __future__ import annotations

import pickle
import subprocess
import sys
from typing import Any

import numpy as np
import pyspiel  # type: ignore[import-not-found]
import pytest
from open_spiel.python import rl_environment  # type: ignore[import-untyped]
from open_spiel.python.algorithms import (  # type: ignore[import-untyped]
    cfr,
    exploitability,
    ismcts,
    mcts,
    random_agent,
)

import playthroughs
import tussle
from tussle import ActionError, OptionError, TussleError
from tussle.adapters import openspiel_game as og
from tussle.adapters.openspiel_bench import compare_with_openspiel, main
from tussle.agents import make_agent

#: (game id, parameters) for OpenSpiel's random simulations; limits keep them short.
SIMS: list[tuple[str, dict[str, Any]]] = [
    ("robo-pigs", {"round_limit": 3}),
    ("fite", {}),
    ("fite", {"power_a": "cunning", "power_b": "swift"}),
    ("fightopia", {"ply_limit": 300}),
    ("tank-chess", {"ply_limit": 60}),
    ("fight", {}),
    ("fight", {"players": 4}),
    # Step by step: a program a command at a time; a tank, where it ends, its shot.
    ("robo-pigs", {"round_limit": 3, "steps": True}),
    ("tank-chess", {"ply_limit": 20, "steps": True}),
]


@pytest.mark.parametrize(("game_id", "params"), SIMS, ids=str)
def test_random_sim_test(game_id: str, params: dict[str, Any]) -> None:
    game = og.load(game_id, **params)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


@pytest.mark.parametrize("game_id", ["robo-pigs", "fite"])
def test_simultaneous_games_turn_sequential_with_pyspiels_converter(game_id: str) -> None:
    options: dict[str, Any] = {"round_limit": 2} if game_id == "robo-pigs" else {}
    game = og.load(game_id, **options)
    turn_based = pyspiel.convert_to_turn_based(game)
    assert turn_based.get_type().dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    pyspiel.random_sim_test(turn_based, num_sims=1, serialize=False, verbose=False)


def test_game_types_follow_the_game_info() -> None:
    kinds = pyspiel.GameType
    expected = {
        "robo-pigs": (
            kinds.Dynamics.SIMULTANEOUS,
            kinds.ChanceMode.DETERMINISTIC,
            kinds.Information.IMPERFECT_INFORMATION,
        ),
        "fite": (
            kinds.Dynamics.SIMULTANEOUS,
            kinds.ChanceMode.EXPLICIT_STOCHASTIC,
            kinds.Information.IMPERFECT_INFORMATION,
        ),
        "fightopia": (
            kinds.Dynamics.SEQUENTIAL,
            kinds.ChanceMode.EXPLICIT_STOCHASTIC,
            kinds.Information.PERFECT_INFORMATION,
        ),
        "tank-chess": (
            kinds.Dynamics.SEQUENTIAL,
            kinds.ChanceMode.DETERMINISTIC,
            kinds.Information.PERFECT_INFORMATION,
        ),
        "fight": (
            kinds.Dynamics.SEQUENTIAL,
            kinds.ChanceMode.EXPLICIT_STOCHASTIC,
            kinds.Information.IMPERFECT_INFORMATION,
        ),
    }
    for game_id in tussle.game_ids():
        game = pyspiel.load_game(og.spiel_name(game_id))
        kind = game.get_type()
        assert (kind.dynamics, kind.chance_mode, kind.information) == expected[game_id]
        assert kind.utility == kinds.Utility.ZERO_SUM and kind.reward_model == kinds.RewardModel.TERMINAL
        # A simultaneous game has one more action: the pass of a player with nothing to do.
        simultaneous = kind.dynamics == kinds.Dynamics.SIMULTANEOUS
        assert game.num_distinct_actions() == game.encoding.num_actions + simultaneous
        assert (game.min_utility(), game.max_utility(), game.utility_sum()) == (-1.0, 1.0, 0.0)
    fight = og.load("fight", players=5)
    assert (fight.min_utility(), fight.max_game_length()) == (-0.25, 70)
    assert og.load("tank-chess").max_game_length() == tussle.simulation_options("tank-chess")["ply_limit"]
    assert og.load("fite").max_game_length() == 4 * tussle.simulation_options("fite")["turn_limit"] + 1
    # Step by step: sequential, the tokens as the actions, every token a decision.
    names = set(pyspiel.registered_names())
    assert {"tussle_robo_pigs_steps", "tussle_tank_chess_steps"} <= names
    assert not {"tussle_fite_steps", "tussle_fightopia_steps", "tussle_fight_steps"} & names
    robo = og.load("robo-pigs", steps=True, round_limit=3)
    assert robo.get_type().dynamics == kinds.Dynamics.SEQUENTIAL
    assert (robo.num_distinct_actions(), robo.max_game_length()) == (10, 3 * 2 * 5)
    tank = og.load("tank-chess", steps=True, ply_limit=4)
    assert (tank.num_distinct_actions(), tank.max_game_length()) == (969, 4 * 3)
    assert tank.observation_tensor_shape() == [tank.encoding.observation_shape[0] + 3 * 969]


def test_parameters_are_checked_with_tussles_messages() -> None:
    with pytest.raises(OptionError, match="OpenSpiel needs games of bounded length: set round_limit above 0"):
        og.load("robo-pigs", round_limit=0)
    with pytest.raises(OptionError, match="tank-chess has no option 'board'"):
        og.load("tank-chess", board=20)
    assert og.load("tank-chess", size=20).num_distinct_actions() == 2710800
    game = pyspiel.load_game("tussle_tank_chess(size=20,ply_limit=10)")
    assert game.tussle_game.options["size"] == "20"
    with pytest.raises(OptionError, match="fite has no step-by-step actions"):
        og.load("fite", steps=True)
    with pytest.raises(OptionError, match="give steps or turns, not both"):
        og.load("robo-pigs", steps=True, turns=True)


def test_observations_strings_and_tensors() -> None:
    game = og.load("fight", players=3)
    state = game.new_initial_state()
    rng = np.random.RandomState(0)
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        state.apply_action(outcomes[rng.randint(len(outcomes))][0])
    player = state.current_player()
    tensor = np.array(state.observation_tensor(player))
    assert tensor.shape == game.encoding.observation_shape and tensor.min() >= 0 and tensor.max() <= 1
    assert game.observation_tensor_shape() == list(game.encoding.observation_shape)
    text = state.observation_string(player)
    assert text != state.observation_string((player + 1) % 3)
    resample = og.resampler(seed=1)
    for _ in range(3):
        other = resample(state, player)
        assert other.observation_string(player) == text
        assert np.array_equal(np.array(other.observation_tensor(player)), tensor)
    assert str(resample(state, player)) != str(state)  # the hidden hands were redrawn
    # A drawn state has a history of its own (tests/test_openspiel_resample.py): it serializes.
    drawn = resample(state, player)
    _, back = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, drawn))
    assert str(back) == str(drawn)


def test_states_serialize_and_clone() -> None:
    game = og.load("fite")
    state = game.new_initial_state()
    state.apply_actions([4, 5])
    state.apply_actions([0, 1])
    text = pyspiel.serialize_game_and_state(game, state)
    _, state2 = pyspiel.deserialize_game_and_state(text)
    assert str(state2) == str(state) and state2.history() == state.history()
    clone = state.clone()
    clone.apply_actions(clone.legal_actions(0)[:1] + clone.legal_actions(1)[:1])
    assert str(clone) != str(state) and state.history() == state2.history()


def test_action_strings_name_legal_actions_and_describe_the_rest() -> None:
    game = og.load("tank-chess")
    state = game.new_initial_state()
    legal = game.encoding.legal(state.tussle_state, 0)
    first = state.legal_actions()[0]
    assert state.action_to_string(0, first) == legal.text(state.tussle_state, first) == "Hc1-a3NW"
    assert (
        state.action_to_string(0, 0) == game.encoding.label(0) == "a1-off-boardN"
    )  # not legal: what 0 means


def test_a_legal_list_is_the_callers_to_change() -> None:
    # Two FITE states share one map of their placing actions: changing one list changes neither.
    game = og.load("fite")
    first, second = game.new_initial_state(), game.new_initial_state()
    listed = first.legal_actions(0)
    expected = list(listed)
    listed.clear()
    assert first.legal_actions(0) == second.legal_actions(0) == expected != []


def short_game(game_id: str) -> Any:
    return og.load(game_id, ply_limit=6)


def mcts_against_mctsbot(game: Any, tussle_seat: int) -> tuple[Any, list[int], list[dict[str, float]]]:
    """tussle's MCTS in ``tussle_seat`` against MCTSBot: the final state, moves, tussle's search stats."""
    rng = np.random.RandomState(tussle_seat)
    bot = mcts.MCTSBot(game, 2.0, 8, mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
    agent = make_agent("mcts:iterations=12", game.tussle_game, tussle_seat, seed=tussle_seat)
    seats: list[Any] = [bot, bot]
    seats[tussle_seat] = agent
    moves = [0, 0]
    searches: list[dict[str, float]] = []

    def count(player: int, action: int, seconds: float) -> None:
        moves[player] += 1
        if player == tussle_seat:
            searches.append(dict(getattr(agent, "last_stats", {})))

    final = og.play(game, seats, seed=tussle_seat, on_move=count)
    return final, moves, searches


@pytest.mark.parametrize("game_id", ["fightopia", "tank-chess"])
def test_tussle_mcts_plays_openspiel_mctsbot(game_id: str) -> None:
    game = short_game(game_id)
    for tussle_seat in (0, 1):
        final, moves, searches = mcts_against_mctsbot(game, tussle_seat)
        assert final.is_terminal() and sum(final.returns()) == 0.0
        assert min(moves) >= 1
        # Each move searched its 12 iterations, unless it saw a win at once.
        assert searches and all(s.get("iterations") == 12 or s.get("won") for s in searches)


def test_openspiel_ismcts_plays_fight_through_tussles_resampling() -> None:
    game = og.load("fight")
    rng = np.random.RandomState(3)
    bot = ismcts.ISMCTSBot(
        game,
        mcts.RandomRolloutEvaluator(1, rng),
        2.0,
        6,
        max_world_samples=2,  # an honest resample replays the game so far: two worlds a search
        random_state=rng,
        use_observation_string=True,
    )
    bot.set_resampler(og.resampler(seed=4))
    opponent = make_agent("rule", game.tussle_game, 1, seed=2)
    final = og.play(game, [bot, opponent], seed=5)
    assert final.is_terminal() and sum(final.returns()) == pytest.approx(0.0)


def test_bots_need_sequential_games() -> None:
    game = og.load("robo-pigs", round_limit=2)
    bot = mcts.MCTSBot(pyspiel.load_game("tic_tac_toe"), 2.0, 2, mcts.RandomRolloutEvaluator())
    agent = make_agent("random", game.tussle_game, 1)
    with pytest.raises(TussleError, match="OpenSpiel bots play sequential games"):
        og.play(game, [bot, agent], seed=1)


def test_compare_with_openspiel_reports_wins_and_speeds(capsys: pytest.CaptureFixture[str]) -> None:
    result = compare_with_openspiel("tank-chess", 0.02, 2, seed=1, options={"ply_limit": 4})
    assert result["games"] == 2 == result["tussle_wins"] + result["openspiel_wins"] + result["draws"]
    assert result["tussle_iterations_per_second"] > 0 and result["openspiel_iterations_per_second"] > 0
    assert result["options"]["ply_limit"] == 4
    with pytest.raises(OptionError, match="games must be at least 1"):
        compare_with_openspiel("fightopia", 0.1, 0)
    assert main(["fightopia", "--games", "1", "--seconds", "0.01", "-o", "ply_limit=2"]) == 0
    assert '"game": "fightopia"' in capsys.readouterr().out
    assert main(["fightopia", "-o", "ply_limit=-1"]) == 2
    assert "option ply_limit: -1 is below the minimum 0" in capsys.readouterr().err


def _play_tokens(state: Any, rng: np.random.RandomState, tokens: int) -> None:
    """Take up to ``tokens`` random tokens (chance drawn too), stopping at the end of the game."""
    for _ in range(tokens):
        if state.is_terminal():
            return
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.randint(len(outcomes))][0])
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))


@pytest.mark.parametrize(
    ("game_id", "options"),
    [
        ("robo-pigs", {"round_limit": 4}),
        ("robo-pigs", {"round_limit": 4, "extra_x": True}),
        ("tank-chess", {"ply_limit": 16}),
    ],
    ids=str,
)
def test_step_by_step_actions_are_exactly_the_legal_actions(game_id: str, options: dict[str, Any]) -> None:
    game = og.load(game_id, steps=True, **options)
    codec = game.step_codec
    assert codec is not None
    rng = np.random.RandomState(7)

    def leaves(context: Any, prefix: list[int]) -> set[str]:
        """Every whole action the tokens can still make after ``prefix``."""
        found: set[str] = set()
        for token in codec.legal_tokens(context, prefix):
            text = codec.complete(context, [*prefix, token])
            found |= {text} if text is not None else leaves(context, [*prefix, token])
        return found

    decisions = 0
    for number in range(3):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                _play_tokens(state, rng, 1)
                continue
            player, tussle_state = state.current_player(), state.tussle_state
            assert state._core.prefix == []
            legal = {tussle_state.action_to_str(player, a) for a in tussle_state.legal_actions(player)}
            context = codec.start(tussle_state, player)
            if number == 0 and decisions < 3:
                assert leaves(context, []) == legal  # every legal action, and nothing else
            while True:  # the tokens of one action, at random
                tokens = state.legal_actions()
                assert tokens == codec.legal_tokens(context, state._core.prefix) and tokens
                token = int(rng.choice(tokens))
                text = codec.complete(context, [*state._core.prefix, token])
                state.apply_action(token)
                if text is not None:
                    assert text in legal and state._core.prefix == []
                    break
            decisions += 1
    assert decisions > 20


def test_step_by_step_tokens_show_to_whom_the_rules_let_them() -> None:
    rng = np.random.RandomState(2)
    robo = og.load("robo-pigs", steps=True, round_limit=3)
    state = robo.new_initial_state()
    _play_tokens(state, rng, 2)
    assert state.current_player() == 0 and len(state._core.prefix) == 2
    # Hidden information: pig A's half-written program shows to pig A alone.
    assert '"tokens":[' in state.observation_string(0) and '"tokens":[]' in state.observation_string(1)
    assert state.observation_tensor(0)[-50:] != state.observation_tensor(1)[-50:]
    assert not any(state.observation_tensor(1)[robo.encoding.observation_shape[0] :])
    assert "chosen so far by pig A" in str(state)
    # A clone and a pickled copy keep the tokens; the original goes on alone.
    clone = state.clone()
    copy = pickle.loads(pickle.dumps(state))
    assert copy._core.prefix == clone._core.prefix == state._core.prefix
    assert copy.observation_string(0) == state.observation_string(0)
    _play_tokens(state, rng, 3)
    assert len(clone._core.prefix) == 2 and clone.legal_actions() == copy.legal_actions()
    # Perfect information: the tank chosen shows to both players.
    tank = og.load("tank-chess", steps=True, ply_limit=6)
    state = tank.new_initial_state()
    _play_tokens(state, rng, 1)
    assert state.observation_string(1) == state.observation_string(0).replace('"player":0', '"player":1')
    assert '"tokens":[' in state.observation_string(1) and '"tokens":[]' not in state.observation_string(1)


def test_a_bad_token_is_refused_and_changes_nothing() -> None:
    game = og.load("robo-pigs", steps=True, round_limit=3)
    state = game.new_initial_state()
    state.apply_action(0)
    with pytest.raises(ActionError, match=r"token 9 \(R\) cannot follow \[\^\]"):
        state.apply_action(9)
    assert state.history() == [0] and state._core.prefix == [0]


@pytest.mark.parametrize(
    ("game_id", "options"), [("robo-pigs", {"round_limit": 3}), ("tank-chess", {"ply_limit": 8})]
)
def test_tussle_agents_play_step_by_step_a_token_at_a_time(game_id: str, options: dict[str, Any]) -> None:
    game = og.load(game_id, steps=True, **options)
    agents = [make_agent("rule", game.tussle_game, p, seed=p) for p in (0, 1)]
    moves: list[tuple[int, int]] = []
    final = og.play(game, agents, seed=4, on_move=lambda p, a, _: moves.append((p, a)))
    assert final.is_terminal() and sum(final.returns()) == pytest.approx(0.0)
    # Every token was a decision of its own, and the same agents choose the same whole actions
    # as in the game played a whole action at a time (in turns, as step by step is).
    assert [a for _, a in moves] == final.history()
    flat = og.load(game_id, turns=game_id == "robo-pigs", **options)
    again = og.play(flat, [make_agent("rule", flat.tussle_game, p, seed=p) for p in (0, 1)], seed=4)
    assert again.tussle_state.render() == final.tussle_state.render()


def test_a_bad_action_is_refused_and_changes_nothing() -> None:
    game = og.load("fite")
    state = game.new_initial_state()
    with pytest.raises(ActionError, match="action 4000 is not one of the 6 legal actions of fighter B now"):
        state.apply_actions([0, 4000])
    with pytest.raises(ActionError, match="every player acts at a simultaneous node: use apply_actions"):
        state.apply_action(0)
    assert state.history() == [] and state.tussle_state.to_act() == (0, 1)
    state.apply_actions([0, 5])
    assert state.history() == [0, 5]


# --- OpenSpiel's own checks ----------------------------------------------------------


@pytest.mark.parametrize(("game_id", "params"), SIMS, ids=str)
def test_random_sim_test_without_serialization(game_id: str, params: dict[str, Any]) -> None:
    pyspiel.random_sim_test(og.load(game_id, **params), num_sims=1, serialize=False, verbose=False)


@pytest.mark.parametrize("game_id", tussle.game_ids())
def test_games_and_states_pickle(game_id: str) -> None:
    params: dict[str, Any] = {"ply_limit": 40} if game_id in ("fightopia", "tank-chess") else {}
    game = og.load(game_id, **params)
    again = pickle.loads(pickle.dumps(game))
    assert type(again) is type(game) and str(again) == str(game)
    state = game.new_initial_state()
    rng = np.random.RandomState(3)
    for _ in range(12):
        if state.is_terminal():
            break
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.randint(len(outcomes))][0])
        elif state.is_simultaneous_node():
            state.apply_actions([rng.choice(state.legal_actions(p)) for p in range(game.num_players())])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    copy = pickle.loads(pickle.dumps(state))
    assert str(copy) == str(state) and copy.history() == state.history()
    assert copy.observation_string(0) == state.observation_string(0)


def test_observers_offered_and_refused_as_openspiel_expects() -> None:
    game = og.load("fight")
    kinds = pyspiel.IIGObservationType
    private = pyspiel.PrivateInfoType

    def kind(obs_type: Any) -> str | None:
        observer = game.make_py_observer(obs_type)
        return None if observer is None else observer.kind

    assert kind(None) == "observation" and game.make_py_observer().tensor is not None  # type: ignore[union-attr]
    assert kind(kinds(perfect_recall=True)) == "information"
    assert kind(kinds(public_info=True, perfect_recall=False, private_info=private.NONE)) == "public"
    assert (
        kind(kinds(public_info=False, perfect_recall=False, private_info=private.SINGLE_PLAYER)) == "private"
    )
    # What tussle has no view of: every player's private information at once.
    assert game.make_py_observer(kinds(perfect_recall=False, private_info=private.ALL_PLAYERS)) is None
    with pytest.raises(OptionError, match="take no parameters"):
        game.make_py_observer(None, {"x": 1})


def test_information_states_are_the_history_or_the_players_own_history() -> None:
    game = og.load("fightopia", ply_limit=10)
    state = game.new_initial_state()
    assert game.get_type().provides_information_state_string
    state.apply_action(state.legal_actions()[0])
    state.apply_action(state.legal_actions()[0])
    # Perfect information: the history itself (the start's chance event too), the same for both.
    text = state.information_state_string(0)
    assert [event.split(":")[1] for event in text.split()] == [str(a) for a in state.history()]
    assert text == state.information_state_string(1)
    # Imperfect information: the player's observations along the way, and its own actions.
    game = og.load("fite")
    state = game.new_initial_state()
    rng = np.random.RandomState(5)
    seen: list[list[str | None]] = [[state.observation_string(p)] for p in range(2)]
    for _ in range(10):
        before = [state.observation_string(p) for p in range(2)]
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.randint(len(outcomes))][0])
            events = [-1]
        elif state.is_simultaneous_node():
            chosen = {p: int(rng.choice(state.legal_actions(p))) for p in range(2)}
            state.apply_actions([chosen[0], chosen[1]])
            events = [0, 1]  # a simultaneous step's submissions go in seat order
        else:
            mover = state.current_player()
            chosen = {mover: int(rng.choice(state.legal_actions(mover)))}
            state.apply_action(chosen[mover])
            events = [mover]
        for k, mover in enumerate(events):
            last = k == len(events) - 1
            for p in range(2):
                if p == mover:
                    seen[p].append(f"me:{chosen[p]}")
                if last:
                    seen[p].append(state.observation_string(p))
                elif p == mover:
                    seen[p].append(None)  # its own submission, shown to itself alone
                else:
                    seen[p].append(before[p])  # another's submission shows to nobody else
    for p in range(2):
        lines = state.information_state_string(p).splitlines()
        assert len(lines) == len(seen[p])
        assert [line for line, want in zip(lines, seen[p], strict=True) if want is not None] == [
            want for want in seen[p] if want is not None
        ]
    assert state.information_state_string(0) != state.information_state_string(1)


@pytest.mark.parametrize("game_id", sorted(playthroughs.CASES))
def test_playthroughs_replay_as_checked_in(game_id: str) -> None:
    original = playthroughs.read(game_id)
    assert original.splitlines() == playthroughs.replay(original).splitlines()


@pytest.mark.parametrize(
    ("module", "missing", "extra"),
    [
        ("tussle.adapters.gymnasium_env", "gymnasium", "gymnasium"),
        ("tussle.adapters.pettingzoo_env", "pettingzoo", "pettingzoo"),
        ("tussle.adapters.openspiel_game", "pyspiel", "openspiel"),
    ],
)
def test_an_adapter_without_its_extra_says_which_to_install(module: str, missing: str, extra: str) -> None:
    script = f"import sys; sys.modules[{missing!r}] = None\nimport {module}"
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=False)
    assert done.returncode == 1
    assert done.stderr.strip().splitlines()[-1] == (
        f"tussle.adapters.MissingExtraError: {module} needs {missing}, which is not installed: "
        f"pip install 'tussle[{extra}]'"
    )


def test_openspiels_random_agents_play_a_simultaneous_game_where_one_player_acts_alone() -> None:
    # FITE's setup roll and its one-fighter steps: the idle player passes, never an empty list.
    game = og.load("fite", power_a="swift")
    env = rl_environment.Environment(game, seed=4)
    agents = [random_agent.RandomAgent(p, game.num_distinct_actions()) for p in range(2)]
    step = env.reset()
    passes = 0
    while not step.last():
        legal = step.observations["legal_actions"]
        assert all(legal[p] for p in range(2))
        passes += sum(legal[p] == [game.pass_action] for p in range(2))
        step = env.step([agent.step(step).action for agent in agents])
    assert passes > 0
    state = game.new_initial_state()
    while True:  # to the first node where one fighter acts alone
        if state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
            continue
        idle = [p for p in range(2) if state.legal_actions(p) == [game.pass_action]]
        if idle:
            break
        state.apply_actions([state.legal_actions(p)[0] for p in range(2)])
    joint = [state.legal_actions(p)[0] for p in range(2)]
    joint[idle[0]] = 0
    with pytest.raises(ActionError, match=f"player {idle[0]} does not act now: its action must be pass"):
        state.apply_actions(joint)
    assert state.action_to_string(0, game.pass_action) == "pass"


@pytest.mark.parametrize(
    ("game_id", "options"),
    [
        ("fite", {"turn_limit": 10}),
        ("robo-pigs", {"round_limit": 2}),
        ("robo-pigs", {"round_limit": 2, "steps": True}),
        ("fight", {}),
    ],
    ids=str,
)
def test_openspiels_ismcts_plays_the_games_with_hidden_information(
    game_id: str, options: dict[str, Any]
) -> None:
    # The simultaneous games in turns (tussle_fite_turns) or step by step (in turns too):
    # sequential, with tussle's resampler.
    turns = game_id != "fight" and not options.get("steps")
    game = og.load(game_id, turns=turns, **options)
    assert game.get_type().dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    bot = ismcts.ISMCTSBot(
        game,
        mcts.RandomRolloutEvaluator(),
        uct_c=2.0,
        max_simulations=4,
        max_world_samples=2,
        use_observation_string=True,
    )
    bot.set_resampler(og.resampler(seed=3))
    # Step by step, the other seat is OpenSpiel's own random bot (tussle's agents choose whole actions).
    other = make_agent("random", game.tussle_game, 1, seed=2)
    seat = pyspiel.make_uniform_random_bot(1, 2) if options.get("steps") else other
    final = og.play(game, [bot, seat], seed=5)
    assert final.is_terminal() and sum(final.returns()) == pytest.approx(0.0)


def test_cfr_and_exploitability_on_a_short_fightopia() -> None:
    # Two plies and the material count at the limit: small enough to solve in a second.
    game = og.load("fightopia", ply_limit=2, limit_result="material")
    solver = cfr.CFRSolver(game)
    for _ in range(3):
        solver.evaluate_and_update_policy()
    policy = solver.average_policy()
    assert exploitability.exploitability(game, policy) == pytest.approx(0.0, abs=1e-9)
    state = game.new_initial_state()
    state.apply_action(0)
    probabilities = policy.action_probabilities(state)
    assert set(probabilities) == set(state.legal_actions())
    assert sum(probabilities.values()) == pytest.approx(1.0)


def _random_states(game: Any, seed: int, games: int) -> list[Any]:
    """Every state of ``games`` random playouts."""
    rng = np.random.RandomState(seed)
    states = []
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            states.append(state.clone())
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randint(len(outcomes))][0])
            elif state.is_simultaneous_node():
                state.apply_actions(
                    [int(rng.choice(state.legal_actions(p))) for p in range(game.num_players())]
                )
            else:
                state.apply_action(int(rng.choice(state.legal_actions())))
    return states


@pytest.mark.parametrize(
    ("game_id", "params", "turns", "games"),
    [
        ("fightopia", {"ply_limit": 6}, False, 6),
        ("tank-chess", {"ply_limit": 4}, False, 6),
        ("fite", {"turn_limit": 3}, False, 6),
        ("fite", {"turn_limit": 3}, True, 6),
        ("fight", {"players": 3}, False, 1),  # a long game: each tensor replays it
        ("robo-pigs", {"round_limit": 3}, False, 6),
        ("robo-pigs", {"round_limit": 2, "steps": True}, False, 4),
        ("tank-chess", {"ply_limit": 3, "steps": True}, False, 4),
    ],
    ids=str,
)
def test_information_state_tensors_are_the_strings_as_numbers(
    game_id: str, params: dict[str, Any], turns: bool, games: int
) -> None:
    game = og.load(game_id, turns=turns, **params)
    assert game.get_type().provides_information_state_tensor
    shape = game.information_state_tensor_shape()
    # Per player, as OpenSpiel's tensors go: two seats may see the same and know the same.
    seen: dict[tuple[int, str], bytes] = {}
    back: dict[tuple[int, bytes], str] = {}
    for state in _random_states(game, seed=3, games=games):
        for p in range(game.num_players()):
            tensor = np.asarray(state.information_state_tensor(p), dtype=np.float32)
            assert tensor.size == int(np.prod(shape))
            text = state.information_state_string(p)
            # The same information state, the same tensor; a different one, a different tensor.
            assert seen.setdefault((p, text), tensor.tobytes()) == tensor.tobytes()
            assert back.setdefault((p, tensor.tobytes()), text) == text
    # Enough distinct information states for the two checks above to mean something.
    assert len(seen) > 10


def test_information_state_tensor_rows_hold_the_events() -> None:
    game = og.load("fightopia", ply_limit=4)
    layout = game.information_layout
    state = game.new_initial_state()
    for action in (1, state.clone().child(1).legal_actions()[3]):
        state.apply_action(action)
    rows = np.asarray(state.information_state_tensor(0)).reshape(layout.shape)
    # Row 0: chance (the first actor column) chose outcome 1; row 1: the mover and its action.
    assert rows[0, : layout.actors].tolist() == [1, 0, 0]
    assert rows[0, layout.actors :].tolist() == [1] + [0] * (layout.bits - 1)
    first = state.full_history()[1]
    assert rows[1, : layout.actors].tolist() == [int(a == first.player + 1) for a in range(3)]
    assert sum(int(bit) << k for k, bit in enumerate(rows[1, layout.actors :])) == first.action
    assert not rows[2:].any()
    assert state.information_state_tensor(0) == state.information_state_tensor(1)


@pytest.mark.parametrize(
    ("game_id", "params", "games", "most"),
    [
        ("fight", {"players": 6}, 1, 10_000),  # was 686 x 1,528 floats
        ("fite", {}, 4, 1_000),  # was 1,203 x 145
        ("robo-pigs", {}, 2, 1_000),  # was 201 x 318
        ("fightopia", {"ply_limit": 200}, 2, 2_000),  # perfect information: the summary of the history
    ],
    ids=str,
)
def test_long_games_summarise_information_states_in_a_fixed_size(
    game_id: str, params: dict[str, Any], games: int, most: int
) -> None:
    game = og.load(game_id, **params)
    layout = game.information_layout
    assert layout.summary and layout.shape == (layout.size,) and layout.size < most
    assert game.information_state_tensor_shape() == [layout.size]
    # Played live (each player's recall kept from move to move), every state's tensor per player:
    # equal strings must give equal tensors; different strings should too, and did in every sample.
    rng = np.random.RandomState(5)
    tensors: dict[tuple[int, str], bytes] = {}
    texts: dict[tuple[int, bytes], str] = {}
    collisions = 0
    for _ in range(games):
        state = game.new_initial_state()
        while True:
            for p in range(game.num_players()):
                tensor = np.asarray(state.information_state_tensor(p), dtype=np.float32)
                assert tensor.size == layout.size and tensor.min() >= 0.0 and tensor.max() <= 1.0
                text = state.information_state_string(p)
                assert tensors.setdefault((p, text), tensor.tobytes()) == tensor.tobytes()
                collisions += texts.setdefault((p, tensor.tobytes()), text) != text
            if state.is_terminal():
                break
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randint(len(outcomes))][0])
            elif state.is_simultaneous_node():
                joint = [int(rng.choice(state.legal_actions(p))) for p in range(game.num_players())]
                state.apply_actions(joint)
            else:
                state.apply_action(int(rng.choice(state.legal_actions())))
    assert len(tensors) > 100
    assert collisions == 0
    # A longer limit, the same size: the summary does not grow with the game.
    limits = {"fight": None, "fite": "turn_limit", "robo-pigs": "round_limit", "fightopia": "ply_limit"}
    limit = limits[game_id]
    if limit is not None:
        longer = og.load(game_id, **{**params, limit: 2 * int(game.get_parameters()[limit])})
        assert longer.information_layout.size == layout.size
        assert longer.max_game_length() > game.max_game_length()


def test_summarised_information_states_hold_the_latest_events() -> None:
    game = og.load("fightopia", ply_limit=400)
    layout = game.information_layout
    state = game.new_initial_state()
    state.apply_action(1)
    state.apply_action(state.legal_actions()[3])
    tensor = np.asarray(state.information_state_tensor(0))
    # The same history for both players, seen from each one's seat (its observation, its own count).
    assert tensor.tolist() != state.information_state_tensor(1)
    obs = layout.observation
    assert tensor[:obs].tolist() == game.encoding.observation(state.tussle_state, 0).tolist()
    counts = 2 * obs
    mover = state.full_history()[1]
    own = int(mover.player == 0)
    assert tensor[counts : counts + 2].tolist() == pytest.approx([2 / layout.events, own / layout.events])
    first, second = (tensor[counts + 2 + k * layout.event_width :][: layout.event_width] for k in (0, 1))
    # Newest first: the move (its actor, its number in binary), then chance's outcome 1.
    assert first[: 1 + layout.actors].tolist() == [1] + [int(a == mover.player + 1) for a in range(3)]
    assert sum(int(bit) << k for k, bit in enumerate(first[1 + layout.actors :])) == mover.action
    assert second.tolist() == [1, 1, 0, 0] + [1] + [0] * (layout.bits - 1)
    assert not tensor[counts + 2 + 2 * layout.event_width :].any()
