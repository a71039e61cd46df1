"""What the server tests share beyond tests/test_server.py: throwaway PostgreSQL databases, and a
server process's children (its workers) as /proc shows them."""

from __future__ import annotations

import uuid
from pathlib import Path

import psycopg

from test_server import POSTGRES


class postgres_database:  # noqa: N801 (a context manager, used like a function)
    """A fresh PostgreSQL database for one test, dropped afterwards: ``with postgres_database() as url:``."""

    def __init__(self, prefix: str = "tussle_test") -> None:
        self.name = f"{prefix}_{uuid.uuid4().hex[:12]}"

    def __enter__(self) -> str:
        with psycopg.connect(POSTGRES, autocommit=True) as admin:
            admin.execute(f'CREATE DATABASE "{self.name}"')
        return f"{POSTGRES.rsplit('/', 1)[0]}/{self.name}"

    def __exit__(self, *_: object) -> None:
        with psycopg.connect(POSTGRES, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)')


def children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (a server's workers)."""
    out = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                out.append(int(entry.name))
    return out


def alive(pid: int) -> bool:
    """Whether process ``pid`` runs (a zombie, dead but not reaped, does not)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"
