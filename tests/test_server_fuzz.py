"""A property-based fuzz of ``tussle serve``: its HTTP API from its OpenAPI description, and its WebSockets.

A real server process runs on SQLite and on PostgreSQL (``test_server``'s ``db``
fixture), its rate limits raised so that the fuzz is answered by the API rather
than by 429s, its output (uvicorn's log, any traceback) written to a file.

- HTTP: schemathesis makes requests for every operation of the server's own
  ``/openapi.json``: the boundary values of its coverage phase, then
  hypothesis' valid (positive) and invalid (negative) data. Each request is
  also sent aimed at something real (a game, a seat's token, a game's name
  with option names worth trying, a finished game's record, hard text in names
  and seeds), so that the fuzz gets past the 404s. No answer may be a 5xx, and
  an answer the description documents must match its schema.
- WebSocket: hypothesis sends batches of frames to real games' sockets, as the
  seat whose turn it is and as a spectator: JSON objects with random keys and
  values (deeply nested, huge numbers, NUL and other control characters, lone
  surrogates, long strings) and near misses of each game's notation; text
  that is no JSON object, nesting past any parser, frames over the size limit;
  text frames that are no UTF-8; binary and empty frames; garbage in place of
  the opening hello. Each frame must be answered by one ``{"type": "error",
  "error": <one line>}`` or the connection closed with a proper code (not
  1011, not dropped); the server must keep serving, and the game's public view
  must have as many events as before.

The server's log must hold no traceback. The fuzz is derandomized (the same
requests on every run) and bounded: about 2,000 HTTP requests and 480
WebSocket connections for each database.
"""

from __future__ import annotations

import contextlib
import inspect
import itertools
import json
import re
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import requests
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.errors import Unsatisfiable
from schemathesis import Case, GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.errors import FailureGroup
from schemathesis.specs.openapi.checks import response_schema_conformance
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from account_support import AccountClient
from server_support import postgres_database
from test_server import SHORT, Server, play_out
from tussle import CHANCE, State, load_game
from tussle.registry import game_class, game_ids, game_info
from tussle.server.accounts import CSRF_COOKIE, CSRF_HEADER
from tussle.server.hub import chance_rng


@pytest.fixture(
    scope="module",
    # One xdist group for each database, so that the two fuzzes (each among the suite's longest tests)
    # run on both workers at once rather than one after the other; each has its own server, port and
    # database.
    params=[
        pytest.param(kind, marks=pytest.mark.xdist_group(f"server_fuzz_{kind}"))
        for kind in ("sqlite", "postgresql")
    ],
)
def db(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A fresh database URL of each kind for the module's tests (as test_server's ``db``)."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path_factory.mktemp('fuzz-db') / 'tussle.db'}"
        return
    with postgres_database("tussle_fuzz") as url:
        yield url


#: Bounds high enough that the fuzz is not refused for its pace (the limits have tests of their own).
LIMITS = (
    "--limit=requests_per_second=100000",
    "--limit=messages_per_second=100000",
    "--limit=connections=1000",
    "--limit=open_games=100000",
    "--limit=sign_ins=100000",
    "--limit=sign_ins_per_account=100000",
)
#: Hypothesis examples for each HTTP operation in each generation mode (besides its coverage cases).
HTTP_EXAMPLES = {GenerationMode.POSITIVE: 12, GenerationMode.NEGATIVE: 6}
#: Operations that hash a password (Argon2, slow by design: about a tenth of a second each), fuzzed
#: with fewer examples besides their coverage cases.
HASHING = {"POST /api/account/signup", "POST /api/account/signin", "POST /api/account/password"}
HASHING_EXAMPLES = {GenerationMode.POSITIVE: 3, GenerationMode.NEGATIVE: 3}
#: Hypothesis examples (each a new connection and a batch of frames) for each WebSocket test.
WS_EXAMPLES = 60
#: The codes a connection may be closed with: normal, unsupported data, not UTF-8, policy, too big.
PROPER_CLOSE = {1000, 1003, 1007, 1008, 1009}
#: The most characters a one-line error may have.
MAX_ERROR = 400


