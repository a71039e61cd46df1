"""Optional accounts: sign up, sign in and out, passwords, browser sessions and programs' API tokens.

The security is fastapi-users' (with its SQLAlchemy adapter): Argon2 password hashes
(pwdlib), tokens from the system's secret randomness, the session cookie's flags, the
look-up of a request's account from its cookie or its ``Authorization: Bearer`` header. What
tussle adds is small and said here:

- Accounts have a display name besides their email; either signs in.
- Tokens are stored as their SHA-256, as seat tokens are (``seats.token_hash``): a copy of the
  database opens no account.
- A browser's session lives :data:`SESSION_DAYS` days in the ``sessions`` table; a program's token
  (``api_tokens``) lives until its account makes a new one.
- State-changing requests that carry the session cookie need the CSRF header (starlette-csrf's
  double submit: the ``tussle_csrf`` cookie, which the page reads, sent back as ``x-csrf-token``);
  its signing key is kept in the database, so every process of a deployment takes the others'.
- Sign-ins are counted per address and per account (:class:`tussle.server.limits.Clients`).

Playing needs no account: seats are opened by their tokens, as before. An account's seats are
marked (``seats.account_id``) when it makes, joins or seeks a game while signed in, or claims a
guest's seats by their tokens.
"""

from __future__ import annotations

import hashlib
import re
import secrets
import uuid
from collections.abc import Callable
from typing import Any

import sqlalchemy as sa
from fastapi import Request
from fastapi_users import BaseUserManager, UUIDIDMixin, exceptions, schemas
from fastapi_users.authentication import CookieTransport
from fastapi_users.authentication.strategy import DatabaseStrategy
from fastapi_users.password import PasswordHelper
from fastapi_users_db_sqlalchemy import SQLAlchemyUserDatabase
from fastapi_users_db_sqlalchemy.access_token import SQLAlchemyAccessTokenDatabase
from itsdangerous.url_safe import URLSafeSerializer
from pydantic import Field
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker, create_async_engine
from starlette.requests import HTTPConnection
from starlette.responses import JSONResponse, Response
from starlette_csrf.middleware import CSRFMiddleware

from tussle.errors import TussleError
from tussle.server.models import Account
from tussle.server.store import AccountRow, ApiTokenRow, SessionRow

#: The session cookie (HttpOnly: the page's scripts never see it).
SESSION_COOKIE = "tussle_session"
#: The CSRF cookie the page reads and sends back as :data:`CSRF_HEADER`.
CSRF_COOKIE = "tussle_csrf"
CSRF_HEADER = "x-csrf-token"
#: How long a browser stays signed in.
SESSION_DAYS = 30
#: What a name may be: 2 to 20 letters, digits, '-' or '_' (it is a page's address: /players/<name>).
NAME = re.compile(r"[A-Za-z0-9_-]{2,20}")
#: The shortest password an account may have.
MIN_PASSWORD = 8


