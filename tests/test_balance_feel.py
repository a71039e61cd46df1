"""Game feel, trajectories, who won, skill depth, FITE's powers ranked and its dice odds, by hand."""

from __future__ import annotations

import itertools
import json
import math
from collections import Counter
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import duckdb
import numpy as np
import pytest
from click.testing import CliRunner
from scipy import stats

from tussle import (
    ActionError,
    Actions,
    ChanceMode,
    Dynamics,
    Game,
    GameInfo,
    Information,
    ListActions,
    Result,
    State,
    load_game,
    registry,
)
from tussle.balance import feel
from tussle.balance.play import make_plan, measures_of, open_data, run
from tussle.balance.report import build
from tussle.cli import cli
from tussle.errors import PositionError
from tussle.record import Record
from tussle.runner import play_indexed


class Shuttle(Game):
    """Two players move one token on three squares, six moves in all: seat 0 wins if it ends on the right."""

    info = GameInfo(
        id="shuttle",
        name="Shuttle",
        description="A token goes back and forth.",
        min_players=2,
        max_players=2,
        dynamics=Dynamics.SEQUENTIAL,
        chance=ChanceMode.DETERMINISTIC,
        information=Information.PERFECT,
    )

    def new_initial_state(self) -> ShuttleState:
        return ShuttleState(self)


class ShuttleState(State[Any]):
    def __init__(self, game: Game) -> None:
        self.game = game
        self.token = 0
        self.moves = 0

    def to_act(self) -> tuple[int, ...]:
        return () if self.moves == 6 else (self.moves % 2,)

    def legal_actions(self, player: int) -> Actions[Any]:
        if self.moves == 6 or player != self.moves % 2:
            return ListActions(())
        return ListActions([m for m in ("l", "r") if 0 <= self.token + (1 if m == "r" else -1) <= 2])

    def _apply(self, player: int, action: Any) -> None:
        self.token += 1 if action == "r" else -1
        self.moves += 1

    def action_to_str(self, player: int, action: Any) -> str:
        return str(action)

    def _parse_action(self, player: int, text: str) -> Any:
        if text in ("l", "r"):
            return text
        raise ActionError(f"{text!r}: l or r")

    def action_to_json(self, player: int, action: Any) -> dict[str, object]:
        return {"move": action}

    def _action_from_json(self, player: int, data: dict[str, object]) -> Any:
        return self._parse_action(player, str(data.get("move")))

    def result(self) -> Result | None:
        if self.moves < 6:
            return None
        return Result.win(0 if self.token == 2 else 1, 2, "the token's square")

    def clone(self) -> ShuttleState:
        other = ShuttleState(self.game)
        other.token, other.moves = self.token, self.moves
        return other

    def observation(self, player: int) -> dict[str, Any]:
        return {"token": self.token, "moves": self.moves}

    def observation_to_text(self, observation: Mapping[str, Any], player: int) -> str:
        return f"token {observation['token']}"

    def render(self) -> str:
        return f"token on {self.token}"  # the move count left out: positions recur


def test_repetition_branching_and_decisions_of_a_game_that_goes_back_and_forth() -> None:
    registry._GAMES["shuttle"] = "test_balance_feel:Shuttle"
    try:
        game = load_game("shuttle")
        record = Record.start(game)
        for k, move in enumerate("rlrlrr"):
            record.add(k % 2, move)
        record.finish(Result.win(0, 2, "the token's square"))  # it ends on the right
        # Before each move: (seat 0, square 0), (1, 1), (0, 0) again, (1, 1) again, twice more: 4 of 6
        # positions repeat; one legal move on square 0, two on square 1.
        decisions, branching, choice, drama, uncertainty, repetition = feel.per_game(game, record, 0)
        assert (decisions, branching, choice, repetition) == (6, 1.5, 0.5, 4 / 6)
        assert math.isnan(drama) and math.isnan(uncertainty)  # no evaluation: no drama
    finally:
        del registry._GAMES["shuttle"]


