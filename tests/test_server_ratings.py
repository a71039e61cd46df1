"""Ratings, profiles and leaderboards (tussle.server.ratings, tussle.server.profiles, routes/players).

The computer levels' fitted ratings are checked against the ladders' own expectation; a finished
rated game is rated through the store's finish hook exactly as openskill's ``rate`` says (recomputed
here), and a casual or aborted game changes nothing; a new account's games against a level place it
and never move the level. The profile, games, archive and leaderboard are read over the API of a real
server, on SQLite and PostgreSQL.
"""

from __future__ import annotations

import io
import itertools
import json
import math
import time
import urllib.error
import urllib.request
import uuid
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from openskill.models import PlackettLuce

from account_support import AccountClient
from test_server import SHORT, Server, db, play_out, receive
from tussle.record import Record
from tussle.registry import game_ids
from tussle.server import ratings
from tussle.server.store import Seat, Store, accounts_table, rating_history_table, ratings_table

__all__ = ["db"]

ROOT = Path(__file__).resolve().parent.parent


def ladder_expectation(gap: float) -> float:
    """The ladders' Bradley-Terry expectation on the Elo scale (docs/ladder.md)."""
    return 1.0 / (1.0 + 10 ** (-gap / 400))


def test_the_shipped_levels_table_is_the_ladders() -> None:
    shipped = json.loads(ratings.LEVELS_FILE.read_text(encoding="utf-8"))
    assert shipped == ratings.ladder_table(ROOT), "regenerate it: python -m tussle.server.ratings"
    # Every game has a ladder of every computer player the server offers, each of the spec it plays.
    for game in game_ids():
        levels = ratings.levels_of(game)
        assert levels.unrated == {}, (game, levels.unrated)
        assert set(levels.levels) == {"random", "rule", "easy", "medium", "hard"}


def test_a_level_the_ladder_did_not_measure_is_unrated_and_says_why(monkeypatch: pytest.MonkeyPatch) -> None:
    table = json.loads(ratings.LEVELS_FILE.read_text(encoding="utf-8"))["games"]
    del table["fite"]["agents"]["hard"]
    table["fite"]["agents"]["medium"]["plays"] = "smmcts:iterations=7"
    del table["fight"]
    monkeypatch.setattr(ratings, "_levels_table", lambda: table)
    ratings.levels_of.cache_clear()
    try:
        fite = ratings.levels_of("fite")
        assert set(fite.levels) == {"random", "rule", "easy"}
        assert "has no hard" in fite.unrated["hard"]
        assert "measured smmcts:iterations=7" in fite.unrated["medium"]
        assert "rerun the ladder" in fite.unrated["medium"]
        assert ratings.levels_of("fight").levels == {}
        assert "no ladder of fight" in ratings.levels_of("fight").unrated["easy"]
    finally:
        ratings.levels_of.cache_clear()


def test_the_levels_predict_what_their_ladders_expect() -> None:
    model = PlackettLuce()
    doc = (ROOT / "docs" / "server.md").read_text(encoding="utf-8")
    for game in game_ids():
        levels = ratings.levels_of(game)
        order = sorted(levels.levels.values(), key=lambda level: level.elo)
        assert levels.levels["easy"].rating == 1500  # the anchor: the model's default mu
        # docs/server.md's table of the levels' ratings is this one.
        names = ("random", "easy", "rule", "medium", "hard")
        assert f"| {game} | " + " | ".join(str(levels.levels[n].rating) for n in names) + " |" in doc
        assert math.isclose(levels.levels["easy"].mu, model.mu)
        for low, high in itertools.combinations(order, 2):
            predicted = model.predict_win(
                [[model.rating(mu=high.mu, sigma=0.0)], [model.rating(mu=low.mu, sigma=0.0)]]
            )[0]
            expected = ladder_expectation(high.elo - low.elo)
            neighbours = order.index(high) == order.index(low) + 1
            # Neighbours exactly; pairs further apart within two percentage points (docs/server.md).
            assert abs(predicted - expected) < (1e-9 if neighbours else 0.02), (game, low.name, high.name)
        # The displayed scale reads as Elo's for small gaps: 1 point is as much expected as 1 Elo point.
        slope = (ratings.win_probability(model.mu + 0.01, 0, model.mu, 0) - 0.5) / (
            0.01 * ratings.DISPLAY_SCALE
        )
        assert math.isclose(slope, math.log(10) / 1600, rel_tol=1e-3)


