"""Tournaments online, through the API on SQLite and PostgreSQL: FITE's single elimination of 5 to
its champion and a Swiss of 6 to its standings, with entrants that are accounts played by programs
("people-bots": they sign up, register, fetch their seat's token and play over the WebSocket) and
computer entrants; the rules checked from the games' results; refusals in one line."""

from __future__ import annotations

import asyncio
import itertools
import json
import random
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed

from test_server import Server, db, pick

__all__ = ["db"]  # the fixture, used by name

#: FITE games kept short: a people-bot plays at random, and a turn limit ends a game that drags.
FITE = {"turn_limit": 12}


@pytest.fixture(scope="module")
def servers(db: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[Server]]:
    """Two server processes on one database (PostgreSQL; one on SQLite): either may pair a round.

    Their logs go to files: the people-bots' requests would fill a pipe nobody reads, and stop them.
    """
    logs = tmp_path_factory.mktemp("tournaments")
    # The people-bots, the test and the pages come from one address: more requests than a person's.
    # A computer's move lasts a moment here (random): a killed process's lease runs out soon.
    loose = ("--limit", "requests_per_second=500", "--limit", "connections=500", "--move-time", "1")
    first = Server(db, *loose, log=logs / "first.log")
    both = [first, Server(db, *loose, log=logs / "second.log")] if db.startswith("postgresql") else [first]
    yield both
    for s in both:
        s.stop()


def call(
    server: Server, method: str, path: str, body: Any = None, token: str | None = None
) -> tuple[int, Any]:
    """An API request, as a program sends it (its API token as a bearer token)."""
    headers = {"content-type": "application/json"}
    if token is not None:
        headers["authorization"] = f"Bearer {token}"
    data = json.dumps(body).encode() if body is not None else (b"{}" if method == "POST" else None)
    request = urllib.request.Request(server.url + path, data=data, headers=headers, method=method)
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


def bot(server: Server, name: str, *, exact: bool = False) -> str:
    """A new bot account's API token (its name made unique, unless ``exact``)."""
    name = name if exact else f"{name}{uuid.uuid4().hex[:6]}"
    status, answer = call(
        server,
        "POST",
        "/api/account/signup",
        {"name": name, "email": f"{name}@example.com", "password": "a long secret 1", "bot": True},
    )
    assert status == 201, answer
    token: str = answer["token"]
    return token


def play_game(server: Server, game_id: str, token: str, rng: random.Random) -> None:
    """Play one seat at random over the WebSocket until the game ends.

    As docs/server.md asks of a program: each position is answered once (a
    repeated view, say when a player comes or goes, is not answered again), and
    after a refusal the bot connects again and is sent the whole view, since
    no view follows a refused move (waiting for one stalled a Swiss in CI).
    """
    ws = server.seat(game_id, token)
    answered = -1
    try:
        while True:
            message = json.loads(ws.recv(timeout=60))
            if message.get("type") == "error":
                ws.close()
                ws, answered = server.seat(game_id, token), -1
                continue
            if message.get("type") != "view":
                continue
            if message["result"] is not None:
                return
            if message.get("your_turn") and message["events"] != answered:
                answered = message["events"]
                ws.send(json.dumps({"type": "action", "action": pick(message, rng)}))
    except ConnectionClosed:
        return
    finally:
        ws.close()


class PeopleBot(threading.Thread):
    """An entrant played by a program: it waits for its game of each round, fetches its seat's token
    (``POST /api/games/{id}/seat``) and plays it, until the tournament is over."""

    def __init__(self, server: Server, tournament: str, token: str, seed: int) -> None:
        super().__init__(daemon=True)
        self.server, self.tournament, self.token = server, tournament, token
        self.rng = random.Random(seed)
        self.played: list[str] = []
        self.error: BaseException | None = None

    def run(self) -> None:
        try:
            deadline = time.monotonic() + 150
            while time.monotonic() < deadline:
                status, t = call(self.server, "GET", f"/api/tournaments/{self.tournament}", token=self.token)
                assert status == 200, t
                if t["status"] == "finished":
                    return
                game = t["you"]["game"]
                if game is None or game in self.played:
                    time.sleep(0.2)
                    continue
                status, seat = call(self.server, "POST", f"/api/games/{game}/seat", token=self.token)
                assert status == 200, seat
                play_game(self.server, game, seat["token"], self.rng)
                self.played.append(game)
            raise AssertionError("the tournament did not finish in time")
        except BaseException as exc:
            self.error = exc


