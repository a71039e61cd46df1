"""The lighter install (issue 40): the base plays every game in the terminal, and each command that
needs an optional extra says which one when its library is missing, in one line, through the CLI.

A missing library is simulated by ``sys.modules[name] = None`` (which makes ``import name`` raise
ModuleNotFoundError), with tussle's own modules that import it dropped first, so that they are
imported again; the modules are put back as they were after each test.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
import textwrap
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from tussle.cli import cli
from tussle.cli.extras import EXTRA_OF, MissingExtraError, needs

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(autouse=True)
def _modules_as_they_were() -> Iterator[None]:
    """Every module imported, dropped or refused by a test put back as it was, for the tests after it.

    A module imported afresh during a test (and holding the fresh copies of others) is dropped too, so
    that no later test sees two copies of one module.
    """
    saved = dict(sys.modules)
    yield
    for name in set(sys.modules) - set(saved):
        del sys.modules[name]
    sys.modules.update(saved)


def without(missing: tuple[str, ...], *users: str) -> None:
    """``missing`` libraries unimportable, and the modules of tussle under ``users`` imported afresh."""
    for name in list(sys.modules):
        if name.partition(".")[0] in missing or any(name == u or name.startswith(u + ".") for u in users):
            del sys.modules[name]
    for name in missing:
        sys.modules[name] = None  # type: ignore[assignment]


#: A command line, the libraries missing, the modules of tussle that import them, the line it prints.
Case = tuple[list[str], tuple[str, ...], tuple[str, ...], str]


def refused(result: Result, line: str) -> None:
    assert result.exit_code == 2, (result.output, result.exception)
    assert result.stderr.strip().splitlines() == [f"tussle: error: {line}"]


@pytest.mark.parametrize(
    "case",
    [
        (
            ["serve"],
            ("uvicorn",),
            ("tussle.server",),
            "tussle serve needs the server extra (uvicorn is not installed): pip install 'tussle[server]'",
        ),
        (
            ["serve", "--db", "postgresql://tussle@127.0.0.1:1/tussle"],
            ("psycopg",),
            (),
            "tussle serve --db postgresql://... needs the postgres extra (psycopg is not installed): "
            "pip install 'tussle[postgres]'",
        ),
        (
            ["balance", "robo-pigs", "-n", "2"],
            ("duckdb",),
            ("tussle.balance", "tussle.games.fite.balance"),
            "tussle balance needs the balance extra (duckdb is not installed): pip install 'tussle[balance]'",
        ),
        (
            ["balance", "robo-pigs", "-n", "2"],
            ("matplotlib",),
            (),
            "tussle balance needs the balance extra (matplotlib is not installed): "
            "pip install 'tussle[balance]'",
        ),
        (
            ["fite-odds"],
            ("scipy",),
            ("tussle.balance", "tussle.games.fite.balance"),
            "tussle fite-odds needs the balance extra (scipy is not installed): "
            "pip install 'tussle[balance]'",
        ),
        (
            ["bench", "--adapters", "fite"],
            ("numpy",),
            ("tussle.adapters",),
            "tussle bench --adapters needs the rl extra: pip install 'tussle[rl]'",
        ),
        (
            ["bench", "--vs-openspiel", "fightopia"],
            ("pyspiel",),
            ("tussle.adapters",),
            "tussle bench --vs-openspiel needs the openspiel extra: pip install 'tussle[openspiel]'",
        ),
        (
            ["bench", "--server", "--games", "2"],
            ("fastapi",),
            ("tussle.server",),
            "tussle bench --server needs the server extra (fastapi is not installed): "
            "pip install 'tussle[server]'",
        ),
    ],
)
def test_a_command_without_its_extra_names_the_extra_in_one_line(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, case: Case
) -> None:
    """``case``: the command line, the libraries missing, tussle's modules that import them, the line."""
    args, missing, users, line = case
    monkeypatch.chdir(tmp_path)  # balance would write its folder here, were it to start
    without(missing, *users)
    refused(CliRunner().invoke(cli, args), line)
    assert not list(tmp_path.iterdir())  # refused before anything was made