def report_of(out: Path, game: str, pairings: list[list[str]], n: int, **options: Any) -> dict[str, Any]:
    vary = options.pop("vary", [])
    plan = make_plan(game, pairings, n, seed=5, options=options, vary=vary)
    connection = open_data(run(plan, out, jobs=1))
    try:
        return build(plan, connection, measures_of(game), out, distinct=False)
    finally:
        connection.close()


def figure(report: dict[str, Any], key: str, part: int = 0) -> dict[str, Any]:
    return next(f for f in report["slices"][part]["figures"] if f["key"].endswith(key))


def t_interval(values: list[float]) -> tuple[float, float, float]:
    mean = float(np.mean(values))
    if np.std(values) == 0:
        return mean, mean, mean  # no spread: the interval is the value itself
    low, high = stats.t.interval(0.95, len(values) - 1, loc=mean, scale=stats.sem(values))
    return mean, float(low), float(high)


def close(a: Any, b: Any) -> bool:
    return bool(np.allclose(np.asarray(a, dtype=float), np.asarray(b, dtype=float), atol=1e-4))


def games_of(out: Path) -> list[dict[str, Any]]:
    connection = duckdb.connect()
    try:
        cursor = connection.execute(
            f"SELECT * FROM read_parquet('{out / 'games.parquet'}') ORDER BY game, seat"
        )
        names = [d[0] for d in cursor.description]
        return [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]
    finally:
        connection.close()


def events_of(out: Path) -> list[tuple[Any, ...]]:
    query = f"SELECT game, seat, kind, component, value FROM read_parquet('{out / 'events.parquet'}')"
    return duckdb.connect().execute(query).fetchall()


def test_per_game_feel_values_are_the_walk_of_the_record_counted_by_hand() -> None:
    game = load_game("tank-chess", ply_limit=60)
    for index in range(3):
        _, state, record = play_indexed(game, ["random", "random"], 11, index)
        result = state.result()
        assert result is not None
        counts, positions = [], []
        replay = record.replay()  # every state, kept: the one before event i is replay[i]
        for i, (player, _) in enumerate(record.events):
            if player >= 0:
                counts.append(len(replay[i].legal_actions(player)))
                try:
                    positions.append((player, replay[i].position()))
                except PositionError:
                    positions.append((player, replay[i].render()))
        repeats = sum(k - 1 for k in Counter(positions).values())
        decisions, branching, choice, _drama, _uncertainty, repetition = feel.per_game(
            game, record, result.winner
        )
        assert decisions == len(counts)
        assert math.isclose(branching, float(np.mean(counts)))
        assert math.isclose(choice, float(np.mean(np.array(counts) > 1)))
        assert math.isclose(repetition, repeats / len(counts))


def test_drama_and_uncertainty_from_the_values_along_a_game() -> None:
    # The winner (seat 1) is behind by 1 after the first move and by 0.2 after the second, then leads.
    values = [[0.5, -0.5], [0.1, -0.1], [-0.4, 0.4]]
    drama, uncertainty = feel.drama_and_uncertainty(values, 1)
    assert math.isclose(drama, np.mean([1.0 / 2, 0.2 / 2]))
    assert math.isclose(uncertainty, np.mean([1 - 1.0 / 2, 1 - 0.2 / 2, 1 - 0.8 / 2]))
    assert feel.drama_and_uncertainty(values[:2], 0)[0] == 0.0  # the winner always led
    assert math.isnan(feel.drama_and_uncertainty(values, None)[0])  # a draw has no drama


