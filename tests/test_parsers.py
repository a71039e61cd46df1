"""Garbage in, a clear error out: hypothesis feeds every parser text it does not expect.

Every parser (each game's actions and positions, records, options, agent specs)
must either succeed or raise a :class:`~tussle.errors.TussleError` with a
one-line message; any other exception is a bug. A failed parse leaves the state
as it was. Texts are drawn both at random and as small corruptions of real
notation, which is where a hand-written parser usually slips.
"""

from __future__ import annotations

import contextlib
import functools
import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tussle
import tussle.agents
from tussle import CHANCE, Record, State, TussleError
from tussle.agents import make_agent, parse_spec

GAMES = tussle.game_ids()
POSITION_GAMES = [g for g in GAMES if tussle.game_info(g).has_position]

# Every test draws a game's states from a cache; the health check would count
# the first, slower draw against the strategy.
SETTINGS = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def snapshot(state: State[Any]) -> tuple[Any, ...]:
    n = state.num_players
    return (
        state.render(),
        state.to_act(),
        [state.observation(p) for p in range(n)],
        [state.observation_text(p) for p in range(n)],
        state.result(),
    )


def random_event(state: State[Any], rng: random.Random) -> tuple[int, str]:
    player = rng.choice(state.to_act())
    action = state.sample_chance(rng) if player == CHANCE else state.legal_actions(player).sample(rng)
    text = state.action_to_str(player, action)
    state.apply(player, action)
    return player, text


@functools.cache
def reachable(game_id: str) -> tuple[tuple[State[Any], ...], tuple[str, ...], tuple[Record, ...]]:
    """States met in random play (start, middle, end), the notation seen there, and the games' records."""
    game = tussle.load_game(game_id)
    states: list[State[Any]] = []
    texts: set[str] = set()
    records: list[Record] = []
    for seed in range(3):
        rng = random.Random(seed)
        state = game.new_initial_state()
        record = Record.start(game, ["random"] * game.num_players)
        states.append(state.clone())
        keep = {rng.randrange(1, 60) for _ in range(4)}
        events = 0
        while not state.is_terminal() and events < 5_000:
            for p in state.to_act():
                if p == CHANCE:
                    texts.update(state.action_to_str(CHANCE, o) for o, _ in state.chance_outcomes()[:20])
                else:
                    legal = state.legal_actions(p)
                    texts.update(state.action_to_str(p, legal.sample(rng)) for _ in range(3))
            player, text = random_event(state, rng)
            record.add(player, text)
            events += 1
            if events in keep:
                states.append(state.clone())
        result = state.result()
        record.finish(result)
        states.append(state)
        records.append(record)
    return tuple(states), tuple(sorted(texts)), tuple(records)


def positions(game_id: str) -> list[str]:
    """The position notation of every reachable state that has one."""
    out = []
    for state in reachable(game_id)[0]:
        with contextlib.suppress(tussle.PositionError):  # mid-step states may have none
            out.append(state.position())
    return out


@st.composite
def garbled(draw: st.DrawFn, pool: list[str] | tuple[str, ...]) -> str:
    """Random text, or real notation slightly corrupted."""
    if not pool or draw(st.integers(0, 3)) == 0:
        return draw(st.text(max_size=40))
    text = draw(st.sampled_from(pool))
    for _ in range(draw(st.integers(1, 3))):
        op = draw(st.integers(0, 8))
        at = draw(st.integers(0, len(text)))
        if op == 0:
            text = text[:at] + draw(st.characters()) + text[at:]
        elif op == 1:
            text = text[:at] + draw(st.sampled_from(" ,;:-+/\\^v0123456789\t\n\x00")) + text[at:]
        elif op == 2 and text:
            text = text[: max(0, at - 1)] + text[at:]
        elif op == 3:
            text = text[:at]
        elif op == 4:
            words = text.split()
            if words:
                i = draw(st.integers(0, len(words) - 1))
                if draw(st.booleans()):
                    words.insert(i, words[i])
                else:
                    del words[i]
            text = " ".join(words)
        elif op == 5:
            text = draw(st.sampled_from([text.upper(), text.lower(), text.swapcase(), text.title()]))
        elif op == 6:
            text = text + draw(st.sampled_from(["", " "])) + draw(st.sampled_from(pool))
        elif op == 7:
            text = draw(st.sampled_from(["", " ", "\n", "\t", "\u00a0"])) + text + draw(st.text(max_size=2))
        else:
            text = text[:at] + str(draw(st.integers(-(10**12), 10**12))) + text[at:]
    return text


def assert_one_line(error: Exception) -> None:
    message = str(error)
    assert message.strip(), f"{type(error).__name__} without a message"
    assert "\n" not in message, f"a message on several lines: {message!r}"


