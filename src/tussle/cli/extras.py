"""Commands that need an optional extra of tussle say which one, in one line, when it is missing.

The base install plays every game in the terminal; the server, the balance lab,
the adapters, the cluster and some benchmarks need libraries of an extra
(``pip install 'tussle[server]'``, ...). A command imports those libraries inside
:func:`needs`, which turns the ImportError of a missing one into a
:class:`MissingExtraError`, a :class:`~tussle.errors.TussleError` the CLI prints
as its one line.

>>> try:
...     with needs("tussle example", "balance"):
...         import no_such_module_here  # noqa: F401
... except ImportError as exc:
...     print("not an optional library: raised as it was", type(exc).__name__)
not an optional library: raised as it was ModuleNotFoundError
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from tussle.errors import TussleError

#: The optional libraries tussle imports (by their import names) and the extra that brings each.
EXTRA_OF: dict[str, str] = {
    **dict.fromkeys(
        (
            "fastapi",
            "starlette",
            "pydantic",
            "pydantic_core",
            "uvicorn",
            "sqlalchemy",
            "alembic",
            "platformdirs",
            "limits",
            "redis",
            "prometheus_client",
            "fastapi_users",
            "fastapi_users_db_sqlalchemy",
            "itsdangerous",
            "aiosqlite",
            "starlette_csrf",
            "openskill",
        ),
        "server",
    ),
    "psycopg": "postgres",
    **dict.fromkeys(("duckdb", "scipy", "matplotlib"), "balance"),
    "chess": "bench",
    **dict.fromkeys(("numpy", "PIL", "gymnasium"), "gymnasium"),
    "pettingzoo": "pettingzoo",
    **dict.fromkeys(("pyspiel", "open_spiel"), "openspiel"),
    "ray": "cluster",
    **dict.fromkeys(("jax", "jaxlib"), "jax"),
}


class MissingExtraError(TussleError):
    """A command run without the optional extra that brings a library it needs."""


def install_line(extra: str) -> str:
    """The command that installs ``extra``.

    >>> install_line("server")
    "pip install 'tussle[server]'"
    """
    return f"pip install 'tussle[{extra}]'"


@contextmanager
def needs(command: str, extra: str) -> Iterator[None]:
    """Run the block (the command's imports); a missing optional library says which extra to install.

    ``extra`` is the extra the command needs as a whole (``rl`` for a benchmark of
    every adapter, say); an ImportError of anything but an optional library, or of
    one installed but broken, is raised as it was: a bug, not a missing extra.
    """
    try:
        yield
    except ImportError as exc:
        from tussle.adapters import MissingExtraError as AdapterExtraError

        name = (exc.name or "").partition(".")[0]
        # Only a module not found is a missing extra; a name missing from an installed library
        # is a version or a bug, raised as it was.
        if not (isinstance(exc, ModuleNotFoundError) and name in EXTRA_OF) and not isinstance(
            exc, AdapterExtraError
        ):
            raise
        missing = f" ({name} is not installed)" if isinstance(exc, ModuleNotFoundError) else ""
        raise MissingExtraError(
            f"{command} needs the {extra} extra{missing}: {install_line(extra)}"
        ) from None