def fuzzing(examples: int) -> settings:
    """Hypothesis settings: ``examples`` examples, the same on every run, however long each takes."""
    return settings(
        max_examples=examples,
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=list(HealthCheck),
    )


class LoggedServer(Server):
    """``tussle serve`` writing its output (uvicorn's log and any traceback) straight to a file.

    A traceback the server logs while it handles a message is in the file by the time the server
    answers the next request.
    """

    def __init__(self, db: str, log: Path, *extra: str) -> None:
        super().__init__(db, *extra, log=log)

    def log_size(self) -> int:
        assert self.log is not None
        return self.log.stat().st_size if self.log.exists() else 0

    def log_since(self, offset: int, settle: float = 0.0) -> str:
        """What the server wrote after the first ``offset`` bytes of its log, given ``settle`` s to write."""
        time.sleep(settle)
        assert self.log is not None
        with self.log.open("rb") as f:
            f.seek(offset)
            return f.read().decode(errors="replace")


def raised(log: str) -> list[str]:
    """The line that ends each traceback in ``log``: what was raised (``KeyError: 'text'``)."""
    found = []
    inside = False
    for line in log.splitlines():
        if line.startswith("Traceback (most recent call last)"):
            inside = True
        elif inside and line and not line[0].isspace():
            found.append(line)
            inside = False
    return found


def no_traceback(server: LoggedServer, offset: int) -> None:
    log = server.log_since(offset, settle=0.5)
    assert "Traceback" not in log, f"the server logged tracebacks: {raised(log)}\n{log[-3000:]}"


