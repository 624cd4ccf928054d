"""What one HTTP client may take from the server (docs/server.md, "Limits").

- :class:`RateLimiter`: token buckets per key (a player, a client address), kept in memory and
  bounded in size, for the costly or unbounded routes (hints, the solver, new players).
- :class:`BodyLimit`: an ASGI middleware that refuses a request body over ``MAX_BODY`` bytes
  with 413, before reading it when ``Content-Length`` says so and as soon as a chunked body
  passes it, and a body that is not all there ``BODY_TIMEOUT`` seconds after its headers (408).
- :func:`guarded_http_protocol`: uvicorn's HTTP protocol with a header timeout and a header
  size limit. uvicorn times a connection only between requests (``timeout_keep_alive``, armed
  once a response is sent): a connection that never completes its first request's headers was
  held for ever, and 1,050 of them used up the server's file descriptors.
- :func:`raise_open_file_limit`: the process's soft limit on open files up to its hard limit.
- :class:`SharedCounts`: with several server processes (``serve --bus``), what each key used
  at every process, so that a limit holds whichever process a client reaches.
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
import math
import time
from collections import OrderedDict
from typing import Any

from cardtable.core.words import wire

#: bytes of a request body (the API's bodies are a few hundred bytes)
MAX_BODY = 64 * 1024
#: seconds to receive a whole request body once its headers are in
BODY_TIMEOUT = 10.0
#: seconds a connection has to send a request's headers: from its start, or from the first
#: byte of each further request on a kept-alive connection
HEADER_TIMEOUT = 10.0
#: bytes of a request line and headers together
MAX_HEADER_BYTES = 32 * 1024
#: keys a rate limiter remembers; the least recently seen are forgotten first
MAX_KEYS = 10_000


#: new players (POST /api/me without a token) per client address: a burst of this many, then
#: this many a minute (docs/server.md, "Limits"); 0: no limit
NEW_PLAYERS_PER_MINUTE = 20


class TooMany(Exception):
    """A client over a limit: HTTP ``status`` with ``{"error": code, "message",
    "retry_after"}`` and a ``Retry-After`` header (see :func:`too_many_response`)."""

    def __init__(self, code: str, message: str, retry_after: float, status: int = 429) -> None:
        super().__init__(message)
        self.code, self.message, self.status = code, message, status
        self.retry_after = round(max(retry_after, 0.01), 2)


def too_many_response(e: TooMany) -> Any:
    from fastapi.responses import JSONResponse

    from cardtable.server.api.metrics import note_refusal

    note_refusal(e.code)
    return JSONResponse(
        {
            "error": e.code,
            "message": e.message,
            "msg": wire(e.message),
            "retry_after": e.retry_after,
        },
        status_code=e.status,
        headers={"retry-after": str(max(1, math.ceil(e.retry_after)))},
    )


#: seconds between two exchanges of the counts with the other processes
SHARE_EVERY = 0.25


class SharedCounts:
    """Use counted across server processes in Redis, per limit and key, in fixed windows.

    Each process decides at once from its own token bucket, as a single process does, and
    also notes every use here. Every ``SHARE_EVERY`` seconds the uses are added up in Redis
    and the totals of every key this process used in its current window are read back (one
    pipeline); a key whose window is full over all processes is refused here until the window
    ends. A window is ``burst / rate`` seconds, the time a bucket takes to refill: over all
    processes a key gets at most ``burst`` in a window, plus what the processes let through
    in the ``SHARE_EVERY`` seconds before they knew (and a first use at a process that had
    not seen the key yet). The per-message path costs a dictionary update; Redis is asked
    four times a second."""

    def __init__(self, redis: Any, prefix: str = "ct:rl:") -> None:
        self.redis = redis
        self.prefix = prefix
        #: (limit, key, window seconds, allowed) -> uses not yet shared
        self.pending: dict[tuple[str, str, float, int], int] = {}
        #: the same entries -> the end (wall time) of the window in which they were used
        self.watched: dict[tuple[str, str, float, int], float] = {}
        #: (limit, key) -> wall time until which the key is refused everywhere
        self.blocked: dict[tuple[str, str], float] = {}
        self._task: asyncio.Task[None] | None = None

    def note(self, limit: str, key: str, window: float, allowed: int) -> None:
        entry = (limit, key, window, allowed)
        self.pending[entry] = self.pending.get(entry, 0) + 1

    def wait(self, limit: str, key: str, now: float | None = None) -> float:
        """Seconds the key is still refused for over all processes (0: not refused)."""
        until = self.blocked.get((limit, key))
        if until is None:
            return 0.0
        left = until - (time.time() if now is None else now)
        if left <= 0:
            del self.blocked[(limit, key)]
            return 0.0
        return left

    def start(self) -> None:
        self._task = asyncio.create_task(self._loop())

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()

    async def _loop(self) -> None:
        while True:
            await asyncio.sleep(SHARE_EVERY)
            try:
                await self.share()
            except asyncio.CancelledError:
                raise
            except Exception:  # Redis away for a moment: keep the counts for the next time
                continue

    def _name(self, limit: str, key: str, window: float, now: float) -> tuple[str, float]:
        slot = int(now // window)
        return f"{self.prefix}{limit}:{key}:{slot}", (slot + 1) * window

    async def share(self, now: float | None = None) -> None:
        """Add this process's uses to the windows in Redis, read the totals of the keys it
        used this window, and refuse those whose window is full everywhere."""
        now = time.time() if now is None else now
        self.watched = {e: end for e, end in self.watched.items() if end > now}
        entries, self.pending = self.pending, {}
        if not entries and not self.watched:
            return
        pipe = self.redis.pipeline(transaction=False)
        asked = []
        for entry, n in entries.items():
            limit, key, window, _allowed = entry
            name, end = self._name(limit, key, window, now)
            pipe.incrby(name, n)
            pipe.expire(name, int(window * 2) + 1)
            self.watched[entry] = end
            asked.append((entry, end))
        for entry, end in self.watched.items():
            if entry not in entries:
                pipe.get(self._name(entry[0], entry[1], entry[2], now)[0])
                asked.append((entry, end))
        try:
            answers = await pipe.execute()
        except Exception:
            for entry, n in entries.items():  # not shared: next time
                self.pending[entry] = self.pending.get(entry, 0) + n
            raise
        totals = answers[: 2 * len(entries) : 2] + answers[2 * len(entries) :]
        for ((limit, key, _window, allowed), end), total in zip(asked, totals, strict=True):
            if total is not None and int(total) >= allowed:
                self.blocked[(limit, key)] = end
        if len(self.blocked) > MAX_KEYS:
            self.blocked = {k: v for k, v in self.blocked.items() if v > now}


class RateLimiter:
    """Token buckets: each key may do ``burst`` things at once, then ``rate`` a second.

    In memory, at most ``max_keys`` keys: a forgotten key starts again with a full bucket,
    which gives nobody more than ``burst`` extra (and only once the limiter is full).
    ``share(counts, name)``: count across server processes too (``SharedCounts``)."""

    def __init__(self, rate: float, burst: int, max_keys: int = MAX_KEYS) -> None:
        if rate <= 0 or burst < 1:
            raise ValueError("a rate limiter needs a rate above 0 and a burst of at least 1")
        self.rate = rate
        self.burst = burst
        self.max_keys = max_keys
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()  # tokens, when
        self.shared: SharedCounts | None = None
        self.name = ""

    def share(self, counts: SharedCounts, name: str) -> None:
        self.shared, self.name = counts, name

    def wait(self, key: str, now: float | None = None) -> float:
        """0, taking one token, if ``key`` may go now; else the seconds until it may."""
        if self.shared is not None:
            wait = self.shared.wait(self.name, key)
            if wait:
                return wait
        now = time.monotonic() if now is None else now
        tokens, then = self._buckets.pop(key, (float(self.burst), now))
        tokens = min(float(self.burst), tokens + (now - then) * self.rate)
        wait = 0.0 if tokens >= 1 else (1 - tokens) / self.rate
        self._buckets[key] = (tokens - 1 if not wait else tokens, now)  # most recent last
        while len(self._buckets) > self.max_keys:
            self._buckets.popitem(last=False)
        if not wait and self.shared is not None:
            self.shared.note(self.name, key, self.burst / self.rate, self.burst)
        return wait

    def __len__(self) -> int:
        return len(self._buckets)


def address_key(host: str | None) -> str:
    """The rate-limit key of a client address: the address, or its /64 for IPv6 (one
    machine or home is given a whole /64, so counting single IPv6 addresses counts nothing)."""
    if not host:
        return "unknown"
    try:
        address = ipaddress.ip_address(host)
    except ValueError:  # e.g. "testclient" in tests
        return host[:64]
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:  # ::ffff:a.b.c.d is the IPv4 address a.b.c.d
            return str(address.ipv4_mapped)
        return str(ipaddress.ip_network(f"{address}/64", strict=False))
    return str(address)


# -- request bodies --------------------------------------------------------------------------


class BodyLimit:
    """ASGI middleware: at most ``max_body`` bytes of request body, all of it within
    ``timeout`` seconds. The body is read here, before the app runs, and handed on whole.
    An address (path or query) with a NUL character is refused here too, a socket's too."""

    def __init__(self, app: Any, max_body: int = MAX_BODY, timeout: float = BODY_TIMEOUT) -> None:
        self.app = app
        self.max_body = max_body
        self.timeout = timeout

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] in ("http", "websocket") and has_nul(scope):
            # no id, name or game holds one, and PostgreSQL's text refuses it (a 500 there)
            if scope["type"] == "websocket":
                await send({"type": "websocket.close", "code": 1008})  # the handshake: 403
            else:
                await _refuse(send, 400, "bad_request", "an address may not hold a NUL character")
            return
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        length = _header(scope, b"content-length")
        if length is not None:
            if not length.isdigit():
                await _refuse(send, 400, "bad_request", "Content-Length is not a number")
                return
            if int(length) > self.max_body:  # refused unread
                await _refuse(send, 413, "too_large", self._too_large())
                return
        body = bytearray()
        try:
            async with asyncio.timeout(self.timeout):
                while True:
                    message = await receive()
                    if message["type"] == "http.disconnect":
                        return  # the client left: nobody to answer
                    body += message.get("body", b"")
                    if len(body) > self.max_body:  # a chunked body: stop reading here
                        await _refuse(send, 413, "too_large", self._too_large())
                        return
                    if not message.get("more_body", False):
                        break
        except TimeoutError:
            await _refuse(
                send, 408, "request_timeout", f"the request body took over {self.timeout:g} s"
            )
            return
        delivered = False

        async def replay() -> dict:
            nonlocal delivered
            if delivered:
                return await receive()  # from here on: http.disconnect, when it comes
            delivered = True
            return {"type": "http.request", "body": bytes(body), "more_body": False}

        await self.app(scope, replay, send)

    def _too_large(self) -> str:
        return f"a request body may be at most {self.max_body} bytes"


