"""Document options over the server: a deck or a layout is its text or a name, never a path.

The library of named documents (``tussle.server.documents``): the games' own names and
an operator's folder, checked whole at start. Over the API, a value that names a file
on the server is only ever read as a document's text: the answer names the problem
and never holds a line of the file, for a new game and for an uploaded record alike.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from test_server import Server
from tussle import game_info, load_game
from tussle.game import MAX_DOCUMENT_CHARS
from tussle.server.documents import MAX_DOCUMENTS, DocumentError, DocumentLibrary

#: A 20x20 layout: the game loads it only with size=20.
DUEL = "# a duel on the big board\nsize=20 turn=black white=Cj1N,Dh3N black=Ck20S,Rm18S\n"
#: A small 16x16 layout, checked on the board a game shows.
SKIRMISH = "white=Ch1N,Lc3N,Hm1N black=Ci16S,Ld14S"


def fight_deck(prefix: str = "Zork") -> str:
    """A whole Fight! deck as TOML: 20 Warriors named ``<prefix>1``.. and 7 Arenas."""
    families = ("Human", "Animal", "Robot", "Demon", "Alien")
    warriors = "".join(
        f'[[warrior]]\nname = "{prefix}{i}"\nfamily = "{families[i % 5]}"\npower = {i}\n'
        'ability = { do = "add", amount = 1, target = "own" }\n\n'
        for i in range(1, 21)
    )
    arenas = "".join(
        f'[[arena]]\nname = "Ring {i}"\nglory = {4 + i % 5}\ncondition = {{ goal = "highest" }}\n\n'
        for i in range(1, 8)
    )
    return warriors + arenas


def install(folder: Path, game: str, option: str, name: str, text: str) -> Path:
    path = folder / game / option / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


# --- the library ------------------------------------------------------------------------------


def test_without_a_folder_the_games_own_names_are_offered() -> None:
    library = DocumentLibrary.load(None)
    assert library.names("tank-chess", "setup") == ["basic"] and library.names("fight", "deck") == []
    assert library.names("tank-chess", "size") == [] and library.names("chess", "setup") == []
    assert library.offered("tank-chess") == {"setup": ["basic"], "tanks": ["standard"]}
    assert library.offered("fite") == {"powers": ["standard"]}
    assert len(library) == 0
    given = {"setup": "/etc/passwd", "ply_limit": 10}
    assert library.resolve("tank-chess", given) == given  # passed on, for the game to refuse


def test_installed_documents_are_offered_by_name_and_become_their_text(tmp_path: Path) -> None:
    install(tmp_path, "tank-chess", "setup", "duel.txt", DUEL)
    install(tmp_path, "tank-chess", "setup", "Skirmish.pos", SKIRMISH)
    install(tmp_path, "fight", "deck", "zork.toml", fight_deck())
    install(tmp_path, "fight", "deck", ".zork.toml.swp", "an editor's leftovers")  # left out
    library = DocumentLibrary.load(tmp_path)
    assert len(library) == 3
    assert library.names("tank-chess", "setup") == ["basic", "duel", "Skirmish"]
    assert library.offered("fight") == {"deck": ["zork"]}
    resolved = library.resolve("tank-chess", {"setup": " skirmish ", "size": "16"})
    assert resolved == {"setup": SKIRMISH, "size": "16"}
    assert library.resolve("tank-chess", {"setup": "basic"}) == {"setup": "basic"}
    assert library.resolve("fight", {"deck": "zork"}) == {"deck": fight_deck()}
    game = load_game("fight", **library.resolve("fight", {"deck": "ZORK"}))
    assert game.non_default_options() == {"deck": fight_deck()}  # a record holds the text
    assert load_game("tank-chess", size="20", **library.resolve("tank-chess", {"setup": "duel"}))


@pytest.mark.parametrize(
    ("layout", "message"),
    [
        ({"chess/setup/a.txt": SKIRMISH}, "not the folder of a game (games: fight, fightopia"),
        (
            {"tank-chess/size/a.txt": "16"},
            "not the folder of a document option of tank-chess (document options: setup, tanks)",
        ),
        ({"fite/setup/a.txt": SKIRMISH}, "(document options: powers)"),
        ({"tank-chess/setup/two words.txt": SKIRMISH}, "'two words' is not a name"),
        ({"tank-chess/setup/Basic.txt": SKIRMISH}, "'Basic' is the name of a document the game ships"),
        (
            {"tank-chess/setup/duel.txt": DUEL, "tank-chess/setup/DUEL.pos": DUEL},
            "the name 'duel' is taken by",
        ),
        ({"tank-chess/setup/bad.txt": "white=Ch1N black=Lg14S"}, "option setup: black has no Command tank"),
        ({"fight/deck/small.toml": fight_deck().split("[[arena]]")[0]}, "option deck: it has no Arenas"),
        ({"tank-chess/tanks/fast.toml": "[L]\nspeed = 9\n"}, "option tanks: type L: speed is 9, not 1 to 5"),
        ({"fight/deck/long.toml": "#" * (MAX_DOCUMENT_CHARS + 1)}, "65,537 characters, more than the 65,536"),
        (
            {"fight/deck/huge.toml": "#" * (4 * MAX_DOCUMENT_CHARS + 1)},
            "bytes, more than the 262,144 allowed",
        ),
        ({"fight/deck/nested/x.toml": fight_deck()}, "not a regular file"),
        ({"fight/deck/latin1.toml": None}, "not UTF-8 text"),
    ],
)
def test_a_bad_installed_document_stops_the_start_in_one_line_naming_the_file(
    tmp_path: Path, layout: dict[str, str | None], message: str
) -> None:
    for relative, text in layout.items():
        path = tmp_path / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        if text is None:
            path.write_bytes("caf\u00e9 = 1".encode("latin-1"))
        else:
            path.write_text(text, encoding="utf-8")
    with pytest.raises(DocumentError) as info:
        DocumentLibrary.load(tmp_path)
    text = str(info.value)
    assert message in text and "\n" not in text and str(tmp_path) in text, text


def test_a_folder_that_is_no_folder_or_holds_too_many_documents_is_refused(tmp_path: Path) -> None:
    with pytest.raises(DocumentError, match="not a folder"):
        DocumentLibrary.load(tmp_path / "missing")
    for i in range(MAX_DOCUMENTS + 1):
        install(tmp_path, "tank-chess", "setup", f"s{i}.txt", SKIRMISH)
    with pytest.raises(DocumentError, match=f"201 files, more than the {MAX_DOCUMENTS} allowed"):
        DocumentLibrary.load(tmp_path)


# --- over the API -----------------------------------------------------------------------------


def test_the_catalog_gives_a_document_option_its_kind_and_the_names_offered(
    web: Server, tmp_path: Path
) -> None:
    from tussle.server.service import describe

    catalog = {g["id"]: {o["name"]: o for o in g["options"]} for g in web.get("/api/catalog")[1]["games"]}
    setup, deck = catalog["tank-chess"]["setup"], catalog["fight"]["deck"]
    assert setup["kind"] == "document" and setup["documents"] == ["basic"] and setup["default"] == ""
    assert deck["kind"] == "document" and deck["documents"] == []
    assert setup["max_length"] == deck["max_length"] == MAX_DOCUMENT_CHARS
    assert (
        catalog["tank-chess"]["size"]["documents"] == []
        and catalog["tank-chess"]["size"]["max_length"] is None
    )
    install(tmp_path, "tank-chess", "setup", "duel.txt", DUEL)
    library = DocumentLibrary.load(tmp_path)
    described = describe(game_info("tank-chess"), library.offered("tank-chess"))
    assert next(o for o in described["options"] if o["name"] == "setup")["documents"] == ["basic", "duel"]


def create(web: Server, game: str, options: dict[str, Any]) -> tuple[int, Any]:
    seats = [{"kind": "person"}, {"kind": "computer", "agent": "random"}]
    return web.post("/api/games", {"game": game, "options": options, "seats": seats})


def test_a_new_game_never_reads_a_file_an_option_names(web: Server, tmp_path: Path) -> None:
    secret = tmp_path / "layout.txt"
    secret.write_text("hush=1 white=Ch1N black=Ci16S\n", encoding="utf-8")
    deck = tmp_path / "deck.toml"
    deck.write_text(fight_deck("Hush"), encoding="utf-8")
    cases = [
        ("tank-chess", {"setup": str(secret)}),
        ("tank-chess", {"setup": "/etc/passwd"}),
        ("fight", {"deck": str(deck)}),
        ("fight", {"deck": "/etc/passwd"}),
    ]
    for game, options in cases:
        status, answer = create(web, game, options)
        error = answer.get("error", "")
        assert status == 400 and error.startswith("option "), (status, answer)
        assert "a game reads no file" in error and "\n" not in error, error
        assert "hush" not in error.lower() and ":0:0:" not in error, error


def test_a_new_game_on_a_layout_or_deck_given_as_text(web: Server) -> None:
    status, made = create(web, "tank-chess", {"setup": SKIRMISH, "ply_limit": 10})
    assert status == 201, made
    view = web.get(f"/api/games/{made['id']}")[1]
    squares = sorted(t["square"] for t in view["observation"]["tanks"])
    assert len(squares) == 5, view["observation"]["tanks"]
    status, made = create(web, "fight", {"deck": fight_deck()})
    assert status == 201, made
    status, answer = create(web, "fight", {"deck": fight_deck().replace("power = 3\n", "power = 31\n")})
    assert status == 400 and answer["error"].startswith("option deck: warrior #3 'Zork3': power 31"), answer


def test_custom_powers_boards_setups_and_tank_types_given_as_text(web: Server) -> None:
    # FITE's powers, a Robo Battle Pigs board, a Fightopia setup and Tank Chess's tank types:
    # data a request holds.
    powers = "[power.juggernaut]\nattack = 2\ndefence = 1\n"
    status, made = create(web, "fite", {"powers": powers, "power_a": "juggernaut"})
    assert status == 201, made
    view = web.get(f"/api/games/{made['id']}")[1]
    assert view["observation"]["fighters"][0]["power"] == "juggernaut"
    board = 'size = [6, 5]\nwalls = ["c3"]\na = "a5S"\nb = "f1N"\n'
    status, made = create(web, "robo-pigs", {"board": board})
    assert status == 201, made
    view = web.get(f"/api/games/{made['id']}")[1]
    assert view["observation"]["board"] == {"width": 6, "height": 5, "walls": ["c3"]}
    status, made = create(web, "fightopia", {"setup": "8/2GG4/2GG4/8/8/4gg2/v3gg1V/v6V - 0"})
    assert status == 201, made
    status, made = create(web, "tank-chess", {"tanks": "[L]\ngun = 5\nspeed = 2\narmour = [2, 1, 1]\n"})
    assert status == 201, made
    view = web.get(f"/api/games/{made['id']}")[1]
    light = next(t for t in view["observation"]["tanks"] if t["type"] == "L")
    assert (light["gun"], light["speed"], light["armour"]) == (5, 2, {"front": 2, "side": 1, "rear": 1})
    bad = [
        (
            "fite",
            {"powers": "[power.juggernaut]\nattack = 9\n"},
            "option powers: power juggernaut: attack is 9",
        ),
        ("fite", {"power_a": "juggernaut"}, "option power_a: 'juggernaut' is not one of none, swift"),
        ("robo-pigs", {"board": 'walls = ["a1"]\na = "a1N"\nb = "b1N"\n'}, "option board: pig A starts on"),
        ("fightopia", {"setup": "8/8/8/8/8/8/8/8 - 0"}, "option setup: '8/8/8/8/8/8/8/8 - 0': White needs"),
        ("tank-chess", {"tanks": "[L]\ngun = 9\n"}, "option tanks: type L: gun is 9, not 1 to 5"),
        ("tank-chess", {"tanks": "[R]\nturret = true\n"}, "option tanks: type R: unknown key 'turret'"),
    ]
    for game, options, message in bad:
        status, answer = create(web, game, options)
        assert status == 400 and answer["error"].startswith(message) and "\n" not in answer["error"], answer


def test_an_uploaded_record_never_reads_a_file_and_a_custom_one_replays_anywhere(
    web: Server, tmp_path: Path
) -> None:
    secret = tmp_path / "layout.txt"
    secret.write_text("hush=1 white=Ch1N black=Ci16S\n", encoding="utf-8")
    for setup in (str(secret), "/etc/passwd"):
        bad = {"game": "tank-chess", "options": {"setup": setup}, "players": ["a", "b"], "events": []}
        status, answer = web.post("/api/replay", {"record": bad})
        assert status == 400 and "a game reads no file" in answer["error"], answer
        assert "hush" not in answer["error"] and ":0:0:" not in answer["error"], answer
    # A game played here on a layout of its own: its record holds the layout, and replays
    # with no file anywhere.
    game = load_game("tank-chess", setup=SKIRMISH, ply_limit=4)
    state = game.new_initial_state()
    events: list[dict[str, Any]] = []
    while not state.is_terminal():
        player = state.to_act()[0]
        action = state.legal_actions(player)[0]
        events.append({"player": player, "action": state.action_to_str(player, action)})
        state.apply(player, action)
    record: dict[str, Any] = {
        "game": "tank-chess",
        "options": game.non_default_options(),
        "players": ["a", "b"],
        "events": events,
    }
    assert json.loads(json.dumps(record))["options"]["setup"] == SKIRMISH
    status, answer = web.post("/api/replay", {"record": record})
    assert status == 200, answer
    assert len(answer["steps"]) == 5 and len(answer["steps"][0]["observation"]["tanks"]) == 5
