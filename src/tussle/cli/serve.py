"""``tussle serve``: run the game server (docs/server.md)."""

from __future__ import annotations

import dataclasses
import socket
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from tussle.cli.common import Amount, stdout_console
from tussle.cli.extras import needs
from tussle.errors import TussleError
from tussle.server import MOVE_TIME

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
@click.option(
    "--host", default="127.0.0.1", show_default=True, envvar="TUSSLE_HOST", help="The address to listen on."
)
@click.option(
    "--port",
    type=click.IntRange(1, 65535),
    default=8000,
    show_default=True,
    envvar="TUSSLE_PORT",
    help="The port.",
)
@click.option(
    "--db",
    "db_url",
    metavar="URL",
    default=None,
    envvar="TUSSLE_DB",
    help="The database: an SQLAlchemy URL such as postgresql://user@host/tussle "
    "(default: an SQLite file in your data folder, printed at start). "
    "TUSSLE_DB keeps a password off the command line.",
)
@click.option(
    "--workers",
    type=click.IntRange(1, 64),
    default=None,
    envvar="TUSSLE_WORKERS",
    help="Processes that play the computer seats (default: one fewer than the CPUs, at least one).",
)
@click.option(
    "--move-time",
    type=Amount(0.1, 600),
    default=MOVE_TIME,
    show_default=True,
    envvar="TUSSLE_MOVE_TIME",
    help="Seconds a computer seat may think over a move; past it, it plays a random move.",
)
@click.option(
    "--abandon-after",
    type=Amount(0, 24 * 365),
    default=7 * 24,
    show_default=True,
    envvar="TUSSLE_ABANDON_AFTER",
    help="Hours without a move after which an unfinished game ends as abandoned (0: never).",
)
@click.option(
    "--claim-after",
    type=Amount(1, 24 * 3600),
    default=60.0,
    show_default=True,
    envvar="TUSSLE_CLAIM_AFTER",
    help="Seconds a player must have been disconnected before an opponent may claim the game.",
)
@click.option(
    "--expire-after",
    type=Amount(0, 60 * 24 * 30),
    default=60.0,
    show_default=True,
    envvar="TUSSLE_EXPIRE_AFTER",
    help="Minutes a game may wait for a player to take a seat before it is called off (0: never).",
)
@click.option(
    "--join-wait",
    type=Amount(1, 3600),
    default=60.0,
    show_default=True,
    envvar="TUSSLE_JOIN_WAIT",
    help="Seconds a seat taken by a join waits for its player to connect; then it is open again.",
)
@click.option(
    "--allowed-host",
    "allowed_hosts",
    multiple=True,
    metavar="NAME",
    envvar="TUSSLE_ALLOWED_HOSTS",
    help="A host name the server serves (its public name behind a proxy); requests naming another "
    "Host are refused. Default: the --host address (and localhost for a loopback one).",
)
@click.option(
    "--trust-proxy",
    "proxies",
    multiple=True,
    metavar="ADDRESS",
    envvar="TUSSLE_TRUST_PROXY",
    help="A reverse proxy's address (or network, 10.0.0.0/8) whose X-Forwarded-For names the client. "
    "Default: none; every client is its connection's address.",
)
@click.option(
    "--redis",
    "redis_url",
    metavar="URL",
    default=None,
    envvar="TUSSLE_REDIS",
    help="A Redis server (redis://127.0.0.1:6379/0) in which every process of a deployment counts "
    "each client's requests and connections; default: each process counts its own.",
)
@click.option(
    "--documents",
    "documents_dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    envvar="TUSSLE_DOCUMENTS",
    help="A folder of documents the server offers by name, besides those the games ship: "
    "DIR/<game>/<option>/<name>.<ext> (Tank Chess layouts, Fight! decks); each is checked at start.",
)
@click.option(
    "--allow-origin",
    "origins",
    multiple=True,
    metavar="ORIGIN",
    envvar="TUSSLE_ALLOW_ORIGINS",
    help="A web origin (https://example.org) whose pages may connect, besides the server's own.",
)
@click.option(
    "--limit",
    "limit_pairs",
    multiple=True,
    metavar="NAME=N",
    envvar="TUSSLE_LIMITS",
    help="A bound per client: requests_per_second, messages_per_second, connections, open_games, "
    "outbox, lobby_connections, sign_ins or sign_ins_per_account (defaults 20, 20, 64, 100, 200, 4, "
    "20, 10; sign-ins are counted over 10 minutes; see docs/server.md).",
)
@click.option(
    "--insecure-cookies",
    is_flag=True,
    default=False,
    envvar="TUSSLE_INSECURE_COOKIES",
    help="Send the sign-in cookies over plain HTTP too: only for a server people reach by its address "
    "over plain HTTP on a trusted network (browsers keep Secure cookies only over HTTPS or from "
    "localhost). Behind a TLS proxy, leave it off.",
)
@click.option(
    "--log-level",
    type=click.Choice(["debug", "info", "warning", "error"]),
    default="warning",
    show_default=True,
    envvar="TUSSLE_LOG_LEVEL",
    help="What the server logs: info adds a line for every request (the access log) and every refusal.",
)
@click.option(
    "--log-format",
    type=click.Choice(["text", "json"]),
    default="text",
    show_default=True,
    envvar="TUSSLE_LOG_FORMAT",
    help="Log lines as text, or as one JSON object a line (for a log collector).",
)
def serve(
    *,
    host: str,
    port: int,
    db_url: str | None,
    workers: int | None,
    move_time: float,
    abandon_after: float,
    claim_after: float,
    expire_after: float,
    join_wait: float,
    allowed_hosts: tuple[str, ...],
    proxies: tuple[str, ...],
    redis_url: str | None,
    documents_dir: Path | None,
    origins: tuple[str, ...],
    limit_pairs: tuple[str, ...],
    insecure_cookies: bool,
    log_level: str,
    log_format: str,
) -> None:
    """Run the game server: people play in seats by their invite links, programs over the API.

    Every event is stored before it is announced, so a server that is killed
    and started again goes on where it was. The API is described at /docs.
    Every option may also be given by its environment variable (TUSSLE_DB,
    TUSSLE_REDIS, ...: see docs/server.md).

    \b
    Examples:
      tussle serve
      tussle serve --port 9000 --db postgresql://postgres@127.0.0.1/tussle
      TUSSLE_DB=postgresql://tussle:secret@db/tussle tussle serve --host 0.0.0.0 \\
          --allowed-host games.example.org --trust-proxy 127.0.0.1
    """
    with needs("tussle serve", "server"):
        import uvicorn

        from tussle.server.app import MAX_MESSAGE, create_app
        from tussle.server.documents import DocumentLibrary
        from tussle.server.guard import AllowedHosts
        from tussle.server.observe import UVICORN_LOG_CONFIG, configure_logging
        from tussle.server.store import Store, _safe_url

        limits = _limits(limit_pairs)
        url = db_url or default_database()
    # PostgreSQL's driver is an extra of its own; SQLAlchemy imports it when the database is opened.
    postgres = url.startswith(("postgresql", "postgres:"))
    with needs(
        "tussle serve --db postgresql://..." if postgres else "tussle serve",
        "postgres" if postgres else "server",
    ):
        Store.open(url).close()  # a database that cannot be opened is a one-line error now
    _check_free(host, port)
    trusted = _proxies(proxies)
    documents = DocumentLibrary.load(documents_dir)  # a bad document is a one-line error now
    if redis_url:
        _check_redis(redis_url)
    configure_logging(log_level, log_format)
    console = stdout_console()
    console.print(f"tussle server on http://{host}:{port}/  (API: http://{host}:{port}/docs)", markup=False)
    console.print(f"database: {_safe_url(url)}", markup=False)
    try:
        uvicorn.run(
            create_app(
                url,
                workers=workers,
                origins=origins,
                limits=limits,
                hosts=AllowedHosts.serving(host, allowed_hosts),
                redis_url=redis_url,
                move_time=move_time,
                documents=documents,
                abandon_after=abandon_after * 3600,
                claim_after=claim_after,
                expire_after=expire_after * 60,
                join_wait=join_wait,
                secure_cookies=not insecure_cookies,
            ),
            host=host,
            port=port,
            ws_max_size=MAX_MESSAGE,
            log_level=log_level,
            log_config=UVICORN_LOG_CONFIG,
            access_log=False,  # tussle's own (tussle.access) names the client and the game
            # X-Forwarded-For is believed only from the proxies named: from anyone else it is a
            # client choosing its own address (and its own rate limits).
            proxy_headers=bool(trusted),
            forwarded_allow_ips=trusted or "",
            timeout_graceful_shutdown=3,
        )
    except OSError as exc:
        raise TussleError(f"cannot serve on {host}:{port}: {exc.strerror or exc}") from None


def _proxies(values: tuple[str, ...]) -> list[str]:
    """The ``--trust-proxy`` addresses and networks, checked; a bad one is a one-line error."""
    import ipaddress

    out: list[str] = []
    for value in values:
        for part in value.replace(",", " ").split():
            try:
                ipaddress.ip_network(part, strict=False)
            except ValueError:
                raise TussleError(f"--trust-proxy {part!r}: give an IP address or network") from None
            out.append(part)
    return out


def _check_redis(url: str) -> None:
    """A one-line error now if the Redis server for shared limits cannot be reached."""
    import redis

    try:
        client = redis.Redis.from_url(url, socket_timeout=3, socket_connect_timeout=3)
        client.ping()
        client.close()
    except (redis.RedisError, ValueError) as exc:
        raise TussleError(f"--redis: cannot reach {_safe_redis(url)}: {exc}") from None


def _safe_redis(url: str) -> str:
    """``url`` without its password."""
    scheme, _, rest = url.partition("://")
    return f"{scheme}://{rest.rpartition('@')[2]}" if "@" in rest else url
