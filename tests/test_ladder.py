"""Rating ladders: the rating fit on made-up results, the round robin, and ``tussle ladder``."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from toy_game import DiceRace
from tussle import TussleError, agents, registry
from tussle.agents.base import Agent, PlayerView
from tussle.cli import cli
from tussle.errors import AgentError, OptionError
from tussle.game import GameInfo
from tussle.ladder import ELO, PairResult, fit_ratings, parse_agent, reusable_games, run_ladder, score_tables
from tussle.record import Record

# --- the fit on made-up results ------------------------------------------------------


def expected(r: float, s: float) -> float:
    """The model's expected score of a player rated r against one rated s."""
    return 1.0 / (1.0 + math.pow(10.0, (s - r) / 400.0))


def tables(strengths: list[float], n: int, rng: random.Random | None = None) -> tuple[Any, Any]:
    """A round robin of n games per pair between players of these ratings.

    Without ``rng`` every pair scores exactly what the model expects; with it
    each game is drawn (a win, a loss, or a draw one time in five).
    """
    k = len(strengths)
    score = [[0.0] * k for _ in range(k)]
    games = [[0.0] * k for _ in range(k)]
    for i in range(k):
        for j in range(i + 1, k):
            p = expected(strengths[i], strengths[j])
            if rng is None:
                got = n * p
            else:
                got = 0.0
                for _ in range(n):
                    # A draw in a fifth of the games, the rest won with the chance that keeps the mean at p.
                    draw = rng.random() < 0.2 and 0.1 < p < 0.9
                    got += 0.5 if draw else float(rng.random() < (p - 0.1) / 0.8 if 0.1 < p < 0.9 else p)
            score[i][j], score[j][i] = got, n - got
            games[i][j] = games[j][i] = n
    return score, games


STRENGTHS = [0.0, 250.0, -120.0, 480.0]


def test_exact_results_give_back_the_strengths() -> None:
    fit = fit_ratings(*tables(STRENGTHS, 100_000))
    for got, true in zip(fit.ratings, STRENGTHS, strict=True):
        assert got == pytest.approx(true, abs=1.0)


def test_sampled_results_give_the_strengths_within_the_intervals() -> None:
    rng = random.Random(7)
    fit = fit_ratings(*tables(STRENGTHS, 400, rng))
    assert fit.ratings[0] == 0.0  # the anchor
    for i, true in enumerate(STRENGTHS[1:], start=1):
        low, high = fit.interval(i)
        assert low < true < high
        assert 0 < fit.stderr(i) < 60
    # The order is right, and the strongest is surely above the next.
    assert sorted(range(4), key=lambda i: -fit.ratings[i]) == [3, 1, 0, 2]
    assert fit.difference(3, 1)[1] > 0


def test_intervals_shrink_with_more_games() -> None:
    widths = []
    for n in (10, 40, 160, 640):
        fit = fit_ratings(*tables(STRENGTHS, n))
        low, high = fit.interval(1)
        widths.append(high - low)
    assert widths == sorted(widths, reverse=True)
    # Four times the games, about half the width.
    assert widths[-2] / widths[-1] == pytest.approx(2.0, rel=0.05)


def test_all_draws_give_equal_ratings() -> None:
    k = 4
    score = [[0.0 if i == j else 5.0 for j in range(k)] for i in range(k)]
    games = [[0.0 if i == j else 10.0 for j in range(k)] for i in range(k)]
    fit = fit_ratings(score, games, anchor=2)
    assert all(r == pytest.approx(0.0, abs=1e-6) for r in fit.ratings)
    assert all(fit.stderr(i) > 0 for i in (0, 1, 3))
    assert fit.stderr(2) == 0.0


