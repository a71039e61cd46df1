"""People and seats over the API: display names are validated and trimmed, shown to every seat, and
a random seat is drawn by the server, never by the client (issue 36, item 4)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from test_server import Server, latest_view


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    s = Server(f"sqlite:///{tmp_path_factory.mktemp('seats') / 'tussle.db'}")
    yield s
    s.stop()


@pytest.mark.parametrize(
    ("name", "why"),
    [
        ("   ", "a name needs a visible character"),
        ("Ada\n", "control character U+000A"),
        ("A\x07da", "control character U+0007"),
        ("Ada\x85", "control character U+0085"),
        ("\u202eadA", "control character U+202E"),
        ("x" * 61, "at most 60 characters"),
    ],
)
def test_a_bad_name_is_refused_in_one_line_when_making_or_joining(
    server: Server, name: str, why: str
) -> None:
    status, answer = server.post(
        "/api/games", {"game": "fite", "seats": [{"kind": "person", "name": name}, {"kind": "open"}]}
    )
    assert status == 422 and why in answer["error"] and "\n" not in answer["error"], answer
    assert "seats.0.name: " in answer["error"]
    status, made = server.post(
        "/api/games", {"game": "fite", "seats": [{"kind": "person"}, {"kind": "open"}]}
    )
    assert status == 201
    status, answer = server.post(f"/api/games/{made['id']}/join", {"name": name})
    assert status == 422 and why in answer["error"] and "\n" not in answer["error"], answer
    # Refused, the seat is still open.
    assert made["id"] in [g["id"] for g in server.get("/api/lobby")[1]["games"]]


def test_names_are_trimmed_and_every_seat_sees_them(server: Server) -> None:
    status, made = server.post(
        "/api/games",
        {
            "game": "fight",
            "seats": [{"kind": "person", "name": "  Ada Lovelace "}, {"kind": "open"}, {"kind": "open"}],
        },
    )
    assert status == 201 and made["seats"][0]["name"] == "Ada Lovelace"
    status, bo = server.post(f"/api/games/{made['id']}/join", {"name": "Bö ☃"})
    assert status == 200 and bo["seat"] == 1
    status, anyone = server.post(f"/api/games/{made['id']}/join", {})
    assert status == 200 and anyone["seat"] == 2
    ada = server.seat(made["id"], made["seats"][0]["token"])
    b = server.seat(made["id"], bo["token"])
    c = server.seat(made["id"], anyone["token"])
    for ws in (ada, b, c):
        view = latest_view(ws)
        while view["status"] != "playing":
            view = latest_view(ws)
        # A joiner who gives no name is named by the server after the seat.
        assert [s["name"] for s in view["seats"]] == ["Ada Lovelace", "Bö ☃", "player 2"]
        ws.close()
    public = server.get(f"/api/games/{made['id']}")[1]
    assert [s["name"] for s in public["seats"]] == ["Ada Lovelace", "Bö ☃", "player 2"]


def test_a_random_seat_is_drawn_by_the_server_not_by_the_seed(server: Server) -> None:
    """Asked for with "shuffle", the seats are dealt in an order the server draws: the maker lands in
    either seat, even with the same seed every time, and the answer says which."""
    seats_of_ada: set[int] = set()
    for _ in range(40):
        status, made = server.post(
            "/api/games",
            {
                "game": "fightopia",
                "seed": "the same seed",
                "shuffle": True,
                "seats": [{"kind": "person", "name": "Ada"}, {"kind": "person", "name": "Bo"}],
            },
        )
        assert status == 201
        ada = next(s for s in made["seats"] if s["name"] == "Ada")
        assert sorted(s["seat"] for s in made["seats"]) == [0, 1]
        assert ada["link"] == f"/play/{made['id']}#{ada['token']}"
        ws = server.seat(made["id"], ada["token"])
        view = latest_view(ws)
        ws.close()
        assert view["seat"] == ada["seat"] and view["seats"][ada["seat"]]["name"] == "Ada"
        seats_of_ada.add(ada["seat"])
        if seats_of_ada == {0, 1}:
            break
    # Each seat had a chance of one half each time: both in 40 draws, unless the draw is not random.
    assert seats_of_ada == {0, 1}
    # Without "shuffle" the seats stay in the order asked.
    made = server.post(
        "/api/games",
        {"game": "fightopia", "seats": [{"kind": "person", "name": "Ada"}, {"kind": "computer"}]},
    )[1]
    assert [(s["seat"], s["name"]) for s in made["seats"]] == [(0, "Ada"), (1, "medium")]
    assert (
        server.post("/api/games", {"game": "fightopia", "shuffle": "yes", "seats": [{"kind": "person"}] * 2})[
            0
        ]
        == 422
    )


def test_the_catalog_names_the_seats_as_the_games_own_messages_do(server: Server) -> None:
    games = {g["id"]: g for g in server.get("/api/catalog")[1]["games"]}
    assert games["fightopia"]["seat_names"] == ["White", "Black"]
    assert games["tank-chess"]["seat_names"] == ["White", "Black"]
    assert games["fight"]["seat_names"] == [f"p{seat}" for seat in range(games["fight"]["players"][1])]
    assert games["fight"]["players"][1] >= 4
