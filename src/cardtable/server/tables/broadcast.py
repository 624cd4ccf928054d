"""The broadcaster: what each connection of a table is sent, and who is connected.

Each connection receives its own ``view(seat)`` (spectators ``view(None)``), never anything
else of the state. Presence (who is connected, how many watch) is not a table change: it goes
out as small ``presence`` events, at most every ``PRESENCE_DELAY`` seconds per table.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any, cast

from cardtable import games
from cardtable.core.words import translatable, wire
from cardtable.server.api.limits import SharedCounts
from cardtable.server.api.messages import HubError, Shared, StateDict
from cardtable.server.api.metrics import LastSent
from cardtable.server.tables import gamelog, lifecycle
from cardtable.server.tables.conn import Bucket, Conn
from cardtable.server.tables.live import LiveTable, shown_name

MAX_SPECTATORS = 200  # spectator connections per table (close code 4029 beyond)
MAX_PLAYER_SOCKETS = 8  # connections of one player to one table (close code 4029 beyond)
#: presence changes (who is connected, how many watch) go out at most this often per table,
#: as small ``presence`` events: a crowd arriving or a reconnect loop is one event a turn
PRESENCE_DELAY = 0.5

_, _n = translatable("cardtable")

#: builds the state message of one connection: (table, conn, per-broadcast cache) -> message
StateMessage = Callable[[LiveTable, Conn, "dict[Any, Any] | None"], StateDict]


def state_message(table: LiveTable, conn: Conn, seen: dict[Any, Any] | None = None) -> StateDict:
    """What one connection may see (a ``StateMessage``): its seat's view, legal actions and
    table tools, nothing more.

    ``seen`` caches, during one broadcast, the view and legal actions per seat and the
    table info (the same for every viewer but for ``creator`` and ``you``), and the whole
    message per kind of viewer: connections of the same seat and person that were sent the
    same version before, and that ask the same (``Conn.labels``, and with
    ``Conn.table_changes_only`` the same table info last), get the very same ``Shared``
    message (a table's spectators one message, encoded once, not one each).
    """
    seen = {} if seen is None else seen
    # the table info this connection was last sent, named by its id (kept alive in ``seen``
    # for the broadcast, so the id names no other)
    sent = conn.table_sent if conn.table_changes_only else None
    kind = ("message", conn.seat, conn.player_id, conn.log_version, conn.labels, id(sent))
    shared = seen.get(kind)
    if shared is None:
        shared = seen[kind] = Shared(build_state(table, conn, sent, seen))
        seen[("table sent", kind)], seen[("was sent", kind)] = shared.get("table", sent), sent
    conn.log_version = table.version
    if conn.table_changes_only:
        conn.table_sent = seen[("table sent", kind)]
    return cast(StateDict, shared)


def build_state(
    table: LiveTable, conn: Conn, sent: dict[str, Any] | None, seen: dict[Any, Any]
) -> StateDict:
    """The state message of ``conn`` (``state_message``), from the parts ``seen`` keeps per
    seat; without the table info if it is ``sent`` (but for its version)."""
    seat = conn.seat
    view, legal = seat_position(table, seat, seen)
    words = seen.get(("words", seat))
    if words is None:
        words = seen[("words", seat)] = {
            **table_words(table, seat, view),
            "tools": table.tools(seat),
        }
    if words["ending"] and table.resigned and not words["ending"]["verdict"]:
        words = {**words, "ending": resigner_ending(table, words["ending"], conn.player_id)}
    labels = seen.get(("labels", seat)) if conn.labels else NO_LABELS
    if labels is None:
        labels = seen[("labels", seat)] = move_labels(table, view, legal)
    since = conn.log_version
    delta = seen.get(("log", seat, since))
    if delta is None:
        delta = seen[("log", seat, since)] = gamelog.log_since(table, seat, since)
    base = seen.get("info")
    if base is None:
        base = seen["info"] = table.info(None)
        seen["spectators"] = spectators(table)
    message: StateDict = {
        "type": "state",
        "version": table.version,
        "seat": seat,
        "table": table.info_as(base, conn.player_id),
        "view": view,
        "legal": legal,
        "spectators": seen["spectators"],
        "log_from": delta[0],
        "log": delta[1],
        "last": words["last"],
        "to_act": words["to_act"],
        "labels": labels[0],
        "labels_msg": labels[1],
        "ending": words["ending"],
        "tools": words["tools"],
    }
    if sent is not None and same_info(message["table"], sent):
        del message["table"]
    return message


def seat_position(
    table: LiveTable, seat: int | None, seen: dict[Any, Any]
) -> tuple[dict[str, Any], list[str]]:
    """The seat's view and legal actions, once per broadcast (``seen``)."""
    pair = seen.get(seat)
    if pair is None:
        running = table.status == "running" and seat is not None
        # last_legal is what the seat may do now (kept by every change: engine.after_change)
        pair = seen[seat] = (
            table.state.view(seat),
            table.last_legal.get(seat, []) if running and seat is not None else [],
        )
    return cast(tuple[dict[str, Any], list[str]], pair)


def same_info(info: dict[str, Any], sent: dict[str, Any]) -> bool:
    """Whether table info ``info`` says what ``sent`` said, but for its ``version`` (which
    the state message carries)."""
    # (one copy and the dictionaries' own comparison: half a loop over the keys' cost)
    return {**info, "version": sent["version"]} == sent


#: the labels of a connection that asked for none (``Conn.labels``): (labels, labels_msg)
NO_LABELS: tuple[list[str], list[Any]] = ([], [])


def move_labels(
    table: LiveTable, view: dict[str, Any], legal: list[str]
) -> tuple[list[str], list[Any]]:
    """The labels of a seat's legal actions (``Game.move_labels``) and their wire words."""
    labels = games.get(table.game).move_labels(view, legal)
    return labels, [wire(label) for label in labels]


def table_words(table: LiveTable, seat: int | None, view: dict[str, Any]) -> dict[str, Any]:
    """What a state message says in words for ``seat`` (docs/server.md) beside the game
    log (which ``state_message`` adds per connection) and the labels (``move_labels``): the
    last move, who must act, and once over the end in words with its own verdict."""
    game = games.get(table.game)
    running = table.status == "running"
    ending = None
    if table.status == "over":
        names = seat_names(table)
        result = table.state.result()
        ending = (
            closed_ending(table, names, seat)
            if table.ended
            else {
                "lines": game.result_lines(result, names),
                "verdict": game.verdict(result, seat) if seat is not None else None,
                "breakdown": game.breakdown(view),
                "notes": game.result_notes(result, names),
            }
        )
    return {
        "last": gamelog.last_for(table, seat),
        "to_act": list(table.state.to_act()) if running else [],
        "ending": ending_words(ending) if ending else None,
    }


def ending_words(ending: dict[str, Any]) -> dict[str, Any]:
    """``ending`` with ``msg``: the same words for a client to put into its reader's
    language (``core.words.wire``): ``lines``, ``verdict``, ``notes``, and the breakdown's
    ``columns`` and ``table`` headings."""
    msg: dict[str, Any] = {
        "lines": [wire(line) for line in ending["lines"]],
        "verdict": wire(ending.get("verdict")),
        "notes": [wire(note) for note in ending.get("notes") or []],
    }
    breakdown = ending.get("breakdown")
    if breakdown:
        msg["columns"] = [wire(c) for c in breakdown["columns"]]
        msg["table"] = [wire(row[0]) for row in breakdown["table"]]
    return {**ending, "msg": msg}


def seat_names(table: LiveTable) -> list[str]:
    """Each seat as the seats and the log name it: "Greedy", "Ann — played by Greedy"."""
    return [shown_name(s) or _("open seat") for s in table.seats]


def closed_ending(table: LiveTable, names: list[str], seat: int | None) -> dict[str, Any]:
    """The end in words of a table closed before its game's end: its stored result (the
    resigned seats last, as My games says), each resigned seat under its person's name."""
    game = games.get(table.game)
    result = lifecycle.closed_result(
        table.state.result(),
        table.ended or "abandoned",
        game.cooperative or table.players == 1,
        [r["seat"] for r in table.resigned],
    )
    names = list(names) or [_("player")] * table.players
    for r in table.resigned:
        names[r["seat"]] = r["name"]
    competitive = table.players > 1 and not game.cooperative
    verdict = None
    if seat is not None and competitive and result.get("resigned"):
        verdict = lifecycle.resigned_verdict(result, seat)
    label = lifecycle.ENDED_LABELS[table.ended or "abandoned"]
    return {"lines": [label, *lifecycle.closed_lines(result, names)], "verdict": verdict}


def resigner_ending(
    table: LiveTable, ending: dict[str, Any], player_id: str | None
) -> dict[str, Any]:
    """A closed table's end for a person who resigned a seat of it (their socket watches
    now): their own place, as their My games says."""
    mine = next((r["seat"] for r in table.resigned if r["player_id"] == player_id), None)
    if mine is None:
        return ending
    return ending_words(closed_ending(table, [], mine) | {"lines": ending["lines"]})


class Broadcaster:
    """Sends tables to their connections, admits and lets go of connections, and keeps
    every player's message bucket.

    ``message_for`` builds a connection's state message (``state_message``; the hub passes
    its own, so whatever the hub says a connection sees is what every broadcast sends)."""

    def __init__(self, message_for: StateMessage = state_message) -> None:
        self.message_for = message_for
        #: player id -> the message bucket all its sockets share (``connect``)
        self.buckets: dict[str, Bucket] = {}
        self._buckets_swept = 0.0
        #: with several processes: the message counts they share (``SharedCounts``)
        self.shared: SharedCounts | None = None

    def broadcast(self, table: LiveTable, received: float | None = None) -> None:
        """Every connection its own state message. ``received``: the change is a person's
        action read then (``perf_counter``): its latency is observed once the last of these
        messages is written (``metrics.LastSent``)."""
        seen: dict[Any, Any] = {}
        queued: list[tuple[Conn, Any]] = []
        for conn in list(table.conns):
            if conn.dropped:
                table.conns.discard(conn)
            else:
                message = self.message_for(table, conn, seen)
                conn.push(message)
                if received is not None and not conn.dropped:
                    queued.append((conn, message))
        table.presence_sent = presence(table)  # every state carried who is connected
        if received is not None:
            mark = LastSent(table.game, received, len(queued))
            for conn, message in queued:
                conn.marks.append((message, mark))

    def connect(self, table: LiveTable, conn: Conn) -> None:
        """Admit a connection and send it the table; the others hear of it in a small
        ``presence`` event (``PRESENCE_DELAY``), never a state each. ``HubError`` when the
        table has no room for it (``MAX_SPECTATORS``, ``MAX_PLAYER_SOCKETS``)."""
        if conn.seat is None and spectators(table) >= MAX_SPECTATORS:
            raise HubError(
                "too_many_spectators",
                f"this table has {MAX_SPECTATORS} spectators already: try again later",
                429,
            )
        if (
            conn.player_id
            and sum(c.player_id == conn.player_id for c in table.conns) >= MAX_PLAYER_SOCKETS
        ):
            raise HubError(
                "too_many_connections",
                f"you have {MAX_PLAYER_SOCKETS} connections to this table already: close some",
                429,
            )
        if conn.player_id:  # one bucket for all the player's sockets, whichever table
            conn.bucket = self._bucket(conn.player_id)
        conn.bucket.users += 1
        conn.admitted = True
        table.conns.add(conn)
        if conn.seat is not None:
            table.gone_since.pop(conn.seat, None)
        conn.push(self.message_for(table, conn, None))
        self._presence_changed(table)

    def disconnect(self, table: LiveTable, conn: Conn) -> None:
        if not conn.admitted:  # refused, or gone already
            return
        conn.admitted = False
        table.conns.discard(conn)  # (a broadcast may have discarded it when it was dropped)
        conn.bucket.users -= 1
        if conn.seat is not None and not table.connected(conn.seat):
            table.gone_since[conn.seat] = time.monotonic()  # the grace period starts
        self._presence_changed(table)

    def _bucket(self, player_id: str) -> Bucket:
        """The player's message bucket. Now and then, buckets nobody uses and that have
        refilled are forgotten: a new one is the same, so reconnecting wins nothing."""
        now = time.monotonic()
        if now - self._buckets_swept > 30:
            self._buckets_swept = now
            for key in [k for k, b in self.buckets.items() if not b.users and b.full(now)]:
                del self.buckets[key]
        bucket = self.buckets.get(player_id)
        if bucket is None:
            bucket = self.buckets[player_id] = Bucket(
                refilled=now, shared=self.shared, key=player_id
            )
        return bucket

    def _presence_changed(self, table: LiveTable) -> None:
        if table.presence_timer is None:
            loop = asyncio.get_running_loop()
            table.presence_timer = loop.call_later(PRESENCE_DELAY, self._send_presence, table)

    def _send_presence(self, table: LiveTable) -> None:
        """Tell the connections what changed in presence since they were last told: a seat
        connected or gone, to everyone (as one small event per seat); only the number of
        spectators, to the seated connections alone (spectators do not need a count of
        each other). Nothing secret: a seat number, a flag, a count, and the seconds until a
        seat whose person left may go to a bot."""
        table.presence_timer = None
        (was, watching), (now, count) = table.presence_sent, presence(table)
        table.presence_sent = (now, count)
        changed = [
            s
            for s in range(table.players)
            if table.seats[s]["player_id"] and (s in was) != (s in now)
        ]
        events = [
            {
                "type": "presence",
                "version": table.version,
                "seat": s,
                "connected": s in now,
                "spectators": count,
                "hand_over_in": table.hand_over_in(s),
            }
            for s in changed
        ]
        if events:
            for conn in list(table.conns):
                for event in events:
                    conn.push(event)
        elif count != watching:
            event = {
                "type": "presence",
                "version": table.version,
                "seat": None,
                "connected": None,
                "spectators": count,
                "hand_over_in": None,
            }
            for conn in list(table.conns):
                if conn.seat is not None:
                    conn.push(event)


def spectators(table: LiveTable) -> int:
    """Connections watching the table without a seat."""
    return sum(1 for c in table.conns if c.seat is None)


def presence(table: LiveTable) -> tuple[frozenset[int], int]:
    """(seats with an open connection, spectators)."""
    seats = frozenset(c.seat for c in table.conns if c.seat is not None)
    return seats, spectators(table)
