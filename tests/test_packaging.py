"""The package as the package index would get it: built, checked by twine, holding what tussle needs."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import zipfile
from email.parser import Parser
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_the_wheel_and_sdist_build_and_pass_twine_check(tmp_path: Path) -> None:
    # Built from a copy of the tracked files, so the checkout is left as it was.
    source = tmp_path / "source"
    listed = subprocess.run(
        ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split("\0")
    for name in filter(None, listed):
        if (ROOT / name).is_file():
            (source / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, source / name)
    dist = tmp_path / "dist"
    subprocess.run(
        [sys.executable, "-m", "build", "--no-isolation", "--outdir", str(dist), str(source)],
        capture_output=True,
        text=True,
        check=True,
    )
    assert sorted(p.name for p in dist.iterdir()) == ["tussle-0.1.0-py3-none-any.whl", "tussle-0.1.0.tar.gz"]
    check = subprocess.run(
        [sys.executable, "-m", "twine", "check", "--strict", *map(str, dist.iterdir())],
        capture_output=True,
        text=True,
        check=False,
    )
    assert check.returncode == 0, check.stdout + check.stderr
    wheel = next(dist.glob("*.whl"))
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        metadata = Parser().parsestr(archive.read(next(n for n in names if n.endswith("/METADATA"))).decode())
    assert metadata["License-Expression"] == "MIT"
    # The package index shows the description with no repository beside it: a relative link or
    # picture there would lead nowhere, so it has none, and it is the page written for it.
    description = str(metadata.get_payload())
    assert metadata["Description-Content-Type"] == "text/markdown"
    assert description.strip() == (ROOT / "docs" / "package-index.md").read_text(encoding="utf-8").strip()
    targets = re.findall(r"\]\(([^)]*)\)", description) + re.findall(r"<(?:img|a)\b[^>]*>", description)
    assert all(t.startswith(("https://", "http://")) for t in targets), targets
    assert any(n.endswith("/licenses/LICENSE") for n in names)
    assert "Typing :: Typed" in metadata.get_all("Classifier", [])
    extras = set(metadata.get_all("Provides-Extra", []))
    assert {"cluster", "gymnasium", "pettingzoo", "openspiel", "rl"} <= extras
    # What the games and the server read at run time travels in the wheel.
    for needed in ("tussle/py.typed", "tussle/games/fite/web.js", "tussle/games/fite/rules.md"):
        assert needed in names, needed
    assert any(n.startswith("tussle/server/web/") and n.endswith(".html") for n in names)
