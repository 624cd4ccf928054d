"""What an operator's machinery asks of a server process: is it alive (``GET /healthz``),
may a balancer send it people (``GET /readyz``), what does it measure (``GET /metrics``, on
a port of its own), and which request a log line is about (``X-Request-ID``).

Neither health route says anything about tables or people, and both are cheap: ``/healthz``
answers from memory; ``/readyz`` looks at the database (and the bus's Redis) at most once a
second however many balancers ask, every other asker sharing the last look. A stopping
process answers ``/readyz`` 503 ``stopping`` from the moment it is told to stop
(``GracefulServer``), before it lets go of its listener and hands its tables over.
docs/server.md, "Health, metrics and logs".
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
import time
from collections.abc import Iterable
from typing import Any

import uvicorn
from fastapi import APIRouter, FastAPI, Request
from fastapi.responses import JSONResponse

from cardtable.server.api import logs
from cardtable.server.api.metrics import REGISTRY, LiveCollector
from cardtable.server.cluster.tunnel import table_of

log = logging.getLogger("cardtable.server")
router = APIRouter()

#: seconds a look at the database and the bus is kept for the next askers of /readyz
READY_CACHE = 1.0
#: seconds a look may take before it counts as a failure
READY_TIMEOUT = 2.0


class Readiness:
    """Whether this process may be sent people: started, not stopping, its database and its
    bus reachable. ``reason`` is None when ready, else one word: ``starting``, ``stopping``,
    ``database`` or ``bus``."""

    def __init__(self) -> None:
        self.started = False
        self.stopping = False
        self.store: Any = None
        self.bus: Any = None
        self._looked = -1e9
        self._last: str | None = None  # what the last look found wrong
        self._look: asyncio.Task[str | None] | None = None
        self._failing = "database"

    @property
    def ready(self) -> bool:
        """Started, not stopping, and the last look found nothing wrong (the
        ``cardtable_ready`` gauge)."""
        return self.started and not self.stopping and self._last is None

    async def reason(self) -> str | None:
        if self.stopping:
            return "stopping"
        if not self.started:
            return "starting"
        if time.monotonic() - self._looked < READY_CACHE:
            return self._last
        if self._look is None or self._look.done():
            self._look = asyncio.create_task(self._check())
        return await asyncio.shield(self._look)

    async def _check(self) -> str | None:
        try:
            reason = await asyncio.wait_for(self._reach(), READY_TIMEOUT)
        except Exception:  # noqa: BLE001 - a timeout or a failure alike: not ready
            reason = self._failing
        self._looked, self._last = time.monotonic(), reason
        if reason is not None:
            log.warning("not ready: %s", reason)
        return reason

    async def _reach(self) -> str | None:
        self._failing = "database"
        await asyncio.to_thread(self.store.ping)
        if self.bus is not None:
            self._failing = "bus"
            if not self.bus.fresh():  # its heartbeat not renewed: its leases are in doubt
                return "bus"
            await self.bus.redis.ping()
        return None


@router.get("/healthz", include_in_schema=False)
async def healthz() -> dict[str, str]:
    """The process is alive and its event loop turns."""
    return {"status": "ok"}


@router.get("/readyz", include_in_schema=False)
async def readyz(request: Request) -> JSONResponse:
    """200 while this process may be sent people; 503 with one word of why not."""
    reason = await request.app.state.readiness.reason()
    if reason is None:
        return JSONResponse({"status": "ok"}, headers={"cache-control": "no-store"})
    return JSONResponse(
        {"status": "unready", "reason": reason},
        status_code=503,
        headers={"cache-control": "no-store", "retry-after": "1"},
    )


class RequestId:
    """ASGI middleware, outermost: every HTTP request and socket gets an id, the edge's
    ``X-Request-ID`` when it is a good one (at most 64 of ``A-Za-z0-9._-``), else a new one.
    It is put back in the request's headers (so a request forwarded to a table's holder
    carries it, and the holder logs the same id), sent back in the answer's headers, and
    named by every log line while the request runs, with the table of its path."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        given = next((v for k, v in scope["headers"] if k == logs.HEADER), None)
        rid = logs.request_id_from(given)
        header = (logs.HEADER, rid.encode())
        scope["headers"] = [h for h in scope["headers"] if h[0] != logs.HEADER] + [header]
        start = "http.response.start" if scope["type"] == "http" else "websocket.accept"

        async def send_with_id(event: dict[str, Any]) -> None:
            if event["type"] == start:
                event["headers"] = [*event.get("headers", []), header]
            await send(event)

        tokens = (logs.request_id.set(rid), logs.table_id.set(table_of(scope.get("path", ""))))
        try:
            await self.app(scope, receive, send_with_id)
        finally:
            logs.table_id.reset(tokens[1])
            logs.request_id.reset(tokens[0])


