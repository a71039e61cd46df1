"""A client of the accounts API for the tests: it keeps its cookies (the session cookie is Secure,
which a cookie jar keeps from a plain-HTTP address, so they are kept here by name) and sends the
CSRF header as the page does."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from http.cookies import SimpleCookie
from typing import Any

from tussle.server.accounts import CSRF_COOKIE, CSRF_HEADER


class AccountClient:
    """One browser's (or program's) view of the server: its cookies, or its API token."""

    def __init__(self, url: str, *, token: str | None = None) -> None:
        self.url = url
        self.token = token
        self.cookies: dict[str, str] = {}
        self.set_cookie: list[str] = []
        """The Set-Cookie headers of the last answer, as sent."""

    def request(self, method: str, path: str, body: Any = None, *, csrf: bool = True) -> tuple[int, Any]:
        headers = {"content-type": "application/json"}
        if self.cookies:
            headers["cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        if csrf and CSRF_COOKIE in self.cookies:
            headers[CSRF_HEADER] = self.cookies[CSRF_COOKIE]
        if self.token is not None:
            headers["authorization"] = f"Bearer {self.token}"
        data = json.dumps(body).encode() if body is not None else (b"{}" if method == "POST" else None)
        request = urllib.request.Request(self.url + path, data=data, method=method, headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=20) as answer:
                self._keep(answer.headers.get_all("set-cookie") or [])
                return answer.status, json.loads(answer.read() or b"null")
        except urllib.error.HTTPError as exc:
            self._keep(exc.headers.get_all("set-cookie") or [])
            return exc.code, json.loads(exc.read() or b"null")

    def post(self, path: str, body: Any = None, *, csrf: bool = True) -> tuple[int, Any]:
        return self.request("POST", path, body, csrf=csrf)

    def get(self, path: str) -> tuple[int, Any]:
        return self.request("GET", path)

    def _keep(self, headers: list[str]) -> None:
        self.set_cookie = headers
        for header in headers:
            cookie = SimpleCookie()
            cookie.load(header)
            for name, morsel in cookie.items():
                if morsel["max-age"] == "0" or not morsel.value:
                    self.cookies.pop(name, None)
                else:
                    self.cookies[name] = morsel.value

    def sign_up(self, name: str, password: str = "correct horse", *, bot: bool = False) -> Any:
        self.get("/api/catalog")  # the first answer sets the CSRF cookie, as a page's load does
        status, answer = self.post(
            "/api/account/signup",
            {"name": name, "email": f"{name.lower()}@example.org", "password": password, "bot": bot},
        )
        assert status == 201, answer
        if bot:
            self.token = answer["token"]
        return answer