def test_a_mixed_pairing_says_who_won_and_the_feel_and_trajectories_match_the_data(tmp_path: Path) -> None:
    out = tmp_path / "fite"
    report = report_of(out, "fite", [["random", "rule"]], 16)
    games = games_of(out)
    # Who won: each agent over both seats, Wilson intervals, an exact binomial test.
    agents = figure(report, "agents")
    wins = Counter(r["agent"] for r in games if r["won"])
    assert {r[0]: r[2] for r in agents["rows"]} == {"random": wins["random"], "rule": wins["rule"]}
    for row in agents["rows"]:
        ci = stats.binomtest(row[2], row[1]).proportion_ci(method="wilson")
        assert row[1] == 16 and close(row[5:8], [row[2] / 16, ci.low, ci.high])
    p = stats.binomtest(wins["random"], wins["random"] + wins["rule"], 0.5).pvalue
    assert f"p = {p:.3g}" in agents["note"] and f"rule won {wins['rule']}" in agents["note"]
    # The feel table: a mean and a t interval of one value per game.
    rows = {r[0]: r for r in figure(report, "feel")["rows"]}
    per_game = {r["game"]: r for r in games}
    for column, name in (
        ("branching", "branching"),
        ("decision_moves", "decision moves"),
        ("drama", "drama"),
        ("uncertainty", "uncertainty"),
    ):
        values = [float(r[column]) for r in per_game.values() if r[column] is not None]
        row = next(r for key, r in rows.items() if key.startswith(name))
        assert row[1] == len(values) and close(row[2:5], t_interval(values))
    # Duration in turns: FITE's fights, one location row per fighter and fight.
    events = events_of(out)
    fights = Counter(g for g, _, kind, _, _ in events if kind == "location")
    turns = [fights[g] / 2 for g in sorted(per_game)]
    assert close(rows["duration (turns)"][2:5], t_interval(turns))
    # The trajectory of the dice left: per turn, over every fighter of the games that reached it.
    series = figure(report, "series-dice-left")
    by_turn: dict[int, list[float]] = {}
    for _, _, kind, component, value in events:
        if kind == "series:dice left":
            by_turn.setdefault(int(component), []).append(value)
    everyone = {int(r[0]): r for r in series["rows"] if r[1] == "all"}
    assert sorted(everyone) == sorted(by_turn) and min(by_turn) == 1
    for turn, values in by_turn.items():
        assert everyone[turn][2] == len(values)
        if len(values) > 1 and np.std(values) > 0:
            assert close(everyone[turn][3:6], t_interval(values))
    assert (out / "plots" / f"{series['key']}.svg").exists()
    html = (out / "report.html").read_text(encoding="utf-8")
    assert "Game feel" in html and "Who won" in html and "Exact dice odds" in html
    assert {m.split(" ")[0] for m in report["methods"]} >= {"Who", "Skill", "Game", "Trajectories:", "FITE:"}


def test_skill_depth_scores_each_level_and_step_with_a_binomial_test(tmp_path: Path) -> None:
    out = tmp_path / "skill"
    result = CliRunner().invoke(
        cli, ["balance", "fite", "--skill", "random,rule", "-n", "10", "--out", str(out), "-j", "1", "--json"]
    )
    assert result.exit_code == 0, result.output
    report = json.loads(result.output.strip().splitlines()[-1])
    assert [s["pairing"] for s in report["slices"]] == ["random,random", "rule,rule", "rule,random"]
    skill = next(f for f in report["across"] if f["key"] == "skill")
    games = games_of(out)
    expected: dict[str, list[float]] = {}
    for r in games:
        score = 1.0 if r["won"] else 0.5 if r["draw"] else 0.0
        if r["pairing"] in ("random,random", "rule,rule") and r["seat"] == 0:
            expected.setdefault(f"first seat, {r['agent']} v itself", []).append(score)
        elif r["pairing"] == "rule,random" and r["agent"] == "rule":
            expected.setdefault("rule v random", []).append(score)
    levels = ["first seat, random v itself", "first seat, rule v itself"]
    assert [r[0] for r in skill["rows"]] == [*levels, "rule v random"]
    assert sorted(expected) == [*levels, "rule v random"]
    for row in skill["rows"]:
        scores = expected[row[0]]
        wins, losses = scores.count(1.0), scores.count(0.0)
        if 0.5 in scores:
            interval: tuple[float, ...] = t_interval(scores)
        else:
            ci = stats.binomtest(wins, len(scores)).proportion_ci(method="wilson")
            interval = (wins / len(scores), ci.low, ci.high)
        assert row[1] == len(scores) and close(row[2:5], interval)
        assert close(row[5], stats.binomtest(wins, wins + losses, 0.5).pvalue)
    bad = CliRunner().invoke(cli, ["balance", "fite", "--skill", "rule", "--out", str(tmp_path / "x")])
    assert bad.exit_code == 2 and "--skill takes two agents or more" in bad.output