def test_a_perfect_record_stays_finite() -> None:
    # Player 1 wins all 10 games: the prior (one virtual draw) makes that 10.5 to 0.5.
    fit = fit_ratings([[0, 0], [10, 0]], [[0, 10], [10, 0]])
    assert fit.ratings[1] == pytest.approx(ELO * math.log(21))
    assert math.isfinite(fit.stderr(1))
    assert fit.interval(1)[0] > 0  # ten wins out of ten is enough to tell
    # With more games it grows, but slowly, and the interval narrows.
    more = fit_ratings([[0, 0], [40, 0]], [[0, 40], [40, 0]])
    assert fit.ratings[1] < more.ratings[1] < 2 * fit.ratings[1]
    assert more.stderr(1) < fit.stderr(1)


def test_a_chain_of_perfect_records_keeps_its_order() -> None:
    # 0 beats 1 beats 2 beats 3, every game: no maximum-likelihood fit exists without the prior.
    k = 4
    score = [[10.0 if i < j else 0.0 for j in range(k)] for i in range(k)]
    games = [[0.0 if i == j else 10.0 for j in range(k)] for i in range(k)]
    fit = fit_ratings(score, games, anchor=3)
    assert fit.ratings[0] > fit.ratings[1] > fit.ratings[2] > fit.ratings[3] == 0.0
    assert all(math.isfinite(r) and r < 2000 for r in fit.ratings)


def test_the_difference_to_the_anchor_is_the_rating_itself() -> None:
    fit = fit_ratings(*tables(STRENGTHS, 50))
    d, low, high = fit.difference(1, 0)
    assert (d, low, high) == pytest.approx((fit.ratings[1], *fit.interval(1)))


@pytest.mark.parametrize(
    ("score", "games", "message"),
    [
        ([[0]], [[0]], "2 or more"),
        ([[0, 1], [1, 0]], [[0, 2]], "square"),
        ([[0, 3], [0, 0]], [[0, 2], [2, 0]], "impossible"),
        ([[0, 1], [0, 0]], [[0, 2], [2, 0]], "do not add up"),
        ([[0, 1], [1, 0]], [[0, 2], [3, 0]], "impossible"),
        ([[0, 1, 0], [1, 0, 0], [0, 0, 0]], [[0, 2, 0], [2, 0, 0], [0, 0, 0]], "not linked"),
    ],
)
def test_bad_tables_are_refused(score: Any, games: Any, message: str) -> None:
    with pytest.raises(TussleError, match=message):
        fit_ratings(score, games)


def test_bad_anchor_and_prior_are_refused() -> None:
    with pytest.raises(TussleError, match="anchor"):
        fit_ratings([[0, 1], [1, 0]], [[0, 2], [2, 0]], anchor=2)
    with pytest.raises(TussleError, match="prior"):
        fit_ratings([[0, 1], [1, 0]], [[0, 2], [2, 0]], prior=0)


def test_score_tables_count_draws_half() -> None:
    score, games = score_tables(3, [PairResult(0, 2, 1, 2, 3, 50)])
    assert score[0][2] == 2.0 and score[2][0] == 4.0
    assert games[0][2] == games[2][0] == 6.0
    assert games[1] == [0.0, 0.0, 0.0]


# --- the round robin -----------------------------------------------------------------


class LastAgent(Agent):
    """Always the last legal action: in a dice race, hold as soon as it may."""

    def act(self, view: PlayerView) -> Any:
        actions = view.legal_actions()
        return actions[len(actions) - 1]


class FirstAgent(Agent):
    """Always the first legal action: in a dice race, roll until a 1 comes."""

    def act(self, view: PlayerView) -> Any:
        return view.legal_actions()[0]


