"""``tussle serve``: run the game server (docs/server.md)."""

from __future__ import annotations

import dataclasses
import socket
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from tussle.cli.common import stdout_console
from tussle.errors import TussleError

if TYPE_CHECKING:
    from tussle.server.limits import Limits


def default_database() -> str:
    """The SQLite file in the user's data folder, made on first use."""
    from platformdirs import user_data_dir

    folder = Path(user_data_dir("tussle", appauthor=False))
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'tussle.db'}"


def _limits(pairs: tuple[str, ...]) -> Limits:
    """``--limit NAME=N`` options over the default :class:`Limits`; a bad one is a one-line error."""
    from tussle.server.limits import Limits

    values: dict[str, Any] = {}
    known = {f.name: f.type for f in dataclasses.fields(Limits)}
    for pair in pairs:
        name, eq, text = pair.partition("=")
        if not eq or name.strip() not in known:
            raise TussleError(f"--limit {pair!r}: give NAME=N, NAME one of {', '.join(known)}")
        try:
            number = float(text) if known[name.strip()] == "float" else int(text)
        except ValueError:
            raise TussleError(f"--limit {pair!r}: {text!r} is not a number") from None
        if number <= 0 or number > 1_000_000:
            raise TussleError(f"--limit {pair!r}: give a number from 1 to 1,000,000")
        values[name.strip()] = number
    return dataclasses.replace(Limits(), **values)


def _check_free(host: str, port: int) -> None:
    """A one-line error now, rather than the server's own lines later, if the address cannot be used."""
    try:
        with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind((host, port))
    except OSError as exc:
        raise TussleError(f"cannot serve on {host}:{port}: {exc.strerror or exc}") from None


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="The address to listen on.")
@click.option("--port", type=click.IntRange(1, 65535), default=8000, show_default=True, help="The port.")
@click.option(
    "--db",
    "db_url",
    metavar="URL",
    default=None,
    help="The database: an SQLAlchemy URL such as postgresql://user@host/tussle "
    "(default: an SQLite file in your data folder, printed at start).",
)
@click.option(
    "--workers",
    type=click.IntRange(1, 64),
    default=None,
    help="Processes that play the computer seats (default: one per CPU).",
)
@click.option(
    "--allow-origin",
    "origins",
    multiple=True,
    metavar="ORIGIN",
    help="A web origin (https://example.org) whose pages may connect, besides the server's own.",
)
@click.option(
    "--limit",
    "limit_pairs",
    multiple=True,
    metavar="NAME=N",
    help="A bound per client: requests_per_second, messages_per_second, connections or open_games "
    "(defaults 20, 20, 64, 100; see docs/server.md).",
)
def serve(
    *,
    host: str,
    port: int,
    db_url: str | None,
    workers: int | None,
    origins: tuple[str, ...],
    limit_pairs: tuple[str, ...],
) -> None:
    """Run the game server: people play in seats by their invite links, programs over the API.

    Every event is stored before it is announced, so a server that is killed
    and started again goes on where it was. The API is described at /docs.

    \b
    Examples:
      tussle serve
      tussle serve --port 9000 --db postgresql://postgres@127.0.0.1/tussle
    """
    import uvicorn

    from tussle.server.app import MAX_MESSAGE, create_app
    from tussle.server.store import Store, _safe_url

    limits = _limits(limit_pairs)
    url = db_url or default_database()
    Store.open(url).close()  # a database that cannot be opened is a one-line error now
    _check_free(host, port)
    console = stdout_console()
    console.print(f"tussle server on http://{host}:{port}/  (API: http://{host}:{port}/docs)", markup=False)
    console.print(f"database: {_safe_url(url)}", markup=False)
    try:
        uvicorn.run(
            create_app(url, workers=workers, origins=origins, limits=limits),
            host=host,
            port=port,
            ws_max_size=MAX_MESSAGE,
            log_level="warning",
            access_log=False,
        )
    except OSError as exc:
        raise TussleError(f"cannot serve on {host}:{port}: {exc.strerror or exc}") from None
