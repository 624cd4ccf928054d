"""A table's websocket (``/ws/tables/{id}``): a connection admitted, each frame read and
parsed once at the edge into its message model, the answers and states written in order, a
slow client dropped; and a bot account's sockets closed when its token is renewed."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import math
import socket
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import orjson
from fastapi import APIRouter, FastAPI, WebSocket, WebSocketDisconnect

from cardtable.core.words import translatable
from cardtable.server.api import logs
from cardtable.server.api.messages import (
    MAX_MESSAGE,
    ActMessage,
    ChatMessage,
    HubError,
    NotHolder,
    PingMessage,
    Shared,
    encodable,
    error,
    parse_client,
)
from cardtable.server.api.metrics import note_refusal
from cardtable.server.cluster.bus import PREFIX as BUS_PREFIX
from cardtable.server.cluster.tunnel import CLOSE_MOVED
from cardtable.server.storage import store as db
from cardtable.server.storage.tournaments import secret_refusal
from cardtable.server.tables import gamelog
from cardtable.server.tables.conn import Conn
from cardtable.server.tables.hub import Hub
from cardtable.server.tables.live import LiveTable
from cardtable.server.web.deps import COOKIE

_, _n = translatable("cardtable")

router = APIRouter()
log = logging.getLogger("cardtable.server")

MAX_WS_FRAME = 65536  # beyond this the socket itself is closed (1009), not just refused


#: websocket close codes (docs/server.md): the table does not exist; the client fell too far
#: behind (its outbox overflowed); no room (too many spectators or sockets of one player)
CLOSE_NOT_FOUND, CLOSE_TOO_SLOW, CLOSE_FULL = 4404, 4008, 4029
#: websocket close code: the credential the socket was opened with ended (a bot account's
#: token was renewed)
CLOSE_SIGNED_OUT = 4401
#: websocket close code: a running duplicate challenge's table has no spectators
CLOSE_SECRET = 4403
#: websocket close code: the address's query asked for what there is not (``SocketAsks``)
CLOSE_BAD_REQUEST = 4400
#: the bus message that tells every process a bot account's token was renewed
SIGNED_OUT = "signed_out"
CLOSE_WAIT = 5.0  # seconds a dropped connection's writer gets to send its close frame
WS_SEND_BUFFER = 65536  # bytes of kernel send buffer per websocket (Linux doubles it)
#: errors after which the sender also gets the table as it is now: its action was checked
#: against a table that is not what the client thought. Every other error (bad_message,
#: too_large, rate_limited, not_seated) is answered alone: the client's table is not the
#: question, and a flood must not cost a state per message ({"type": "sync"} asks for one).
FRESH_STATE_AFTER = frozenset(
    {"stale", "illegal", "malformed", "not_your_turn", "game_over", "not_started"}
)


@dataclass(frozen=True)
class SocketAsks:
    """What a table socket's address asks of its state messages (docs/server.md):
    ``labels=0`` no move labels (a board that names its moves), ``table=changed`` the table
    info only when it changed since the socket's last state. The defaults are the full
    states every client has read."""

    labels: bool = True
    table_changes_only: bool = False

    @classmethod
    def parse(cls, query: Mapping[str, str]) -> SocketAsks | str:
        """The socket's asks, or the reason its query cannot be met."""
        labels = {"1": True, "0": False}.get(query.get("labels", "1"))
        if labels is None:
            return "labels must be 0 or 1"
        table = {"all": False, "changed": True}.get(query.get("table", "all"))
        if table is None:
            return "table must be all or changed"
        return cls(labels=labels, table_changes_only=table)


