"""Accounts over the API (docs/server.md, *Accounts*): sign up, sign in and out, the password,
programs' tokens, claiming a guest's games, an account's games and its seat in one of them.

Every answer is JSON; every refusal one line. A browser is signed in by the session cookie (and
sends the CSRF header with what changes something); a program sends its API token as
``Authorization: Bearer <token>``.
"""

from __future__ import annotations

import asyncio
import uuid
from typing import Annotated, Any, Literal

import sqlalchemy as sa
from fastapi import APIRouter, Query, Request
from fastapi.responses import JSONResponse
from fastapi_users import exceptions, schemas
from pydantic import BaseModel, ConfigDict, EmailStr, Field

from tussle.server.accounts import (
    MIN_PASSWORD,
    NAME,
    SESSION_COOKIE,
    AccountCreate,
    AccountError,
    Accounts,
    token_digest,
)
from tussle.server.guard import client_of
from tussle.server.hub import new_token, token_hash
from tussle.server.models import PRINTABLE, TokensRequest
from tussle.server.routes import AccountsDep, ClientsDep, NeedAccountDep, ServiceDep, origins_of
from tussle.server.service import LimitError, link
from tussle.server.store import AccountRow, ApiTokenRow, SessionRow

router = APIRouter()

Password = Annotated[str, Field(min_length=1, max_length=200)]


class SignUpRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str = Field(
        min_length=2,
        max_length=20,
        # Anchored: a field's pattern is searched for, so 'no spaces' held a name ('no') and was taken.
        pattern=f"^{NAME.pattern}$",
        description="2 to 20 letters, digits, '-' or '_'",
    )
    email: EmailStr = Field(max_length=320, description="signs in, as the name does; never shown to others")
    password: Password = Field(description=f"at least {MIN_PASSWORD} characters, not holding the name")
    bot: bool = Field(
        False, strict=True, description="a program's account: marked as a bot everywhere; gets an API token"
    )


class SignInRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    login: str = Field(min_length=1, max_length=320, pattern=PRINTABLE, description="the name or the email")
    password: Password


class PasswordRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    current: Password
    new: Password


class PasswordUpdate(schemas.BaseUserUpdate):
    """fastapi-users' update, for the password only."""


@router.post("/api/account/signup", status_code=201)
async def sign_up(
    body: SignUpRequest, request: Request, accounts: AccountsDep, clients: ClientsDep
) -> JSONResponse:
    """A new account: a person is signed in at once (the session cookie); a program (``bot``) gets its
    API token in the answer, shown this once."""
    _own_page_or_program(request)
    refusal = await clients.sign_in(client_of(request.scope), None)
    if refusal is not None:
        raise LimitError(refusal.message, refusal.retry_after)
    async with accounts.sessions() as session:
        manager = accounts.manager(session)
        if await manager.by_login(body.name) is not None:
            raise AccountError(f"the name {body.name} is taken")
        try:
            row = await manager.create(
                AccountCreate(
                    # Kept in lower case: the unique index then holds whatever case a sign-up used, so
                    # two sign-ups at once with the same address differently spelled cannot both pass.
                    email=body.email.lower(),
                    password=body.password,
                    name=body.name,
                    name_key=body.name.lower(),
                    bot=body.bot,
                ),
                safe=True,
            )
        except exceptions.UserAlreadyExists:
            raise AccountError("an account with that email exists: sign in instead") from None
        except exceptions.InvalidPasswordException as exc:
            raise AccountError(str(exc.reason)) from None
        except sa.exc.IntegrityError:  # the same name, made by someone else meanwhile
            raise AccountError(f"the name {body.name} is taken") from None
        answer: dict[str, Any] = {"name": row.name, "bot": row.bot}
        if row.bot:
            answer["token"] = await accounts.api_tokens(session).write_token(row)
            return JSONResponse(answer, status_code=201)
        token = await accounts.browser_sessions(session).write_token(row)
    return await _signed_in(accounts, JSONResponse(answer, status_code=201), token)


@router.post("/api/account/signin")
async def sign_in(
    body: SignInRequest, request: Request, accounts: AccountsDep, clients: ClientsDep
) -> JSONResponse:
    """Sign in with the name or email and the password: the answer sets the session cookie."""
    _own_page_or_program(request)
    login = body.login.strip()
    async with accounts.sessions() as session:
        manager = accounts.manager(session)
        # Counted at the account however it is named (its name in any case, or its email): counted by
        # the login as typed, each spelling had a bound of its own. An unknown login counts as itself.
        found = await manager.by_login(login)
        key = found.name_key if found is not None else login.lower()
        refusal = await clients.sign_in(client_of(request.scope), key)
        if refusal is not None:
            raise LimitError(refusal.message, refusal.retry_after)
        row = await manager.sign_in(login, body.password)
        if row is None:
            raise AccountError("wrong name or password", 401)
        token = await accounts.browser_sessions(session).write_token(row)
    return await _signed_in(accounts, JSONResponse({"name": row.name, "bot": row.bot}), token)