def test_fite_powers_are_ranked_against_the_solvers_exact_values(tmp_path: Path) -> None:
    out = tmp_path / "powers"
    # Nine slices: more than the report plots one by one, which keeps the test quick.
    vary = [("power_a", ["none", "brutal", "tough"]), ("power_b", ["none", "cunning", "aggressive"])]
    report = report_of(out, "fite", [["rule", "rule"]], 3, vary=vary)
    ranking = next(f for f in report["across"] if f["key"].startswith("power-ranking"))
    solved = json.loads(
        (Path(registry.__file__).parent / "games" / "fite" / "strategy.json").read_text(encoding="utf-8")
    )["states"]
    variant_games: dict[str, list[float]] = {}
    exact: dict[str, list[float]] = {}
    connection = duckdb.connect()
    rows = connection.execute(
        f"""SELECT g.variant, g.game, g.seat, g.won, g.draw, a.component, b.component
            FROM read_parquet('{out / "games.parquet"}') g
            JOIN read_parquet('{out / "events.parquet"}') a
              ON a.variant = g.variant AND a.game = g.game AND a.seat = g.seat AND a.kind = 'power'
            JOIN read_parquet('{out / "events.parquet"}') b
              ON b.variant = g.variant AND b.game = g.game AND b.seat <> g.seat AND b.kind = 'power'"""
    ).fetchall()
    for _, _, _, won, draw, mine, theirs in rows:
        variant_games.setdefault(mine, []).append(1.0 if won else 0.5 if draw else 0.0)
        exact.setdefault(mine, []).append((1 + solved[f"9,9,{mine},{theirs}"]["value"]) / 2)
    table = {r[0]: r for r in ranking["rows"]}
    assert set(table) == {"none", "brutal", "tough", "cunning", "aggressive"}
    for power, scores in variant_games.items():
        assert table[power][1] == len(scores)
        assert close(table[power][2:6], [*t_interval(scores), np.mean(exact[power])])
    order = list(table)
    rho = stats.spearmanr([table[p][2] for p in order], [table[p][5] for p in order]).statistic
    assert f"{rho:.3f}" in ranking["note"]
    assert [r[0] for r in ranking["rows"]] == sorted(table, key=lambda p: -table[p][2])


def _uncancelled(offence: list[int], defence: list[int], edge: int) -> int:
    """Offensive dice left after the largest cancellation: a bipartite matching by augmenting paths."""
    match: dict[int, int] = {}

    def place(d: int, seen: set[int]) -> bool:
        for o, face in enumerate(offence):
            if o not in seen and face <= defence[d] + edge:
                seen.add(o)
                if o not in match or place(match[o], seen):
                    match[o] = d
                    return True
        return False

    return len(offence) - sum(place(d, set()) for d in range(len(defence)))


def _turned(faces: tuple[int, ...], turns: int) -> list[int]:
    out = sorted(faces)
    for k in range(min(turns, len(out))):
        if out[k] <= 3:
            out[k] = 7 - out[k]
    return out


