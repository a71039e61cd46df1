"""The browser code's checks: eslint and the TypeScript checker pass, and fail on a planted fault.

The checked code is the shared client (server/web) and every game's drawing (the
module its ``web`` hook names). ./run-tests installs the checkers (npm ci, into
node_modules) before pytest runs, so these tests run there; elsewhere, without
node_modules, they are skipped.
"""

from __future__ import annotations

import inspect
import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tussle.registry import game_class, game_ids

ROOT = Path(__file__).resolve().parent.parent
WEB = ROOT / "src" / "tussle" / "server" / "web"
MODULES = ROOT / "node_modules"
NPM = shutil.which("npm")

needs_checkers = pytest.mark.skipif(
    NPM is None or not (MODULES / ".bin" / "tsc").exists() or not (MODULES / ".bin" / "eslint").exists(),
    reason="npm or the JavaScript checkers are missing (./run-tests installs them: npm ci)",
)


def drawings() -> dict[str, Path]:
    """Every game's drawing, by game id: the file its ``web`` hook names, which the server sends."""
    found = {}
    for game_id in game_ids():
        game = game_class(game_id)
        if game.info.hooks.web:
            found[game_id] = Path(inspect.getfile(game)).parent / game.info.hooks.web
    return found


def run(command: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=300, check=False)


def test_every_module_of_the_shared_client_is_type_checked() -> None:
    # tsconfig.json checks only the files that ask for it: one that does not would pass unread.
    modules = sorted(WEB.glob("*.js"))
    assert {p.name for p in modules} >= {"board.js", "home.js", "play.js", "replay.js", "seats.js", "text.js"}
    unchecked = [p.name for p in modules if p.read_text(encoding="utf-8").splitlines()[0] != "// @ts-check"]
    assert unchecked == []


def test_every_drawing_of_a_game_is_type_checked() -> None:
    # A drawing is served from the game's folder: the checker reads it only if it asks, as above.
    found = drawings()
    assert found, "no game names a drawing in its hooks"
    for game_id, path in found.items():
        assert path.read_text(encoding="utf-8") == game_class(game_id).web_client()  # the file served
        # tsconfig.json includes src/tussle/**/*.js: a drawing elsewhere would go unread.
        assert path.is_relative_to(ROOT / "src" / "tussle") and path.suffix == ".js", path
        assert path.read_text(encoding="utf-8").splitlines()[0] == "// @ts-check", f"{game_id}: {path}"


@needs_checkers
@pytest.mark.parametrize("script", ["lint:js", "check:js"])
def test_the_browser_code_passes_its_check(script: str) -> None:
    assert NPM is not None
    done = run([NPM, "run", "--silent", script], ROOT)
    assert done.returncode == 0, done.stdout + done.stderr


def copy_of_the_client(into: Path) -> Path:
    """The shared client, the games' drawings and the checkers' settings, copied (never the checkout)."""
    web = into / "src" / "tussle" / "server" / "web"
    shutil.copytree(WEB, web)
    for path in drawings().values():
        copy = into / path.relative_to(ROOT)
        copy.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(path, copy)
    for name in ("tsconfig.json", "eslint.config.js", "package.json"):
        shutil.copy2(ROOT / name, into / name)
    # eslint's configuration imports its rules from node_modules, found beside the configuration.
    (into / "node_modules").symlink_to(MODULES, target_is_directory=True)
    return web


def plant(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, f"{old!r} is no longer in {path.name}: plant the fault elsewhere"
    path.write_text(text.replace(old, new), encoding="utf-8")


@needs_checkers
def test_the_type_checker_fails_on_a_planted_type_error(tmp_path: Path) -> None:
    web = copy_of_the_client(tmp_path)
    # squareName is declared to return a string: a number is a type error and nothing else.
    plant(
        web / "board.js", "return String.fromCharCode(97 + file) + String(rank + 1);", "return file + rank;"
    )
    planted = run([str(MODULES / ".bin" / "tsc"), "-p", str(tmp_path)], tmp_path)
    assert planted.returncode != 0
    # That error alone: the copy is checked as the checkout is, and fails only for the plant.
    errors = [line for line in planted.stdout.splitlines() if ": error TS" in line]
    assert len(errors) == 1 and errors[0].startswith("src/tussle/server/web/board.js("), planted.stdout
    assert "TS2322" in errors[0], planted.stdout


@needs_checkers
def test_every_drawing_declares_what_its_game_sends(tmp_path: Path) -> None:
    # Typed with the shared default, an observation is any JSON object and any field reads without
    # an error: a drawing must declare its game's own shape, so that a field the game does not send
    # is an error. Each drawing reads one such field, from the view its draw() takes.
    copy_of_the_client(tmp_path)
    found = drawings()
    for path in found.values():
        copy = tmp_path / path.relative_to(ROOT)
        with copy.open("a", encoding="utf-8") as text:
            text.write(
                "\n/** @param {Parameters<typeof draw>[0]} view */\n"
                "export function planted(view) {\n  return view.observation.no_such_field;\n}\n"
            )
    planted = run([str(MODULES / ".bin" / "tsc"), "-p", str(tmp_path)], tmp_path)
    errors = [line for line in planted.stdout.splitlines() if ": error TS" in line]
    failing = {
        match.group(1) for line in errors if (match := re.match(r"(\S+\.js)\(\d+,\d+\): error TS2339:", line))
    }
    # Those errors alone, one in each drawing.
    assert len(errors) == len(found), planted.stdout
    assert failing == {str(path.relative_to(ROOT)) for path in found.values()}, planted.stdout


@needs_checkers
def test_the_linter_fails_on_a_planted_fault(tmp_path: Path) -> None:
    web = copy_of_the_client(tmp_path)
    # A name no declaration makes: a bug that loads and fails only when the line runs.
    plant(web / "text.js", "ui.act(action)", "ui.act(acton)")
    eslint = [str(MODULES / ".bin" / "eslint"), "--max-warnings", "0", "--format", "json", "src"]
    planted = run(eslint, tmp_path)
    assert planted.returncode != 0
    # That finding alone: the copy is linted as the checkout is, and fails only for the plant.
    report = json.loads(planted.stdout)
    found = [(Path(f["filePath"]).name, m["ruleId"]) for f in report for m in f["messages"]]
    assert found == [("text.js", "no-undef")], planted.stdout
