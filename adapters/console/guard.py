"""Who may look: a secret token, then a browser session; and no write from another site.

As a notebook server does, the console prints a URL with a random token (or takes one from
the environment). The first request that carries it gets an HttpOnly, SameSite=Strict cookie
holding a random session id signed with the token, and is redirected to the same page
without the token (so the token stays out of history and logs). Every later request needs
that cookie; nothing else is served, static files included.

Writes (any method but GET/HEAD) are refused in read-only mode, when the browser says they
come from another site (``Origin`` not this console's, ``Sec-Fetch-Site: cross-site``), and
when the form's ``csrf`` field is not the session's token (``forms.checked_form``).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass, field
from http.cookies import SimpleCookie
from urllib.parse import urlencode

from starlette.datastructures import URL, Headers, QueryParams
from starlette.responses import PlainTextResponse, RedirectResponse, Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

COOKIE = "eden_console"
SAFE_METHODS = {"GET", "HEAD"}
HEADERS = {
    "content-security-policy": (
        "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; "
        "frame-ancestors 'none'; base-uri 'none'"
    ),
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
    "referrer-policy": "same-origin",  # no-referrer would make a form's Origin "null"
    "cache-control": "no-store",
}


def new_token() -> str:
    return secrets.token_urlsafe(24)


@dataclass(frozen=True)
class Guard:
    """The console's secret and mode; the signatures every check compares against."""

    token: str
    read_only: bool = False
    allowed_hosts: frozenset[str] = field(default_factory=frozenset)  # empty: any Host

    def _sign(self, purpose: str, value: str) -> str:
        mac = hmac.new(self.token.encode(), f"{purpose}:{value}".encode(), hashlib.sha256)
        return mac.hexdigest()

    def new_cookie(self) -> str:
        session = secrets.token_urlsafe(16)
        return f"{session}.{self._sign('session', session)}"

    def session_of(self, cookie: str | None) -> str | None:
        """The session id a cookie carries, if this console signed it."""
        session, _, signature = (cookie or "").partition(".")
        expected = self._sign("session", session)
        return session if session and hmac.compare_digest(signature, expected) else None

    def csrf_for(self, session: str) -> str:
        return self._sign("csrf", session)

    def token_matches(self, given: str) -> bool:
        return hmac.compare_digest(given.encode(), self.token.encode())


class GuardMiddleware:
    """Checks every request before the app sees it; adds the security headers to every answer."""

    def __init__(self, app: ASGIApp, guard: Guard) -> None:
        self.app = app
        self.guard = guard

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        secure = _with_headers(send)
        refused = self._refusal(scope)
        if refused is not None:
            await refused(scope, receive, secure)
            return
        await self.app(scope, receive, secure)

    def _refusal(self, scope: Scope) -> Response | None:
        headers = Headers(scope=scope)
        host = headers.get("host", "")
        if self.guard.allowed_hosts and host.rsplit(":", 1)[0] not in self.guard.allowed_hosts:
            return PlainTextResponse("unknown host", status_code=400)
        url = URL(scope=scope)
        given = QueryParams(url.query).get("token")
        if given is not None:
            return self._welcome(url, given, scope["method"])
        session = self.guard.session_of(_cookie(headers))
        if session is None:
            return PlainTextResponse(
                "This console needs its token: open the URL it printed at start "
                "(http://…/?token=…).",
                status_code=401,
            )
        scope.setdefault("state", {})["csrf"] = self.guard.csrf_for(session)
        if scope["method"] not in SAFE_METHODS:
            return self._write_refusal(headers, host)
        return None

    def _welcome(self, url: URL, given: str, method: str) -> Response:
        """The token once: a session cookie, and the same page without the token."""
        if method not in SAFE_METHODS or not self.guard.token_matches(given):
            return PlainTextResponse("wrong token", status_code=401)
        rest = [(k, v) for k, v in QueryParams(url.query).multi_items() if k != "token"]
        target = url.path + (f"?{urlencode(rest)}" if rest else "")
        response = RedirectResponse(target, status_code=303)
        response.set_cookie(
            COOKIE, self.guard.new_cookie(), httponly=True, samesite="strict", path="/"
        )
        return response

    def _write_refusal(self, headers: Headers, host: str) -> Response | None:
        if self.guard.read_only:
            return PlainTextResponse("this console is read-only", status_code=403)
        origin = headers.get("origin")
        own = {f"http://{host}", f"https://{host}"}
        if (origin is not None and origin not in own) or headers.get("sec-fetch-site") in {
            "cross-site",
            "same-site",
        }:
            return PlainTextResponse("cross-site write refused", status_code=403)
        return None


def _cookie(headers: Headers) -> str | None:
    jar: SimpleCookie = SimpleCookie()
    try:
        jar.load(headers.get("cookie", ""))
    except Exception:  # a malformed cookie header is no cookie
        return None
    morsel = jar.get(COOKIE)
    return morsel.value if morsel is not None else None


def _with_headers(send: Send) -> Send:
    async def secure(message: Message) -> None:
        if message["type"] == "http.response.start":
            raw = list(message.get("headers", []))
            raw += [(k.encode(), v.encode()) for k, v in HEADERS.items()]
            message = {**message, "headers": raw}
        await send(message)

    return secure