def run_to_the_end(servers: list[Server], tournament: str, tokens: list[str]) -> dict[str, Any]:
    """Play the people-bots (each on one of the servers in turn) until the tournament is over."""
    bots = [PeopleBot(servers[i % len(servers)], tournament, t, i) for i, t in enumerate(tokens)]
    for b in bots:
        b.start()
    for b in bots:
        b.join(180)
        assert b.error is None, b.error
    status, t = call(servers[-1], "GET", f"/api/tournaments/{tournament}")
    assert status == 200 and t["status"] == "finished", t
    # Every game with an account's seat was played by that account's program, to its end.
    people = {e["number"] for e in t["entrants"] if e["computer"] is None}
    theirs = {
        g["id"]: len(people & set(g["seats"]))
        for r in t["rounds_played"]
        for b in r["boards"]
        for g in b["games"]
    }
    assert sorted(g for b in bots for g in b.played) == sorted(g for g, n in theirs.items() for _ in range(n))
    answer: dict[str, Any] = t
    return answer


def test_fite_single_elimination_of_five_to_its_champion(servers: list[Server]) -> None:
    server = servers[0]
    tokens = [bot(server, name) for name in ("ann", "bob", "cid")]
    request = {
        "game": "fite",
        "kind": "elimination",
        "name": "Grand Tournament",
        "options": FITE,
        "clock": {"minutes": 2, "increment": 1},
        "rated": True,
        "max_entrants": 5,
        "computers": [{"level": "random", "power": "brutal"}, {"level": "random"}],
    }
    status, t = call(server, "POST", "/api/tournaments", request, tokens[0])
    assert status == 201, t
    tid = t["id"]
    assert t["status"] == "registering" and len(t["entrants"]) == 2
    for i, token in enumerate(tokens):
        body = {"power": "cunning"} if i == 0 else None
        status, t = call(servers[i % len(servers)], "POST", f"/api/tournaments/{tid}/join", body, token)
        assert status == 200, t
    assert [e["power"] for e in t["entrants"]] == ["brutal", None, "cunning", None, None]
    status, full = call(server, "POST", f"/api/tournaments/{tid}/join", None, bot(server, "dan"))
    assert status == 400 and "full" in full["error"], full
    status, t = call(server, "POST", f"/api/tournaments/{tid}/start", None, tokens[0])
    assert status == 200 and t["status"] == "playing" and t["round"] == 1, t
    t = run_to_the_end(servers, tid, tokens)

    # FITE's rules: each round pairs the fighters still in (drawn anew), an odd one out has a bye,
    # a drawn game is played again with the seats swapped, and the last one in is the champion.
    alive = {e["number"] for e in t["entrants"]}
    assert [len(r["boards"]) for r in t["rounds_played"]] == [3, 2, 1]
    for rnd in t["rounds_played"]:
        drawn_in = [n for b in rnd["boards"] for n in b["entrants"]]
        assert sorted(drawn_in) == sorted(alive), rnd
        assert sum(b["bye"] for b in rnd["boards"]) == len(alive) % 2
        for board in rnd["boards"]:
            if board["bye"]:
                assert board["winner"] == board["entrants"][0] and not board["games"]
                continue
            games = board["games"]
            for before, after in itertools.pairwise(games):
                assert before["points"] == [0.5, 0.5] and after["seats"] == before["seats"][::-1]
            last = games[-1]
            assert last["status"] == "finished" and 1.0 in last["points"], board
            assert board["winner"] == last["seats"][last["points"].index(1.0)]
            for g in games:
                check_game(server, g, t)
        alive = {b["winner"] for b in rnd["boards"]}
    assert len(alive) == 1 and t["champion"] == alive.pop()
    assert t["rounds"] == 3

    # A rated tournament's games are ordinary rated games: each account's FITE rating counts its own
    # (those aborted before every player moved count for nobody).
    for entrant in t["entrants"]:
        if entrant["computer"] is not None:
            continue
        played = [
            g
            for r in t["rounds_played"]
            for b in r["boards"]
            for g in b["games"]
            if entrant["number"] in g["seats"] and g["termination"] != "aborted"
        ]
        status, profile = call(server, "GET", f"/api/players/{entrant['name']}")
        assert status == 200, profile
        fite = [r for r in profile["ratings"] if r["game"] == "fite"]
        assert (fite[0]["games"] if fite else 0) == len(played), (entrant, fite, played)


