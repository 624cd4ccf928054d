"""Requests for a table held by another process, forwarded to it over the bus (``bus.py``).

With several processes behind one load balancer, a person's browser reaches any of them, but
a table lives in exactly one (its lease holder). ``TableRouter`` is the outermost part of the
app: for a request about one table (``/api/tables/<id>...`` and ``/ws/tables/<id>``) it claims
the table's lease; when another live process holds it, the request is forwarded there as
ASGI events over the bus, and that process runs it through its own app exactly as if the
client had connected to it (its limits, redaction and checks all apply there). The answer
comes back the same way. Everything else (the lobby, players, My games, pages) is answered
where it arrives, from the shared database: only a table's holder loads it (``Hub.load``
refuses elsewhere), and a forwarded request is run only while its target still holds the
table (else 503 ``moved``: try again).

Why forward rather than tell the client where to connect: behind a load balancer a client
cannot choose its process, and a table's holder changes when a process dies; forwarding
keeps every client on the one address it knows (Colyseus and lila-ws forward over Redis
too). The cost is one Redis round trip each way per message, small beside a person's move.

When the holder dies, the process that forwarded a table socket closes it with code 1012
("service restart"); the browser reconnects by itself and reaches the table's new holder. A
forwarded request in flight when its holder dies gets 503 ``moved`` (try again).

Frames on the bus (each a JSON object to one process): ``open`` (a request's ASGI scope),
``recv`` (an event from the client), ``gone`` (the client left) go to the holder; ``send``
(an event for the client) and ``end`` (the holder's app is done) come back.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import logging
import re
import secrets
from typing import Any

import orjson

from cardtable.server.api import logs
from cardtable.server.api.metrics import FORWARDS
from cardtable.server.cluster.bus import Bus
from cardtable.server.storage.store import TABLE_ID

log = logging.getLogger("cardtable.server")

#: the requests about one table: its id is the third part of the path
TABLE_PATH = re.compile(rf"^/(?:api|ws)/tables/({TABLE_ID.pattern})(?:/|$)")


#: events waiting for a slow client at the forwarding process before it is dropped
RELAY_BUFFER = 256
#: events from a client waiting at the holder before the client is dropped (a flood)
HOLDER_BUFFER = 256
#: seconds a forwarded HTTP request may wait for its answer
HTTP_TIMEOUT = 20.0
#: seconds the holder has to end a forwarded socket its client has left
GONE_WAIT = 5.0
#: seconds between two looks at whether the processes at the other end are alive
WATCH_EVERY = 0.5
#: close code for a table socket whose holder went away: reconnect (RFC 6455 "service restart")
CLOSE_MOVED = 1012
#: the parts of an ASGI scope that cross (the rest is the server's own)
SCOPE_KEYS = (
    "type",
    "asgi",
    "http_version",
    "method",
    "scheme",
    "path",
    "raw_path",
    "root_path",
    "query_string",
    "headers",
    "client",
    "server",
    "subprotocols",
)


def pack(value: Any) -> Any:
    """An ASGI event or scope as JSON: bytes as ``{"$b": base64}``, tuples as lists."""
    if isinstance(value, bytes):
        return {"$b": base64.b64encode(value).decode()}
    if isinstance(value, dict):
        return {k: pack(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [pack(v) for v in value]
    return value


def unpack(value: Any) -> Any:
    if isinstance(value, dict):
        if len(value) == 1 and "$b" in value:
            return base64.b64decode(value["$b"])
        return {k: unpack(v) for k, v in value.items()}
    if isinstance(value, list):
        return [unpack(v) for v in value]
    return value


def table_of(path: str) -> str | None:
    match = TABLE_PATH.match(path)
    return match.group(1) if match else None


class Tunnel:
    """Both ends of forwarded requests for one process: ``forward`` at the process a client
    reached, and the holder's sessions that run forwarded requests through ``target`` (the
    app below the router)."""

    def __init__(self, bus: Bus, target: Any, app: Any) -> None:
        self.bus = bus
        self.target = target
        self.app = app  # what the routes find as ``request.app``
        #: forwarding end: session id -> (holder, events from the holder)
        self.outgoing: dict[str, tuple[str, asyncio.Queue[dict[str, Any]]]] = {}
        #: holder end: session id -> (forwarding process, events from the client, task)
        self.incoming: dict[str, tuple[str, asyncio.Queue[dict[str, Any]], asyncio.Task]] = {}
        self._watcher: asyncio.Task[None] | None = None
        bus.on_message = self.on_message

    def start(self) -> None:
        self._watcher = asyncio.create_task(self._watch())

    async def close(self) -> None:
        if self._watcher is not None:
            self._watcher.cancel()
        for _, _, task in list(self.incoming.values()):
            task.cancel()

    # -- the bus ----------------------------------------------------------------------------
    def on_message(self, message: dict[str, Any]) -> None:
        kind, sid = message.get("t"), message.get("id")
        if not isinstance(sid, str):
            return
        if kind in ("send", "end"):
            out = self.outgoing.get(sid)
            if out is not None:
                with contextlib.suppress(asyncio.QueueFull):  # the forwarder sees it full
                    out[1].put_nowait(message)
        elif kind == "open":
            self._open(sid, message["from"], unpack(message["scope"]))
        elif kind in ("recv", "gone"):
            inc = self.incoming.get(sid)
            if inc is None:
                return
            event = (
                unpack(message["ev"])
                if kind == "recv"
                else {
                    "type": "websocket.disconnect" if "websocket" in sid else "http.disconnect",
                    "code": 1001,
                }
            )
            try:
                inc[1].put_nowait(event)
            except asyncio.QueueFull:  # a flood: the client is cut off
                inc[2].cancel()

    async def _watch(self) -> None:
        """Processes at the other end of a session that died: the forwarding end closes its
        client's socket (it reconnects to the new holder), the holder's session ends."""
        while True:
            await asyncio.sleep(WATCH_EVERY)
            try:
                peers = {pid for pid, _ in self.outgoing.values()}
                peers |= {pid for pid, _, _ in self.incoming.values()}
                alive = await self.bus.alive_many(sorted(peers))
            except asyncio.CancelledError:
                raise
            except Exception:
                log.warning("watching the tunnel's processes", exc_info=True)
                continue
            for pid, queue in list(self.outgoing.values()):
                if not alive.get(pid, True):
                    with contextlib.suppress(asyncio.QueueFull):
                        queue.put_nowait({"t": "lost"})
            for sid, (pid, _, task) in list(self.incoming.items()):
                if not alive.get(pid, True):
                    task.cancel()
                    self.incoming.pop(sid, None)

    # -- the holder's end -------------------------------------------------------------------
    def _open(self, sid: str, origin: str, scope: dict[str, Any]) -> None:
        scope = {k: scope[k] for k in SCOPE_KEYS if k in scope}
        for key in ("client", "server"):
            if isinstance(scope.get(key), list):
                scope[key] = tuple(scope[key])
        scope["headers"] = [tuple(h) for h in scope.get("headers", [])]
        scope["app"] = self.app
        scope["state"] = {}
        queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue(HOLDER_BUFFER)
        FORWARDS.labels("run", scope.get("type", "http")).inc()

        async def receive() -> dict[str, Any]:
            return await queue.get()

        async def send(event: dict[str, Any]) -> None:
            await self.bus.send(origin, {"t": "send", "id": sid, "ev": pack(event)})

        async def run() -> None:
            # this task's log lines name the forwarding side's request id, and the table
            given = next((v for k, v in scope["headers"] if k == logs.HEADER), None)
            logs.request_id.set(logs.request_id_from(given))
            logs.table_id.set(table_of(scope.get("path", "")))
            try:
                await self._run_held(scope, receive, send)
            except asyncio.CancelledError:
                pass
            except Exception:
                log.exception("a forwarded request failed")
            finally:
                self.incoming.pop(sid, None)
                with contextlib.suppress(Exception):
                    await self.bus.send(origin, {"t": "end", "id": sid})

        self.incoming[sid] = (origin, queue, asyncio.create_task(run()))

    async def _run_held(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        """Run a forwarded request here while this process holds its table: a lease let go
        since the sender looked (the table went idle) is claimed again, and one another
        process took is answered ``moved`` (the client tries again, and reaches it)."""
        table_id = table_of(scope.get("path", ""))
        if table_id is None:
            await self.target(scope, receive, send)
            return
        async with self.app.state.hub.visiting(table_id) as holder:
            if holder != self.bus.id:
                await _refuse(scope, send)
                return
            await self.target(scope, receive, send)

    # -- the forwarding end -----------------------------------------------------------------
    async def forward(self, holder: str, scope: dict[str, Any], receive: Any, send: Any) -> None:
        """Run one request at ``holder`` and pass its answer to the client."""
        websocket = scope["type"] == "websocket"
        sid = ("websocket-" if websocket else "http-") + self.bus.id + "-" + _token()
        queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue(RELAY_BUFFER)
        self.outgoing[sid] = (holder, queue)
        FORWARDS.labels("sent", scope["type"]).inc()
        me = self.bus.id
        started = accepted = client_gone = False

        async def pump() -> None:  # the client's events, to the holder
            while True:
                event = await receive()
                await self.bus.send(holder, {"t": "recv", "id": sid, "ev": pack(event)})
                if event["type"] in ("websocket.disconnect", "http.disconnect"):
                    with contextlib.suppress(asyncio.QueueFull):
                        queue.put_nowait({"t": "left"})
                    return

        pumping = asyncio.create_task(pump())
        try:
            await self.bus.send(
                holder,
                {
                    "t": "open",
                    "id": sid,
                    "from": me,
                    "scope": pack({k: scope[k] for k in SCOPE_KEYS if k in scope}),
                },
            )
            while True:
                # no time limit on a live table socket; once its client has gone, the
                # holder's end has a few seconds to finish
                wait = (
                    HTTP_TIMEOUT
                    if not (websocket and accepted)
                    else (GONE_WAIT if client_gone else None)
                )
                try:
                    frame = await asyncio.wait_for(queue.get(), wait)
                except TimeoutError:
                    frame = {"t": "lost"}
                if frame["t"] == "left":
                    client_gone = True
                    continue
                if queue.full():  # the client does not read: drop it (it reconnects)
                    frame = {"t": "lost", "slow": True}
                if frame["t"] == "end":
                    return
                if frame["t"] == "lost":
                    if websocket:
                        code = 4008 if frame.get("slow") else CLOSE_MOVED
                        with contextlib.suppress(Exception):
                            await send(
                                {
                                    "type": "websocket.close",
                                    "code": code,
                                    "reason": "too slow: reconnect"
                                    if frame.get("slow")
                                    else "the table moved: reconnect",
                                }
                            )
                    elif not started:
                        await _moved(send)
                    return
                event = unpack(frame["ev"])
                if event["type"] == "http.response.start":
                    started = True
                    event["headers"] = [tuple(h) for h in event.get("headers", [])]
                elif event["type"] == "websocket.accept":
                    accepted = True
                    event["headers"] = [tuple(h) for h in event.get("headers", [])]
                await send(event)
                if event["type"] == "websocket.close" or (
                    event["type"] == "http.response.body" and not event.get("more_body")
                ):
                    return
        finally:
            pumping.cancel()
            self.outgoing.pop(sid, None)
            with contextlib.suppress(Exception):
                await self.bus.send(holder, {"t": "gone", "id": sid})


def _token() -> str:
    return secrets.token_hex(8)


async def _moved(send: Any) -> None:
    body = orjson.dumps(
        {
            "type": "error",
            "code": "moved",
            "reason": "the table is moving to another server: try again",
        }
    )
    await send(
        {
            "type": "http.response.start",
            "status": 503,
            "headers": [
                (b"content-type", b"application/json"),
                (b"retry-after", b"1"),
                (b"content-length", str(len(body)).encode()),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


async def _refuse(scope: dict[str, Any], send: Any) -> None:
    """Not here, not now: an HTTP request gets 503 ``moved``, a socket 1012 (reconnect)."""
    if scope["type"] == "http":
        await _moved(send)
    else:
        await send({"type": "websocket.close", "code": CLOSE_MOVED})


class TableRouter:
    """ASGI middleware, outermost: a request about a table held by another live process is
    forwarded there (``Tunnel.forward``); everything else goes on to the app here. Without a
    bus (one process) it only passes requests on."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "lifespan":
            # the app's start builds the bus and its tunnel, which runs forwarded requests
            # through the app below this router
            scope["app"].state.tunnel_target = self.app
            await self.app(scope, receive, send)
            return
        state = scope["app"].state
        tunnel: Tunnel | None = getattr(state, "tunnel", None)
        table_id = table_of(scope.get("path", "")) if tunnel is not None else None
        if tunnel is None or table_id is None:
            await self.app(scope, receive, send)
            return
        # the lease is kept while the request runs here, and let go after it unless the
        # table stayed in memory (no such table, or nothing kept it here)
        async with state.hub.visiting(table_id) as holder:
            if holder is None:  # this process is coming back from a pause: not now
                await _refuse(scope, send)
            elif holder != tunnel.bus.id:
                await tunnel.forward(holder, scope, receive, send)
            else:
                await self.app(scope, receive, send)
