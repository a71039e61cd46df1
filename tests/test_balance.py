"""``tussle balance``: each measure on a game with a known answer, the report's files, resuming."""

from __future__ import annotations

import dataclasses
import json
import math
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from tussle import (
    CHANCE,
    ActionError,
    Actions,
    ChanceMode,
    Dynamics,
    Game,
    GameInfo,
    Hooks,
    Information,
    ListActions,
    Option,
    Result,
    State,
    registry,
)
from tussle.balance.measures import Data, Figure, Measures, Row
from tussle.balance.play import BalanceError, make_plan, measures_of, open_data, run, stored
from tussle.balance.report import build
from tussle.cli import cli
from tussle.record import Record
from tussle.search.policy import GamePolicy


class CoinMeasures(Measures):
    def events(self, game: Game, record: Record) -> Iterable[Row]:
        coin = record.events[-1][1]
        yield Row(-1, "coin", coin)
        if coin == "heads":
            yield Row(0, "lucky", "heads")

    def figures(self, data: Data) -> list[Figure]:
        return [
            data.outcome_shares("coin", "coins", "How the coin fell"),
            data.component_wins("lucky", "lucky", "Heads"),
        ]


coin_measures = CoinMeasures()


class Coin(Game):
    """Both players say "go", then a coin falls: heads, seat 0 wins; tails, seat 1; on its edge, a draw."""

    info = GameInfo(
        id="coin",
        name="Coin",
        description="A biased coin decides.",
        min_players=2,
        max_players=2,
        dynamics=Dynamics.SEQUENTIAL,
        chance=ChanceMode.EXPLICIT,
        information=Information.PERFECT,
        options=(
            Option("heads", "int", 50, "percent of heads", minimum=0, maximum=100),
            Option("edge", "int", 0, "percent on its edge", minimum=0, maximum=100),
        ),
        hooks=Hooks(balance="test_balance:coin_measures"),
    )

    def new_initial_state(self) -> CoinState:
        return CoinState(self)


class CoinState(State[Any]):
    game: Coin

    def __init__(self, game: Coin) -> None:
        self.game = game
        self.said = 0
        self.coin: str | None = None

    def to_act(self) -> tuple[int, ...]:
        if self.coin is not None:
            return ()
        return (CHANCE,) if self.said == 2 else (self.said,)

    def legal_actions(self, player: int) -> Actions[Any]:
        return ListActions(("go",) if self.coin is None and player == self.said < 2 else ())

    def chance_outcomes(self) -> list[tuple[Any, float]]:
        if self.said < 2 or self.coin is not None:
            return []
        edge = self.game.int_option("edge") / 100
        heads = (1 - edge) * self.game.int_option("heads") / 100
        return [(c, p) for c, p in (("heads", heads), ("tails", 1 - edge - heads), ("edge", edge)) if p > 0]

    def _apply(self, player: int, action: Any) -> None:
        if player == CHANCE:
            self.coin = action
        else:
            self.said += 1

    def action_to_str(self, player: int, action: Any) -> str:
        return str(action)

    def _parse_action(self, player: int, text: str) -> Any:
        if text in ("go", "heads", "tails", "edge"):
            return text
        raise ActionError(f"{text!r}: go, heads, tails or edge")

    def action_to_json(self, player: int, action: Any) -> dict[str, object]:
        return {"kind": action}

    def _action_from_json(self, player: int, data: dict[str, object]) -> Any:
        return self._parse_action(player, str(data.get("kind")))

    def result(self) -> Result | None:
        if self.coin is None:
            return None
        if self.coin == "edge":
            return Result.draw(2, "on its edge")
        return Result.win(0 if self.coin == "heads" else 1, 2, self.coin)

    def clone(self) -> CoinState:
        other = CoinState.__new__(CoinState)
        other.game = self.game
        other.said, other.coin = self.said, self.coin
        return other

    def observation(self, player: int) -> dict[str, Any]:
        return {"said": self.said, "coin": self.coin}

    def observation_to_text(self, observation: Mapping[str, Any], player: int) -> str:
        return f"said {observation['said']}, coin {observation['coin']}"

    def render(self) -> str:
        return f"said {self.said}, coin {self.coin}"


class CoinPolicy(GamePolicy):
    """Seat 0 looks ahead once it has said "go", seat 1 once it has: the lead changes once."""

    def evaluate(self, state: State[Any]) -> list[float]:
        said = state.observation(0)["said"]
        return [0.0, 0.0] if said == 0 else [0.5, -0.5] if said == 1 else [-0.5, 0.5]


class LeadCoin(Coin):
    """The coin game with an evaluation, for the lead measures."""

    info = dataclasses.replace(
        Coin.info,
        id="lead-coin",
        hooks=dataclasses.replace(Coin.info.hooks, search="test_balance:CoinPolicy"),
    )


@contextmanager
def coin_registered() -> Iterator[str]:
    registry._GAMES["coin"] = "test_balance:Coin"
    try:
        yield "coin"
    finally:
        del registry._GAMES["coin"]