@pytest.mark.parametrize(
    ("edge", "attack_turns", "defence_turns"), [(0, 0, 0), (1, 0, 0), (-1, 1, 0), (0, 2, 1), (2, 0, 2)]
)
def test_the_exact_dice_odds_match_an_enumeration_of_every_roll(
    edge: int, attack_turns: int, defence_turns: int
) -> None:
    from tussle.games.fite.balance import odds_rows

    rows = {(r[0], r[1]): r for r in odds_rows(edge, attack_turns, defence_turns)}
    assert len(rows) == sum(9 - a for a in range(1, 9))  # every split of up to 9 dice, both pools used
    for attack, defence in [(1, 1), (2, 1), (1, 3), (3, 2), (2, 3)]:
        tally: Counter[int] = Counter()
        for roll in itertools.product(range(1, 7), repeat=attack + defence):
            offence = _turned(roll[:attack], attack_turns)
            guard = _turned(roll[attack:], defence_turns)
            tally[_uncancelled(offence, guard, edge)] += 1
        total = 6 ** (attack + defence)
        chances = [tally[k] / total for k in range(9)]
        row = rows[attack, defence]
        assert np.allclose(row[3:], chances, atol=1e-12)
        assert math.isclose(row[2], sum(k * p for k, p in enumerate(chances)))


def test_the_fite_odds_command_prints_the_table_and_refuses_a_bad_edge() -> None:
    result = CliRunner().invoke(cli, ["fite-odds", "--edge", "1", "--attack-turns", "1"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert "edge +1, turns 1/0" in lines[0] and lines[1].split()[:3] == ["atk", "def", "mean"]
    assert len([line for line in lines if line[:3].strip().isdigit()]) == 36
    assert max(len(line) for line in lines[:38]) <= 80
    as_json = json.loads(CliRunner().invoke(cli, ["fite-odds", "--json"]).output)
    assert as_json["rows"][0][:2] == [1, 1] and math.isclose(as_json["rows"][0][2], 15 / 36, abs_tol=1e-4)
    bad = CliRunner().invoke(cli, ["fite-odds", "--edge", "9"])
    assert bad.exit_code == 2 and len(bad.output.strip().splitlines()) == 1


def test_robo_pigs_damage_per_round_and_the_games_own_durations(tmp_path: Path) -> None:
    out = tmp_path / "pigs"
    report = report_of(out, "robo-pigs", [["rule", "random"]], 4)
    events = events_of(out)
    rounds = {g: v for g, s, kind, c, v in events if kind == "duration" and c == "rounds"}
    damage = Counter(g for g, _, kind, _, _ in events if kind == "series:damage")
    assert len(rounds) == 4 and all(damage[g] == 2 * rounds[g] for g in rounds)
    row = next(r for r in figure(report, "feel")["rows"] if r[0] == "duration (rounds)")
    assert close(row[2:5], t_interval(list(rounds.values())))
    assert any(f["key"].endswith("series-damage") for f in report["slices"][0]["figures"])


def test_fight_glory_per_fight_adds_up_to_the_arenas_taken() -> None:
    game = load_game("fight")
    _, _, record = play_indexed(game, ["rule", "rule"], 3, 0)
    rows = list(measures_of("fight").events(game, record))
    fights = [r for r in rows if r.kind == "arena_taken"]
    (duration,) = [r for r in rows if r.kind == "duration"]
    assert (duration.component, duration.value) == ("Fights", len(fights))
    for seat in (0, 1):
        series = [r for r in rows if r.kind == "series:Glory of the Arenas taken" and r.seat == seat]
        taken = [r.value for r in rows if r.kind == "arena" and r.seat == seat]
        assert [r.component for r in series] == [f"{k:02d}" for k in range(1, len(fights) + 1)]
        gained = np.diff([0.0, *(r.value for r in series)])  # each Fight's Glory: the Arena's, or 0
        assert list(gained[gained > 0]) == [t for t in taken if t > 0]
        (total,) = [r.value for r in rows if r.kind == "glory" and r.component == "arenas" and r.seat == seat]
        assert series[-1].value == total == sum(taken)