# --- through the store's finish hook ----------------------------------------------------------------


@pytest.fixture
def store(db: str) -> Iterator[Store]:
    opened = Store.open(db)
    opened.finish_hooks.append(ratings.rate_finished)
    yield opened
    opened.close()


def new_account(store: Store, name: str, *, bot: bool = False) -> str:
    account = str(uuid.uuid4())  # as a seat gives it
    suffix = uuid.uuid4().hex[:6]
    with store.engine.begin() as db:
        db.execute(
            accounts_table.insert().values(
                id=uuid.UUID(account),
                email=f"{name}-{suffix}@example.org",
                hashed_password="x",
                is_active=True,
                is_superuser=False,
                is_verified=False,
                name=f"{name}{suffix}"[:20],
                name_key=f"{name}{suffix}"[:20].lower(),
                bot=bot,
                created=time.time(),
            )
        )
    return account


def rating(store: Store, account: str, game: str) -> tuple[float, float, int] | None:
    r = ratings_table.c
    with store.engine.connect() as db:
        row = db.execute(
            sa.select(r.mu, r.sigma, r.games).where(r.account_id == uuid.UUID(account), r.game == game)
        ).first()
    return (row.mu, row.sigma, row.games) if row is not None else None


def history(store: Store, account: str) -> list[Any]:
    h = rating_history_table.c
    with store.engine.connect() as db:
        return list(
            db.execute(
                sa.select(h.game_id, h.mu, h.sigma).where(h.account_id == uuid.UUID(account)).order_by(h.id)
            ).all()
        )


def person(seat: int, account: str | None) -> Seat:
    return Seat(seat, "person", None, f"p{seat}", uuid.uuid4().hex, account=account)


def computer(seat: int, level: str) -> Seat:
    return Seat(seat, "computer", level, level, None)


def result(ranking: list[int], termination: str = "rules") -> dict[str, Any]:
    return {
        "ranking": ranking,
        "winner": None,
        "draw": False,
        "returns": [],
        "reason": "",
        "termination": termination,
    }


def test_a_rated_game_between_accounts_moves_both_by_openskills_rule(store: Store) -> None:
    model = PlackettLuce()
    ann, bob = new_account(store, "ann"), new_account(store, "bob")
    first = store.create_game("fite", {}, 2, [person(0, ann), person(1, bob)], seed="s", rated=True)
    store.add_events(first, 0, [], result=result([1, 2]))  # ann wins by the rules
    [[a], [b]] = model.rate([[model.rating()], [model.rating()]], ranks=[1, 2])
    assert rating(store, ann, "fite") == pytest.approx((a.mu, a.sigma, 1))
    assert rating(store, bob, "fite") == pytest.approx((b.mu, b.sigma, 1))
    assert a.mu > model.mu > b.mu
    # Bob resigns the next one (the seats turned): resigning counts, from where they stand now.
    second = store.create_game("fite", {}, 2, [person(0, bob), person(1, ann)], seed="s", rated=True)
    assert store.finish(second, result([2, 1], "resignation"))
    [[b2], [a2]] = model.rate([[b], [a]], ranks=[2, 1])
    assert rating(store, ann, "fite") == pytest.approx((a2.mu, a2.sigma, 2))
    assert rating(store, bob, "fite") == pytest.approx((b2.mu, b2.sigma, 2))
    # A time-out is a result like another; a draw moves them towards each other.
    third = store.create_game("fite", {}, 2, [person(0, ann), person(1, bob)], seed="s", rated=True)
    assert store.finish(third, result([1, 1], "time"))
    [[a3], [b3]] = model.rate([[a2], [b2]], ranks=[1, 1])
    assert rating(store, ann, "fite") == pytest.approx((a3.mu, a3.sigma, 3))
    assert rating(store, bob, "fite") == pytest.approx((b3.mu, b3.sigma, 3))
    assert [row.game_id for row in history(store, ann)] == [first, second, third]
    assert [x for row in history(store, bob) for x in (row.mu, row.sigma)] == pytest.approx(
        [b.mu, b.sigma, b2.mu, b2.sigma, b3.mu, b3.sigma]
    )
    # Finishing a finished game again changes nothing (the hook runs once per game).
    assert not store.finish(third, result([2, 1], "time"))
    assert rating(store, ann, "fite") == pytest.approx((a3.mu, a3.sigma, 3))


