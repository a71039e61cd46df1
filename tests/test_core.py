"""Unit tests of the core model: options, the registry, results, action sets and State's checks."""

from __future__ import annotations

import ast
import importlib.metadata
import random
from pathlib import Path
from typing import Any

import pytest

import tussle
from toy_game import DiceRace, DiceRaceState, registered
from tussle import (
    CHANCE,
    PUBLIC,
    ActionError,
    Actions,
    AgentError,
    ChanceMode,
    Dynamics,
    GameInfo,
    Information,
    ListActions,
    Option,
    OptionError,
    PositionError,
    RecordError,
    Result,
    TussleError,
    UnknownGameError,
)
from tussle.game import MAX_DOCUMENT_CHARS, document_hint, looks_like_path

# --- options ------------------------------------------------------------------

FLAG = Option("flag", "bool", False, "a switch")
COUNT = Option("count", "int", 3, "how many", minimum=1, maximum=9)
COLOUR = Option("colour", "choice", "red", "which colour", choices=("red", "blue"))
NAME = Option("name", "str", "", "a name")


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        *[(True, True), ("true", True), ("Yes", True), (" on ", True), ("1", True), (1, True)],
        *[(False, False), ("false", False), ("NO", False), ("off", False), ("0", False), (0, False)],
    ],
)
def test_bool_options_read_the_usual_words(value: Any, expected: bool) -> None:
    assert FLAG.parse(value) is expected


@pytest.mark.parametrize("value", ["maybe", "", "2", 2, 1.0, None, [], "truee"])
def test_bool_options_refuse_anything_else(value: Any) -> None:
    with pytest.raises(OptionError, match=r"option flag: .* is not a boolean \(use true or false\)"):
        FLAG.parse(value)


@pytest.mark.parametrize(
    ("value", "expected"), [(5, 5), ("5", 5), (" 7 ", 7), ("+2", 2), (4.0, 4), ("09", 9)]
)
def test_int_options_read_integers(value: Any, expected: int) -> None:
    parsed = COUNT.parse(value)
    assert parsed == expected and type(parsed) is int


@pytest.mark.parametrize(
    "value", ["five", "", "4.5", 4.5, True, None, [3], "1e1", "1_0", "٣", float("inf"), float("nan"), "--3"]
)
def test_int_options_refuse_non_integers(value: Any) -> None:
    with pytest.raises(OptionError, match=r"option count: .* is not an integer"):
        COUNT.parse(value)


def test_int_options_check_their_bounds() -> None:
    with pytest.raises(OptionError, match="option count: 0 is below the minimum 1"):
        COUNT.parse("0")
    with pytest.raises(OptionError, match="option count: 10 is above the maximum 9"):
        COUNT.parse(10)
    assert COUNT.parse(1) == 1 and COUNT.parse(9) == 9


def test_choice_options_name_the_choices() -> None:
    assert COLOUR.parse("blue") == "blue"
    with pytest.raises(OptionError, match="option colour: 'green' is not one of red, blue"):
        COLOUR.parse("green")
    # Read without regard to case, like booleans, and kept as declared (as records write them).
    assert COLOUR.parse(" Red ") == "red"


def test_str_options_take_only_text() -> None:
    assert NAME.parse("pig") == "pig"
    with pytest.raises(OptionError, match="option name: 3 is not a string"):
        NAME.parse(3)


LAYOUT = Option("layout", "document", "", "a start position", documents=("basic", "open-field"))


def test_document_options_take_a_documents_text_or_a_shipped_name() -> None:
    assert LAYOUT.parse("size=16\nwhite=Ch1N") == "size=16\nwhite=Ch1N"  # as given, never a file
    assert LAYOUT.parse(" OPEN-field ") == "open-field" and LAYOUT.parse("  \n") == ""
    assert LAYOUT.parse("x" * MAX_DOCUMENT_CHARS) == "x" * MAX_DOCUMENT_CHARS
    with pytest.raises(OptionError, match=r"^option layout: a document of 65,537 characters is too long "):
        LAYOUT.parse("x" * (MAX_DOCUMENT_CHARS + 1))
    with pytest.raises(OptionError, match="option layout: 3 is not a string"):
        LAYOUT.parse(3)


