"""Web security: which pages may talk to the server, the headers on every answer, private files.

A browser sends the player's cookie with every request to this server, whichever page asks,
and a websocket is not bound by the same-origin policy. So:

- a websocket handshake or a state-changing request (any method but GET, HEAD and OPTIONS)
  that carries an ``Origin`` other than an allowed one is refused: the server's own origin (the
  scheme and ``Host`` the request came with; another port is another origin) and those given
  with ``--allowed-origin``. Non-browser clients (bots, tests) send no ``Origin``: allowed;
- a state-changing request must also carry a JSON body (``content-type: application/json``) or
  the header ``x-cardtable`` (or ``x-cardtable-token``): a plain HTML form or a no-cors fetch
  can send neither, and a cross-origin fetch that sends them needs a CORS preflight, which this
  server never grants;
- every HTTP answer carries a strict Content-Security-Policy and the usual hardening headers.

The database files are made private by ``cardtable.paths.private_sqlite``.

See docs/server.md, "Security".
"""

from __future__ import annotations

import json
import re
from typing import Any
from urllib.parse import urlsplit

from starlette.types import ASGIApp, Message, Receive, Scope, Send

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
#: either header makes a request one that a page on another origin cannot send without a
#: CORS preflight (which this server never answers with permission)
CSRF_HEADERS = (b"x-cardtable", b"x-cardtable-token")
DEFAULT_PORTS = {"http": 80, "https": 443}
#: a Host header safe to repeat inside the CSP (no spaces, quotes or semicolons)
HOST = re.compile(r"^[A-Za-z0-9.\-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$")

#: the pages load only their own scripts and style sheets: no inline script, no inline style
#: attribute (the pages set styles through the CSSOM, which the policy allows)
CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
    "font-src 'self'; connect-src 'self'{ws}; base-uri 'none'; form-action 'self'; "
    "frame-ancestors 'none'"
)
HEADERS = [
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"same-origin"),
    (b"cross-origin-opener-policy", b"same-origin"),
]


def normalize_origin(text: str) -> str | None:
    """``scheme://host[:port]`` in lower case without a default port; None if ``text`` is not
    an http(s) origin (``null``, a path, another scheme)."""
    try:
        parts = urlsplit(text.strip())
        port = parts.port
    except ValueError:
        return None
    scheme = {"ws": "http", "wss": "https"}.get(parts.scheme.lower(), parts.scheme.lower())
    if scheme not in DEFAULT_PORTS or not parts.hostname:
        return None
    host = parts.hostname.lower()
    if ":" in host:  # an IPv6 address
        host = f"[{host}]"
    return f"{scheme}://{host}" + (f":{port}" if port and port != DEFAULT_PORTS[scheme] else "")


def own_origin(scope: Scope) -> str | None:
    """The origin this request was sent to: its scheme (``https`` behind a TLS proxy that
    uvicorn trusts, see ``--forwarded-allow-ips``) and its ``Host`` header."""
    host = _header(scope, b"host")
    if not host or not HOST.match(host):
        return None
    return normalize_origin(f"{scope.get('scheme', 'http')}://{host}")


class SecurityMiddleware:
    """Refuses foreign origins and form-like posts, adds the security headers (pure ASGI, so
    it also guards the websocket handshake and costs no extra task per request)."""

    def __init__(self, app: ASGIApp, allowed_origins: list[str] | None = None) -> None:
        self.app = app
        self.allowed = set()
        for origin in allowed_origins or []:
            normal = normalize_origin(origin)
            if normal is None:
                raise ValueError(f"not an origin (scheme://host[:port]): {origin!r}")
            self.allowed.add(normal)

    def origin_allowed(self, scope: Scope) -> bool:
        origin = _header(scope, b"origin")
        if origin is None:  # not sent by a browser: bots, tests, curl
            return True
        normal = normalize_origin(origin)  # "null" (a sandboxed or file page) is never allowed
        return normal is not None and (normal == own_origin(scope) or normal in self.allowed)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            if not self.origin_allowed(scope):
                await refuse_websocket(scope, receive, send)
                return
            await self.app(scope, receive, send)
            return
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if scope["method"] not in SAFE_METHODS:
            if not self.origin_allowed(scope):
                await refuse(
                    send,
                    scope,
                    403,
                    "bad_origin",
                    "requests from a page on another "
                    "origin are refused (allowed: this server's own origin and "
                    "--allowed-origin)",
                )
                return
            if not _csrf_safe(scope):
                await refuse(
                    send,
                    scope,
                    403,
                    "csrf",
                    "a POST needs a JSON body "
                    "(content-type: application/json) or the header x-cardtable: 1",
                )
                return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = add_headers(list(message.get("headers", [])), scope)
            await send(message)

        await self.app(scope, receive, send_with_headers)


def add_headers(headers: list[tuple[bytes, bytes]], scope: Scope) -> list[tuple[bytes, bytes]]:
    """The security headers, each unless the answer already has it."""
    present = {name.lower() for name, _ in headers}
    for name, value in [(b"content-security-policy", csp(scope).encode()), *HEADERS]:
        if name not in present:
            headers.append((name, value))
    return headers


def csp(scope: Scope) -> str:
    """The policy; the websocket URL is named too, for browsers where ``'self'`` in
    ``connect-src`` does not cover ``ws:``/``wss:`` (CSP level 2)."""
    host = _header(scope, b"host")
    if not host or not HOST.match(host):
        return CSP.format(ws="")
    scheme = "wss" if scope.get("scheme") == "https" else "ws"
    return CSP.format(ws=f" {scheme}://{host}")


async def refuse(send: Send, scope: Scope, status: int, code: str, message: str) -> None:
    body = json.dumps({"error": code, "message": message}).encode()
    headers = add_headers(
        [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())],
        scope,
    )
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


async def refuse_websocket(scope: Scope, receive: Receive, send: Send) -> None:
    """Refuse the handshake before it is accepted: the client gets HTTP 403 with a typed JSON
    body where the server supports it (uvicorn does), else close code 4403 (also a 403)."""
    message = await receive()  # websocket.connect
    if message["type"] != "websocket.connect":
        return
    if "websocket.http.response" in scope.get("extensions", {}):
        body = json.dumps(
            {
                "error": "bad_origin",
                "message": "websockets from a page on another origin are refused",
            }
        ).encode()
        await send(
            {
                "type": "websocket.http.response.start",
                "status": 403,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                ],
            }
        )
        await send({"type": "websocket.http.response.body", "body": body})
        return
    await send({"type": "websocket.close", "code": 4403, "reason": "bad_origin"})


def _csrf_safe(scope: Scope) -> bool:
    """A JSON body or one of our own headers: nothing a form or a no-cors fetch can send."""
    content_type = _header(scope, b"content-type") or ""
    if content_type.split(";")[0].strip().lower() == "application/json":
        return True
    return any(name in CSRF_HEADERS and value for name, value in scope["headers"])


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", []):
        if key == name:
            return value.decode("latin-1")
    return None


def install(
    app: Any, allowed_origins: list[str] | None = None, secure_cookies: bool = False
) -> None:
    """Add the middleware to ``app`` and remember whether cookies are always ``Secure``."""
    app.add_middleware(SecurityMiddleware, allowed_origins=allowed_origins)
    app.state.secure_cookies = secure_cookies


def cookie_secure(request: Any) -> bool:
    """Mark the cookie ``Secure`` when the page came over HTTPS (directly, or through a TLS
    proxy uvicorn trusts), or always with ``--secure-cookies``."""
    return (
        bool(getattr(request.app.state, "secure_cookies", False)) or request.url.scheme == "https"
    )
