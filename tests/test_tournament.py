"""Single-elimination tournaments: entrants, the draw, byes, replayed draws, records, and the CLI."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from tussle import AgentError, OptionError, Record, TussleError, runner, tournament
from tussle.cli import cli
from tussle.game import Game, Result
from tussle.tournament import (
    Entrant,
    Tournament,
    known_powers,
    parse_entrant,
    run_tournament,
)

POWERS = known_powers("fite")
FIVE = ["ann=rule:brutal", "bob=random", "cid=rule:cunning", "dan=random:swift", "eve=rule"]


def entrants(*texts: str) -> list[Entrant]:
    return [parse_entrant(t, POWERS) for t in texts]


# --- entrants ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("ann=rule", Entrant("ann", "rule")),
        ("ann=rule:brutal", Entrant("ann", "rule", "brutal")),
        ("ann = rule : Tough", Entrant("ann", "rule", "tough")),
        ("ann=rule:none", Entrant("ann", "rule")),
        ("ann=mcts:time=0.5", Entrant("ann", "mcts:time=0.5")),
        ("ann=mcts:time=0.5:fast", Entrant("ann", "mcts:time=0.5", "fast")),
    ],
)
def test_parse_entrant(text: str, expected: Entrant) -> None:
    assert parse_entrant(text, POWERS) == expected


@pytest.mark.parametrize("text", ["ann", "=rule", "ann=", "ann=:brutal"])
def test_parse_entrant_rejects(text: str) -> None:
    with pytest.raises(AgentError, match=r"NAME=AGENT|no agent"):
        parse_entrant(text, POWERS)


def test_a_game_without_powers_takes_the_spec_whole() -> None:
    assert known_powers("robo-pigs") == ()
    assert parse_entrant("a=rule:brutal", known_powers("robo-pigs")) == Entrant("a", "rule:brutal")


@pytest.mark.parametrize(
    ("texts", "error", "message"),
    [
        (["ann=rule"], TussleError, "at least 2"),
        (["ann=rule", "ann=random"], TussleError, "used twice"),
        (["ann=rule:brutl", "bob=random"], OptionError, "not a power of fite"),
        (["ann=human", "bob=random"], AgentError, "needs a person"),
        (["ann=nobody", "bob=random"], AgentError, "unknown agent"),
    ],
)
def test_bad_entrants_are_refused_before_any_game(
    texts: list[str], error: type[Exception], message: str, tmp_path: Path
) -> None:
    with pytest.raises(error, match=message):
        run_tournament("fite", entrants(*texts), record_dir=str(tmp_path))
    assert list(tmp_path.iterdir()) == []


def test_seat_powers_are_set_per_entrant_not_as_options(tmp_path: Path) -> None:
    with pytest.raises(OptionError, match="per entrant"):
        run_tournament(
            "fite", entrants("a=rule", "b=rule"), options={"power_a": "brutal"}, record_dir=str(tmp_path)
        )


# --- the bracket ----------------------------------------------------------------------


def check_bracket(t: Tournament) -> None:
    """Every round pairs exactly the fighters still in; winners and the bye go on; one is left."""
    alive = {e.name for e in t.entrants}
    for rnd in t.rounds:
        drawn = [n for m in rnd.matches for n in (m.a, m.b)] + ([rnd.bye] if rnd.bye else [])
        assert sorted(drawn) == sorted(alive)
        assert (rnd.bye is not None) == (len(alive) % 2 == 1)
        for m in rnd.matches:
            assert m.winner in (m.a, m.b)
            assert all(g.winner is None for g in m.games[:-1])  # replayed only while drawn
            assert m.games[-1].winner == m.winner
        alive = {m.winner for m in rnd.matches} | ({rnd.bye} if rnd.bye else set())
    assert alive == {t.champion}


def test_five_entrants(tmp_path: Path) -> None:
    t = run_tournament("fite", entrants(*FIVE), seed=3, record_dir=str(tmp_path))
    check_bracket(t)
    assert [len(r.matches) for r in t.rounds] == [2, 1, 1]
    assert t.champion in {e.name for e in t.entrants}
    records = sorted(tmp_path.iterdir())
    assert len(records) == sum(len(m.games) for r in t.rounds for m in r.matches)


@pytest.mark.parametrize("count", [2, 3, 4, 7, 8])
def test_any_number_of_entrants(count: int, tmp_path: Path) -> None:
    t = run_tournament(
        "fite", entrants(*(f"f{i}=random" for i in range(count))), seed=count, record_dir=str(tmp_path)
    )
    check_bracket(t)
    assert len(t.rounds) == (count - 1).bit_length()


def test_the_same_seed_gives_the_same_tournament(tmp_path: Path) -> None:
    first = run_tournament("fite", entrants(*FIVE), seed=8, record_dir=str(tmp_path / "a")).to_json()
    second = run_tournament("fite", entrants(*FIVE), seed=8, record_dir=str(tmp_path / "b")).to_json()
    other = run_tournament("fite", entrants(*FIVE), seed=9, record_dir=str(tmp_path / "c")).to_json()

    def strip(data: dict[str, Any]) -> str:
        data = dict(data, record_dir="")
        return json.dumps(data).replace(str(tmp_path), "")

    assert strip(first).replace("/a/", "/x/") == strip(second).replace("/b/", "/x/")
    assert strip(first) != strip(other)


def test_records_replay_and_carry_the_entrants_powers(tmp_path: Path) -> None:
    t = run_tournament(
        "fite", entrants("ann=rule:brutal", "bob=random:tough"), seed=1, record_dir=str(tmp_path)
    )
    for game in t.rounds[0].matches[0].games:
        assert game.record is not None
        record = Record.load(game.record)
        final = record.replay()[-1]
        seat_of = {name: s for s, name in enumerate(game.seats)}
        assert record.options[f"power_{'ab'[seat_of['ann']]}"] == "brutal"
        assert record.options[f"power_{'ab'[seat_of['bob']]}"] == "tough"
        result = final.result()
        assert result is not None
        assert (game.seats[result.winner] if result.winner is not None else None) == game.winner


def test_without_a_record_folder_nothing_is_written_or_left_behind(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    monkeypatch.chdir(tmp_path)
    tempfile.tempdir = None  # so that a temporary folder, if one were made, would land in tmp_path
    try:
        t = run_tournament("fite", entrants("a=random", "b=random"), seed=2)
    finally:
        tempfile.tempdir = None
    assert list(tmp_path.iterdir()) == []
    data = t.to_json()
    assert data["record_dir"] is None
    assert all(g["record"] is None for r in data["rounds"] for m in r["matches"] for g in m["games"])


def test_an_entrant_may_be_a_games_own_agent() -> None:
    # fite:solved has a colon of its own: it is an agent, not the power "solved".
    t = run_tournament("fite", entrants("a=fite:solved", "b=random:brutal"), seed=1)
    assert t.entrants[0] == Entrant("a", "fite:solved", None)
    with pytest.raises(OptionError, match="'brutel' is not a power of fite"):
        run_tournament("fite", entrants("a=rule:brutel", "b=random"))


# --- drawn games -------------------------------------------------------------------------


class _Drawn:
    """Stands in for a finished game's state whose result is a draw."""

    def result(self) -> Result:
        return Result.draw(2, "forced draw")


