"""The store's side of accounts: old sign-ins are forgotten, the deployment's keys are shared."""

from __future__ import annotations

import datetime
import time
import uuid
from pathlib import Path

import sqlalchemy as sa

from tussle.server.store import AccountRow, SessionRow, Store


def _account(store: Store) -> uuid.UUID:
    account = uuid.uuid4()
    with store.engine.begin() as db:
        db.execute(
            sa.insert(AccountRow).values(
                id=account,
                email="ann@example.org",
                hashed_password="$argon2id$not-a-real-hash",
                is_active=True,
                is_superuser=False,
                is_verified=False,
                name="Ann",
                name_key="ann",
                bot=False,
                created=time.time(),
            )
        )
    return account


def test_sessions_older_than_a_session_lives_are_forgotten_and_the_others_kept() -> None:
    store = Store.open("sqlite://")
    account = _account(store)
    now = datetime.datetime.now(datetime.UTC)
    with store.engine.begin() as db:
        for token, age in (("a" * 64, 31), ("b" * 64, 29), ("c" * 64, 0)):
            db.execute(
                sa.insert(SessionRow).values(
                    token=token, user_id=account, created_at=now - datetime.timedelta(days=age)
                )
            )
    assert store.forget_sessions(time.time() - 30 * 86400) == 1
    with store.engine.connect() as db:
        assert sorted(db.execute(sa.select(SessionRow.token)).scalars()) == ["b" * 64, "c" * 64]


def test_a_deployments_key_is_drawn_once_and_shared_by_every_store_on_the_database(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'keys.db'}"
    first, second = Store.open(url), Store.open(url)
    key = first.key("csrf")
    assert len(key) >= 40 and second.key("csrf") == key and first.key("other") != key
