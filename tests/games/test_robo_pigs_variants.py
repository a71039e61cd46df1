"""Robo Battle Pigs' variants for small games: shorter programs (program_length) and a lower
damage limit (damage_limit); the notation, encoding, agents and search with them."""

from __future__ import annotations

from typing import Any

import pytest

from tussle import ActionError, OptionError, load_game
from tussle.adapters.encoding import encoding_for
from tussle.agents import make_agent
from tussle.games.robo_pigs import RoboPigsState
from tussle.games.robo_pigs.actions import DAMAGE, FIRE, FWD, REPAIR
from tussle.games.robo_pigs.encoding import RoboPigsSteps
from tussle.runner import play_game


def test_the_standard_game_names_no_variant() -> None:
    game = load_game("robo-pigs")
    assert game.non_default_options() == {}  # a record of it names no new option
    options = game.new_initial_state().observation(0)["options"]
    assert "program_length" not in options and "damage_limit" not in options
    assert len(game.new_initial_state().legal_actions(0)) == 32_768


def test_short_programs_are_written_read_and_judged_at_their_length() -> None:
    game = load_game("robo-pigs", program_length=2, damage_limit=4)
    # Undamaged: 8 x 8 programs; 1 damage: one X in either step, or R R; 2 or 3: X X or R R.
    counts = [len(game.state_from_position(f"d8S{d} e1N0 1").legal_actions(0)) for d in range(4)]
    assert counts == [64, 17, 2, 2]
    state = game.state_from_position("d8S1 e1N3 1")
    assert state.parse_action(0, "f x") == (FIRE, DAMAGE)
    assert state.parse_action(0, "RR") == (REPAIR, REPAIR)
    assert state.parse_action(1, "X X") == (DAMAGE, DAMAGE)  # 3 damage owes as many X as fit
    assert state.action_to_str(0, (FIRE, DAMAGE)) == "F X"
    assert state.action_to_json(0, (FIRE, DAMAGE)) == {"commands": ["F", "X"]}
    assert state.action_from_json(0, {"commands": ["X", "^"]}) == (DAMAGE, FWD)
    with pytest.raises(ActionError, match="a program has 2 commands, not 5"):
        state.parse_action(0, "F ^ F ^ F")
    with pytest.raises(ActionError, match="must play exactly 1 X"):
        state.parse_action(0, "F F")
    with pytest.raises(ActionError, match="repair is R R, the whole program"):
        state.parse_action(0, "R X")
    with pytest.raises(ActionError, match="must be a list of 2 commands"):
        state.action_from_json(0, {"commands": ["F"] * 5})
    assert state.observation(0)["options"]["program_length"] == 2
    fresh = game.new_initial_state()
    hint = "write 2 commands from ^ v \\ / TL TR F H with no X."
    assert hint in fresh.observation_to_text(fresh.observation(0), 0)


def test_the_damage_limit_ends_the_game_and_short_rounds_play_their_steps() -> None:
    game = load_game("robo-pigs", program_length=1, damage_limit=1)
    state = game.state_from_position("d8S0 d6S0 1")
    assert isinstance(state, RoboPigsState)
    state.apply(0, state.parse_action(0, "F"))
    state.apply(1, state.parse_action(1, "^"))
    result = state.result()
    assert result is not None and result.winner == 0
    assert result.reason == "pig B reached 1 damage"
    assert len(state.last_steps) == 1 and state.squares[1] == 35  # d5
    with pytest.raises(Exception, match="the game ends at 1"):
        game.state_from_position("d8S2 d6S0 1")
    with pytest.raises(OptionError, match="program_length"):
        load_game("robo-pigs", program_length=6)
    with pytest.raises(OptionError, match="damage_limit"):
        load_game("robo-pigs", damage_limit=0)


@pytest.mark.parametrize("length", [1, 2, 3])
def test_the_encoding_numbers_short_programs(length: int) -> None:
    game = load_game("robo-pigs", program_length=length, damage_limit=4)
    encoding = encoding_for(game)
    assert encoding.codec.num_actions == 9**length + 1
    for damage in range(4):
        state = game.state_from_position(f"d8S{damage} e1N0 1")
        legal = state.legal_actions(0)
        indices = encoding.legal(state, 0).indices
        assert sorted(encoding.codec.encode(state.action_to_str(0, a)) for a in legal) == list(indices)
        assert [encoding.codec.label(int(i)) for i in indices] == sorted(
            (state.action_to_str(0, a) for a in legal), key=encoding.codec.encode
        )
        steps = RoboPigsSteps(False, length)
        # Token by token, every legal program and no other is written (the programs' count).
        complete = []
        frontier: list[list[int]] = [[]]
        while frontier:
            prefix = frontier.pop()
            text = steps.complete(damage, prefix)
            if text is not None:
                complete.append(text)
            else:
                frontier.extend([*prefix, t] for t in steps.legal_tokens(damage, prefix))
        assert sorted(complete) == sorted(state.action_to_str(0, a) for a in legal)


def _play(agents: tuple[str, str], seed: int, **options: Any) -> Any:
    game = load_game("robo-pigs", round_limit=6, **options)
    players = [make_agent(spec, game, seat, seed=seed * 10 + seat) for seat, spec in enumerate(agents)]
    _, record = play_game(game, players, seed=seed)
    return record


@pytest.mark.parametrize("length", [1, 2, 4])
def test_the_rule_agent_and_search_play_short_programs(length: int) -> None:
    # Every program they send is applied by the rules, which refuse an illegal one.
    pairs = (("rule:candidates=16,samples=4", "smmcts:iterations=60"), ("random", "rule"))
    for seed, agents in enumerate(pairs, 1):
        record = _play(agents, seed, program_length=length, damage_limit=3)
        assert record.result is not None
        programs = [event for _, event in record.events]
        assert programs and all(len(p.split()) == length for p in programs)