def _own_page_or_program(request: Request) -> None:
    """Refuse a sign-in or sign-up sent by another site's page. The CSRF check does not cover them (a
    browser that is not signed in has no session to misuse), but another site could sign its visitor
    into an account of its own, and see what they play there. Pages send their origin; programs none."""
    origin = request.headers.get("origin")
    if origin is None or origin.split("://", 1)[-1] == request.headers.get("host", ""):
        return
    if origin not in origins_of(request):
        raise AccountError("sign in from this server's own pages (this request came from another site)", 403)


async def _signed_in(accounts: Accounts, answer: JSONResponse, token: str) -> JSONResponse:
    # fastapi-users' cookie transport sets the cookie (its flags are its); the answer keeps its body.
    cookie = await accounts.cookie.get_login_response(token)
    answer.headers.append("set-cookie", cookie.headers["set-cookie"])
    return answer


@router.post("/api/account/signout")
async def sign_out(request: Request, accounts: AccountsDep) -> JSONResponse:
    """End this browser's session (the cookie is cleared, and the session is forgotten)."""
    token = request.cookies.get(SESSION_COOKIE)
    if token is not None:
        async with accounts.sessions() as session:
            await session.execute(sa.delete(SessionRow).where(SessionRow.token == token_digest(token)))
            await session.commit()
    answer = JSONResponse({"signed_out": True})
    cleared = await accounts.cookie.get_logout_response()
    answer.headers.append("set-cookie", cleared.headers["set-cookie"])
    return answer


@router.get("/api/account")
async def me(account: NeedAccountDep, accounts: AccountsDep) -> dict[str, Any]:
    """The signed-in account: its name, whether it is a bot, its email (only ever to itself)."""
    async with accounts.sessions() as session:
        row = await session.get(AccountRow, uuid.UUID(account.id))
    if row is None:
        raise AccountError("that account is gone", 401)
    return {"name": row.name, "bot": row.bot, "email": row.email, "created": round(row.created, 3)}


@router.post("/api/account/password")
async def change_password(
    body: PasswordRequest,
    request: Request,
    account: NeedAccountDep,
    accounts: AccountsDep,
    clients: ClientsDep,
) -> dict[str, Any]:
    """A new password, given the current one; every other session of the account is signed out."""
    refusal = await clients.sign_in(client_of(request.scope), account.name.lower())
    if refusal is not None:
        raise LimitError(refusal.message, refusal.retry_after)
    async with accounts.sessions() as session:
        manager = accounts.manager(session)
        row = await manager.sign_in(account.name, body.current)
        if row is None:
            raise AccountError("the current password is wrong", 401)
        try:
            await manager.update(PasswordUpdate(password=body.new), row, safe=True)
        except exceptions.InvalidPasswordException as exc:
            raise AccountError(str(exc.reason)) from None
        keep = token_digest(request.cookies.get(SESSION_COOKIE, ""))
        await session.execute(
            sa.delete(SessionRow).where(SessionRow.user_id == row.id, SessionRow.token != keep)
        )
        await session.commit()
    return {"changed": True}


@router.post("/api/account/tokens", status_code=201)
async def new_api_token(account: NeedAccountDep, accounts: AccountsDep) -> dict[str, Any]:
    """A new API token for programs (shown this once); it replaces the account's earlier ones."""
    async with accounts.sessions() as session:
        row = await session.get(AccountRow, uuid.UUID(account.id))
        if row is None:
            raise AccountError("that account is gone", 401)
        await session.execute(sa.delete(ApiTokenRow).where(ApiTokenRow.user_id == row.id))
        await session.commit()
        token = await accounts.api_tokens(session).write_token(row)
    return {"token": token, "bot": account.bot}


@router.post("/api/account/claim")
async def claim(body: TokensRequest, account: NeedAccountDep, service: ServiceDep) -> dict[str, Any]:
    """The guest seats these tokens open (this browser's games) become the account's."""
    games = await asyncio.to_thread(
        service.hub.store.claim_seats, [token_hash(t) for t in body.tokens], account.id, account.name
    )
    for game_id in games:
        live = service.hub.live.get(game_id)
        if live is not None:
            await service.hub.broadcast(await service.hub.refresh(game_id))
    return {"claimed": games}


@router.post("/api/games/{game_id}/seat")
async def my_seat(game_id: str, account: NeedAccountDep, service: ServiceDep) -> dict[str, Any]:
    """A fresh token for the account's seat in a game (a game made for it, or one it opens in another
    browser or program); the seat's earlier token stops opening it."""
    await service.hub.get(game_id)
    token = new_token()
    seat = await asyncio.to_thread(service.hub.store.account_seat, game_id, account.id, token_hash(token))
    if seat is None:
        raise AccountError(f"{account.name} has no seat in game {game_id}", 404)
    await service.hub.broadcast(await service.hub.refresh(game_id))
    return {"id": game_id, "seat": seat, "token": token, "link": link(game_id, token)}


@router.get("/api/account/games")
async def account_games(
    account: NeedAccountDep,
    service: ServiceDep,
    status: Annotated[Literal["playing", "finished", "all"], Query()] = "all",
    limit: Annotated[int, Query(ge=1, le=200)] = 100,
) -> dict[str, Any]:
    """The account's games, newest first: what each is, who sits where, how it ended."""
    return await service.account_games(account, status=status, limit=limit)