@pytest.fixture(scope="module")
def fuzz_server(db: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[LoggedServer]:
    server = LoggedServer(db, tmp_path_factory.mktemp("fuzz") / "server.log", *LIMITS)
    yield server
    server.stop()


# --- HTTP ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Target:
    """Something real on the server: a game (or a game's name) and, if it has one, a seat's token there."""

    game_id: str
    token: str | None = None


@dataclass
class Real:
    """Games, tokens and a record that exist on the server, for requests that get past a 404."""

    targets: list[Target]
    record: dict[str, Any]
    players: tuple[str, ...] = ()
    """Accounts' names (a player's profile, games and archive)."""
    session: dict[str, str] = field(default_factory=dict)
    """A signed-in browser's cookies (the session's and the CSRF check's), of the account ``login``."""
    login: tuple[str, str] = ("", "")
    """That account's name and password."""
    tournaments: tuple[str, ...] = ()
    """Tournaments' ids."""


@pytest.fixture(scope="module")
def real(fuzz_server: LoggedServer) -> Real:
    """A finished game (its record), a game being played, and games with one and two open seats."""
    two = [{"kind": "person"}, {"kind": "person"}]
    body = {"game": "fite", "options": SHORT["fite"], "seats": two}
    status, finished = fuzz_server.post("/api/games", body)
    assert status == 201, finished
    play_out(fuzz_server, finished["id"], {s["seat"]: s["token"] for s in finished["seats"]}, seed=1)
    status, record = fuzz_server.get(f"/api/games/{finished['id']}/record")
    assert status == 200, record
    made = [finished]
    for seats in (two, [{"kind": "person"}, {"kind": "open"}], [{"kind": "open"}, {"kind": "open"}]):
        status, created = fuzz_server.post("/api/games", {"game": "fightopia", "seats": seats})
        assert status == 201, created
        made.append(created)
    targets = [Target(created["id"], seat.get("token")) for created in made for seat in created["seats"]]
    AccountClient(fuzz_server.url).sign_up("Fuzzed")
    # A signed-in browser, which aimed requests may come from, and a tournament it made.
    browser = AccountClient(fuzz_server.url)
    browser.sign_up("Fuzzer", FUZZER_PASSWORD)
    tournaments = []
    for computers in ([], [{"level": "random"}, {"level": "random"}]):  # one to join, one to start
        status, tournament = browser.post(
            "/api/tournaments",
            {"game": "fite", "kind": "elimination", "clock": {"minutes": 5}, "computers": computers},
        )
        assert status == 201, tournament
        tournaments.append(tournament["id"])
    return Real(
        [*targets, *(Target(game) for game in sorted(game_ids()))],
        record,
        ("Fuzzed", "Fuzzer"),
        dict(browser.cookies),
        ("Fuzzer", FUZZER_PASSWORD),
        tuple(tournaments),
    )


#: The password of the fuzz's signed-in account.
FUZZER_PASSWORD = "fuzz the server"
#: Numbers for new accounts' names: an aimed sign-up makes a new account each time.
_new_accounts = itertools.count()


def option_names() -> list[str]:
    """Keys worth trying in a game's options: the games' own, and the parameters that options go through."""
    names = {option.name for game in game_ids() for option in game_info(game).options}
    for game in game_ids():
        names.update(inspect.signature(game_class(game).__init__).parameters)
    return sorted(names)


#: Text that breaks servers: NUL, lone surrogates, escapes, direction marks, quotes, the longest allowed.
HARD_TEXT = (
    "\x00",
    "nul\x00inside",
    "\ud800",
    "\udfff\ud800",
    "\x1b[2J\x07",
    "\u202egnp.exe",
    "\ufeff\ufffe\uffff",
    "\u0085\u2028\u2029\r\n",
    "\U0001f600\U000e0067",
    "Robert'); DROP TABLE games;--",
    "%s%n{0}${x}",
    "\\" * 60,
    "a" * 60,
    "",
)


@dataclass(frozen=True)
class Aim:
    """Where to aim a request: a real target, a game with options, and text for its names and seed."""

    target: Target
    game: str
    options: dict[str, Any]
    text: str | None = None
    signed_in: bool = False
    """Sent by the signed-in browser (its cookies and CSRF header), not by a guest."""


def aim(case: Case[Any], real: Real, how: Aim) -> Case[Any]:
    """``case`` aimed at something real: a game and a seat's token there, a game's name, a record.

    A new case, not the generated one changed: schemathesis would check the new values against
    what it generated them for, and its validator cannot read a lone surrogate.
    """
    path_parameters = dict(case.path_parameters)
    if "game_id" in path_parameters:
        path_parameters["game_id"] = how.target.game_id
    if "game" in path_parameters:  # a leaderboard
        path_parameters["game"] = how.game
    if "name" in path_parameters and real.players:
        path_parameters["name"] = real.players[0]
    path = case.operation.path
    if "tournament_id" in path_parameters and real.tournaments:
        path_parameters["tournament_id"] = real.tournaments[path.endswith("/start")]
    headers, cookies = dict(case.headers or {}), dict(case.cookies or {})
    # Signing out would end the browser's session for every request after it: a guest signs out.
    if how.signed_in and real.session and path != "/api/account/signout":
        cookies.update(real.session)
        headers[CSRF_HEADER] = real.session[CSRF_COOKIE]
    body: Any = case.body
    if isinstance(body, dict):
        body = dict(body)
        token = how.target.token or ""
        if "token" in body:
            body["token"] = token
        if isinstance(body.get("tokens"), list):
            body["tokens"] = [token, *body["tokens"]][:200]
        if "record" in body:
            body["record"] = real.record
        if how.text is not None and "name" in body:
            body["name"] = how.text
        if "game" in body and "seats" not in body:  # a seek: a real game and its options
            body["game"] = how.game
            body["options"] = how.options
        if path == "/api/account/signin":  # the right name and password
            body["login"], body["password"] = real.login
        if path == "/api/account/password":  # the same password again, so that the next sign-in works
            body["current"] = body["new"] = real.login[1]
        if path == "/api/account/signup":  # a new account each time
            number = next(_new_accounts)
            body.update(name=f"fz{number}", email=f"fz{number}@example.org", password=FUZZER_PASSWORD)
        if "seats" in body:  # a real game, its options, as many seats as it may have
            info = game_info(how.game)
            body["game"] = how.game
            body["options"] = how.options
            seats = body["seats"]
            if isinstance(seats, list) and seats:
                count = min(max(len(seats), info.min_players), info.max_players)
                seats = (seats * info.max_players)[:count]
                if how.text is not None:
                    seats = [{**seat, "name": how.text} if isinstance(seat, dict) else seat for seat in seats]
                body["seats"] = seats
            if how.text is not None:
                body["seed"] = how.text
    aimed: Case[Any] = case.operation.Case(
        path_parameters=path_parameters,
        headers=headers,
        cookies=cookies,
        query=dict(case.query or {}),
        body=body,
        media_type=case.media_type,
    )
    return aimed


def aimed(case: Case[Any], real: Real) -> st.SearchStrategy[Case[Any]]:
    """The generated ``case`` as it is, or aimed at something real."""
    option_values = st.integers(-3, 1000) | st.text(max_size=8) | st.booleans()
    how = st.builds(
        Aim,
        st.sampled_from(real.targets),
        st.sampled_from(sorted(game_ids())),
        st.dictionaries(st.sampled_from(option_names()), option_values, max_size=3),
        st.none() | st.sampled_from(HARD_TEXT) | st.text(max_size=20),
        st.booleans(),
    )
    return st.just(case) | st.builds(aim, st.just(case), st.just(real), how)


class Findings:
    """The distinct failures of a fuzz, each with the shortest request that showed it."""

    def __init__(self, server: LoggedServer) -> None:
        self.server = server
        self.session = requests.Session()
        self.seen: dict[str, str] = {}
        self.statuses: Counter[tuple[str, int]] = Counter()

    def exercise(self, case: Case[Any]) -> None:
        """Send ``case`` and check its answer."""
        offset = self.server.log_size()
        label = case.operation.label
        try:
            response = case.call(session=self.session, timeout=30)
        except requests.RequestException as exc:
            self.add(f"{label}: no answer ({type(exc).__name__})", case)
            return
        self.statuses[label, response.status_code] += 1
        try:
            case.validate_response(response, checks=[not_a_server_error, response_schema_conformance])
        except FailureGroup as group:
            for failure in group.exceptions:
                what = f"{label}: {failure.title}, {response.status_code}"
                if response.status_code >= 500:
                    what += f"; the server raised {self.raised_since(offset)}"
                self.add(what, case)

    def add(self, what: str, case: Case[Any]) -> None:
        reproduction = case.as_curl_command()
        if what not in self.seen or len(reproduction) < len(self.seen[what]):
            self.seen[what] = reproduction

    def raised_since(self, offset: int) -> str:
        """What the server raised after ``offset`` bytes of its log (its traceback may follow the answer)."""
        deadline = time.monotonic() + 2
        while time.monotonic() < deadline:
            found = raised(self.server.log_since(offset))
            if found:
                return found[-1]
            time.sleep(0.05)
        return "nothing it logged"

    def report(self) -> str:
        lines = [f"{len(self.seen)} distinct failures in {self.statuses.total()} requests:"]
        for what, reproduction in sorted(self.seen.items()):
            lines += [f"- {what}", f"    {reproduction}"]
        return "\n".join(lines)


def fuzz(strategy: st.SearchStrategy[Case[Any]], examples: int, check: Callable[[Case[Any]], None]) -> None:
    @fuzzing(examples)
    @given(strategy)
    def run(case: Case[Any]) -> None:
        check(case)

    with contextlib.suppress(Unsatisfiable):  # nothing to make invalid: no parameters, no body
        run()


def test_http_api_answers_no_5xx_and_as_described(fuzz_server: LoggedServer, real: Real) -> None:
    offset = fuzz_server.log_size()
    schema = schemathesis.openapi.from_url(f"{fuzz_server.url}/openapi.json", config=schemathesis.Config())
    schema.config.generation.update(deterministic=True)
    operations = [operation for path in schema for operation in schema[path].values()]
    assert len(operations) >= 11, [operation.label for operation in operations]
    findings = Findings(fuzz_server)
    games, names = sorted(game_ids()), option_names()
    for operation in operations:
        coverage = schema.iter_coverage_cases(
            operation, generation_modes=list(GenerationMode), generation_config=schema.config.generation
        )
        for number, case in enumerate(coverage):  # each also aimed: each target, option, text in turn
            findings.exercise(case)
            target, game = real.targets[number % len(real.targets)], games[number % len(games)]
            if number % 2:
                how = Aim(target, game, {names[number // 2 % len(names)]: 2}, signed_in=number % 4 == 1)
            else:
                text = HARD_TEXT[number // 2 % len(HARD_TEXT)]
                how = Aim(target, game, {}, text, signed_in=number % 4 == 2)
            findings.exercise(aim(case, real, how))
        for mode in GenerationMode:
            strategy = operation.as_strategy(generation_mode=mode).flatmap(lambda case: aimed(case, real))
            examples = (HASHING_EXAMPLES if operation.label in HASHING else HTTP_EXAMPLES)[mode]
            fuzz(strategy, examples, findings.exercise)
    assert not findings.seen, findings.report()
    answered = {label for (label, status), _ in findings.statuses.items() if status < 300}
    missing = sorted({operation.label for operation in operations} - answered)
    assert not missing, f"never answered 2xx, so never fuzzed past their refusals: {missing}"
    no_traceback(fuzz_server, offset)


# --- WebSocket -----------------------------------------------------------------------------------


@dataclass
class Table:
    """A game being played, waiting for the move of the seat whose token this is; its position."""

    game_id: str
    seat: int
    token: str
    state: State[Any]
    legal: list[str]

    def reads(self, text: str) -> bool:
        """Whether the game reads ``text`` as a move of the seat now (its notation is lenient)."""
        try:
            self.state.clone().parse_action(self.seat, text)
        except Exception:  # ActionError, or whatever a parser raises: the server is to refuse it
            return False
        return True


@pytest.fixture(scope="module")
def tables(fuzz_server: LoggedServer) -> list[Table]:
    """A game of each kind, each waiting for a seat's move (which garbage must not make).

    Each position is rebuilt here with the game's rules, and the server's chance draws for the
    game's seed, so that the fuzz can tell garbage from a legal move in a game's own notation.
    """
    out = []
    for game in sorted(game_ids()):
        body = {"game": game, "seed": "fuzz", "seats": [{"kind": "person"}, {"kind": "person"}]}
        status, created = fuzz_server.post("/api/games", body)
        assert status == 201, created
        # With the options a server gives a game it makes (a ply limit online: GameInfo.online_defaults).
        online: dict[str, Any] = dict(game_info(game).online_defaults)
        state, events = load_game(game, **online).new_initial_state(), 0
        while state.to_act() == (CHANCE,):
            state.apply(CHANCE, state.sample_chance(chance_rng("fuzz", events)))
            events += 1
        seat = state.to_act()[0]
        token = created["seats"][seat]["token"]
        with fuzz_server.seat(created["id"], token) as ws:
            view = json.loads(ws.recv(timeout=30))
        assert view["your_turn"] and view["events"] == events, view
        rebuilt = json.loads(json.dumps(state.observation(seat)))
        assert view["observation"] == rebuilt, (
            f"{game}: the position rebuilt from its seed is not the server's"
        )
        out.append(Table(created["id"], seat, token, state, list(view["legal"]["actions"] or ())))
    return out


def could_be_legal(value: Any, tables: list[Table]) -> bool:
    """Whether an action's ``value`` (as the server reads it, ``str(value)``) is a legal move at a table."""
    return any(table.reads(str(value)) for table in tables)


CONTROL = st.characters(max_codepoint=0x1F) | st.sampled_from("\x7f\x85\u2028\u2029\ufeff\ufffe")
SURROGATE = st.characters(categories=["Cs"])
TEXT = st.text(st.characters() | CONTROL | SURROGATE, max_size=40)
#: Long strings, mostly within the 16 KiB a frame may have (longer frames are tried on their own).
LONG = st.builds(
    lambda text, n: (text or "x") * n,
    st.text(st.characters(max_codepoint=0x7F), max_size=4),
    st.integers(100, 3000),
)
NUMBER = st.integers(-(2**256), 2**256) | st.floats() | st.sampled_from([-0.0, 10**300, -(2**63), 2**64])
VALUE = st.recursive(
    st.none() | st.booleans() | NUMBER | TEXT | LONG,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(TEXT, inner, max_size=4),
    max_leaves=12,
)
KEY = st.sampled_from(["type", "action", "token", "table", "seat", "hello", "", "__proto__"]) | TEXT


def notation(tables: list[Table]) -> st.SearchStrategy[str]:
    """Near misses of the games' notation: words of legal moves, numbers and garbage, put together."""
    words = sorted({word for table in tables for action in table.legal for word in action.split()})
    words += ["F", "^", "v", "\\", "/", "TL", "TR", "H", "X", "R"]  # a Robo Pigs program's commands
    word = st.sampled_from(words) | st.integers(-(10**30), 10**30).map(str) | TEXT
    separator = st.sampled_from([" ", "", ",", "-", "x", "\t", "\x00"])
    return st.builds(lambda parts, sep: sep.join(parts), st.lists(word, max_size=7), separator)


def objects(tables: list[Table]) -> st.SearchStrategy[dict[str, Any]]:
    """JSON objects: actions of any value, more hellos, and objects of random keys and values."""
    action = (notation(tables) | VALUE).filter(lambda value: not could_be_legal(value, tables))
    act = st.builds(lambda value: {"type": "action", "action": value}, action)
    return st.one_of(
        act,  # half of them actions, for the games' parsers
        act,
        act,
        st.builds(
            lambda key, value: {"type": "hello", key: value}, st.sampled_from(["token", "table"]), VALUE
        ),
        st.dictionaries(KEY, VALUE, max_size=5),
        st.fixed_dictionaries(
            {"type": st.sampled_from(["action", "hello", "sit", "cover", "view", "error"]) | TEXT},
            optional={"action": action, "token": VALUE, "table": VALUE, "seat": VALUE},
        ),
    )


def nested(depth: int, kind: str) -> str:
    opener, inner, closer = {"list": ("[", "", "]"), "object": ('{"a":', "1", "}")}[kind]
    return opener * depth + inner + closer * depth


def unescaped(value: Any) -> str:
    """``value`` in JSON, its characters as they are but for lone surrogates (UTF-8 cannot hold them)."""
    return re.sub("[\ud800-\udfff]", lambda c: f"\\u{ord(c[0]):04x}", json.dumps(value, ensure_ascii=False))


def frames(kind: str, tables: list[Table]) -> st.SearchStrategy[Any]:
    """Frames of a ``kind``: ``str`` and ``bytes`` go in a text frame (unchecked), ``bytearray`` binary."""
    if kind == "json":  # JSON objects, with the escapes written out or the characters as they are
        return st.builds(json.dumps, objects(tables)) | st.builds(unescaped, objects(tables))
    if kind == "text":  # no JSON object: text, other JSON values, nesting past any parser, huge numbers
        return st.one_of(
            st.just(""),
            TEXT,
            LONG,
            st.builds(json.dumps, VALUE).filter(lambda text: not text.startswith("{")),
            st.builds(nested, st.integers(1, 20000), st.sampled_from(["list", "object"])),
            st.integers(4000, 16000).map(lambda n: "1" * n),
            st.sampled_from(["NaN", "-Infinity", "1e999999", "{", '{"type": "action", "action": }', "\x00"]),
            st.integers(16385, 40000).map(lambda n: "x" * n),  # over the size limit
        )
    if kind == "not-utf8":  # a byte that is no UTF-8, or a JSON message with a lone surrogate all the same
        heads = [b"\xc3\x28", b"\xff", b"\xed\xa0\x80", b'{"type": "action", "action": "\xed\xa0\x80"}']
        return st.builds(lambda head, tail: head + tail, st.sampled_from(heads), st.binary(max_size=40))
    assert kind == "binary"  # empty, random bytes, or a good message in the wrong kind of frame
    good = st.builds(lambda obj: json.dumps(obj).encode(), objects(tables))
    return st.one_of(st.just(b""), st.binary(max_size=200), good).map(bytearray)


def send(ws: ClientConnection, frame: str | bytes | bytearray) -> None:
    if isinstance(frame, bytearray):
        ws.send(bytes(frame), text=False)
    else:
        ws.send(frame, text=True)


def answers(ws: ClientConnection, sent: list[Any]) -> str | None:
    """Send frames one by one: None if each gets one error or the socket is closed properly, else why."""
    for number, frame in enumerate(sent):
        try:
            send(ws, frame)
            message = json.loads(ws.recv(timeout=20))
            while message.get("type") == "view":  # somebody came or went: no answer to the frame
                message = json.loads(ws.recv(timeout=20))
        except ConnectionClosed as closed:
            code = closed.rcvd.code if closed.rcvd is not None else None
            if code in PROPER_CLOSE:
                return None
            how = "dropped (no close frame)" if code is None else f"closed with {code}"
            return f"after frame {number} the connection was {how}"
        except TimeoutError:
            return f"frame {number} had no answer in 20 s"
        error = message.get("error")
        if message.get("type") != "error" or set(message) != {"type", "error"} or not isinstance(error, str):
            return f"frame {number} was answered {json.dumps(message)[:300]}"
        if "\n" in error or "\r" in error or len(error) > MAX_ERROR:
            return f"frame {number} was answered by {len(error):,} characters, not one line: {error[:300]!r}"
    return None


@pytest.mark.parametrize("kind", ["json", "text", "not-utf8", "binary"])
@pytest.mark.parametrize("role", ["seat", "spectator"])
def test_websocket_garbage_is_refused_in_one_line_and_changes_nothing(
    fuzz_server: LoggedServer, tables: list[Table], role: str, kind: str
) -> None:
    offset = fuzz_server.log_size()
    events = {t.game_id: fuzz_server.get(f"/api/games/{t.game_id}")[1]["events"] for t in tables}
    garbage = frames(kind, tables)

    @fuzzing(WS_EXAMPLES)
    @given(
        table=st.sampled_from(tables),
        greet=st.sampled_from([True, True, True, False]),  # or open with garbage
        opening=garbage,
        batch=st.lists(garbage, min_size=1, max_size=6),
    )
    def run(table: Table, greet: bool, opening: Any, batch: list[Any]) -> None:
        before = fuzz_server.log_size()
        with connect(f"ws://127.0.0.1:{fuzz_server.port}/ws/games/{table.game_id}", open_timeout=10) as ws:
            if greet:
                ws.send(json.dumps({"type": "hello", **({"token": table.token} if role == "seat" else {})}))
                view = json.loads(ws.recv(timeout=20))
                assert view["type"] == "view" and view.get("your_turn", False) == (role == "seat"), view
                why = answers(ws, batch)
            else:  # garbage for a hello: refused, and the connection closed
                why = answers(ws, [opening, *batch])
        assert why is None, why
        status, view = fuzz_server.get(f"/api/games/{table.game_id}")
        assert status == 200 and view["events"] == events[table.game_id], (status, view)
        log = fuzz_server.log_since(before)
        assert "Traceback" not in log, f"the server logged tracebacks: {raised(log)}"

    run()
    for table in tables:
        assert fuzz_server.get(f"/api/games/{table.game_id}")[1]["events"] == events[table.game_id]
    no_traceback(fuzz_server, offset)