def test_casual_and_aborted_games_change_nothing(store: Store) -> None:
    ann, bob = new_account(store, "ann"), new_account(store, "bob")
    casual = store.create_game("fight", {}, 2, [person(0, ann), person(1, bob)], seed="s")
    store.add_events(casual, 0, [], result=result([1, 2]))
    aborted = store.create_game("fight", {}, 2, [person(0, ann), person(1, bob)], seed="s", rated=True)
    assert store.finish(aborted, result([1, 1], "aborted"))
    # A rated game an account plays alone against a guest (no rating) and an unknown agent rates nobody.
    alone = store.create_game(
        "fight",
        {},
        3,
        [person(0, ann), person(1, None), Seat(2, "computer", "mcts", "m", None)],
        seed="s",
        rated=True,
    )
    store.add_events(alone, 0, [], result=result([1, 2, 3]))
    for account in (ann, bob):
        assert rating(store, account, "fight") is None
        assert history(store, account) == []


def test_placement_moves_a_new_account_and_never_the_level(store: Store) -> None:
    model = PlackettLuce()
    newcomer = new_account(store, "new")
    hard = ratings.levels_of("tank-chess").levels["hard"]
    before = (hard.mu, hard.rating)
    expected = model.rating()
    for number in range(4):  # wins every game against hard: climbs towards and past it
        seats = (
            [person(0, newcomer), computer(1, "hard")]
            if number % 2 == 0
            else [
                computer(0, "hard"),
                person(1, newcomer),
            ]
        )
        game = store.create_game("tank-chess", {}, 2, seats, seed="s", rated=True)
        store.add_events(game, 0, [], result=result([1, 2] if number % 2 == 0 else [2, 1]))
        level = model.rating(mu=hard.mu, sigma=ratings.LEVEL_SIGMA)
        teams = [[expected], [level]] if number % 2 == 0 else [[level], [expected]]
        new = model.rate(teams, ranks=[1, 2] if number % 2 == 0 else [2, 1])
        expected = new[0][0] if number % 2 == 0 else new[1][0]
        assert rating(store, newcomer, "tank-chess") == pytest.approx(
            (expected.mu, expected.sigma, number + 1)
        )
    assert expected.mu > hard.mu  # placed above the level it beat four times
    ratings.levels_of.cache_clear()
    try:
        again = ratings.levels_of("tank-chess").levels["hard"]
        assert (again.mu, again.rating) == before  # the level never moved
    finally:
        ratings.levels_of.cache_clear()
    with store.engine.connect() as db:
        shown = ratings.ratings_of(db, newcomer)
    assert [r["game"] for r in shown] == ["tank-chess"]
    assert shown[0]["provisional"] and shown[0]["shown"].endswith("?")
    assert shown[0]["about"] == "hard"


def test_a_game_of_three_rates_by_places_and_leaves_a_guest_out(store: Store) -> None:
    model = PlackettLuce()
    ann, bob = new_account(store, "ann"), new_account(store, "bob")
    easy = ratings.levels_of("fight").levels["easy"]
    seats = [person(0, ann), person(1, None), computer(2, "easy"), person(3, bob)]
    game = store.create_game("fight", {}, 4, seats, seed="s", rated=True)
    store.add_events(game, 0, [], result=result([2, 1, 4, 2]))  # the guest first; ann and bob share 2nd
    teams = [[model.rating()], [model.rating(mu=easy.mu, sigma=0.0)], [model.rating()]]
    [[a], _, [b]] = model.rate(teams, ranks=[2, 4, 2])
    assert rating(store, ann, "fight") == pytest.approx((a.mu, a.sigma, 1))
    assert rating(store, bob, "fight") == pytest.approx((b.mu, b.sigma, 1))


# --- over the API of a real server ---------------------------------------------------------------


def resign(server: Server, game_id: str, token: str, kind: str = "resign") -> dict[str, Any]:
    """Resign (or abort) a seat's game once it has started; the final view."""
    with server.seat(game_id, token) as ws:
        deadline = time.monotonic() + 30
        while True:
            ws.send(json.dumps({"type": kind}))
            message = receive(ws)
            while message["type"] == "view" and message["result"] is None:
                message = receive(ws)
            if message["type"] == "view":
                return message
            assert "not started" in message["error"] and time.monotonic() < deadline, message
            time.sleep(0.2)


def get_bytes(server: Server, path: str) -> tuple[int, bytes, dict[str, str]]:
    try:
        with urllib.request.urlopen(server.url + path, timeout=20) as answer:
            return answer.status, answer.read(), dict(answer.headers)
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read(), dict(exc.headers)


