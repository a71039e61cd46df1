"""The documents a server offers by name for its games' document options: decks, layouts.

A document option (an :class:`~tussle.game.Option` of kind ``document``) takes,
over the API, either a document's text, which the game checks whole, or a name
from this library. The names are those the game ships (the Option's
``documents``; the game reads them itself) and those the server's operator
installs: files in a folder laid out as ``DIR/<game-id>/<option>/<name>.<ext>``,
such as ``decks/fight/deck/duel.toml``. Each is read once, at start, refused if
longer than :data:`~tussle.game.MAX_DOCUMENT_CHARS` characters, and checked by
loading its game with it; anything wrong stops the start with a one-line
:class:`DocumentError` naming the file. A request never names a file: a name
becomes the text read at start, and any other value goes to the game as a
document's text.

>>> import tempfile
>>> with tempfile.TemporaryDirectory() as folder:
...     setups = Path(folder, "tank-chess", "setup")
...     setups.mkdir(parents=True)
...     _ = (setups / "duel.txt").write_text("white=Ch1N,Lc3N black=Ci16S", encoding="utf-8")
...     library = DocumentLibrary.load(Path(folder))
>>> library.names("tank-chess", "setup")
['basic', 'duel']
>>> library.resolve("tank-chess", {"setup": "Duel", "ply_limit": 40})
{'setup': 'white=Ch1N,Lc3N black=Ci16S', 'ply_limit': 40}
>>> library.resolve("tank-chess", {"setup": "basic"})  # the game's own name: the game reads it
{'setup': 'basic'}
>>> library.offered("tank-chess")
{'setup': ['basic', 'duel'], 'tanks': ['standard']}
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tussle.errors import TussleError
from tussle.files import read_text
from tussle.game import DOCUMENT_NAME, MAX_DOCUMENT_CHARS, Option
from tussle.registry import game_class, game_ids

#: The most documents an operator may install for one option: each is a line of the home page's list.
MAX_DOCUMENTS = 200


class DocumentError(TussleError):
    """An installed document, or its folder, that the server cannot offer."""


@dataclass(frozen=True)
class Document:
    """An installed document: its name, its text, and the file it was read from (for messages)."""

    name: str
    text: str
    path: Path


class DocumentLibrary:
    """The named documents of every game's document options: shipped ones, and installed ones.

    Built once, at start (:meth:`load`), and never changed after: a request only looks names up.
    """

    def __init__(self, installed: Mapping[tuple[str, str], Mapping[str, Document]] | None = None) -> None:
        # (game id, option) -> lower-cased name -> document: names are matched in any case,
        # as the game's own are (Option.document_name).
        self._installed: dict[tuple[str, str], dict[str, Document]] = {
            key: dict(documents) for key, documents in (installed or {}).items()
        }

    @classmethod
    def load(cls, folder: Path | None) -> DocumentLibrary:
        """The documents each game ships, and those installed in ``folder`` (None: none), checked.

        Raises a one-line :class:`DocumentError` naming the first file or folder that is
        wrong: a folder that is no game's or no document option's, a name that is no name or
        is taken, a file that cannot be read, is too long, or is not a document the game loads.
        Files and folders whose names start with ``.`` are left out.
        """
        if folder is None:
            return cls()
        if not folder.is_dir():
            raise DocumentError(f"documents {folder}: not a folder")
        installed: dict[tuple[str, str], dict[str, Document]] = {}
        for game_folder in _entries(folder):
            if not game_folder.is_dir() or game_folder.name not in game_ids():
                raise DocumentError(
                    f"documents {game_folder}: not the folder of a game (games: {', '.join(game_ids())})"
                )
            options = _document_options(game_folder.name)
            for option_folder in _entries(game_folder):
                option = options.get(option_folder.name)
                if option is None or not option_folder.is_dir():
                    offered = ", ".join(options) or "none"
                    raise DocumentError(
                        f"documents {option_folder}: not the folder of a document option of "
                        f"{game_folder.name} (document options: {offered})"
                    )
                key = (game_folder.name, option.name)
                installed[key] = _read_folder(game_folder.name, option, option_folder)
        return cls(installed)

    def names(self, game_id: str, option: str) -> list[str]:
        """The names offered for ``option`` of ``game_id``: the game's own, then the installed ones.

        Empty for a game or an option that is not known or not a document.
        """
        shipped = _document_options(game_id).get(option)
        if shipped is None:
            return []
        installed = self._installed.get((game_id, option), {})
        return [*shipped.documents, *sorted((d.name for d in installed.values()), key=str.lower)]

    def offered(self, game_id: str) -> dict[str, list[str]]:
        """The names offered for each document option of ``game_id`` (what the home page lists)."""
        return {name: self.names(game_id, name) for name in _document_options(game_id)}

    def resolve(self, game_id: str, options: Mapping[str, Any]) -> dict[str, Any]:
        """``options`` with each installed document's name replaced by its text.

        Any other value goes on as it is: the game reads its own names, and takes
        anything else as a document's text, which it checks whole. Nothing here reads
        a file.
        """
        out = dict(options)
        for name, value in options.items():
            documents = self._installed.get((game_id, name))
            if documents and isinstance(value, str):
                found = documents.get(value.strip().lower())
                if found is not None:
                    out[name] = found.text
        return out

    def __len__(self) -> int:
        """How many documents are installed (the games' own are not counted)."""
        return sum(len(documents) for documents in self._installed.values())


def _entries(folder: Path) -> list[Path]:
    try:
        return sorted(entry for entry in folder.iterdir() if not entry.name.startswith("."))
    except OSError as exc:
        raise DocumentError(f"documents {folder}: cannot list it: {exc.strerror or exc}") from None


def _document_options(game_id: str) -> dict[str, Option]:
    if game_id not in game_ids():
        return {}
    return {o.name: o for o in game_class(game_id).info.options if o.kind == "document"}


def _read_folder(game_id: str, option: Option, folder: Path) -> dict[str, Document]:
    documents: dict[str, Document] = {}
    files = _entries(folder)
    if len(files) > MAX_DOCUMENTS:
        raise DocumentError(
            f"documents {folder}: {len(files):,} files, more than the {MAX_DOCUMENTS} allowed"
        )
    for path in files:
        name = path.name.rsplit(".", 1)[0] if "." in path.name else path.name
        if not DOCUMENT_NAME.fullmatch(name):
            raise DocumentError(
                f"document {path}: {name!r} is not a name (letters, digits, _, - and ., at most 64)"
            )
        if option.document_name(name) is not None:
            raise DocumentError(f"document {path}: {name!r} is the name of a document the game ships")
        if name.lower() in documents:
            raise DocumentError(
                f"document {path}: the name {name!r} is taken by {documents[name.lower()].path}"
            )
        # Four bytes a character at most: no file over that can hold a document of the bound.
        text = read_text(path, DocumentError, limit=4 * MAX_DOCUMENT_CHARS)
        if len(text) > MAX_DOCUMENT_CHARS:
            raise DocumentError(
                f"document {path}: {len(text):,} characters, more than the {MAX_DOCUMENT_CHARS:,} allowed"
            )
        _check(game_id, option.name, text, path)
        documents[name.lower()] = Document(name, text, path)
    return documents


def _check(game_id: str, option: str, text: str, path: Path) -> None:
    """Refuse a document that its game does not load: under the defaults, or one other choice.

    A document may be meant for one value of another option (a layout for the other
    board size, say): it is good if the game loads with it under some choice of one option.
    """
    cls = game_class(game_id)
    info = cls.info
    tries: list[dict[str, Any]] = [{}]
    for other in info.options:
        if other.kind == "choice" and other.name != option:
            tries += [{other.name: choice} for choice in other.choices if choice != other.default]
    first: TussleError | None = None
    for extra in tries:
        try:
            cls(players=info.min_players, **{**extra, option: text}).new_initial_state()
            return
        except TussleError as exc:
            first = first or exc
    raise DocumentError(f"document {path}: {first}")