def _header(scope: dict, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key == name:
            return value.decode("latin-1").strip()
    return None


def has_nul(scope: dict) -> bool:
    """A NUL character in the request's path or query string (percent-encoded or not)."""
    query = scope.get("query_string", b"")
    return "\x00" in scope["path"] or b"%00" in query or b"\x00" in query


async def _refuse(send: Any, status: int, code: str, message: str) -> None:
    """A typed error that also closes the connection (the rest of the body is never read)."""
    body = json.dumps({"error": code, "message": message}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"connection", b"close"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


# -- request headers -------------------------------------------------------------------------


def guarded_http_protocol(
    header_timeout: float = HEADER_TIMEOUT, max_header_bytes: int = MAX_HEADER_BYTES
) -> type[asyncio.Protocol]:
    """uvicorn's httptools HTTP protocol with a header timeout and a header size limit.

    A connection must send each request's line and headers within ``header_timeout`` seconds
    (counted from the connection's start, then from the first byte of each further request),
    in at most ``max_header_bytes`` bytes; else it gets 408 or 431 and is closed. Once the
    headers are in, the body is the app's (``BodyLimit``) and a websocket is the websocket's.
    """
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

    class GuardedHttpToolsProtocol(HttpToolsProtocol):
        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self._header_timer: asyncio.TimerHandle | None = None
            self._in_headers = False
            self._header_bytes = 0
            self._arm_header_timer()

        def _arm_header_timer(self) -> None:
            if self._header_timer is None:
                self._header_timer = self.loop.call_later(header_timeout, self._headers_late)

        def _disarm_header_timer(self) -> None:
            if self._header_timer is not None:
                self._header_timer.cancel()
                self._header_timer = None

        def data_received(self, data: bytes) -> None:
            super().data_received(data)
            if self._in_headers and not self.transport.is_closing():
                # still inside a request's headers after this chunk: all of it was headers
                self._header_bytes += len(data)
                if self._header_bytes > max_header_bytes:
                    self._give_up(
                        431,
                        b"Request Header Fields Too Large",
                        f"request headers over {max_header_bytes} bytes",
                    )

        def on_message_begin(self) -> None:
            super().on_message_begin()
            self._in_headers = True
            self._header_bytes = 0
            self._arm_header_timer()

        def on_headers_complete(self) -> None:
            self._in_headers = False
            self._disarm_header_timer()
            super().on_headers_complete()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            # between requests uvicorn's keep-alive timer runs; ours starts at the next byte
            if not self._in_headers:
                self._disarm_header_timer()

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm_header_timer()
            super().connection_lost(exc)

        def _headers_late(self) -> None:
            self._header_timer = None
            self._give_up(
                408, b"Request Timeout", f"request headers not complete within {header_timeout:g} s"
            )

        def _give_up(self, status: int, reason: bytes, message: str) -> None:
            self._disarm_header_timer()
            if self.transport.is_closing():
                return
            # answer only when no response of an earlier request is being written
            if self.cycle is None or self.cycle.response_complete:
                body = json.dumps(
                    {
                        "error": "request_timeout" if status == 408 else "headers_too_large",
                        "message": message,
                    }
                ).encode()
                self.transport.write(
                    b"HTTP/1.1 %d %s\r\ncontent-type: application/json\r\n"
                    b"content-length: %d\r\nconnection: close\r\n\r\n%s"
                    % (status, reason, len(body), body)
                )
            self.transport.close()

    return GuardedHttpToolsProtocol


# -- the process -----------------------------------------------------------------------------


def raise_open_file_limit() -> tuple[int, int] | None:
    """Raise the soft limit on open files to the hard limit (every connection is one file;
    a soft limit of 1,024 is common). ``(soft, hard)`` after, or None where there is none."""
    try:
        import resource
    except ImportError:  # not on Windows
        return None
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or soft < hard:
        target = hard if hard != resource.RLIM_INFINITY else max(soft, 1 << 20)
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
        except (ValueError, OSError):  # e.g. macOS refuses more than OPEN_MAX
            pass
    return soft, hard