@pytest.fixture
def toy_agents(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two made-up agents that never vary, `first` and `last`, for every game."""
    for name, cls in (("last", LastAgent), ("first", FirstAgent)):
        monkeypatch.setitem(agents._GENERAL, name, f"{__name__}:{cls.__name__}")
        monkeypatch.setitem(agents._HELP, name, cls.__doc__ or "")


@pytest.fixture
def dice_race(monkeypatch: pytest.MonkeyPatch, toy_agents: None) -> str:
    """The toy dice race registered, with the two made-up agents."""
    monkeypatch.setitem(registry._GAMES, "dice-race", f"{DiceRace.__module__}:DiceRace")
    return "dice-race"


def test_a_three_agent_round_robin(dice_race: str) -> None:
    ladder = run_ladder(dice_race, ["first", "random", "last"], 20, seed=3, options={"target": 6})
    assert ladder.options == {"target": 6}
    assert [p.games for p in ladder.pairs] == [20, 20, 20]
    assert [(ladder.agents[p.a], ladder.agents[p.b]) for p in ladder.pairs] == [
        ("first", "random"),
        ("first", "last"),
        ("random", "last"),
    ]
    # `first` never banks a point, so it loses every game.
    assert ladder.pairs[0].a_wins == ladder.pairs[1].a_wins == 0
    rows = ladder.table()
    assert [r.rating for r in rows] == sorted((r.rating for r in rows), reverse=True)
    assert rows[-1].agent == "first" and rows[-1].score == 0.0
    assert [r.games for r in rows] == [40, 40, 40]
    assert ladder.agents[ladder.fit.anchor] == "random"
    assert next(r.rating for r in rows if r.agent == "random") == 0.0
    matrix = ladder.matrix()
    for i in range(3):
        assert matrix[i][i] is None
        for j in range(3):
            if i != j:
                assert matrix[i][j] + matrix[j][i] == pytest.approx(1.0)  # type: ignore[operator]
    margins = ladder.margins()
    assert [(m.upper, m.lower) for m in margins] == [(rows[0].agent, rows[1].agent), (rows[1].agent, "first")]
    assert margins[1].separated  # 20 losses out of 20


def test_without_random_the_first_agent_is_the_anchor(dice_race: str) -> None:
    ladder = run_ladder(dice_race, ["last", "first"], 4, options={"target": 4})
    assert ladder.fit.anchor == 0
    assert ladder.fit.ratings[0] == 0.0 and ladder.fit.ratings[1] < 0


def test_seats_alternate(dice_race: str) -> None:
    # `last` beats `first` from either seat; with one seat only, a first-mover edge would hide.
    ladder = run_ladder(dice_race, ["last", "first"], 6, options={"target": 4})
    assert ladder.pairs[0].a_wins == 6


def test_a_pair_plays_the_same_games_whoever_else_is_in_the_ladder(dice_race: str) -> None:
    two = run_ladder(dice_race, ["random", "last"], 10, seed=5)
    three = run_ladder(dice_race, ["random", "last", "first"], 10, seed=5)
    assert two.pairs[0] == three.pairs[0]
    assert run_ladder(dice_race, ["random", "last"], 10, seed=6).pairs[0] != two.pairs[0]


def test_a_ladder_reusing_an_earlier_one_equals_one_played_in_full(dice_race: str) -> None:
    earlier = run_ladder(dice_race, ["random", "last"], 6, seed=5, options={"target": 6})
    seen: list[int] = []
    kept = reusable_games(
        earlier.to_json(), dice_race, ["random", "last", "first"], seed=5, options={"target": 6}
    )
    assert kept == {
        ("random", "last"): (earlier.pairs[0].points, earlier.to_json()["pairs"][0]["mean_length"])
    }
    again = run_ladder(
        dice_race,
        ["random", "last", "first"],
        10,
        seed=5,
        options={"target": 6},
        reuse=kept,
        on_game=lambda done, total: seen.append(total),
    )
    full = run_ladder(dice_race, ["random", "last", "first"], 10, seed=5, options={"target": 6})
    assert [p.points for p in again.pairs] == [p.points for p in full.pairs]
    assert again.to_json()["ratings"] == full.to_json()["ratings"]
    assert set(seen) == {4 + 10 + 10}  # only the games not played before
    # Fewer games than before: the first ones are taken.
    fewer = run_ladder(dice_race, ["random", "last"], 4, seed=5, options={"target": 6}, reuse=kept)
    assert fewer.pairs[0].points == earlier.pairs[0].points[:4]


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"seed": 6}, "seed"),
        ({"version": "0.0.0"}, "version"),
        ({"openings": 2}, "openings"),
        ({"options": {"target": 9}}, "options"),
        ({"pairs": None}, "not the JSON"),
        ({"plays": []}, "not the JSON"),
    ],
)
def test_an_earlier_ladder_that_does_not_fit_is_refused(
    dice_race: str, change: dict[str, Any], words: str
) -> None:
    earlier = run_ladder(dice_race, ["random", "last"], 2, seed=5, options={"target": 6}).to_json()
    earlier.update(change)
    with pytest.raises(TussleError, match=words):
        reusable_games(earlier, dice_race, ["random", "last"], seed=5, options={"target": 6})


def test_bad_points_in_an_earlier_ladder_are_refused(dice_race: str) -> None:
    earlier = run_ladder(dice_race, ["random", "last"], 2, seed=5).to_json()
    earlier["pairs"][0]["points"] = "1x"
    with pytest.raises(TussleError, match="bad points"):
        reusable_games(earlier, dice_race, ["random", "last"], seed=5)


def test_an_agent_that_plays_something_else_now_plays_its_games_again(dice_race: str) -> None:
    earlier = run_ladder(dice_race, ["random", "x=last"], 2, seed=5).to_json()
    assert reusable_games(earlier, dice_race, ["random", "x=first"], seed=5) == {}


def test_progress_is_reported_for_every_game(dice_race: str) -> None:
    seen: list[tuple[int, int]] = []
    run_ladder(
        dice_race, ["random", "last", "first"], 2, on_game=lambda done, total: seen.append((done, total))
    )
    assert seen == [(i, 6) for i in range(1, 7)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("random", ("random", "random")),
        (" rule ", ("rule", "rule")),
        ("mcts:iterations=20,c=1.4", ("mcts:iterations=20,c=1.4", "mcts:iterations=20,c=1.4")),
        ("easy=mcts:iterations=20", ("easy", "mcts:iterations=20")),
        ("a b = random", ("a b", "random")),
    ],
)
def test_parse_agent(text: str, expected: tuple[str, str]) -> None:
    assert parse_agent(text) == expected


@pytest.mark.parametrize("text", ["", "  ", "=random", "easy=", " = "])
def test_parse_agent_rejects(text: str) -> None:
    with pytest.raises(AgentError, match="agent"):
        parse_agent(text)


def test_named_agents(dice_race: str) -> None:
    # One spec under two names: the two play different games (their seeds differ) but are equally strong.
    ladder = run_ladder(dice_race, ["cautious=last", "also=last", "first"], 4, options={"target": 4})
    assert ladder.agents == ("cautious", "also", "first")
    assert ladder.specs == ("last", "last", "first")
    assert ladder.fit.anchor == 0
    assert ladder.to_json()["specs"] == ["last", "last", "first"]
    assert ladder.table()[-1].agent == "first"


def test_repeated_games_are_counted_and_openings_vary_them(toy_agents: None) -> None:
    # Robo Battle Pigs has no dice: two agents that never vary play one game per seat.
    plain = run_ladder("robo-pigs", ["first", "last"], 4, options={"round_limit": 5})
    assert plain.pairs[0].distinct == 2
    assert plain.repeated() == [plain.pairs[0]]
    varied = run_ladder("robo-pigs", ["first", "last"], 4, options={"round_limit": 5}, openings=1)
    assert varied.pairs[0].distinct == 4
    assert varied.repeated() == []
    assert (plain.openings, varied.openings) == (0, 1)
    assert varied.to_json()["openings"] == 1
    with pytest.raises(TussleError, match="opening"):
        run_ladder("robo-pigs", ["first", "last"], 4, openings=-1)


class ThreeRace(DiceRace):
    info = GameInfo(**{**DiceRace.info.__dict__, "id": "three-race", "min_players": 3})


def test_a_game_without_two_player_games_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(registry._GAMES, "three-race", f"{__name__}:ThreeRace")
    with pytest.raises(TussleError, match="two-player"):
        run_ladder("three-race", ["random", "rule"], 2)


@pytest.mark.parametrize(
    ("specs", "n", "options", "error", "message"),
    [
        (["random"], 2, {}, AgentError, "at least 2 agents"),
        (["random", " random"], 2, {}, AgentError, "given twice"),
        (["x=random", "x=rule"], 2, {}, AgentError, "given twice"),
        (["random", "x="], 2, {}, AgentError, "NAME=SPEC"),
        (["random", "human"], 2, {}, AgentError, "needs a person"),
        (["random", "nobody"], 2, {}, AgentError, "unknown agent"),
        (["random", "rule"], 0, {}, TussleError, "an even number of games per pair"),
        (["random", "rule"], 3, {}, TussleError, "both ways round\\), not 3"),
        (["random", "rule"], 2, {"speed": 3}, OptionError, "no option 'speed'"),
        (["random", "rule"], 2, {"round_limit": -1}, OptionError, "round_limit"),
    ],
)
def test_bad_ladders_are_refused(
    specs: list[str], n: int, options: dict[str, Any], error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message):
        run_ladder("robo-pigs", specs, n, options=options)


# --- the command -------------------------------------------------------------------


def run(*args: str) -> Result:
    return CliRunner().invoke(cli, list(args))


def ladder_json(*extra: str) -> dict[str, Any]:
    result = run("ladder", "robo-pigs", "random", "rule", "-n", "2", "--seed", "4", "--json", *extra)
    assert result.exit_code == 0, result.stderr
    assert result.stderr == ""  # no progress bar off a terminal
    lines = result.stdout.strip().splitlines()
    assert len(lines) == 1
    data: dict[str, Any] = json.loads(lines[0])
    return data


def test_ladder_json_on_robo_pigs_and_the_same_with_jobs() -> None:
    data = ladder_json()
    assert data["game"] == "robo-pigs"
    assert data["options"] == {"round_limit": 100}  # the simulation default, as played
    assert data["agents"] == ["random", "rule"]
    assert data["anchor"] == "random"
    assert data["games_per_pair"] == 2
    ratings = data["ratings"]
    assert {r["agent"] for r in ratings} == {"random", "rule"}
    assert [r["rating"] for r in ratings] == sorted((r["rating"] for r in ratings), reverse=True)
    assert all(r["games"] == 2 and r["low"] <= r["rating"] <= r["high"] for r in ratings)
    (pair,) = data["pairs"]
    assert pair["a_wins"] + pair["draws"] + pair["b_wins"] == 2
    assert data["matrix"]["agents"] == [r["agent"] for r in ratings]
    assert len(data["margins"]) == 1
    assert ladder_json("--jobs", "2") == data


def test_ladder_table() -> None:
    result = run("ladder", "robo-pigs", "random", "rule", "-n", "2", "-o", "round_limit=3")
    assert result.exit_code == 0, result.stderr
    for word in ("robo-pigs ladder: 2 games per pair", "round_limit=3", "rule", "random", "anchor"):
        assert word in result.stdout
    assert "score of the row against the column" in result.stdout
    assert "Elo scale, random = 0" in result.stdout


def test_ladder_openings_and_repeated_games_in_the_table(toy_agents: None) -> None:
    args = ("ladder", "robo-pigs", "first", "last", "-n", "2", "-o", "round_limit=3")
    result = run(*args, "-n", "4")
    assert result.exit_code == 0, result.stderr
    assert "Repeated games" in result.stdout and "first-last 2 of 4" in result.stdout
    result = run(*args, "--openings", "1")
    assert result.exit_code == 0, result.stderr
    assert "1 random opening moves" in result.stdout
    assert "Repeated games" not in result.stdout


def test_ladder_has_help_with_examples() -> None:
    result = run("ladder", "--help")
    assert result.exit_code == 0
    assert "Examples:" in result.stdout and "tussle ladder" in result.stdout


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["robo-pigs", "random"], ["at least 2 agents"]),
        (["robo-pigs", "random", "random"], ["given twice"]),
        (["robo-pigs", "random", "=rule"], ["NAME=SPEC"]),
        (["robo-pigs", "random", "human"], ["needs a person"]),
        (["robo-pigs", "random", "mcts:x"], ["mcts:x"]),
        (["robo-pigs", "random", "rule", "-o", "speed=3"], ["speed"]),
        (["robo-pigs", "random", "rule", "-n", "0"], ["--games"]),
        (["robo-pigs", "random", "rule", "--jobs", "0"], ["--jobs"]),
        (["robo-pigs", "random", "rule", "--openings", "-1"], ["--openings"]),
        (["no-such-game", "random", "rule"], ["unknown game"]),
        (["robo-pigs"], ["AGENT"]),
        (["robo-pigs", "random", "rule", "--reuse", "no-such-file.json"], ["cannot read no-such-file.json"]),
        (["robo-pigs", "random", "rule", "--reuse", "pyproject.toml"], ["pyproject.toml: not valid JSON"]),
        (["robo-pigs", "random", "rule", "--record", "pyproject.toml/games"], ["record directory"]),
    ],
)
def test_ladder_bad_input_is_one_line(args: list[str], words: list[str]) -> None:
    result = run("ladder", *args)
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("tussle: error: ")
    for word in words:
        assert word in lines[0]
    assert result.stdout == ""


def test_a_ladder_saves_every_game_played_and_each_replays(tmp_path: Path) -> None:
    where = tmp_path / "games"
    earlier = run_ladder("robo-pigs", ["random", "q=rule"], 2, seed=4, options={"round_limit": 3})
    kept = reusable_games(
        earlier.to_json(), "robo-pigs", ["random", "q=rule", "a/b=random"], seed=4, options={"round_limit": 3}
    )
    ladder = run_ladder(
        "robo-pigs",
        ["random", "q=rule", "a/b=random"],
        2,
        seed=4,
        options={"round_limit": 3},
        reuse=kept,
        record_dir=str(where),
    )
    # The two reused games of random-q are not played, so not saved.
    assert sorted(p.name for p in where.iterdir()) == [
        ".tussle-run.json",
        "q-vs-a_b-game01.json",
        "q-vs-a_b-game02.json",
        "random-vs-a_b-game01.json",
        "random-vs-a_b-game02.json",
    ]
    pair = next(p for p in ladder.pairs if ladder.agents[p.a] == "q")
    points = ""
    for index in range(2):
        # Each record replays to the result the ladder counted; q sits first in even games.
        result = Record.load(where / f"q-vs-a_b-game{index + 1:02d}.json").replay()[-1].result()
        assert result is not None
        mine, theirs = result.ranking[index % 2], result.ranking[1 - index % 2]
        points += "1" if mine < theirs else "=" if mine == theirs else "0"
    assert points == pair.points


def test_a_ladder_refuses_names_that_make_the_same_record_names(tmp_path: Path) -> None:
    with pytest.raises(TussleError, match="same record file names"):
        run_ladder("robo-pigs", ["a/b=random", "a_b=rule"], 2, record_dir=str(tmp_path))
    assert list(tmp_path.iterdir()) == []


def test_ladder_record_on_the_command_line(tmp_path: Path) -> None:
    where = tmp_path / "made" / "here"
    result = run(
        "ladder", "robo-pigs", "random", "rule", "-n", "2", "-o", "round_limit=2", "--record", str(where)
    )
    assert result.exit_code == 0, result.stderr
    assert sorted(p.name for p in where.iterdir()) == [
        ".tussle-run.json",
        "random-vs-rule-game01.json",
        "random-vs-rule-game02.json",
    ]
    replayed = run("replay", str(where / "random-vs-rule-game01.json"))
    assert replayed.exit_code == 0, replayed.stderr
