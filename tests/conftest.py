"""Fixtures shared by the browser tests (``web_support``): a server and Debian's Chromium; and how the
suite is shared between xdist's workers."""

from pathlib import Path

import pytest

from web_support import browser, web

__all__ = ["browser", "web"]


def _share_jax_compilations() -> None:
    """Both workers reuse each other's compiled JAX programs (and a later run reuses this one's).

    The batched engines' tests, doctests and docs examples compile the same programs (FITE's
    engine at the same batch sizes) on either worker; compiling is most of their time. JAX keys
    each program by its computation, its version and its flags, so a stale one is never used.
    """
    try:
        import jax
    except ImportError:  # the suite without the jax extra: nothing to share
        return
    folder = str(Path(__file__).parent.parent / ".pytest_cache" / "jax")
    jax.config.update("jax_compilation_cache_dir", folder)  # type: ignore[no-untyped-call]
    jax.config.update("jax_persistent_cache_min_compile_time_secs", 0.5)  # type: ignore[no-untyped-call]


_share_jax_compilations()

#: Module-scoped fixtures that start a server process or a browser for all their module's tests.
MODULE_PROCESSES = frozenset({"server", "servers", "web", "browser"})


@pytest.hookimpl(tryfirst=True)  # before xdist's own hook reads the groups
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Under ``--dist loadgroup``, each module's tests that share a server (or a browser) run on one
    worker: one group a module, and a database (``db``: SQLite and PostgreSQL apart).

    xdist hands out every other test by itself, in turn to both workers, and each worker starts a
    module-scoped fixture of its own for the first of the module's tests it runs: most modules'
    servers and browsers were started twice. Groups of many tests are handed out first.
    """
    if config.getoption("dist", default="no") != "loadgroup":
        return
    for item in items:
        if item.get_closest_marker("xdist_group") is not None:
            continue
        if not MODULE_PROCESSES & set(getattr(item, "fixturenames", ())):
            continue
        module = item.nodeid.split("::", 1)[0].removeprefix("tests/").removesuffix(".py")
        callspec = getattr(item, "callspec", None)
        database = callspec.params.get("db") if callspec is not None else None
        item.add_marker(pytest.mark.xdist_group(f"{module}-{database}" if database else module))