# --- actions ------------------------------------------------------------------


@pytest.mark.parametrize("game_id", GAMES)
@SETTINGS
@given(data=st.data())
def test_parse_action_takes_any_text(game_id: str, data: st.DataObject) -> None:
    states, texts, _ = reachable(game_id)
    state = data.draw(st.sampled_from(states)).clone()
    n = state.num_players
    player = data.draw(st.sampled_from([CHANCE, *range(n), n, 99]))
    text = data.draw(garbled(texts))
    before = snapshot(state)
    try:
        action = state.parse_action(player, text)
    except TussleError as exc:
        assert_one_line(exc)
        assert snapshot(state) == before, f"a failed parse of {text!r} changed the state"
        with pytest.raises(TussleError):
            state.apply_str(player, text)
        assert snapshot(state) == before, f"a failed apply_str of {text!r} changed the state"
        return
    assert snapshot(state) == before, "parse_action changed the state"
    assert player in state.to_act()
    canonical = state.action_to_str(player, action)
    assert state.parse_action(player, canonical) == action
    assert state.apply_str(player, text) == action


# --- positions ----------------------------------------------------------------


@pytest.mark.parametrize("game_id", POSITION_GAMES)
@SETTINGS
@given(data=st.data())
def test_state_from_position_takes_any_text(game_id: str, data: st.DataObject) -> None:
    game = tussle.load_game(game_id)
    text = data.draw(garbled(positions(game_id)))
    try:
        state = game.state_from_position(text)
    except TussleError as exc:
        assert_one_line(exc)
        return
    # Whatever was read has a canonical position that reads back to itself.
    canonical = state.position()
    assert game.state_from_position(canonical).position() == canonical


@pytest.mark.parametrize("game_id", POSITION_GAMES)
def test_other_scripts_digits_in_a_position_are_refused(game_id: str) -> None:
    # str.isdigit() says yes to '²' and '٣' but int() refuses them: a parser
    # that trusts isdigit() crashes instead of naming the bad character.
    game = tussle.load_game(game_id)
    start = game.new_initial_state()
    while start.is_chance():
        start.apply(tussle.CHANCE, start.chance_outcomes()[0][0])
    text = start.position()
    for digit in "²٣":
        for i, ch in enumerate(text):
            if ch.isdigit():
                with pytest.raises(TussleError) as error:
                    game.state_from_position(text[:i] + digit + text[i + 1 :])
                assert_one_line(error.value)


@pytest.mark.parametrize("game_id", POSITION_GAMES)
def test_position_round_trip_on_reachable_states(game_id: str) -> None:
    game = tussle.load_game(game_id)
    checked = 0
    for state in reachable(game_id)[0]:
        try:
            text = state.position()
        except tussle.PositionError:
            continue
        again = game.state_from_position(text)
        assert again.position() == text
        assert again.to_act() == state.to_act()
        assert again.result() == state.result()
        for p in state.to_act():
            if p != CHANCE:
                assert len(again.legal_actions(p)) == len(state.legal_actions(p))
        checked += 1
    assert checked, f"no reachable state of {game_id} has a position"


@pytest.mark.parametrize("game_id", [g for g in GAMES if g not in POSITION_GAMES])
def test_games_without_positions_say_so(game_id: str) -> None:
    game = tussle.load_game(game_id)
    with pytest.raises(tussle.PositionError):
        game.state_from_position("anything")


# --- records ------------------------------------------------------------------

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=10),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)


def check_record_text(text: str) -> None:
    try:
        record = Record.loads(text)
        record.replay()
    except TussleError as exc:
        assert isinstance(exc, tussle.RecordError), f"{type(exc).__name__} instead of RecordError: {exc}"
        assert_one_line(exc)


@SETTINGS
@given(text=st.text(max_size=200) | JSON_VALUES.map(json.dumps))
def test_record_loads_takes_any_text(text: str) -> None:
    check_record_text(text)


@pytest.mark.parametrize("game_id", GAMES)
@SETTINGS
@given(data=st.data())
def test_record_loads_takes_corrupted_records(game_id: str, data: st.DataObject) -> None:
    _, texts, records = reachable(game_id)
    doc = data.draw(st.sampled_from(records)).to_json()
    events: list[Any] = doc["events"]
    for _ in range(data.draw(st.integers(1, 3))):
        op = data.draw(st.integers(0, 6))
        if op == 0:
            doc[data.draw(st.sampled_from(sorted(doc)))] = data.draw(JSON_VALUES)
        elif op == 1:
            doc.pop(data.draw(st.sampled_from(sorted(doc))), None)
        elif op == 2 and events:
            i = data.draw(st.integers(0, len(events) - 1))
            events[i] = dict(events[i], action=data.draw(garbled(texts)))
        elif op == 3 and events:
            i = data.draw(st.integers(0, len(events) - 1))
            events[i] = dict(events[i], player=data.draw(JSON_VALUES | st.integers(-3, 8)))
        elif op == 4 and len(events) > 1:
            i = data.draw(st.integers(0, len(events) - 2))
            events[i], events[i + 1] = events[i + 1], events[i]
        elif op == 5 and events:
            del events[data.draw(st.integers(0, len(events) - 1))]
        else:
            options = doc.get("options")
            if isinstance(options, dict):
                options[data.draw(st.text(max_size=12))] = data.draw(JSON_VALUES)
    check_record_text(json.dumps(doc))