# -- live tables ------------------------------------------------------------------------
@router.websocket("/ws/tables/{table_id}")
async def table_socket(ws: WebSocket, table_id: str) -> None:
    store: db.Storage = ws.app.state.store
    h: Hub = ws.app.state.hub
    await ws.accept()
    asks = SocketAsks.parse(ws.query_params)
    if isinstance(asks, str):
        await ws.send_json(error("bad_request", asks))
        await ws.close(code=CLOSE_BAD_REQUEST)
        return
    try:
        table = h.load(table_id)
    except HubError as e:
        await ws.send_json(error(e.code, e.reason))
        await ws.close(code=CLOSE_NOT_FOUND)
        return
    token = ws.cookies.get(COOKIE) or ws.query_params.get("token")
    player = store.player_by_token(token)
    if player is not None:
        logs.player_id.set(player.id)  # (this socket's task: its log lines name the player)
    if player is not None and table.clock:  # back after the clock gave the seat away
        await h.reclaim(table, player)
    seat = table.seat_of(player.id) if player else None
    if seat is None and table.tournament and ws.app.state.tournaments.secret(table_id):
        refused = secret_refusal()  # a running challenge's deal: no spectators
        await ws.send_json(error(refused.code, refused.reason))
        await ws.close(code=CLOSE_SECRET)
        return
    conn = Conn(
        seat=seat,
        player_id=player.id if player else None,
        labels=asks.labels,
        table_changes_only=asks.table_changes_only,
    )
    await gamelog.catch_up(table)  # a long game's log, built between other work
    try:
        await h.connect(table, conn)
    except HubError as e:  # no room at the table: say why, then close with a code
        await ws.send_json(error(e.code, e.reason))
        await ws.close(code=CLOSE_FULL, reason=e.reason[:120])
        return
    # a bot account's socket ends when its token is renewed (``sign_out``)
    signed_in = (
        ws.app.state.bot_sockets.setdefault(player.id, set())
        if player is not None and player.bot_owner is not None
        else set()
    )
    signed_in.add(ws)
    conn.push(h.chat.history(table, conn))  # the chat's last messages, after the table
    log.debug("table socket opened: %s", "a spectator" if seat is None else f"seat {seat + 1}")
    limit_send_buffer(ws)
    writer = asyncio.create_task(write_loop(ws, conn))
    try:
        while not conn.dropped:
            event = await ws.receive()
            if event["type"] == "websocket.disconnect":
                break
            raw = event.get("text")
            try:
                answer = await handle_message(
                    h, table, conn, raw if raw is not None else event.get("bytes")
                )
            except NotHolder:  # the table moved (a lost lease): reconnect to its holder
                conn.move()
                continue
            if answer is not None:
                conn.push(answer)
                if answer["type"] == "error" and answer["code"] in FRESH_STATE_AFTER:
                    conn.push(h.message_for(table, conn))
            # one message per turn of the loop: a burst that arrived in one read neither
            # holds the loop (other tables wait) nor fills the outbox before the writer runs.
            # Past its rate, the sender is not read until it may send again: a flood waits
            # in its own socket's buffers and costs the server nothing.
            # (a chat_rate_limited answer has a retry_after too: it holds only the chat)
            await asyncio.sleep(
                answer.get("retry_after", 0)
                if answer and answer.get("code") == "rate_limited"
                else 0
            )
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        signed_in.discard(ws)
        log.debug("table socket closed")
        await h.disconnect(table, conn)
        if conn.dropped:  # the writer closes with 4008 (or finds the socket gone)
            with contextlib.suppress(Exception):
                await asyncio.wait_for(writer, CLOSE_WAIT)
        writer.cancel()


async def handle_message(
    h: Hub, table: LiveTable, conn: Conn, raw: str | bytes | None
) -> Mapping[str, Any] | None:
    """One client message (``messages.ClientMessage``: ``act``, ``ping``, ``sync`` or
    ``chat``).
    Anything else is a typed error.

    Every message, whatever it is, counts against the sender's rate (``Conn.allow``): past
    it the answer is only ``rate_limited``, with ``retry_after`` seconds."""
    received = time.perf_counter()
    wait = conn.allow(time.monotonic())
    answer: dict[str, Any] | None = None
    message: Any = None
    if not isinstance(raw, str):  # a binary frame
        answer = error("bad_message", "messages are JSON text")
    elif len(raw.encode(errors="surrogatepass")) > MAX_MESSAGE:
        answer = error("too_large", f"a message may be at most {MAX_MESSAGE} bytes")
    else:
        try:
            message = json.loads(raw)
        except (ValueError, RecursionError):  # RecursionError: [[[[... nested too deep
            answer = error("bad_message", "messages are JSON objects")
    # the id first, by hand: every answer (the rate's too) carries it if it can be sent back
    client_id = message.get("id") if isinstance(message, dict) else None
    if client_id is not None and not (
        isinstance(client_id, str) and len(client_id) <= 64 and encodable(client_id)
    ):
        client_id = None
        answer = answer or error("bad_message", "id must be a short string")
    if wait:  # the rate first: a flood is told to slow down, whatever it sends
        wait = math.ceil(wait * 100) / 100  # never 0: "wait 0 s" would invite a resend now
        answer = error(
            "rate_limited",
            _("too many messages: wait {wait} s", wait=format(wait, ".2f")),
            client_id,
        )
        note_refusal("rate_limited")
        return {**answer, "retry_after": wait}
    if answer is not None:
        return answer
    if not isinstance(message, dict):
        return error("bad_message", "messages are JSON objects")
    if message.get("type") == "act" and conn.seat is None:  # whatever else the act says
        return error("not_seated", _("you are watching this table: take a seat to play"), client_id)
    parsed = parse_client(message)
    if isinstance(parsed, str):
        return error("bad_message", parsed, client_id)
    if isinstance(parsed, PingMessage):
        return {"type": "pong", "id": client_id, "version": table.version}
    if isinstance(parsed, ChatMessage):
        return h.chat.write(table, conn, parsed.text, client_id)
    if not isinstance(parsed, ActMessage):  # sync: the client asks for the table as it is now
        return h.message_for(table, conn)
    assert conn.seat is not None  # (refused above)
    return await h.act(
        table, conn.seat, parsed.action, parsed.version, client_id, received=received
    )