def check_game(server: Server, g: dict[str, Any], t: dict[str, Any]) -> None:
    """A tournament game as made: its seats are the entrants' (accounts or computer levels, FITE
    powers following their entrants), rated as the tournament, with its clock."""
    status, view = call(server, "GET", f"/api/games/{g['id']}")
    assert status == 200, view
    by_number = {e["number"]: e for e in t["entrants"]}
    for seat, number in zip(view["seats"], g["seats"], strict=True):
        entrant = by_number[number]
        assert seat["name"] == entrant["name"]
        assert (seat["kind"] == "computer") == (entrant["computer"] is not None), seat
    assert view["rated"] is t["rated"]
    assert view["clock"]["base"] == t["clock"]["minutes"] * 60, view["clock"]
    status, record = call(server, "GET", f"/api/games/{g['id']}/record")
    assert status == 200, record
    powers = [by_number[n]["power"] or "none" for n in g["seats"]]
    assert [record["options"].get("power_a", "none"), record["options"].get("power_b", "none")] == powers
    assert record["options"]["turn_limit"] == FITE["turn_limit"]


def test_swiss_of_six_to_its_standings(servers: list[Server]) -> None:
    server = servers[-1]
    tokens = [bot(server, name) for name in ("eve", "fay", "gus")]
    request = {
        "game": "fite",
        "kind": "swiss",
        "options": FITE,
        "clock": {"minutes": 2},
        "computers": [{"level": "random"}] * 3,
    }
    status, t = call(server, "POST", "/api/tournaments", request, tokens[0])
    assert status == 201, t
    tid = t["id"]
    for token in tokens:
        assert call(server, "POST", f"/api/tournaments/{tid}/join", None, token)[0] == 200
    status, t = call(server, "POST", f"/api/tournaments/{tid}/start", None, tokens[0])
    assert status == 200, t
    t = run_to_the_end(servers, tid, tokens)

    assert len(t["rounds_played"]) == t["rounds"] == 3
    entrants = [e["number"] for e in t["entrants"]]
    points = dict.fromkeys(entrants, 0.0)
    wins = dict.fromkeys(entrants, 0)
    met: dict[int, list[int]] = {n: [] for n in entrants}
    byes = dict.fromkeys(entrants, 0)
    for rnd in t["rounds_played"]:
        seen = [n for b in rnd["boards"] for n in b["entrants"]]
        assert sorted(seen) == entrants, "everyone plays once a round"
        for board in rnd["boards"]:
            if board["bye"]:
                (n,) = board["entrants"]
                byes[n] += 1
                points[n] += 1
                continue
            (game,) = board["games"]  # a Swiss plays a drawn game once: it is a draw
            a, b = game["seats"]
            assert b not in met[a], "no rematch"
            met[a].append(b)
            met[b].append(a)
            points[a] += game["points"][0]
            points[b] += game["points"][1]
            wins[a] += game["points"][0] == 1
            wins[b] += game["points"][1] == 1
            check_game(server, game, t)
    assert max(byes.values()) <= 1
    buchholz = {n: sum(points[o] for o in met[n]) for n in entrants}
    table = t["standings"]
    assert [s["entrant"] for s in table] == sorted(
        entrants, key=lambda n: (-points[n], -buchholz[n], -wins[n], n)
    )
    for s in table:
        assert (s["points"], s["buchholz"], s["wins"]) == (
            points[s["entrant"]],
            buchholz[s["entrant"]],
            wins[s["entrant"]],
        )
    assert t["champion"] == table[0]["entrant"]


