"""The "My games" page's data: a person's unfinished tables, theirs to play first, and their
finished ones, newest first, a page at a time (GET /api/my-games; docs/server.md).

Every table is described from its stored rows (seats, clock, ``to_act``), never loaded: with
several processes only a table's holder may load it, and a copy loaded here would run its own
clocks and bots on stale state. (Bot accounts' programs ask for this page in a loop.)"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cardtable import games
from cardtable.core.words import wire
from cardtable.server.storage import store as db
from cardtable.server.tables import lifecycle
from cardtable.server.tables.live import (
    LiveTable,
    iso,
    people_in,
    shown_name,
    stored_seats,
    your_deadline,
)

if TYPE_CHECKING:
    from cardtable.server.tables.hub import Hub

#: unfinished tables listed at most (a person creates at most engine.MAX_ACTIVE_TABLES; the
#: rest are tables of others they joined)
MY_UNFINISHED = 60
#: finished games per page, by default and at most
MY_PAGE, MY_PAGE_MAX = 20, 50

#: an unfinished table whose seat its person gave up, for that person (the game plays on)
RESIGNED_VERDICT = "You resigned: you rank below every seat still played."


def verdict(row: db.Table, seat: int | None) -> str | None:
    """A finished game's result for the person at ``seat`` (the game's own words)."""
    return " · ".join(verdict_parts(row, seat)) or None


def verdict_parts(row: db.Table, seat: int | None) -> list[str]:
    """The parts of ``verdict``: how the table ended, and the seat's result (each a ``Text``
    where it has words, so a page says it in its reader's language)."""
    label = lifecycle.ENDED_LABELS.get(row.ended or "")
    rules = games.get(row.game)
    result = row.result or {}
    mine, own = seat, None
    if result.get("ranks") and mine is not None and mine < len(result["ranks"]):
        competitive = row.players > 1 and not rules.cooperative
        if row.ended == "resigned" and competitive:
            # the places a resignation made (a game's own verdict would explain its scores)
            own = lifecycle.resigned_verdict(result, mine)
        elif not row.ended:
            try:
                own = rules.verdict(result, mine)
            except (KeyError, IndexError, TypeError):  # a result from an older version
                own = None
    return [x for x in (label, own) if x]


def unfinished_games(hub: Hub, player: db.Player) -> list[dict[str, Any]]:
    """The person's open and running tables, theirs to play first, from the store."""
    store = hub.store
    rows = [
        r
        for r in store.my_tables(player.id, finished=False, limit=MY_UNFINISHED)
        if r.game in games.names()
    ]  # a game no longer installed: skipped
    stored, names = seats_and_names(store, rows)
    unfinished = []
    for row in rows:
        seats = stored_seats(stored[row.id], names)
        seat = next((i for i, s in enumerate(seats) if s["player_id"] == player.id), None)
        you, gone = "seated", None
        if seat is None:  # a seat they resigned (or the clock took), a bot plays it on
            gone = next((r for r in row.resigned or [] if r["player_id"] == player.id), None)
            you = "away" if gone and gone.get("away") else "resigned"
        shown = seat if gone is None else gone["seat"]
        to_act = to_act_of(row, hub.tables.get(row.id)) if row.status == "running" else []
        # a solitaire stored running with nobody to act: stuck, held open for undo, theirs
        # to decide (a row from before ``to_act`` was stored says nothing)
        stuck = (
            row.players == 1
            and row.status == "running"
            and seat == 0
            and row.to_act is not None
            and not to_act
        )
        unfinished.append(
            {
                "id": row.id,
                "game": row.game,
                "title": games.get(row.game).title,
                "players": row.players,
                "status": row.status,
                "ended": row.ended,
                "seat": shown,
                "your_turn": seat in to_act or stuck,
                "stuck": stuck,
                "to_act": [
                    shown_name(seats[s]) or "an open seat" for s in to_act if s < len(seats)
                ],
                "opponents": [
                    shown_name(s) or "open seat" for i, s in enumerate(seats) if i != shown
                ],
                "you": you,
                "verdict": RESIGNED_VERDICT if you == "resigned" else None,
                "created_at": iso(row.created_at),
                "active_at": iso(row.active_at or row.created_at),
                "your_deadline": your_deadline(row.clock, seats, player.id),
                "practice": row.practice,
            }
        )
    unfinished.sort(key=lambda g: not g["your_turn"])  # stable: newest first within each
    return unfinished


def seats_and_names(
    store: db.Storage, rows: list[db.Table]
) -> tuple[dict[str, list[db.Seat]], dict[str, str]]:
    """The stored seats of these tables, and the names of the people in them or whose seats
    bots play on (two queries)."""
    seats = store.seats_of([r.id for r in rows])
    return seats, store.names(list({p for ss in seats.values() for p in people_in(ss)}))


def to_act_of(row: db.Table, live: LiveTable | None) -> list[int]:
    """The seats to act at a running table: stored with its last change; for a row stored
    before they were, the table in memory here if it is (read, never loaded for this), else
    the seats whose clock runs (none known without a clock, until its holder loads it)."""
    if row.to_act is not None:
        return [int(s) for s in row.to_act]
    if live is not None:
        return list(live.state.to_act())
    deadlines = (row.clock or {}).get("deadlines") or []
    return [s for s, d in enumerate(deadlines) if d is not None]


def my_games(hub: Hub, player: db.Player, page: int, limit: int) -> dict[str, Any]:
    store = hub.store
    unfinished = unfinished_games(hub, player)
    rows = store.my_tables(player.id, finished=True, limit=limit + 1, offset=page * limit)
    more = len(rows) > limit
    rows = rows[:limit]
    seats, names = seats_and_names(store, rows)
    finished = []
    for row in rows:
        shown = stored_seats(seats[row.id], names)
        mine = next((s.seat for s in seats[row.id] if s.player_id == player.id), None)
        if mine is None:  # a seat they resigned, which a bot played on
            mine = next(
                (r["seat"] for r in row.resigned or [] if r["player_id"] == player.id), None
            )
        finished.append(
            {
                "id": row.id,
                "game": row.game,
                "title": games.get(row.game).title if row.game in games.names() else row.game,
                "players": row.players,
                "status": row.status,
                "ended": row.ended,
                "seat": mine,
                "your_turn": False,
                "to_act": [],
                "opponents": [
                    shown_name(s) or "open seat" for i, s in enumerate(shown) if i != mine
                ],
                "created_at": iso(row.created_at),
                "active_at": iso(row.active_at or row.created_at),
                "finished_at": iso(row.finished_at),
                "verdict": verdict(row, mine),
                "verdict_msg": [wire(x) for x in verdict_parts(row, mine)],
                "practice": row.practice,
            }
        )
    return {"unfinished": unfinished, "finished": finished, "page": page, "more": more}
