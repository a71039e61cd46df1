"""FITE's super powers as data (the powers option): the standard six as a document, new ones, bad ones."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tussle import ActionError, AgentError, OptionError, load_game
from tussle.agents import make_agent
from tussle.cli.common import load_with_options
from tussle.games.fite import FiteState
from tussle.games.fite.powers import MAX_POWERS, STANDARD_POWERS, load_powers, standard_text
from tussle.runner import play_game

POWERS = ("none", *STANDARD_POWERS)


def moves(seed: int, agents: tuple[str, str], **options: Any) -> tuple[list[tuple[int, str]], Any]:
    """The events and the result of one seeded game (the options themselves left out)."""
    game = load_game("fite", turn_limit=100, **options)
    players = [make_agent(spec, game, seat, seed=seed * 10 + seat) for seat, spec in enumerate(agents)]
    _, record = play_game(game, players, seed=seed)
    return record.events, record.result


def test_the_standard_document_is_the_standard_powers() -> None:
    assert dict(load_powers(standard_text(), "powers.toml")) == dict(STANDARD_POWERS)


@pytest.mark.parametrize("agents", [("rule", "rule"), ("random", "rule")])
def test_the_standard_powers_as_a_document_play_the_same_games(agents: tuple[str, str]) -> None:
    # Every power against another, seeded: the same events and results with the document's text,
    # its shipped name, and without the option.
    text = standard_text()
    for index, power_a in enumerate(POWERS):
        power_b = POWERS[(index * 3 + 1) % len(POWERS)]
        for seed in (index, 50 + index):
            plain = moves(seed, agents, power_a=power_a, power_b=power_b)
            assert moves(seed, agents, power_a=power_a, power_b=power_b, powers=text) == plain
            assert moves(seed, agents, power_a=power_a, power_b=power_b, powers="Standard") == plain


JUGGERNAUT = """
[power.juggernaut]
attack = 2
defence = 1

[power.blink]
swift = true
attack = 1

[power.brutal]   # redefined: the fighter's own attack and a tactical option
attack = 1
tactical = true
"""


def at_split(**options: Any) -> FiteState:
    state = load_game("fite", powers=JUGGERNAUT, **options).new_initial_state()
    assert isinstance(state, FiteState)
    for text in ("tac 5", "tac 5", "off 1", "def 3"):
        state.apply(state.to_act()[0], state.parse_action(state.to_act()[0], text))
    return state


def test_a_new_power_adds_its_modifiers_in_the_turn_it_is_declared() -> None:
    state = at_split(power_a="Juggernaut")
    assert state.game.options["power_a"] == "juggernaut"
    state.apply(0, state.parse_action(0, "5/4 +juggernaut"))
    state.apply(1, state.parse_action(1, "5/4"))
    # A stands at the offensive location: +1 there, +2 and +1 from Juggernaut.
    assert state.modifiers(0) == (3, 1)
    assert state.modifiers(1) == (0, 1)
    fight = state.observation(1)["fight"]
    assert isinstance(fight, dict) and fight["powers"] == ["juggernaut", None]


def test_a_swift_power_moves_and_adds_its_effects_that_turn() -> None:
    state = at_split(power_b="blink")
    assert state.observation(0)["phase"] == "swift" and state.to_act() == (1,)
    state.apply(1, state.parse_action(1, "swift off"))
    assert state.modifiers(1) == (2, 0)  # the offensive location and Blink's attack
    with pytest.raises(ActionError, match="used already"):
        state.parse_action(1, "5/4 +blink")
    state = at_split(power_b="blink")
    state.apply(1, state.parse_action(1, "stay"))
    with pytest.raises(ActionError, match="moving after the placement, not with the split"):
        state.parse_action(1, "5/4 +blink")


def test_a_redefined_power_and_the_solved_agent() -> None:
    state = at_split(power_a="brutal")
    state.apply(0, state.parse_action(0, "5/4 +brutal"))
    state.apply(1, state.parse_action(1, "5/4"))
    for _ in range(4):
        state.apply(-1, state.chance_outcomes()[0][0])
    assert (
        state.observation(0)["phase"] == "tactical" and 0 in state.to_act()
    )  # Brutal gives Cunning's option
    game = load_game("fite", powers=JUGGERNAUT, power_a="brutal")
    with pytest.raises(AgentError, match="standard powers"):
        make_agent("fite:solved", game, 0)
    make_agent("fite:solved", load_game("fite", powers=standard_text(), power_a="brutal"), 0)


def test_a_stronger_power_wins_more_often() -> None:
    # Rule agents, 20 seeded games: +3 and -3 on every die in the turn it is declared wins them all;
    # without it fighter A wins about 60%.
    titan = "[power.titan]\nattack = 3\ndefence = 3\nopponent_attack = -3\nopponent_defence = -3\n"

    def wins(power: str) -> int:
        results = [moves(seed, ("rule", "rule"), powers=titan, power_a=power)[1] for seed in range(20)]
        return sum(result["returns"][0] > 0 for result in results)

    assert wins("titan") == 20
    assert wins("none") < 16


def test_a_powers_file_through_the_command_line(tmp_path: Path) -> None:
    path = tmp_path / "powers.toml"
    path.write_text(JUGGERNAUT, encoding="utf-8")
    game = load_with_options("fite", 2, {"powers": str(path), "power_b": "juggernaut"})
    assert game.options["power_b"] == "juggernaut"
    path.write_text("[power.juggernaut]\nattack = 7\n", encoding="utf-8")
    with pytest.raises(OptionError, match=r"powers\.toml"):
        load_with_options("fite", 2, {"powers": str(path)})


TOO_MANY = "".join(
    f"[power.p{chr(97 + i // 26)}{chr(97 + i % 26)}]\nattack = 1\n" for i in range(MAX_POWERS + 1)
)


@pytest.mark.parametrize(
    ("text", "options", "message"),
    [
        ("[power.huge]\nattack = 4\n", {}, "power huge: attack is 4, not -3 to 3"),
        ("[power.huge]\nreroll = 1\n", {}, "power huge: unknown key 'reroll'"),
        ("[power.huge]\nattack = 'two'\n", {}, "attack is 'two', not an integer"),
        ("[power.huge]\nswift = 1\n", {}, "swift is 1, not true or false"),
        ("[power.huge]\nattack = 0\n", {}, "power huge: it has no effect"),
        ("[power.Huge2]\nattack = 1\n", {}, "'Huge2' is not a power's name"),
        ("[power.none]\nattack = 1\n", {}, "'none' is not a power's name"),
        ("[powers.huge]\nattack = 1\n", {}, "unknown key 'powers'"),
        ("title = 'x'\n", {}, "unknown key 'title'"),
        ("[power]\n", {}, "it lists no powers"),
        ('{"power": {"huge": {"attack": 1}}', {}, "not valid JSON"),
        ("[power.huge\n", {}, "not valid TOML"),
        (TOO_MANY, {}, f"more than the {MAX_POWERS}"),
        (
            "[power.huge]\nattack = 1\n",
            {"power_a": "brutal"},
            "option power_a: 'brutal' is not one of none, huge",
        ),
        ("", {"power_b": "sneaky"}, "option power_b: 'sneaky' is not one of none, swift"),
    ],
)
def test_bad_documents_are_refused_in_one_line(text: str, options: dict[str, Any], message: str) -> None:
    with pytest.raises(OptionError) as caught:
        load_game("fite", powers=text, **options)
    assert message in str(caught.value) and "\n" not in str(caught.value)
    if text:
        assert str(caught.value).startswith("option powers") or "power_" in str(caught.value)