def balance(
    out: Path, n: int, vary: list[tuple[str, list[str]]] | None = None, **options: Any
) -> dict[str, Any]:
    plan = make_plan("coin", [["random", "random"]], n, seed=7, options=options, vary=vary or [])
    data = run(plan, out, jobs=1)
    connection = open_data(data)
    try:
        # The coin has three outcomes: its games repeat by chance, each repeat a fresh throw.
        return build(plan, connection, measures_of("coin"), out, distinct=False)
    finally:
        connection.close()


def figure(report: dict[str, Any], key: str, part: int = 0) -> dict[str, Any]:
    return next(f for f in report["slices"][part]["figures"] if f["key"].endswith(key))


def measure(report: dict[str, Any], name: str, part: int = 0) -> list[Any]:
    row: list[Any] = next(r for r in figure(report, "summary", part)["rows"] if r[0].startswith(name))
    return row


def test_a_biased_coin_shows_its_seat_advantage_with_intervals_around_the_truth(tmp_path: Path) -> None:
    with coin_registered():
        report = balance(tmp_path / "biased", 600, heads=70)
        fair = balance(tmp_path / "fair", 600)
    seats = figure(report, "seats")["rows"]
    rate, low, high = seats[0][5:8]
    assert low < 0.7 < high and abs(rate - 0.7) < 0.06
    assert abs(seats[1][5] - 0.3) < 0.06
    assert measure(report, "no seat advantage")[1] < 1e-6
    assert measure(fair, "no seat advantage")[1] > 0.01
    # Ludii's balance: 1 minus the gap between the seats' win rates.
    assert measure(report, "balance")[1] == pytest.approx(1 - (seats[0][5] - seats[1][5]), abs=1e-3)
    # The game's own figures: how the coin fell, and what heads is worth to seat 0.
    coins = {r[0]: r for r in figure(report, "coins")["rows"]}
    assert coins["heads"][3] < 0.7 < coins["heads"][4]
    lucky = figure(report, "lucky")["rows"][0]
    # With heads seat 0 always wins; without it, a seat wins only when tails makes it seat 1:
    # 30% of the games, against the 600 seat 1 sat in and the tails seat 0 sat in.
    tails = coins["tails"][1]
    assert lucky[0] == "heads" and lucky[2] == 1.0
    assert lucky[5] == pytest.approx(tails / (600 + tails), abs=1e-3)


def test_drawishness_length_and_limits_are_measured(tmp_path: Path) -> None:
    with coin_registered():
        report = balance(tmp_path / "edge", 500, edge=20)
    draws = measure(report, "drawishness")
    # Within 3.5 standard errors of the truth (a 95% interval misses it one time in twenty).
    assert abs(draws[1] - 0.2) < 0.063 and draws[2] < draws[1] < draws[3]
    assert measure(report, "length (events), mean")[1:] == [3.0, 3.0, 3.0]
    assert measure(report, "cut by a limit")[1] == 0.0
    # Three events: two players' and the coin: the evaluation-free game has no lead changes measured.
    assert measure(report, "lead changes")[1] is None


def test_varying_an_option_compares_its_values_side_by_side_with_intervals(tmp_path: Path) -> None:
    with coin_registered():
        report = balance(tmp_path / "vary", 400, vary=[("heads", ["50", "80"])])
    assert [s["variant"] for s in report["slices"]] == ["heads=50", "heads=80"]
    rows = [r for r in report["comparison"]["rows"] if r[0] == "seat 0 win rate"]
    base, varied = rows
    assert base[5:9] == [None, None, None, None]  # the first slice against itself: 0 by construction
    difference, low, high = varied[5:8]
    assert difference == pytest.approx(varied[2] - base[2], abs=1e-3)
    # 80% heads against 50%: seat 0 wins 30 points more often; within 3.5 standard errors of it.
    assert low > 0.15 and abs(difference - 0.3) < 3.5 * (high - low) / (2 * 1.97)
    # The variants throw the same coins game by game (the same seeds): paired, the interval is
    # narrower than the one of two independent samples.
    from tussle.balance.stats import difference as independent

    n = varied[9]
    unpaired = independent(round(varied[2] * n), n, round(base[2] * n), n)
    assert high - low < 0.8 * (unpaired[2] - unpaired[1])


def test_the_report_files_are_written_and_not_empty(tmp_path: Path) -> None:
    out = tmp_path / "report"
    with coin_registered():
        report = balance(out, 120)
    html = (out / "report.html").read_text()
    assert "Seat advantage" in html and "<svg" in html and "How the coin fell" in html
    for key in ("seats", "length", "coins", "lucky"):
        name = figure(report, key)["key"]
        assert (out / "plots" / f"{name}.png").stat().st_size > 5_000
        assert (out / "plots" / f"{name}.svg").read_text().count("<svg") == 1
    assert json.loads((out / "figures.json").read_text()) == json.loads(json.dumps(report))
    import duckdb

    rows = (
        duckdb.connect()
        .execute(f"SELECT count(*), count(DISTINCT game) FROM '{out / 'games.parquet'}'")
        .fetchall()
    )
    assert rows == [(240, 120)]