def test_refusals(servers: list[Server]) -> None:
    server = servers[0]
    maker, other = bot(server, "hal"), bot(server, "ivy")
    good = {"game": "fite", "kind": "swiss", "clock": {"minutes": 1}, "computers": [{"level": "random"}]}
    status, t = call(server, "POST", "/api/tournaments", {**good, "computers": []}, maker)
    assert status == 201, t
    status, alone = call(server, "POST", f"/api/tournaments/{t['id']}/start", None, maker)
    assert status == 400 and "at least 2 entrants" in alone["error"], alone
    status, t = call(server, "POST", "/api/tournaments", good, maker)
    assert status == 201, t
    tid = t["id"]
    refusals = [
        (call(server, "POST", "/api/tournaments", good), 401, "sign in"),
        (call(server, "POST", "/api/tournaments", {**good, "game": "chess"}, maker), 400, "unknown game"),
        (call(server, "POST", "/api/tournaments", {**good, "clock": None}, maker), 422, "clock"),
        (
            call(server, "POST", "/api/tournaments", {**good, "computers": [{"level": "god"}]}, maker),
            400,
            "god",
        ),
        (
            call(server, "POST", "/api/tournaments", {**good, "options": {"power_a": "fast"}}, maker),
            400,
            "power",
        ),
        (call(server, "POST", f"/api/tournaments/{tid}/join", {"power": "x"}, other), 400, "not a power"),
        (call(server, "POST", f"/api/tournaments/{tid}/join"), 401, "sign in"),
        (call(server, "POST", f"/api/tournaments/{uuid.uuid4()}/join", None, other), 404, "no tournament"),
        (call(server, "GET", f"/api/tournaments/{uuid.uuid4()}"), 404, "no tournament"),
        (call(server, "GET", "/api/tournaments/" + "x" * 5000), 404, "no tournament"),
        (call(server, "POST", f"/api/tournaments/{tid}/leave", None, other), 400, "not registered"),
        (call(server, "POST", f"/api/tournaments/{tid}/start", None, other), 400, "maker"),
    ]
    for (status, answer), want, words in refusals:
        assert status == want and words in answer["error"] and "\n" not in answer["error"], (want, answer)
    assert call(server, "POST", f"/api/tournaments/{tid}/join", None, other)[0] == 200
    status, again = call(server, "POST", f"/api/tournaments/{tid}/join", None, other)
    assert status == 400 and "already" in again["error"]
    assert call(server, "POST", f"/api/tournaments/{tid}/start", None, maker)[0] == 200
    for path in ("join", "leave"):
        status, late = call(server, "POST", f"/api/tournaments/{tid}/{path}", None, maker)
        assert status == 400 and "registration is closed" in late["error"], late
    status, listing = call(server, "GET", "/api/tournaments")
    assert status == 200 and tid in [x["id"] for x in listing["playing"] + listing["finished"]]


def test_a_killed_server_goes_on_with_the_tournament(servers: list[Server]) -> None:
    """State is all in the database: a tournament whose start time passed while the server was down
    starts once it is up again, and a server killed mid-round plays it on (on PostgreSQL, the other
    process goes on meanwhile)."""
    server = servers[0]
    maker = bot(server, "jay")
    request = {
        "game": "fite",
        "kind": "swiss",
        "options": FITE,
        "clock": {"minutes": 1},
        "computers": [{"level": "random"}] * 4,
        "starts_at": time.time() + 1.0,
    }
    status, t = call(server, "POST", "/api/tournaments", request, maker)
    assert status == 201, t
    tid = t["id"]
    server.kill()
    time.sleep(1.0)
    server.start()
    deadline = time.monotonic() + 30
    while (t := call(server, "GET", f"/api/tournaments/{tid}")[1])["status"] == "registering":
        assert time.monotonic() < deadline, t
        time.sleep(0.1)
    server.kill()  # its round 1 is being played
    server.start()
    deadline = time.monotonic() + 60
    while (t := call(server, "GET", f"/api/tournaments/{tid}")[1])["status"] != "finished":
        assert time.monotonic() < deadline, t
        time.sleep(0.3)
    assert [len(r["boards"]) for r in t["rounds_played"]] == [2, 2]
    assert all(len(b["games"]) == 1 for r in t["rounds_played"] for b in r["boards"])