class AccountError(TussleError):
    """A request about accounts the server refuses; ``status`` is its HTTP status."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


class AccountCreate(schemas.BaseUserCreate):
    """What fastapi-users stores for a new account (tussle's columns besides its own)."""

    name: str = Field(max_length=20)
    name_key: str = Field(max_length=20)
    bot: bool = False


def token_digest(token: str) -> str:
    """What the database keeps of a session's or a program's token."""
    return hashlib.sha256(token.encode()).hexdigest()


class HashedDatabaseStrategy(DatabaseStrategy[AccountRow, uuid.UUID, Any]):
    """fastapi-users' database strategy, keeping each token's SHA-256 rather than the token."""

    async def read_token(
        self, token: str | None, user_manager: BaseUserManager[AccountRow, uuid.UUID]
    ) -> AccountRow | None:
        if token is None or len(token) > 100:
            return None
        return await super().read_token(token_digest(token), user_manager)

    async def write_token(self, user: AccountRow) -> str:
        token = secrets.token_urlsafe(32)
        await self.database.create({"token": token_digest(token), "user_id": user.id})
        return token

    async def destroy_token(self, token: str, user: AccountRow) -> None:
        await super().destroy_token(token_digest(token), user)


class AccountManager(UUIDIDMixin, BaseUserManager[AccountRow, uuid.UUID]):
    """fastapi-users' account manager, with tussle's names and password rule."""

    # The reset and verification flows need mail, which tussle does not send: these are never used
    # to sign anything a client sees, but the library wants them set.
    reset_password_token_secret = secrets.token_hex(32)
    verification_token_secret = secrets.token_hex(32)

    async def validate_password(self, password: str, user: Any) -> None:
        if len(password) < MIN_PASSWORD:
            raise exceptions.InvalidPasswordException(f"a password needs at least {MIN_PASSWORD} characters")
        if len(password) > 200:
            raise exceptions.InvalidPasswordException("a password may have at most 200 characters")
        name = getattr(user, "name", "") or ""
        if name and name.lower() in password.lower():
            raise exceptions.InvalidPasswordException("a password may not contain the account's name")

    async def by_login(self, login: str) -> AccountRow | None:
        """The account whose name or email is ``login``."""
        db: SQLAlchemyUserDatabase[AccountRow, uuid.UUID] = self.user_db  # type: ignore[assignment]
        column = AccountRow.email if "@" in login else AccountRow.name_key
        key = login.lower()
        found = await db.session.execute(sa.select(AccountRow).where(sa.func.lower(column) == key))
        return found.scalar_one_or_none()

    async def sign_in(self, login: str, password: str) -> AccountRow | None:
        """The account if ``password`` is its password, else None (as slow either way)."""
        account = await self.by_login(login)
        if account is None or not account.is_active:
            # Hash anyway: an unknown name takes as long to refuse as a wrong password.
            self.password_helper.hash(password)
            return None
        verified, rehashed = self.password_helper.verify_and_update(password, account.hashed_password)
        if not verified:
            return None
        if rehashed is not None:
            await self.user_db.update(account, {"hashed_password": rehashed})
        return account


class Accounts:
    """The accounts of one server: its database (through SQLAlchemy's async side, which
    fastapi-users reads and writes) and fastapi-users' parts: the manager, the session cookie's
    transport, and the strategies that keep sessions' and programs' tokens."""

    def __init__(self, db_url: str, *, secure_cookies: bool = True) -> None:
        # Made now, connected on first use (after the store has brought the schema up to date).
        self.engine: AsyncEngine = create_async_engine(async_url(db_url))
        self.sessions = async_sessionmaker(self.engine, expire_on_commit=False)
        self.password_helper = PasswordHelper()
        self.cookie = CookieTransport(
            cookie_name=SESSION_COOKIE,
            cookie_max_age=SESSION_DAYS * 24 * 3600,
            cookie_secure=secure_cookies,
            cookie_httponly=True,
            cookie_samesite="lax",
        )

    async def close(self) -> None:
        await self.engine.dispose()

    def manager(self, session: AsyncSession) -> AccountManager:
        return AccountManager(SQLAlchemyUserDatabase(session, AccountRow), self.password_helper)

    @staticmethod
    def browser_sessions(session: AsyncSession) -> HashedDatabaseStrategy:
        return HashedDatabaseStrategy(
            SQLAlchemyAccessTokenDatabase(session, SessionRow), SESSION_DAYS * 86400
        )

    @staticmethod
    def api_tokens(session: AsyncSession) -> HashedDatabaseStrategy:
        return HashedDatabaseStrategy(SQLAlchemyAccessTokenDatabase(session, ApiTokenRow), None)

    async def identify(self, connection: HTTPConnection) -> Account | None:
        """The account a request or WebSocket comes from: its session cookie's, else its bearer
        token's; None for a guest (or a token that opens nothing)."""
        cookie = connection.cookies.get(SESSION_COOKIE)
        bearer = bearer_token(connection.headers.get("authorization", ""))
        if cookie is None and bearer is None:
            return None
        async with self.sessions() as session:
            manager = self.manager(session)
            row = None
            if cookie is not None:
                row = await self.browser_sessions(session).read_token(cookie, manager)
            if row is None and bearer is not None:
                row = await self.api_tokens(session).read_token(bearer, manager)
            return account_of(row) if row is not None and row.is_active else None


def bearer_token(header: str) -> str | None:
    """The token of an ``Authorization: Bearer <token>`` header, if that is what it is."""
    scheme, _, token = header.partition(" ")
    return (token.strip() or None) if scheme.lower() == "bearer" else None


def account_of(row: AccountRow) -> Account:
    return Account(str(row.id), row.name, bool(row.bot))


def async_url(url: str) -> str:
    """The asynchronous driver's URL for the store's database: aiosqlite, or psycopg's async side
    (the same ``postgresql+psycopg`` URL)."""
    if url.startswith("sqlite://"):
        return "sqlite+aiosqlite://" + url[len("sqlite://") :]
    if url.startswith(("postgresql://", "postgres://")):
        return "postgresql+psycopg://" + url.split("://", 1)[1]
    return url


class Csrf(CSRFMiddleware):
    """starlette-csrf's double-submit check, refusing as the rest of the API refuses (one line).

    Its signing key is read from the database when the server starts (``Store.key``), so every
    process of a deployment signs alike; ``key`` gives it once the store is open.
    """

    def __init__(self, app: Any, *, key: Callable[[], str | None], secure_cookies: bool) -> None:
        super().__init__(
            app,
            secret="set on first use",
            sensitive_cookies={SESSION_COOKIE},
            cookie_name=CSRF_COOKIE,
            header_name=CSRF_HEADER,
            cookie_secure=secure_cookies,
            cookie_samesite="lax",
        )
        self._key = key
        self._keyed = False

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":  # a WebSocket changes nothing by its cookie: its seat token plays
            await self.app(scope, receive, send)
            return
        if not self._keyed:
            secret = self._key()
            if secret is not None:
                self.serializer = URLSafeSerializer(secret, "csrftoken")
                self._keyed = True
        await super().__call__(scope, receive, send)

    def _get_error_response(self, request: Request) -> Response:
        return JSONResponse(
            {
                "error": f"a signed-in request that changes something needs the {CSRF_HEADER} header "
                f"(the value of the {CSRF_COOKIE} cookie)"
            },
            status_code=403,
        )