def force_draws(monkeypatch: pytest.MonkeyPatch, count: int | None) -> None:
    """The first ``count`` games (every game if None) end drawn, whatever happened in them."""
    real = runner.play_game
    played = [0]

    def play(game: Game, agents: Any, **kwargs: Any) -> tuple[Any, Record]:
        state, record = real(game, agents, **kwargs)
        played[0] += 1
        if count is None or played[0] <= count:
            return _Drawn(), record
        return state, record

    monkeypatch.setattr(tournament, "play_game", play)


def test_a_drawn_game_is_replayed_with_seats_swapped(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    force_draws(monkeypatch, 3)
    t = run_tournament("fite", entrants("a=rule", "b=random"), seed=0, record_dir=str(tmp_path))
    games = t.rounds[0].matches[0].games
    assert len(games) >= 4
    assert [g.winner for g in games[:3]] == [None, None, None]
    assert games[0].seats == games[2].seats == tuple(reversed(games[1].seats))
    assert [g.attempt for g in games] == list(range(1, len(games) + 1))
    assert len({g.record for g in games}) == len(games)
    check_bracket(t)


def test_endless_draws_stop_with_a_clear_error(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    force_draws(monkeypatch, None)
    monkeypatch.setattr(tournament, "MAX_REPLAYS", 3)
    with pytest.raises(TussleError, match="drew 3 games in a row"):
        run_tournament("fite", entrants("a=random", "b=random"), record_dir=str(tmp_path))


# --- the command line ---------------------------------------------------------------------


def invoke(*args: str) -> Any:
    return CliRunner().invoke(cli, list(args))


def test_cli_shows_the_bracket_and_the_champion(tmp_path: Path) -> None:
    args = [f"--entrant={e}" for e in FIVE]
    result = invoke("tournament", "fite", *args, "--seed", "3", "--record", str(tmp_path))
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Round 1: 2 matches" in out and "has a bye" in out
    assert "Round 3: 1 match" in out
    assert "Champion: " in out and str(tmp_path) in out


def test_cli_json_prints_the_whole_bracket(tmp_path: Path) -> None:
    args = [f"-e{e}" for e in FIVE]
    result = invoke("tournament", "fite", *args, "--seed", "3", "--json", "--record", str(tmp_path))
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["champion"] in {e.split("=")[0] for e in FIVE}
    assert [len(r["matches"]) for r in data["rounds"]] == [2, 1, 1]
    for rnd in data["rounds"]:
        for match in rnd["matches"]:
            for game in match["games"]:
                assert Path(game["record"]).is_file()
    assert data["entrants"][0] == {"name": "ann", "agent": "rule", "power": "brutal"}


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["-e", "a=rule"], "at least 2"),
        (["-e", "a=rule", "-e", "b=rule:brutl"], "not a power"),
        (["-e", "a=rule", "-e", "a=random"], "used twice"),
        (["-e", "a=rule", "-e", "b=random", "-o", "turn_limit=x"], "not an integer"),
    ],
)
def test_cli_errors_are_one_line(args: list[str], message: str) -> None:
    result = invoke("tournament", "fite", *args)
    assert result.exit_code == 2
    assert message in result.output
    assert "Traceback" not in result.output and "Round" not in result.output
