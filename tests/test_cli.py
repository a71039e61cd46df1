"""The ``tussle`` command line, driven through click's test runner (and once as a real process).

Besides Robo Battle Pigs, a tiny take-away game defined here is registered for
some tests, to check that the CLI works for a sequential, perfect-information
game with small action sets without knowing anything about it.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from rich.console import Console

from tussle import load_game, registry
from tussle.agents.base import PlayerView
from tussle.agents.human import HumanAgent, PlayerQuitError
from tussle.cli import cli
from tussle.errors import ActionError
from tussle.game import Actions, ChanceMode, Dynamics, Game, GameInfo, Information, ListActions, Option, State
from tussle.game import Result as GameResult
from tussle.record import Record

# --- a tiny game of our own -------------------------------------------------


class TakeAway(Game):
    """Players take 1 or 2 stones in turn; whoever takes the last stone wins."""

    info = GameInfo(
        id="take-away",
        name="Take Away",
        description="Take one or two stones; the last stone wins.",
        min_players=2,
        max_players=3,
        dynamics=Dynamics.SEQUENTIAL,
        chance=ChanceMode.DETERMINISTIC,
        information=Information.PERFECT,
        options=(Option("pile", "int", 5, "stones at the start", minimum=1),),
    )

    def new_initial_state(self) -> TakeAwayState:
        return TakeAwayState(self, int(self.options["pile"]), 0, -1)


class TakeAwayState(State[Any]):
    def __init__(self, game: Game, pile: int, player: int, last: int) -> None:
        self.game = game
        self.pile = pile
        self.player = player
        self.last = last

    def to_act(self) -> tuple[int, ...]:
        return (self.player,) if self.pile else ()

    def legal_actions(self, player: int) -> Actions[Any]:
        if player not in self.to_act():
            return ListActions(())
        return ListActions([n for n in (1, 2) if n <= self.pile])

    def _apply(self, player: int, action: Any) -> None:
        self.pile -= action
        self.last = player
        self.player = (player + 1) % self.num_players

    def action_to_str(self, player: int, action: Any) -> str:
        return str(action)

    def _parse_action(self, player: int, text: str) -> Any:
        if text.strip() not in ("1", "2"):
            raise ActionError(f"{text!r}: take 1 or 2 stones")
        return int(text)

    def action_to_json(self, player: int, action: Any) -> dict[str, object]:
        return {"take": action}

    def _action_from_json(self, player: int, data: dict[str, object]) -> Any:
        if set(data) != {"take"} or data["take"] not in (1, 2):
            raise ActionError(f"{data!r}: take 1 or 2 stones")
        return data["take"]

    def result(self) -> GameResult | None:
        return None if self.pile else GameResult.win(self.last, self.num_players, "took the last stone")

    def clone(self) -> TakeAwayState:
        return TakeAwayState(self.game, self.pile, self.player, self.last)

    def observation(self, player: int) -> dict[str, Any]:
        return {"pile": self.pile, "to_act": list(self.to_act())}

    def observation_to_text(self, observation: Mapping[str, Any], player: int) -> str:
        return f"{observation['pile']} stones left"

    def render(self) -> str:
        return f"pile: {'o' * self.pile}"


@pytest.fixture
def take_away(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(registry._GAMES, "take-away", f"{__name__}:TakeAway")


# --- helpers ----------------------------------------------------------------


def run(*args: str, stdin: str | None = None) -> Result:
    return CliRunner().invoke(cli, list(args), input=stdin)


def assert_one_line_error(result: Result, *words: str) -> str:
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output + result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("tussle: error: ")
    for word in words:
        assert word in lines[0]
    return lines[0]


def match_json(*extra: str) -> dict[str, Any]:
    result = run("match", "robo-pigs", "random", "random", "--json", *extra)
    assert result.exit_code == 0, result.stderr
    assert result.stderr == ""  # no progress bar off a terminal
    lines = result.stdout.strip().splitlines()
    assert len(lines) == 1  # exactly one JSON object
    summary: dict[str, Any] = json.loads(lines[0])
    return summary


@pytest.fixture(scope="module")
def records(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    folder = tmp_path_factory.mktemp("records")
    result = run("match", "robo-pigs", "random", "random", "-n", "4", "--seed", "5", "--record", str(folder))
    assert result.exit_code == 0, result.stderr
    assert (folder / ".tussle-run.json").is_file()  # names the match, for a restart to go on from
    return sorted(folder.glob("robo-pigs-*.json"))


# --- version, help, games, info ---------------------------------------------


def test_version() -> None:
    result = run("--version")
    assert result.exit_code == 0
    assert result.stdout.startswith("tussle ")


def test_no_command_shows_help() -> None:
    result = run()
    assert result.exit_code == 0
    for command in ("games", "info", "play", "match", "replay"):
        assert command in result.stdout


@pytest.mark.parametrize("command", ["games", "info", "play", "match", "replay", "step"])
def test_every_command_has_help_with_examples(command: str) -> None:
    result = run(command, "--help")
    assert result.exit_code == 0
    assert "Examples:" in result.stdout
    assert f"tussle {command}" in result.stdout


def test_games_lists_every_registered_game() -> None:
    result = run("games")
    assert result.exit_code == 0
    for game_id in registry.game_ids():
        assert game_id in result.stdout
        assert registry.game_info(game_id).name.split()[0] in result.stdout
    listed = json.loads(run("games", "--json").stdout)
    assert [g["id"] for g in listed] == registry.game_ids()


def test_info_shows_options_and_agents() -> None:
    result = run("info", "robo-pigs")
    assert result.exit_code == 0
    for word in ("Robo Battle Pigs", "round_limit", "extra_x", "repair_at", "end, start", "random", "human"):
        assert word in result.stdout
    assert run("games", "robo-pigs").stdout == result.stdout
    data = json.loads(run("info", "robo-pigs", "--json").stdout)
    assert data["id"] == "robo-pigs"
    assert {o["name"] for o in data["options"]} == {
        "round_limit",
        "extra_x",
        "repair_at",
        "board",
        "program_length",
        "damage_limit",
    }
    assert "human" in data["agents"]
    # Tank Chess lists its two documents, each with the name it ships.
    tanks = {
        o["name"]: o["documents"] for o in json.loads(run("info", "tank-chess", "--json").stdout)["options"]
    }
    assert tanks == {"size": [], "ply_limit": [], "setup": ["basic"], "tanks": ["standard"]}


# --- match ------------------------------------------------------------------


def test_match_json_summary_is_valid_and_independent_of_jobs() -> None:
    summary = match_json("-n", "200", "--seed", "1")
    assert summary["game"] == "robo-pigs"
    assert summary["games"] == 200
    assert sum(summary["wins"].values()) + summary["draws"] == 200
    assert summary["mean_length"] > 0
    assert match_json("-n", "200", "--seed", "1", "--jobs", "2") == summary


def test_match_table() -> None:
    result = run("match", "robo-pigs", "random", "random", "-n", "6", "-o", "round_limit=3")
    assert result.exit_code == 0, result.stderr
    assert "win rate" in result.stdout
    assert "round_limit=3" in result.stdout
    assert "mean length" in result.stdout


def test_match_options_reach_the_games() -> None:
    # With a one-round limit every game is 2 events long.
    summary = match_json("-n", "4", "-o", "round_limit=1")
    assert summary["mean_length"] == 2
    assert summary["options"] == {"round_limit": 1}
    # Nobody reaches 5 damage in one round: the limit ends every game, and the summary says so.
    assert summary["draws"] == 4 == summary["cut_by_limit"]


def test_match_table_counts_the_games_a_limit_cut() -> None:
    result = run("match", "robo-pigs", "random", "random", "-n", "3", "-o", "round_limit=1")
    assert result.exit_code == 0, result.stderr
    assert "cut by a limit: 3" in result.stdout


def test_match_records_replay(records: list[Path]) -> None:
    assert len(records) == 4
    for path in records:
        record = Record.load(path)
        final = record.replay()[-1]
        assert final.is_terminal()


def test_match_refuses_human() -> None:
    assert_one_line_error(run("match", "robo-pigs", "random", "human"), "human", "tussle play")


# --- replay -----------------------------------------------------------------


def test_replay_text_shows_every_event(records: list[Path]) -> None:
    record = Record.load(records[0])
    result = run("replay", str(records[0]))
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    events = [line for line in lines if line.startswith("event ")]
    assert len(events) == len(record.events)
    assert events[0] == f"event 0: pig A (random): {record.events[0][1]}"
    assert any(line.startswith(("Draw", "Pig")) for line in lines[-2:])


def test_replay_json(records: list[Path]) -> None:
    record = Record.load(records[1])
    result = run("replay", str(records[1]), "--json")
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["game"] == "robo-pigs"
    final = record.replay()[-1]
    assert data["result"] == final.result().to_json()  # type: ignore[union-attr]
    assert {k: v for k, v in data["result"].items() if k != "termination"} == record.result
    assert data["result"]["termination"] == "limit"  # the replay says how it ended; the record leaves it out
    assert data["events"] == len(record.events)
    assert data["final_observations"] == [final.observation(p) for p in (0, 1)]


def _write(tmp_path: Path, data: Any) -> str:
    path = tmp_path / "bad.json"
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return str(path)


def test_replay_rejects_garbled_json(tmp_path: Path) -> None:
    path = _write(tmp_path, '{"game": "robo-pigs", "events": [')
    assert_one_line_error(run("replay", path), "not valid JSON")
    assert_one_line_error(run("replay", path, "--json"), "not valid JSON")


@pytest.mark.parametrize(
    ("index", "action", "why"),
    [
        (2, "F F F F Q", "'Q'"),  # garbled
        (0, "R R R R R", "not legal"),  # well formed but illegal
    ],
)
def test_replay_rejects_a_bad_event(
    records: list[Path], tmp_path: Path, index: int, action: str, why: str
) -> None:
    data = json.loads(records[0].read_text(encoding="utf-8"))
    data["events"][index]["action"] = action
    result = run("replay", _write(tmp_path, data))
    assert_one_line_error(result, f"event {index}", why)
    assert result.stdout == ""  # rejected whole: nothing shown


def test_replay_rejects_out_of_turn_event(records: list[Path], tmp_path: Path) -> None:
    data = json.loads(records[0].read_text(encoding="utf-8"))
    data["events"][1]["player"] = 0
    assert_one_line_error(run("replay", _write(tmp_path, data)), "event 1", "turn")


def test_replay_of_a_missing_file(tmp_path: Path) -> None:
    assert_one_line_error(run("replay", str(tmp_path / "none.json")), "cannot read")


# --- errors -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["play", "chess"], ["unknown game 'chess'"]),
        (["info", "robo-pig"], ["unknown game", "robo-pigs"]),
        (["match", "robo-pigs", "random", "nobody"], ["unknown agent 'nobody'"]),
        (["match", "robo-pigs", "random:x=1", "random"], ["takes no parameters"]),
        (["match", "robo-pigs", "random", "random", "-o", "colour=red"], ["no option 'colour'"]),
        (["match", "robo-pigs", "random", "random", "-o", "players=3"], ["no option 'players'"]),
        (["match", "robo-pigs", "random", "random", "-o", "round_limit=lots"], ["round_limit", "integer"]),
        (["match", "robo-pigs", "random", "random", "-o", "round_limit"], ["KEY=VALUE", "--help"]),
        (["match", "robo-pigs", "random", "random", "-o", "extra_x=1", "-o", "extra_x=0"], ["twice"]),
        (["match", "robo-pigs", "random", "random", "-n", "many"], ["'many'", "--games"]),
        (["match", "robo-pigs", "random", "random", "-n", "0"], ["--games"]),
        (["match", "robo-pigs", "random", "random", "random"], ["2 players, not 3"]),
        (["match", "robo-pigs"], ["missing argument"]),
        (["match"], ["missing argument 'GAME'"]),
        (["mach", "robo-pigs"], ["no such command 'mach'", "match"]),
        (["games", "--colour"], ["no such option", "--colour"]),
        (["play", "robo-pigs", "-p", "human"], ["2 players, not 1"]),
        (["play", "robo-pigs", "-p", "human,,random"], ["empty agent spec"]),
        (["play", "robo-pigs", "-p", "human:colour=red,random"], ["human takes only name"]),
        (["play", "robo-pigs", "--position", "z9S0 e1N0 1"], ["'z9'"]),
        (["play", "robo-pigs", "--seed", "x"], ["--seed"]),
    ],
)
def test_bad_input_gives_one_line_and_exit_code_2(args: list[str], words: list[str]) -> None:
    result = run(*args)
    assert_one_line_error(result, *words)
    assert result.stdout == ""


def test_play_record_into_a_missing_folder(tmp_path: Path) -> None:
    result = run("play", "robo-pigs", "--record", str(tmp_path / "missing" / "game.json"), stdin="")
    assert_one_line_error(result, "--record")


# --- play -------------------------------------------------------------------


def test_play_against_random_to_the_end(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    typed = "zzz\n?\n" + "X X X X X\n" * 3
    result = run(
        "play", "robo-pigs", "-p", "human,random", "--seed", "2", "-o", "extra_x=true", "-o", "round_limit=3",
        "--record", str(path), stdin=typed,
    )  # fmt: skip
    assert result.exit_code == 0, result.stderr
    out = result.stdout
    assert "  'zzz'" in out  # the one-line error, then asked again
    assert "legal actions now, for example:" in out  # the help for a huge action set
    assert "Round 2" in out or "round 2" in out
    assert out.rstrip().splitlines()[-2].startswith(("Draw", "Pig"))
    record = Record.load(path)
    assert record.players == ["human", "random"]
    assert [text for player, text in record.events if player == 0] == ["X X X X X"] * (
        len(record.events) // 2
    )
    assert record.replay()[-1].is_terminal()


def test_play_second_seat_never_sees_the_first_seats_program(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    result = run(
        "play", "robo-pigs", "-p", "random,human", "--seed", "4", "--record", str(path), stdin="F F F F F\n"
    )
    assert result.exit_code == 0
    secret = Record.load(path).events[0][1]  # pig A's first program, chosen before pig B's
    out = result.stdout
    prompt = out.index("pig B, your action")
    assert secret not in out[:prompt]
    assert secret in out[prompt:]  # shown once the round has been played


def test_play_moves_lists_only_the_seats_own_where_moves_are_secret(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    typed = "moves\nF F F F F\nmoves\n"
    result = run("play", "robo-pigs", "-p", "random,human", "--seed", "4", "--record", str(path), stdin=typed)
    assert result.exit_code == 0
    out = result.stdout
    assert "You play pig B." in out
    assert "\x1b[" not in out  # no colour into a pipe
    secret = Record.load(path).events[0][1]
    listings = [part.split("your action")[0] for part in out.split("(? for help): moves\n")[1:]]
    assert listings[0].startswith("None of your moves yet.")
    assert "  1. pig B (you): F F F F F" in listings[1]
    assert secret not in listings[1] and "pig A" not in listings[1]


def test_play_end_of_input_stops_cleanly(tmp_path: Path) -> None:
    path = tmp_path / "partial.json"
    # Turning on the spot cannot end the game in one round, whatever the other pig does.
    typed = "TL TL TL TL TL\n"
    result = run("play", "robo-pigs", "-p", "human,random", "--seed", "1", "--record", str(path), stdin=typed)
    assert result.exit_code == 0
    assert result.stderr.strip().splitlines() == [
        f"tussle: game abandoned (end of input); record saved to {path}"
    ]
    record = Record.load(path)
    assert record.result is None
    assert [p for p, _ in record.events] == [0, 1]
    replayed = run("replay", str(path))
    assert replayed.exit_code == 0
    assert "ends before the game does" in replayed.stdout


def test_play_quit() -> None:
    result = run("play", "robo-pigs", "-p", "human,random", stdin="help\nquit\n")
    assert result.exit_code == 0
    assert result.stderr.strip() == "tussle: game abandoned (pig A quit)"


def test_hot_seat_hides_each_view_until_enter() -> None:
    typed = "\nF F F F F\n\nTL TL TL TL TL\n"
    result = run("play", "robo-pigs", "-p", "human,human:name=Bea", stdin=typed)
    assert result.exit_code == 0
    out = result.stdout
    to_a = out.index("Pass the screen to pig A")
    to_b = out.index("Pass the screen to pig B (Bea)")
    assert to_a < to_b
    assert "F F F F F" not in out[to_b : out.index("pig B (Bea), your action")]
    # The next round starts with the screen passed again.
    assert out.count("Pass the screen to pig A") == 2


def test_watch_two_computer_players() -> None:
    result = run("play", "robo-pigs", "-p", "random,random", "--seed", "1", "-o", "round_limit=2")
    assert result.exit_code == 0, result.stderr
    assert "pig A (random): " in result.stdout
    assert "your action" not in result.stdout
    assert result.stdout.rstrip().splitlines()[-1].startswith(("Draw", "Pig"))


def test_play_from_a_position() -> None:
    result = run(
        "play", "robo-pigs", "-p", "random,random", "--position", "a1N4 a3S4 7", "--seed", "3",
    )  # fmt: skip
    assert result.exit_code == 0, result.stderr
    assert "Round 7" in result.stdout or "round 7" in result.stdout


# --- play, a small perfect-information game ---------------------------------


@pytest.mark.usefixtures("take_away")
def test_play_small_game_lists_actions_and_shows_the_opponents_moves(tmp_path: Path) -> None:
    path = tmp_path / "take.json"
    result = run("play", "take-away", "--seed", "0", "--record", str(path), stdin="?\n3\n1\n1\n1\n1\n")
    assert result.exit_code == 0, result.stderr
    out = result.stdout
    assert "Take Away: player 0 = human, player 1 = medium" in out  # the default level, in every game
    assert "2 legal actions now:" in out
    assert "'3': take 1 or 2 stones" in out
    record = Record.load(path)
    for player, text in record.events:
        if player == 1:
            assert f"player 1 (medium): {text}" in out
    assert out.rstrip().splitlines()[-2].startswith("Player")
    assert "Record saved" in out


@pytest.mark.usefixtures("take_away")
def test_play_single_legal_action_takes_enter() -> None:
    result = run("play", "take-away", "-p", "human,random", "-o", "pile=1", stdin="\n")
    assert result.exit_code == 0, result.stderr
    assert "Only one legal action: 1" in result.stdout
    assert "Player 0 (human) wins" in result.stdout


@pytest.mark.usefixtures("take_away")
def test_hot_seat_without_hidden_information_needs_no_passing() -> None:
    result = run("play", "take-away", "-p", "human,human,human", "-o", "pile=3", stdin="1\n1\n1\n")
    assert result.exit_code == 0, result.stderr
    assert "Pass the screen" not in result.stdout
    assert "Player 2 (human) wins" in result.stdout


@pytest.mark.usefixtures("take_away")
def test_replay_small_game(tmp_path: Path) -> None:
    path = tmp_path / "take.json"
    assert run("play", "take-away", "-p", "random,random", "--record", str(path)).exit_code == 0
    result = run("replay", str(path))
    assert result.exit_code == 0, result.stderr
    assert result.stdout.count("pile:") == len(Record.load(path).events) + 1


# --- the human agent on its own ---------------------------------------------


def human_at(state: State[Any], player: int, typed: str) -> tuple[HumanAgent, io.StringIO]:
    out = io.StringIO()
    agent = HumanAgent(state.game, player, console=Console(file=out, width=100), stdin=io.StringIO(typed))
    return agent, out


def test_human_agent_reasks_until_legal() -> None:
    state = TakeAway(pile=4).new_initial_state()
    agent, out = human_at(state, 0, "3\n\n2\n")
    assert agent.act(PlayerView(state, 0)) == 2
    text = out.getvalue()
    assert "'3': take 1 or 2 stones" in text
    assert text.count("your action") == 3  # a blank line asks again too
    state = TakeAway(pile=1).new_initial_state()
    agent, out = human_at(state, 0, "2\n\n")
    assert agent.act(PlayerView(state, 0)) == 1  # Enter plays the only legal action
    assert "'2' is not legal now" in out.getvalue()


def test_human_agent_shows_only_its_own_view() -> None:
    state = load_game("robo-pigs").new_initial_state()
    state.apply_str(0, "F ^ TR v H")
    agent, out = human_at(state, 1, "F F F F F\n")
    agent.act(PlayerView(state, 1))
    assert "F ^ TR v H" not in out.getvalue()
    assert out.getvalue().strip()


def test_human_agent_end_of_input() -> None:
    state = TakeAway().new_initial_state()
    agent, _ = human_at(state, 0, "")
    with pytest.raises(PlayerQuitError, match="end of input"):
        agent.act(PlayerView(state, 0))


def test_human_agent_is_interactive() -> None:
    assert HumanAgent.interactive


# --- the real console script ------------------------------------------------


def test_module_entry_point() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "tussle", "match", "robo-pigs", "random", "random", "-n", "2", "--json"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["games"] == 2
    bad = subprocess.run(
        [sys.executable, "-m", "tussle", "replay", "--json", "no-such-record.json"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert bad.returncode == 2
    assert bad.stderr.count("\n") == 1 and bad.stderr.startswith("tussle: error: cannot read")


# --- step -------------------------------------------------------------------


def test_step_applies_events_and_reports_the_position() -> None:
    result = run("step", "robo-pigs", "0:F ^ TR v H", "1:\\ \\ F ^ /", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["position"] == "e7W0 d5N1 2"
    assert data["to_act"] == [0, 1]
    assert data["result"] is None


def test_step_lists_legal_actions_from_a_position() -> None:
    result = run("step", "robo-pigs", "--position", "e7W0 d5N1 2", "--legal", "--json")
    assert result.exit_code == 0, result.output
    legal = json.loads(result.stdout)["legal"]
    assert legal["0"]["count"] == 32768
    assert legal["1"]["count"] == 20481  # one damage: exactly one X, or repair
    text = run("step", "robo-pigs", "--legal")
    assert text.exit_code == 0
    assert "32768 legal actions" in text.stdout


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["0:F ^ TR v"], ["event 0", "5 commands"]),
        (["0:F ^ TR v H", "0:F F F F F"], ["event 1", "not pig A's turn"]),
        (["3:F ^ TR v H"], ["'3' is not a player"]),
        (["F ^ TR v H"], ["PLAYER:ACTION"]),
        (["--position", "zz"], ["position"]),
    ],
)
def test_step_rejects_bad_events_with_one_line(args: list[str], words: list[str]) -> None:
    assert_one_line_error(run("step", "robo-pigs", *args), *words)