def test_profiles_games_archive_and_leaderboard_over_the_api(db: str) -> None:
    model = PlackettLuce()
    server = Server(db)
    try:
        suffix = uuid.uuid4().hex[:6]
        ann = AccountClient(server.url)
        ann.sign_up(f"Ann{suffix}")
        robo = AccountClient(server.url)
        robo.sign_up(f"robo{suffix}", bot=True)
        secrets = [f"ann{suffix}@example.org", f"robo{suffix}@example.org", str(robo.token)]
        easy = ratings.levels_of("fite").levels["easy"]

        # 1. Ann against the bot, rated: Ann resigns.
        status, first = ann.post(
            "/api/games", {"game": "fite", "seats": [{"kind": "person"}, {"kind": "open"}], "rated": True}
        )
        assert status == 201, first
        status, joined = robo.post(f"/api/games/{first['id']}/join", {})
        assert status == 200, joined
        with server.seat(first["id"], joined["token"]):
            resign(server, first["id"], first["seats"][0]["token"])
        [[a1], [r1]] = model.rate([[model.rating()], [model.rating()]], ranks=[2, 1])
        # 2. The bot's placement game against easy, rated: it resigns.
        status, second = robo.post(
            "/api/games",
            {
                "game": "fite",
                "seats": [{"kind": "person"}, {"kind": "computer", "agent": "easy"}],
                "rated": True,
            },
        )
        assert status == 201, second
        resign(server, second["id"], second["seats"][0]["token"])
        [[r2], _] = model.rate([[r1], [model.rating(mu=easy.mu, sigma=0.0)]], ranks=[2, 1])
        # 3. Ann against random, rated, played to its end by the rules.
        status, third = ann.post(
            "/api/games",
            {
                "game": "fite",
                "options": SHORT["fite"],
                "seats": [{"kind": "person"}, {"kind": "computer", "agent": "random"}],
                "rated": True,
            },
        )
        assert status == 201, third
        seen = play_out(server, third["id"], {0: third["seats"][0]["token"]}, seed=5)
        ranks = seen[0][-1]["result"]["ranking"]
        random_level = ratings.levels_of("fite").levels["random"]
        [[a3], _] = model.rate([[a1], [model.rating(mu=random_level.mu, sigma=0.0)]], ranks=ranks)
        # 4. A casual game against random, resigned; 5. a rated one against medium, aborted.
        status, fourth = ann.post(
            "/api/games",
            {"game": "fite", "seats": [{"kind": "person"}, {"kind": "computer", "agent": "random"}]},
        )
        assert status == 201, fourth
        resign(server, fourth["id"], fourth["seats"][0]["token"])
        status, fifth = ann.post(
            "/api/games",
            {
                "game": "fite",
                "seats": [{"kind": "person"}, {"kind": "computer", "agent": "medium"}],
                "rated": True,
            },
        )
        assert status == 201, fifth
        assert (
            resign(server, fifth["id"], fifth["seats"][0]["token"], "abort")["result"]["termination"]
            == "aborted"
        )

        answers: list[Any] = []
        # The profiles: ratings as openskill moved them, with their history and record against the levels.
        status, profile = server.get(f"/api/players/ann{suffix}")  # any case finds the name
        answers.append(profile)
        assert status == 200, profile
        assert profile["name"] == f"Ann{suffix}" and profile["bot"] is False
        [fite] = profile["ratings"]
        assert fite["mu"] == pytest.approx(a3.mu, abs=1e-4) and fite["sigma"] == pytest.approx(
            a3.sigma, abs=1e-4
        )
        assert fite["rating"] == ratings.displayed(a3.mu) and fite["games"] == 2
        assert fite["provisional"] and fite["shown"] == f"{fite['rating']}?"
        assert [p["game_id"] for p in fite["history"]] == [first["id"], third["id"]]
        assert fite["history"][0]["rating"] == ratings.displayed(a1.mu)
        mine = 0 if ranks[0] < ranks[1] else 1 if ranks[0] == ranks[1] else 2
        won = [0, 0, 0]
        won[mine] += 1
        won[2] += 1  # the casual game, resigned (the aborted one does not count)
        assert profile["record"] == [
            {
                "game": "fite",
                "level": "random",
                "level_rating": random_level.rating,
                "won": won[0],
                "drawn": won[1],
                "lost": won[2],
            }
        ]
        assert profile["games"] == {"waiting": 0, "playing": 0, "finished": 4, "total": 4}
        status, bot = server.get(f"/api/players/robo{suffix}")
        answers.append(bot)
        assert bot["bot"] is True and bot["ratings"][0]["mu"] == pytest.approx(r2.mu, abs=1e-4)
        assert bot["record"] == [
            {"game": "fite", "level": "easy", "level_rating": 1500, "won": 0, "drawn": 0, "lost": 1}
        ]

        # Its games, newest first, a page at a time; finished ones link their replay and record.
        status, page = server.get(f"/api/players/Ann{suffix}/games?limit=3")
        answers.append(page)
        assert status == 200, page
        assert [g["id"] for g in page["games"]] == [fifth["id"], fourth["id"], third["id"]]
        assert page["games"][2]["replay"] == f"/replay/{third['id']}"
        assert page["games"][2]["record"] == f"/api/games/{third['id']}/record"
        assert page["games"][1]["outcome"] == "lost" and page["games"][0]["outcome"] == "aborted"
        assert page["games"][1]["rated"] is False and page["games"][2]["rated"] is True
        status, rest = server.get(f"/api/players/Ann{suffix}/games?limit=3&before={page['next']!r}")
        assert [g["id"] for g in rest["games"]] == [first["id"]] and rest["next"] is None
        assert rest["games"][0]["seats"][1] == {
            "seat": 1,
            "kind": "person",
            "name": f"robo{suffix}",
            "player": f"robo{suffix}",
            "bot": True,
        }
        status, only = server.get(f"/api/players/Ann{suffix}/games?game=tank-chess")
        assert (status, only["games"]) == (200, [])

        # The archive: every finished game as a record the server's own record endpoint gives, by date.
        status, data, headers = get_bytes(server, f"/api/players/Ann{suffix}/archive")
        assert status == 200 and headers["content-type"] == "application/zip"
        assert headers["x-archive-records"] == "4" and "x-archive-next" not in headers
        with zipfile.ZipFile(io.BytesIO(data)) as zipped:
            names = zipped.namelist()
            assert sorted(names) == [n for n in sorted(names)] and len(names) == 4
            ids = [name.rsplit("-fite-", 1)[1].removesuffix(".json") for name in sorted(names)]
            assert ids == [first["id"], third["id"], fourth["id"], fifth["id"]]
            for name, game_id in zip(sorted(names), ids, strict=True):
                text = zipped.read(name).decode()
                record = Record.loads(text)
                record.final_state()  # replays, checking the result (tussle replay reads it)
                assert json.loads(text) == server.get(f"/api/games/{game_id}/record")[1]
            assert Record.loads(zipped.read(sorted(names)[1]).decode()).result is not None

        # The leaderboard: both accounts, the bot marked, and the levels on the same scale.
        status, board = server.get("/api/leaderboard/fite")
        answers.append(board)
        assert status == 200, board
        mine_rows = {p["name"]: p for p in board["players"] if p["name"] in (f"Ann{suffix}", f"robo{suffix}")}
        assert mine_rows[f"robo{suffix}"]["bot"] is True and mine_rows[f"Ann{suffix}"]["bot"] is False
        assert [p["place"] for p in board["players"]] == list(range(1, len(board["players"]) + 1))
        assert [p["rating"] for p in board["players"]] == sorted(
            (p["rating"] for p in board["players"]), reverse=True
        )
        assert {lv["level"]: lv["rating"] for lv in board["levels"]}["easy"] == 1500
        status, levels = server.get("/api/levels")
        answers.append(levels)
        assert [g["game"] for g in levels["games"]] == list(game_ids())

        # Unknown names and games: 404 in one line; nothing secret anywhere.
        for path in (
            "/api/players/nobody-at-all",
            "/api/players/x",
            "/api/leaderboard/chess",
            f"/api/players/Ann{suffix}/games?game=chess",
            "/api/players/nobody-at-all/archive",
        ):
            status, answer = server.get(path)
            assert status == 404 and list(answer) == ["error"] and "\n" not in answer["error"], (path, answer)
        text = json.dumps(answers) + json.dumps(rest) + json.dumps(page)
        for secret in [
            *secrets,
            *(seat["token"] for g in (first, third, fourth, fifth) for seat in g["seats"] if "token" in seat),
        ]:
            assert secret not in text
        assert "seed" not in text and "email" not in text
    finally:
        server.stop()