def test_a_file_name_given_for_a_document_gets_a_hint_that_games_read_no_file() -> None:
    for value in ("/etc/shadow", "decks/mine.toml", "duel.txt", "C:\\setups\\duel"):
        assert looks_like_path(value), value
        assert "a game reads no file" in document_hint("g", "layout", value)
    for value in ("basic", "size=16 white=Ch1N", "[[warrior]]\nname = 'a/b.c'", ""):
        assert not looks_like_path(value) and not document_hint("g", "layout", value), value


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"kind": "float"}, "kind 'float' is not one of"),
        ({"kind": "str", "default": "", "documents": ("a",)}, "only a document option ships documents"),
        ({"kind": "document", "default": "", "documents": ("two words",)}, "is not a name"),
        ({"kind": "document", "default": "mine"}, "a document's default is empty or a name it ships"),
        ({"kind": "choice", "default": "a"}, "a choice needs choices"),
        ({"kind": "int", "default": "x"}, "bad default"),
        ({"kind": "int", "default": 0, "minimum": 1}, "bad default"),
        ({"name": "players"}, "other than 'players'"),
        ({"name": "two words"}, "must be an identifier"),
    ],
)
def test_badly_declared_options_fail_at_once(kwargs: dict[str, Any], message: str) -> None:
    fields: dict[str, Any] = {"name": "opt", "kind": "bool", "default": False, "help": "?"} | kwargs
    with pytest.raises(ValueError, match=message):
        Option(**fields)