def test_a_run_stopped_in_the_middle_ends_with_the_figures_of_one_never_stopped(tmp_path: Path) -> None:
    with coin_registered():
        whole = balance(tmp_path / "whole", 250, heads=60)
        plan = make_plan("coin", [["random", "random"]], 250, seed=7, options={"heads": 60})
        played = 0

        def stop() -> None:
            nonlocal played
            played += 1
            if played == 50:  # the progress moves a game at a time: stopped inside a chunk
                raise KeyboardInterrupt

        with pytest.raises(KeyboardInterrupt):
            run(plan, tmp_path / "stopped", jobs=1, advance=stop)
        kept = stored(tmp_path / "stopped" / "data")[0]
        assert kept[0][0] == 0 and sum(b - a for a, b in kept) < 50  # the chunk stopped was not stored
        resumed = balance(tmp_path / "stopped", 250, heads=60)
    assert resumed == whole
    with coin_registered(), pytest.raises(BalanceError, match=r"other options \(heads: 60 then, 40 now\)"):
        balance(tmp_path / "whole", 250, heads=40)


def test_the_command_line_writes_a_real_games_report_and_says_where(tmp_path: Path) -> None:
    out = tmp_path / "pigs"
    result = CliRunner().invoke(cli, ["balance", "robo-pigs", "-n", "12", "-j", "1", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "win rates pig A (seat 0) " in result.output and "report.html" in result.output  # its names
    assert (out / "report.html").stat().st_size > 10_000
    bad = CliRunner().invoke(cli, ["balance", "robo-pigs", "-n", "4", "--vary", "repair_at"])
    assert bad.exit_code == 2 and "KEY=V1,V2" in bad.output and "Traceback" not in bad.output
    unknown = CliRunner().invoke(cli, ["balance", "robo-pigs", "-n", "4", "--vary", "nope=1,2"])
    assert unknown.exit_code == 2 and "nope" in unknown.output


def test_intervals_never_claim_what_few_games_cannot_show() -> None:
    from tussle.balance.stats import difference, wilson

    assert all(math.isnan(v) for v in wilson(0, 0))
    p, low, high = wilson(3, 4)
    assert p == 0.75
    assert low < 0.4 and high > 0.95  # four games say little
    assert difference(3, 4, 1, 4)[1] < 0  # nor can they tell 75% from 25% apart


def test_two_varied_options_give_every_combination_and_a_matrix_of_the_first_seats_wins(
    tmp_path: Path,
) -> None:
    with coin_registered():
        report = balance(tmp_path / "two", 200, vary=[("heads", ["20", "80"]), ("edge", ["0", "50"])])
    variants = [s["variant"] for s in report["slices"]]
    assert variants == ["heads=20 edge=0", "heads=20 edge=50", "heads=80 edge=0", "heads=80 edge=50"]
    (matrix,) = report["option_matrices"]
    cells = {(r[0], r[1]): r[3] for r in matrix["rows"]}
    # Seat 0 scores 1 on heads and 1/2 on the edge: 0.8 heads and no edge scores 0.8; with half
    # the throws on the edge, 0.5 * 0.8 + 0.5 * 0.5 = 0.65.
    assert abs(cells["80", "0"] - 0.8) < 0.1 and abs(cells["80", "50"] - 0.65) < 0.1
    assert abs(cells["20", "0"] - 0.2) < 0.1 and abs(cells["20", "50"] - 0.35) < 0.1
    assert (tmp_path / "two" / "plots" / f"{matrix['key']}.svg").exists()


def test_lead_changes_and_the_point_a_game_was_decided_follow_the_evaluation(tmp_path: Path) -> None:
    # After seat 0's "go" seat 0 leads, after seat 1's seat 1: one lead change in every game.
    # Seat 1's wins were decided at its "go", half way (1/2); seat 0's only by the coin (1).
    registry._GAMES["lead-coin"] = "test_balance:LeadCoin"
    try:
        plan = make_plan("lead-coin", [["random", "random"]], 400, seed=3, options={"heads": 70})
        connection = open_data(run(plan, tmp_path / "lead", jobs=1))
        report = build(plan, connection, measures_of("lead-coin"), tmp_path / "lead", distinct=False)
        heads = connection.execute("SELECT count(*) FROM games WHERE seat = 0 AND won").fetchall()[0][0]
        connection.close()
    finally:
        del registry._GAMES["lead-coin"]
    assert measure(report, "lead changes")[1:] == [1.0, 1.0, 1.0]
    decided = measure(report, "decided at")[1]
    assert decided == pytest.approx((heads * 1.0 + (400 - heads) * 0.5) / 400, abs=1e-4)