# --- options, player counts and agent specs -----------------------------------

OPTION_VALUES = (
    JSON_VALUES
    | st.text(alphabet="0123456789+-_. eE", max_size=8)
    | st.sampled_from(["true", "false", "yes", "no", "1", "0", "", " 3 ", "1_0", "٣"])
)


@pytest.mark.parametrize("game_id", GAMES)
@SETTINGS
@given(data=st.data())
def test_options_take_any_value(game_id: str, data: st.DataObject) -> None:
    info = tussle.game_info(game_id)
    names = [o.name for o in info.options]
    # 'players' is load_game's own keyword argument (see test_player_counts_take_any_value).
    any_name = st.text(max_size=12).filter(lambda t: t != "players")
    name = data.draw(st.sampled_from(names) | any_name if names else any_name)
    value = data.draw(OPTION_VALUES)
    if name in names:
        option = info.option(name)
        try:
            parsed = option.parse(value)
        except TussleError as exc:
            assert isinstance(exc, tussle.OptionError)
            assert_one_line(exc)
        else:
            assert option.parse(parsed) == parsed, "parsing a parsed value changed it"
            if option.kind == "choice":
                assert parsed in option.choices
            if option.kind == "int":
                assert isinstance(parsed, int) and not isinstance(parsed, bool)
                assert option.minimum is None or parsed >= option.minimum
                assert option.maximum is None or parsed <= option.maximum
            if option.kind == "bool":
                assert isinstance(parsed, bool)
    options: dict[str, Any] = {name: value}
    try:
        tussle.load_game(game_id, **options)
    except TussleError as exc:
        assert isinstance(exc, tussle.OptionError)
        assert_one_line(exc)
    else:
        assert name in names, f"unknown option {name!r} accepted"


@pytest.mark.parametrize("game_id", GAMES)
@SETTINGS
@given(players=OPTION_VALUES)
def test_player_counts_take_any_value(game_id: str, players: Any) -> None:
    info = tussle.game_info(game_id)
    try:
        game = tussle.load_game(game_id, players=players)
    except TussleError as exc:
        assert isinstance(exc, tussle.OptionError)
        assert_one_line(exc)
    else:
        assert info.min_players <= game.num_players <= info.max_players


SPEC_PIECES = st.sampled_from(["random", "human", "rule", ":", ",", "=", "seed", "1", " ", "x"])
SPECS = (
    st.tuples(
        st.sampled_from([*tussle.agents.agent_names(), "", "nobody"]),
        st.sampled_from(["", ":"]),
        st.lists(SPEC_PIECES, max_size=6).map("".join),
    ).map("".join)
    | st.lists(SPEC_PIECES, max_size=8).map("".join)
    | st.text(max_size=30)
)


@SETTINGS
@given(spec=SPECS)
def test_agent_specs_take_any_text(spec: str) -> None:
    try:
        name, params = parse_spec(spec)
    except TussleError as exc:
        assert isinstance(exc, tussle.AgentError)
        assert_one_line(exc)
        return
    # A colon ends the name, except in the registered game-scoped names such as fite:solved.
    assert name and (":" not in name or name in tussle.agents.agent_names())
    assert all(isinstance(k, str) and k and isinstance(v, str) for k, v in params.items())


@pytest.mark.parametrize("game_id", GAMES)
@SETTINGS
@given(spec=SPECS)
def test_make_agent_takes_any_spec(game_id: str, spec: str) -> None:
    game = tussle.load_game(game_id)
    try:
        agent = make_agent(spec, game, 0, seed=1)
    except TussleError as exc:
        assert_one_line(exc)
    else:
        assert agent.player == 0


def test_a_whole_float_is_read_within_the_same_bound_as_an_int() -> None:
    # Found by the test above: 1e18 was read as 10**18, which the bound then refused when read back.
    option = tussle.game_info("robo-pigs").option("round_limit")
    with pytest.raises(tussle.OptionError):
        option.parse(1e18)
    assert option.parse(12.0) == 12