def test_the_tournament_bot_in_the_docs_plays_to_the_end(servers: list[Server]) -> None:
    server = servers[0]
    doc = (Path(__file__).resolve().parent.parent / "docs" / "server.md").read_text(encoding="utf-8")
    code = doc.split("**A bot in a tournament**", 1)[1].split("```python\n", 1)[1].split("```", 1)[0]
    maker, token = bot(server, "kim"), bot(server, "leo")
    request = {
        "game": "fite",
        "kind": "swiss",
        "options": FITE,
        "clock": {"minutes": 1},
        "computers": [{"level": "random"}],
    }
    tid = call(server, "POST", "/api/tournaments", request, maker)[1]["id"]
    code = (
        code.replace('"127.0.0.1:8000"', f'"127.0.0.1:{server.port}"')
        .replace('"<the bot\'s API token>"', repr(token))
        .replace('"<the tournament\'s id>"', repr(tid))
    )
    program = subprocess.Popen(
        [sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        deadline = time.monotonic() + 30
        while len(call(server, "GET", f"/api/tournaments/{tid}")[1]["entrants"]) < 2:
            assert time.monotonic() < deadline and program.poll() is None, program.communicate()
            time.sleep(0.1)
        assert call(server, "POST", f"/api/tournaments/{tid}/start", None, maker)[0] == 200
        out, err = program.communicate(timeout=60)
    finally:
        program.kill()
    assert program.returncode == 0, err
    t = call(server, "GET", f"/api/tournaments/{tid}")[1]
    champion = next(e["name"] for e in t["entrants"] if e["number"] == t["champion"])
    assert out.strip() == f"champion: {champion}"


@dataclass(frozen=True)
class Maker:
    """An account as the tournaments see one (tussle.server.accounts.Account's fields)."""

    id: str
    name: str
    bot: bool = False


def test_drawn_elimination_games_are_replayed_with_seats_swapped_then_decided_by_lot(tmp_path: Path) -> None:
    """The rulings no random game is sure to reach, taken in one process over its store: every drawn
    game of a pairing is played again with the seats swapped, up to 10, then the lot decides; a Swiss
    counts an aborted game as a draw."""
    from tussle import Result, Termination
    from tussle.server.hub import Hub
    from tussle.server.service import GameService
    from tussle.server.store import Store
    from tussle.server.tournaments import MAX_REPLAYS, TournamentRequest, Tournaments

    async def run() -> None:
        store = Store.open(f"sqlite:///{tmp_path / 't.db'}")
        hub = Hub(store, None)  # no workers: the computer entrants never move, the test ends each game
        tournaments = Tournaments(hub, GameService(hub))
        maker = Maker(str(uuid.uuid4()), "Ann")
        two = [{"level": "random"}, {"level": "random", "power": "swift"}]
        request = {"game": "fite", "kind": "elimination", "clock": {"minutes": 5}, "computers": two}
        t = await tournaments.create(TournamentRequest.model_validate(request), maker)
        t = await tournaments.start(t["id"], maker)
        for attempt in range(1, MAX_REPLAYS + 1):
            (board,) = t["rounds_played"][0]["boards"]
            games = board["games"]
            assert len(games) == attempt
            if attempt > 1:
                assert games[-1]["seats"] == games[-2]["seats"][::-1]
            drawn = Result.draw(2, "both fell", Termination.RULES if attempt % 2 else Termination.ABORTED)
            assert store.finish(games[-1]["id"], drawn.to_json())
            await tournaments.tick()
            t = await tournaments.view(t["id"])
        assert t["status"] == "finished" and t["champion"] in (1, 2)
        assert t["rounds_played"][0]["boards"][0]["winner"] == t["champion"]

        request = {"game": "fite", "kind": "swiss", "clock": {"minutes": 5}, "computers": two}
        s = await tournaments.create(TournamentRequest.model_validate(request), maker)
        s = await tournaments.start(s["id"], maker)
        (game,) = s["rounds_played"][0]["boards"][0]["games"]
        aborted = Result.draw(2, "aborted before every player moved", Termination.ABORTED)
        assert store.finish(game["id"], aborted.to_json())
        await tournaments.tick()
        s = await tournaments.view(s["id"])
        assert s["status"] == "finished" and [x["points"] for x in s["standings"]] == [0.5, 0.5]
        await hub.close()
        store.close()

    asyncio.run(run())