def test_an_import_error_of_anything_else_is_raised_as_it_was() -> None:
    with pytest.raises(ImportError, match="cannot import name"), needs("tussle example", "server"):
        from json import no_such_name  # type: ignore[attr-defined]  # noqa: F401
    with pytest.raises(MissingExtraError), needs("tussle example", "server"):
        import fastapi_users_db_sqlalchemy.no_such_module  # type: ignore[import-not-found]  # noqa: F401


def _third_party_imports() -> set[str]:
    """The top-level names of every library the package imports (not the standard library's)."""
    names: set[str] = set()
    for path in (ROOT / "src" / "tussle").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names.update(alias.name.partition(".")[0] for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names.add(node.module.partition(".")[0])
    return names - set(sys.stdlib_module_names) - {"tussle", "__future__"}


def test_every_library_the_package_imports_is_in_the_base_or_has_its_extra_named() -> None:
    base = {"click", "rich", "websockets"}
    unnamed = _third_party_imports() - base - set(EXTRA_OF)
    assert not unnamed, f"add these to tussle.cli.extras.EXTRA_OF (and an extra in pyproject.toml): {unnamed}"
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    # The base is small: each of its requirements is one of the libraries above.
    required = {req.split(">")[0].split("[")[0].split("=")[0].strip() for req in project["dependencies"]}
    assert required == base
    assert set(EXTRA_OF.values()) <= set(project["optional-dependencies"])


#: Run in a fresh interpreter: every optional library refused at import, then the base's commands.
BASE_ONLY = textwrap.dedent(
    """
    import importlib.abc, json, sys

    from tussle.cli.extras import EXTRA_OF

    REFUSED = set(EXTRA_OF) | {"torch", "sb3_contrib", "stable_baselines3"}
    tried = []

    class Refuse(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path=None, target=None):
            if name.partition(".")[0] in REFUSED:
                tried.append(name)
                raise ModuleNotFoundError(f"No module named {name!r} (refused)", name=name)
            return None

    sys.meta_path.insert(0, Refuse())
    from click.testing import CliRunner

    from tussle.cli import cli

    out = []
    for args, stdin in json.loads(sys.argv[1]):
        result = CliRunner().invoke(cli, args, input=stdin)
        out.append([args[0], result.exit_code, result.output[-300:]])
    leaked = sorted(n for n in sys.modules if n.partition(".")[0] in REFUSED and sys.modules[n])
    print(json.dumps({"runs": out, "leaked": leaked}))
    """
)


def test_the_base_install_plays_every_game_and_runs_the_base_commands(tmp_path: Path) -> None:
    games = ["fightopia", "fight", "fite", "robo-pigs", "tank-chess"]
    runs: list[tuple[list[str], str | None]] = []
    for game in games:
        runs.append((["rules", game], None))
        runs.append((["info", game], None))
        # A person against the computer: the prompt, then quit.
        runs.append((["play", game, "--seed", "1"], "?\nquit\n"))
        runs.append((["match", game, "random", "random", "-n", "2", "--record", str(tmp_path / game)], None))
    runs.append((["play", "robo-pigs", "-p", "rule,random", "--seed", "2"], None))  # watched to its end
    runs.append((["replay", str(tmp_path / "fite" / "fite-00000.json")], None))
    runs.append((["tournament", "robo-pigs", "-e", "a=random", "-e", "b=rule"], None))
    runs.append((["ladder", "robo-pigs", "random", "rule", "-n", "2"], None))
    runs.append((["games"], None))
    done = subprocess.run(
        [sys.executable, "-c", BASE_ONLY, json.dumps(runs)],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    report = json.loads(done.stdout.strip().splitlines()[-1])
    for (args, _), (name, code, tail) in zip(runs, report["runs"], strict=True):
        assert code == 0, (args, tail)
        assert name == args[0]
    assert report["leaked"] == []


def test_the_adapters_pictures_without_pillow_name_the_extra() -> None:
    pytest.importorskip("numpy")
    without(("PIL",), "tussle.adapters.pictures")
    with pytest.raises(ImportError, match=r"needs PIL, which is not installed: .*'tussle\[gymnasium\]'"):
        import tussle.adapters.pictures  # noqa: F401
