"""The Python examples of docs/ecosystem.md run as written."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

DOC = Path(__file__).resolve().parent.parent / "docs" / "ecosystem.md"
BLOCKS = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), flags=re.S)


def test_the_doc_has_an_example_for_each_library() -> None:
    text = "\n".join(BLOCKS)
    for library in ("pettingzoo_env", "gymnasium_env", "openspiel_game", "encoding"):
        assert f"tussle.adapters.{library} import" in text or f"from tussle.adapters import {library}" in text


@pytest.mark.parametrize("index", range(len(BLOCKS)))
def test_example_runs(index: int, capsys: pytest.CaptureFixture[str]) -> None:
    exec(compile(BLOCKS[index], f"{DOC.name} example {index + 1}", "exec"), {"__name__": "__doc_example__"})
    capsys.readouterr()