def live_gauges(app: FastAPI) -> LiveCollector:
    """The gauges read from this app's live objects at each scrape."""

    def read() -> Iterable[tuple[str, str, list[str], list[Any]]]:
        state = app.state
        hub = state.hub
        by_status: dict[tuple[str, str], int] = {}
        conns = seated = 0
        for table in list(hub.tables.values()):
            key = (table.game, table.status)
            by_status[key] = by_status.get(key, 0) + 1
            conns += len(table.conns)
            seated += sum(1 for c in table.conns if c.seat is not None)
        yield (
            "cardtable_tables",
            "Tables in this process's memory, by game and status",
            ["game", "status"],
            sorted(by_status.items()),
        )
        yield (
            "cardtable_connections",
            "Open table sockets at this process, seated or watching",
            ["kind"],
            [(("seated",), seated), (("spectator",), conns - seated)],
        )
        yield from pool_gauges("bot", hub.pool.stats())
        reviews = state.reviews
        yield from pool_gauges("review", reviews.runner.pool.stats())
        queue = getattr(reviews.queue, "queue", None)  # LocalReviews: its own queue
        yield (
            "cardtable_review_queue",
            "Game reviews waiting at this process for a review worker (with --bus they wait "
            "in Redis: not counted)",
            [],
            [((), queue.qsize() if queue is not None else 0)],
        )
        yield (
            "cardtable_db_commit_waiting",
            "Actions waiting for the next group commit",
            [],
            [((), len(hub.writer.pending))],
        )
        yield (
            "cardtable_ready",
            "1 while /readyz last answered ready, else 0",
            [],
            [((), 1 if state.readiness.ready else 0)],
        )

    return LiveCollector(read)


def pool_gauges(kind: str, stats: dict[str, int]) -> Iterable[tuple[str, str, list[str], Any]]:
    yield (
        f"cardtable_{kind}_workers",
        f"The {kind} worker processes: busy (with a call, or starting for one) and idle",
        ["state"],
        [(("busy",), stats["busy"]), (("idle",), stats["idle"])],
    )
    yield (
        f"cardtable_{kind}_calls_waiting",
        f"Calls waiting for a free {kind} worker",
        [],
        [((), stats["waiting"])],
    )


# -- the metrics' own port ----------------------------------------------------------------
#: bytes of a request's line and headers at the metrics port
METRICS_HEADERS = 8192
#: seconds a scraper has to send its request
METRICS_TIMEOUT = 5.0


async def start_metrics(app: FastAPI, host: str, port: int) -> asyncio.Server:
    """``GET /metrics`` on ``host:port``, apart from the public port: one answer per
    connection, on the event loop (a scrape reads the live tables where they live)."""
    from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

    collector = live_gauges(app)
    REGISTRY.register(collector)
    app.state.metrics_collector = collector

    async def answer(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), METRICS_TIMEOUT)
            method, path, *_ = head.split(b"\r\n", 1)[0].split(b" ") + [b"", b""]
            if method in (b"GET", b"HEAD") and path.split(b"?")[0] == b"/metrics":
                body, status, kind = generate_latest(REGISTRY), b"200 OK", CONTENT_TYPE_LATEST
            else:
                body, status, kind = b"GET /metrics\n", b"404 Not Found", "text/plain"
            writer.write(
                b"HTTP/1.1 " + status + b"\r\ncontent-type: " + kind.encode()
                + b"\r\ncontent-length: " + str(len(body)).encode()
                + b"\r\nconnection: close\r\n\r\n" + (body if method != b"HEAD" else b"")
            )  # fmt: skip
            await writer.drain()
        except (TimeoutError, asyncio.IncompleteReadError, asyncio.LimitOverrunError):
            pass
        except OSError:
            pass
        finally:
            writer.close()
            with contextlib.suppress(Exception):
                await writer.wait_closed()

    return await asyncio.start_server(answer, host, port, limit=METRICS_HEADERS)


async def stop_metrics(app: FastAPI, server: asyncio.Server | None) -> None:
    if server is not None:
        server.close()
        with contextlib.suppress(Exception):
            await server.wait_closed()
    collector = getattr(app.state, "metrics_collector", None)
    if collector is not None:
        REGISTRY.unregister(collector)


# -- stopping -----------------------------------------------------------------------------
class GracefulServer(uvicorn.Server):
    """uvicorn's server, told to stop (SIGTERM, SIGINT): ``/readyz`` turns 503 at once;
    then, after ``drain`` seconds in which it still serves (a balancer's next look sees it
    unready and sends nobody new), uvicorn stops as it does: its listener closed, the
    lifespan's end (which hands the tables over to the other processes), its connections.
    A second signal stops it at once."""

    def __init__(self, config: uvicorn.Config, readiness: Readiness, drain: float) -> None:
        super().__init__(config)
        self.readiness, self.drain = readiness, drain
        self._timer: threading.Timer | None = None

    def handle_exit(self, sig: int, frame: Any) -> None:
        first = not self.readiness.stopping
        self.readiness.stopping = True
        if first and self.drain > 0:
            log.info("stopping: unready now, closing in %g s", self.drain)
            self._timer = threading.Timer(self.drain, super().handle_exit, (sig, frame))
            self._timer.daemon = True
            self._timer.start()
            return
        if self._timer is not None:
            self._timer.cancel()
        super().handle_exit(sig, frame)