def make_info(**kwargs: Any) -> GameInfo:
    fields: dict[str, Any] = {
        "id": "g",
        "name": "G",
        "description": "a game",
        "min_players": 2,
        "max_players": 2,
        "dynamics": Dynamics.SEQUENTIAL,
        "chance": ChanceMode.DETERMINISTIC,
        "information": Information.PERFECT,
    }
    return GameInfo(**(fields | kwargs))


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"min_players": 0}, "players from 0 to 2"),
        ({"min_players": 3}, "players from 3 to 2"),
        ({"options": (FLAG, FLAG)}, "an option is declared twice"),
    ],
)
def test_badly_declared_games_fail_at_once(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        make_info(**kwargs)


def test_a_game_without_options_says_so() -> None:
    with pytest.raises(OptionError, match=r"^g has no option 'speed' \(options: none\)$"):
        make_info().option("speed")


# --- the registry and loading games ---------------------------------------------


def test_game_ids_are_sorted_and_known() -> None:
    ids = tussle.game_ids()
    assert ids == sorted(ids) and "robo-pigs" in ids
    for game_id in ids:
        info = tussle.game_info(game_id)
        assert info.id == game_id
        assert info.name and info.description and "\n" not in info.description
        assert 1 <= info.min_players <= info.max_players


def test_an_unknown_game_gets_a_suggestion() -> None:
    with pytest.raises(UnknownGameError) as caught:
        tussle.load_game("robo-pig")
    message = str(caught.value)
    assert message.startswith("unknown game 'robo-pig' (did you mean robo-pigs?)")
    assert "known games: " in message and "robo-pigs" in message
    with pytest.raises(UnknownGameError, match="unknown game 'zzzz'; known games:"):
        tussle.game_info("zzzz")


def test_an_unknown_option_names_the_known_ones() -> None:
    with pytest.raises(OptionError) as caught:
        tussle.load_game("robo-pigs", extra_y=True)
    message = str(caught.value)
    assert message.startswith("robo-pigs has no option 'extra_y' (options: ")
    assert all(o.name in message for o in tussle.game_info("robo-pigs").options)
    assert message.endswith("did you mean extra_x?")


def test_an_option_may_not_be_called_like_load_games_own_arguments() -> None:
    with pytest.raises(OptionError, match="has no option 'game_id'"):
        tussle.load_game("robo-pigs", game_id="x")


def test_a_bad_option_value_says_why() -> None:
    with pytest.raises(OptionError, match="option round_limit: 'many' is not an integer"):
        tussle.load_game("robo-pigs", round_limit="many")


def test_options_get_defaults_and_converted_values() -> None:
    with registered() as game_id:
        game = tussle.load_game(game_id, target="30")
        assert dict(game.options) == {"target": 30, "die": "d6", "turn_limit": 0}
        assert game.non_default_options() == {"target": 30}
        assert repr(game) == "<DiceRace dice-race players=2, target=30>"
        with pytest.raises(TypeError):
            game.options["target"] = 5  # type: ignore[index]


@pytest.mark.parametrize(
    ("players", "message"),
    [
        (1, "dice-race is for 2 to 4 players, not 1"),
        (5, "dice-race is for 2 to 4 players, not 5"),
        ("two", "the number of players 'two' is not an integer"),
        (2.5, "the number of players 2.5 is not an integer"),
        (True, "the number of players True is not an integer"),
        ("9" * 40, "dice-race is for 2 to 4 players, not a 40-digit number"),
        (10**40, "dice-race is for 2 to 4 players, not a 41-digit number"),
    ],
)
def test_a_bad_player_count_says_why(players: Any, message: str) -> None:
    with registered() as game_id, pytest.raises(OptionError, match=message):
        tussle.load_game(game_id, players=players)


def test_player_counts_default_to_the_minimum_and_read_text() -> None:
    with registered() as game_id:
        assert tussle.load_game(game_id).num_players == 2
        text: Any = "3"  # as the command line gives it
        assert tussle.load_game(game_id, players=text).num_players == 3
    with pytest.raises(OptionError, match="robo-pigs is for 2 players, not 3"):
        tussle.load_game("robo-pigs", players=3)


# --- results ----------------------------------------------------------------------


def test_a_win() -> None:
    result = Result.win(2, 3, "reached the goal")
    assert result.winner == 2 and not result.is_draw
    assert result.ranking == (2, 2, 1)
    assert result.returns == (-0.5, -0.5, 1.0)
    assert result.to_json() == {
        "winner": 2,
        "draw": False,
        "ranking": [2, 2, 1],
        "returns": [-0.5, -0.5, 1.0],
        "reason": "reached the goal",
        "termination": "rules",
    }


def test_a_draw() -> None:
    result = Result.draw(4, "time")
    assert result.winner is None and result.is_draw
    assert result.ranking == (1, 1, 1, 1) and result.returns == (0.0,) * 4


def test_a_shared_first_place_has_no_winner() -> None:
    result = Result((0.5, 0.5, -1.0), (1, 1, 3))
    assert result.winner is None and result.is_draw


def test_a_solitaire_win_does_not_divide_by_zero() -> None:
    assert Result.win(0, 1).returns == (1.0,)


@pytest.mark.parametrize(
    "args",
    [((1.0,), (1, 2)), ((), ()), ((0.0, 0.0), (2, 2)), ((0.0, 0.0), (1, 3)), ((0.0, 0.0), (0, 1))],
)
def test_a_malformed_result_is_a_bug(args: tuple[tuple[float, ...], tuple[int, ...]]) -> None:
    with pytest.raises(ValueError):
        Result(*args)


def test_a_win_needs_a_player() -> None:
    with pytest.raises(ValueError):
        Result.win(2, 2)


# --- action sets ----------------------------------------------------------------


def test_list_actions() -> None:
    actions = ListActions(["a", "b", "c"])
    assert len(actions) == 3 and actions[1] == "b" and actions[-1] == "c"
    assert list(actions) == ["a", "b", "c"]
    assert "b" in actions and "z" not in actions
    unhashable: Any = ["a"]
    assert unhashable not in actions  # not an action, and not a TypeError either
    assert actions.sample(random.Random(1)) in actions
    assert repr(actions) == "ListActions(['a', 'b', 'c'])"


class Evens(Actions[int]):
    """A lazy action set: the even numbers below a limit."""

    def __init__(self, limit: int) -> None:
        self.limit = limit

    def __len__(self) -> int:
        return (self.limit + 1) // 2

    def __getitem__(self, index: int) -> int:  # type: ignore[override]
        if not -len(self) <= index < len(self):
            raise IndexError(index)
        return 2 * (index % len(self))


def test_a_lazy_action_set_samples_without_listing() -> None:
    evens = Evens(10**12)
    rng = random.Random(5)
    picks = {evens.sample(rng) for _ in range(50)}
    assert len(picks) == 50 and all(p % 2 == 0 and 0 <= p < 10**12 for p in picks)


# --- what State checks for every game ------------------------------------------


@pytest.fixture
def race() -> DiceRaceState:
    return DiceRace(players=3, target=10).new_initial_state()


def test_turns_and_chance(race: DiceRaceState) -> None:
    assert race.to_act() == (0,) and not race.is_chance() and not race.is_terminal()
    assert race.apply_str(0, " ROLL ") == "roll"
    assert race.is_chance() and race.to_act() == (CHANCE,)
    assert len(race.legal_actions(0)) == 0
    race.apply(CHANCE, 5)
    assert race.pot == 5 and race.to_act() == (0,)


def snapshot(state: DiceRaceState) -> tuple[Any, ...]:
    return (state.render(), state.to_act(), state.observation(0), state.result())


def test_out_of_turn_names_who_is_to_act(race: DiceRaceState) -> None:
    before = snapshot(race)
    with pytest.raises(ActionError, match=r"^it is not player 1's turn \(to act: player 0\)$"):
        race.apply(1, "roll")
    with pytest.raises(ActionError, match=r"^'roll': it is not player 1's turn \(to act: player 0\)$"):
        race.parse_action(1, "roll")
    with pytest.raises(ActionError, match=r"it is not chance's turn"):
        race.apply(CHANCE, 3)
    with pytest.raises(ActionError, match="it is not player 7's turn"):
        race.apply(7, "roll")
    assert snapshot(race) == before


def test_an_illegal_action_says_so_and_why(race: DiceRaceState) -> None:
    before = snapshot(race)
    with pytest.raises(ActionError, match=r"^'hold' is not legal now$"):
        race.apply(0, "hold")
    with pytest.raises(ActionError, match=r"^'hold' is not legal now: nothing to hold yet$"):
        race.apply_str(0, "hold")
    assert snapshot(race) == before


@pytest.mark.parametrize("junk", [None, 3, ["roll"], {"roll": 1}, object(), "ROLL"])
def test_junk_objects_are_refused(race: DiceRaceState, junk: Any) -> None:
    before = snapshot(race)
    with pytest.raises(ActionError, match="is not legal now"):
        race.apply(0, junk)
    assert snapshot(race) == before


def test_garbled_text_is_refused(race: DiceRaceState) -> None:
    with pytest.raises(ActionError, match=r"^'jump': say roll or hold$"):
        race.parse_action(0, "jump")
    with pytest.raises(ActionError, match="is not text"):
        race.parse_action(0, None)  # type: ignore[arg-type]


def test_impossible_chance_outcomes_are_refused(race: DiceRaceState) -> None:
    race.apply(0, "roll")
    before = snapshot(race)
    for junk in (7, 0, "3", [3], None):
        with pytest.raises(ActionError, match="is not a possible chance outcome"):
            race.apply(CHANCE, junk)  # type: ignore[arg-type]  # junk on purpose
    with pytest.raises(ActionError, match=r"^'9': a roll is a number from 1 to 6$"):
        race.parse_action(CHANCE, "9")
    assert snapshot(race) == before


def test_chance_cannot_roll_a_d4_six() -> None:
    state = DiceRace(die="d4").new_initial_state()
    state.apply(0, "roll")
    with pytest.raises(ActionError, match=r"^'6' is not a possible chance outcome now$"):
        state.parse_action(CHANCE, "6")


def test_sample_chance_follows_the_outcomes(race: DiceRaceState) -> None:
    with pytest.raises(ActionError, match="no chance event is pending"):
        race.sample_chance(random.Random(0))
    race.apply(0, "roll")
    rng = random.Random(0)
    counts: dict[str | int, int] = {k: 0 for k in range(1, 7)}
    for _ in range(600):
        counts[race.sample_chance(rng)] += 1
    assert all(count > 50 for count in counts.values()), counts


def test_a_finished_game_refuses_everything() -> None:
    state = DiceRace(target=2).new_initial_state()
    for text in ("roll", "2", "hold"):
        state.apply_str(state.to_act()[0], text)
    assert state.to_act() == () and state.is_terminal()
    result = state.result()
    assert result is not None and result.winner == 0
    for player in (0, 1, CHANCE):
        with pytest.raises(ActionError, match="the game is over"):
            state.apply(player, "roll")


def test_positions_are_optional() -> None:
    game = DiceRace()
    with pytest.raises(PositionError, match=r"^dice-race has no position notation$"):
        game.state_from_position("1 2 3")
    with pytest.raises(PositionError, match=r"^dice-race has no position notation$"):
        game.new_initial_state().position()


def test_public_is_the_seat_of_nobody(race: DiceRaceState) -> None:
    assert PUBLIC == -2 and PUBLIC != CHANCE and PUBLIC not in range(race.num_players)
    assert race.public_observation() == race.observation(PUBLIC)
    assert isinstance(race.observation_text(PUBLIC), str)
    # A spectator never acts.
    assert len(race.legal_actions(PUBLIC)) == 0
    with pytest.raises(ActionError, match="a spectator never acts"):
        race.apply(PUBLIC, "roll")


def test_perfect_information_resamples_a_copy(race: DiceRaceState) -> None:
    other = race.resample(1, random.Random(0))
    assert other is not race and other.render() == race.render()
    other.apply(0, "roll")
    assert race.to_act() == (0,)
    assert str(race) == race.render()


# --- the package ------------------------------------------------------------------


def test_the_package_exports_its_api() -> None:
    for name in tussle.__all__:
        assert hasattr(tussle, name), name
    assert tussle.__version__ == importlib.metadata.version("tussle")


@pytest.mark.parametrize(
    "error", [UnknownGameError, OptionError, ActionError, PositionError, RecordError, AgentError]
)
def test_every_error_is_a_tussle_error(error: type[Exception]) -> None:
    assert issubclass(error, TussleError)


# --- the layers (docs/architecture.md) ---------------------------------------------

SRC = Path(tussle.__file__).parent


def tussle_imports(path: Path) -> set[str]:
    """The tussle modules that a source file imports, anywhere in it."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found |= {node.module} | {f"{node.module}.{alias.name}" for alias in node.names}
    return {name for name in found if name == "tussle" or name.startswith("tussle.")}


#: A game's modules beyond its rules, and the generic frameworks they build on
#: (docs/architecture.md): its computer players and its encoding for the RL adapters.
PARTS = {
    "rule_agent": ("tussle.agents",),
    "solved": ("tussle.agents",),
    "search": ("tussle.agents", "tussle.search"),
    "encoding": ("tussle.adapters.encoding",),
    # A game's batched engine (Hooks.batch) builds on tussle.batch's BatchGame and BatchState.
    "batch": ("tussle.batch",),
    "balance": ("tussle.balance.", "tussle.record"),
    # A game's own commands (Hooks.commands: FITE's fite-odds) are command-line code.
    "odds": ("tussle.cli.extras",),
}


def test_games_depend_only_on_the_core() -> None:
    # A game's rules use the core alone; its parts (computer players, encoding) the
    # frameworks they extend too; no game uses another game.
    for path in sorted((SRC / "games").rglob("*.py")):
        package = path.relative_to(SRC / "games").parts
        own = f"tussle.games.{package[0]}" if len(package) > 1 else "tussle.games"
        frameworks = PARTS.get(path.stem, ()) if len(package) > 1 else ()
        for name in tussle_imports(path):
            allowed = name.startswith(("tussle.game.", "tussle.errors.", own + ".", *frameworks)) or name in (
                "tussle.game",
                "tussle.errors",
                own,
            )
            assert allowed, (
                f"{path.relative_to(SRC)} imports {name}: a game's rules may use only tussle.game and "
                f"tussle.errors, its parts ({', '.join(PARTS)}) the frameworks they extend"
            )


def test_nothing_else_reaches_into_a_game() -> None:
    # Generic code names no game: it reaches a game through the hooks the game declares.
    outside = [p for p in SRC.rglob("*.py") if "games" not in p.relative_to(SRC).parts]
    assert outside
    for path in outside:
        for name in tussle_imports(path):
            assert not name.startswith("tussle.games"), (
                f"{path.relative_to(SRC)} imports {name}: only the registry names games, by module path"
            )
        if path.name != "registry.py":
            assert "tussle.games." not in path.read_text(encoding="utf-8"), (
                f"{path.relative_to(SRC)} names a game's module: reach it through GameInfo.hooks"
            )


def test_the_core_stands_alone() -> None:
    assert tussle_imports(SRC / "errors.py") == set()
    assert tussle_imports(SRC / "game.py") <= {"tussle.errors"} | {
        f"tussle.errors.{e}" for e in dir(tussle.errors)
    }