async def write_loop(ws: WebSocket, conn: Conn) -> None:
    """Send the connection's outbox in order; a client that falls behind is dropped.

    (A connection is dropped only when its outbox is full, so the writer is never waiting on
    an empty outbox then: it sees the mark before its next message.)"""
    try:
        while True:
            if conn.moved:
                await ws.close(code=CLOSE_MOVED, reason="the table moved: reconnect")
                return
            if conn.dropped:
                await ws.close(code=CLOSE_TOO_SLOW, reason="too slow: reconnect to get the table")
                return
            message = await conn.outbox.get()
            if not conn.dropped:
                await ws.send_text(encode(message))
                conn.written(message)
    except Exception:  # noqa: BLE001 - the socket is gone; the reader side cleans up
        conn.dropped = True


def encode(message: Mapping[str, Any]) -> str:
    """A message as compact JSON text (orjson; the standard library for what it refuses,
    such as integers beyond 64 bits); a ``Shared`` one once for all its connections."""
    if isinstance(message, Shared):
        if message.text is None:
            message.text = _encode(message)
        return message.text
    return _encode(message)


def _encode(message: Mapping[str, Any]) -> str:
    try:
        return orjson.dumps(message).decode()
    except TypeError:  # orjson.JSONEncodeError
        return json.dumps(message, separators=(",", ":"), ensure_ascii=False)


def limit_send_buffer(ws: WebSocket, size: int = WS_SEND_BUFFER) -> None:
    """Bound the kernel's send buffer of a websocket: Linux grows it to 4 MB on loopback, so
    a client that stops reading would hold megabytes (and not be dropped for thousands of
    messages). uvicorn's protocols keep the transport; another server keeps its default."""
    protocol = getattr(getattr(ws, "_receive", None), "__self__", None)
    transport = getattr(protocol, "transport", None)
    sock = transport.get_extra_info("socket") if transport is not None else None
    if sock is not None:
        with contextlib.suppress(OSError):
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, size)


async def sign_out(app: FastAPI, player_id: str) -> None:
    """End the open websockets of a bot account whose token was renewed, here and (with a
    bus) at every other process: the old token's sessions end with it."""
    await close_sockets(app, player_id)
    bus = app.state.hub.bus
    if bus is None:
        return
    try:
        for pid in await bus.redis.smembers(f"{BUS_PREFIX}procs"):
            if pid != bus.id:
                await bus.send(pid, {"t": SIGNED_OUT, "player": player_id})
    except Exception:  # noqa: BLE001 - the new token is stored: its owner must still get it
        log.warning(
            "could not tell the other processes that %s signed out", player_id, exc_info=True
        )


async def close_sockets(app: FastAPI, player_id: str) -> None:
    sockets = app.state.bot_sockets.pop(player_id, set())
    for ws in list(sockets):
        with contextlib.suppress(Exception):  # (already closing)
            await ws.close(code=CLOSE_SIGNED_OUT, reason="signed out: the token was renewed")
