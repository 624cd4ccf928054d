"""Tournaments: the list, creating one, entering and withdrawing, a tournament's page data and
its live socket (``server/tournaments``; docs/tournaments.md, docs/server.md "Tournaments").

Every answer is read from the database: any process answers for any tournament (only its
runner, one process at a time, changes its rounds).
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import secrets
import time
from typing import Any

from fastapi import APIRouter, Request, WebSocket, WebSocketDisconnect

from cardtable import games
from cardtable.core.errors import CardtableError
from cardtable.core.words import translatable
from cardtable.seeds import SECRET_BITS
from cardtable.server.api.messages import (
    MAX_ARENA_MINUTES,
    MAX_ENTRANTS,
    MAX_OPEN_TOURNAMENTS,
    EnterBody,
    HubError,
    NewTournament,
    TournamentInfo,
    TournamentList,
    error,
)
from cardtable.server.storage import store as db
from cardtable.server.storage.tournaments import EntryRefused, TournamentRow, TournamentStore
from cardtable.server.tables import clock as clocks
from cardtable.server.tables.chat import tidy
from cardtable.server.tables.engine import new_table_id
from cardtable.server.tournaments.info import summary, tournament_info
from cardtable.server.web import deps
from cardtable.server.web.deps import COOKIE

_, _n = translatable("cardtable")

router = APIRouter()

#: seconds between two looks at a watched tournament's version (its socket)
WATCH_EVERY = 1.0
#: websocket close codes: no such tournament; too many sockets follow it at this process
CLOSE_NOT_FOUND, CLOSE_FULL = 4404, 4029
#: sockets that may follow one tournament at one process (as spectators at a table)
MAX_WATCHERS = 200


def tournaments(request: Request | WebSocket) -> TournamentStore:
    return request.app.state.tournaments


def found(store: TournamentStore, tournament_id: str) -> TournamentRow:
    row = store.get(tournament_id) if len(tournament_id) <= 16 else None
    if row is None:
        raise HubError(
            "not_found", _("there is no tournament {id}", id=repr(tournament_id[:16])), 404
        )
    return row


def info_of(
    people: db.Storage, store: TournamentStore, row: TournamentRow, viewer: str | None
) -> dict[str, Any]:
    entrants = store.entrants(row.id)
    rounds, tables = store.rounds(row.id)
    ids = [e.player_id for e in entrants]
    statuses = {k: v[0] for k, v in store.tables_status([t.table_id for t in tables]).items()}
    streaks = (
        store.daily_streaks(row.game, dt.date.fromisoformat(row.daily), ids) if row.daily else None
    )
    return tournament_info(
        row,
        entrants,
        rounds,
        tables,
        people.names(ids),
        people.bot_accounts(ids),
        statuses,
        viewer,
        streaks,
    )


@router.get("/api/tournaments", response_model=TournamentList)
async def list_tournaments(request: Request) -> dict[str, Any]:
    """The tournaments to come and under way (soonest first), then the latest over; those
    by invite only are not listed."""
    store = tournaments(request)
    rows = store.listed()
    counts = store.entrant_counts([r.id for r in rows])
    return {"tournaments": [summary(r, counts.get(r.id, 0)) for r in rows]}


@router.post("/api/tournaments", response_model=TournamentInfo)
async def create_tournament(request: Request, body: NewTournament) -> dict[str, Any]:
    """A new tournament, run by the server from ``starts_in`` seconds from now. Its creator
    is not entered by creating it (POST .../enter)."""
    player = deps.me(request)
    if player.bot_owner is not None:
        raise HubError("forbidden", _("a bot account does not organise tournaments"), 403)
    store = tournaments(request)
    # no control or format characters (PostgreSQL's text cannot hold a NUL), one space a gap
    name = " ".join(tidy(body.name).split())
    if not name:
        raise HubError("bad_request", _("give the tournament a name"))
    options, clock = checked_settings(request, body)
    if store.unfinished_by(player.id) >= MAX_OPEN_TOURNAMENTS:
        raise HubError(
            "too_many_tournaments",
            _(
                "you have {most} tournaments not over yet, the most one person may have",
                most=MAX_OPEN_TOURNAMENTS,
            ),
            429,
        )
    row = TournamentRow(
        id=new_table_id(),
        name=name,
        game=body.game,
        format=body.format,
        status="open",
        created_by=player.id,
        created_at=db.now(),
        starts_at=db.now() + dt.timedelta(seconds=body.starts_in),
        rounds=body.rounds if body.format == "swiss" else 0,
        minutes=body.minutes if body.format != "swiss" else None,
        streaks=body.streaks if body.format == "arena" else None,
        deals=body.deals if body.format == "duplicate" else None,
        # every entry's deals, as secret as the cards: drawn here, shown once it is over;
        # 128 bits even played alone (a short deal number could be found from the cards
        # one sees, and the stock read from it)
        seeds=[secrets.randbits(SECRET_BITS) for _ in range(body.deals)]
        if body.format == "duplicate"
        else None,
        table_size=body.table_size,
        clock=clock,
        options=options,
        rated=body.rated,
        invite=secrets.token_urlsafe(9) if body.invite_only else None,
        min_games=body.min_games,
        bots=body.bots,
        round=0,
        version=0,
    )
    store.create(row)
    return info_of(deps.store(request), store, row, player.id)


def checked_settings(
    request: Request, body: NewTournament
) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """The game's options with their defaults and the clock, checked for the tournament's
    tables (``bad_request``, ``bad_clock``)."""
    try:
        rules = games.get(body.game)
    except CardtableError as e:
        raise HubError("bad_request", e.reason) from None
    duplicate = body.format == "duplicate"
    if duplicate and not rules.cooperative:
        raise HubError(
            "bad_request",
            _(
                "{game} is played against each other: a Swiss tournament or an arena",
                game=rules.title,
            ),
        )
    if not duplicate and (rules.cooperative or rules.max_players < 2):
        raise HubError(
            "bad_request",
            _(
                "{game} is not played against each other: no Swiss rounds nor arena",
                game=rules.title,
            ),
        )
    if body.format == "arena" and body.minutes > MAX_ARENA_MINUTES:
        raise HubError("bad_request", _("an arena lasts at most {n} minutes", n=MAX_ARENA_MINUTES))
    low = rules.min_players if duplicate else max(2, rules.min_players)
    high = rules.max_players
    if not low <= body.table_size <= high:
        raise HubError(
            "bad_request",
            _(
                "{game} is played at tables of {low} to {high}",
                game=rules.title,
                low=low,
                high=high,
            ),
        )
    try:
        _players, options = rules.check_options(body.table_size, body.options)
    except CardtableError as e:
        raise HubError("bad_request", e.reason) from None
    choice = body.clock.model_dump() if body.clock is not None else None
    if body.table_size > 1 and (choice is None or choice.get("mode") in (None, "none")):
        # a tournament's table has no creator to hand an absent seat to a bot: its clock does,
        # so that nobody holds a round up by never coming (a move clock, unless chosen)
        choice = {"mode": "move", "seconds": None}
    clock = clocks.check_clock(choice, body.table_size, deps.hub(request).engine.min_clock)
    return options, ({"mode": clock["mode"], "seconds": clock["seconds"]} if clock else None)


@router.get("/api/tournaments/{tournament_id}", response_model=TournamentInfo)
async def get_tournament(request: Request, tournament_id: str) -> dict[str, Any]:
    store = tournaments(request)
    row = found(store, tournament_id)
    return info_of(deps.store(request), store, row, deps.seen_by(request))


@router.post("/api/tournaments/{tournament_id}/enter", response_model=TournamentInfo)
async def enter(request: Request, tournament_id: str, body: EnterBody | None = None) -> dict:
    """Enter (a late entry joins the next round with no points). Refused: a bot account
    where the organiser allows none (``no_bots``), a wrong invite code (``bad_invite``),
    fewer finished games than it asks (``too_few_games``), over (``tournament_over``), full
    (``tournament_full``)."""
    player = deps.me(request)
    store = tournaments(request)
    row = found(store, tournament_id)
    check_entry(store, row, player, body.invite if body is not None else None)
    try:
        store.enter(row.id, player.id, MAX_ENTRANTS)
    except EntryRefused as e:
        reason = (
            _("the tournament is over")
            if e.code == "tournament_over"
            else _("the tournament has {n} entrants, its most", n=MAX_ENTRANTS)
        )
        raise HubError(e.code, reason, 409) from None
    return info_of(deps.store(request), store, store.get(row.id) or row, player.id)


def check_entry(
    store: TournamentStore, row: TournamentRow, player: db.Player, invite: str | None
) -> None:
    if player.bot_owner is not None and not row.bots:
        raise HubError("no_bots", _("this tournament is for people: no bot accounts"), 403)
    # (as bytes: a code of other characters than ASCII is a wrong code, not an error)
    if row.invite is not None and not secrets.compare_digest(
        row.invite.encode(), (invite or "").encode()
    ):
        raise HubError("bad_invite", _("this tournament is entered with its invite link"), 403)
    if row.min_games and store.finished_games(player.id) < row.min_games:
        raise HubError(
            "too_few_games",
            _n(
                "enter after {n} finished game here",
                "enter after {n} finished games here",
                row.min_games,
            ),
            403,
        )


@router.post("/api/tournaments/{tournament_id}/withdraw", response_model=TournamentInfo)
async def withdraw(request: Request, tournament_id: str) -> dict[str, Any]:
    """Leave the rounds still to come (a game under way is played, or resigned, at its
    table). 409 ``not_entered`` for someone who is not an entrant."""
    player = deps.me(request)
    store = tournaments(request)
    row = found(store, tournament_id)
    if row.status == "over":
        raise HubError("tournament_over", _("the tournament is over"), 409)
    if not store.withdraw(row.id, player.id):
        raise HubError("not_entered", _("you have not entered this tournament"), 409)
    return info_of(deps.store(request), store, store.get(row.id) or row, player.id)


@router.post("/api/tournaments/{tournament_id}/start", response_model=TournamentInfo)
async def start_now(request: Request, tournament_id: str) -> dict[str, Any]:
    """Its creator starts it now rather than at its time (the first round is paired within
    a second). 403 ``forbidden`` for anyone else, 409 ``started`` once it has begun."""
    player = deps.me(request)
    store = tournaments(request)
    row = found(store, tournament_id)
    if row.created_by != player.id:
        raise HubError("forbidden", _("only the tournament's creator can start it"), 403)
    if not store.start_now(row.id):
        raise HubError("started", _("the tournament has begun already"), 409)
    return info_of(deps.store(request), store, store.get(row.id) or row, player.id)


@router.get("/api/me/tournaments", response_model=TournamentList)
async def my_tournaments(request: Request) -> dict[str, Any]:
    """The tournaments you entered, newest first (My games)."""
    player = deps.me(request)
    store = tournaments(request)
    rows = store.entered_by(player.id)
    counts = store.entrant_counts([r.id for r in rows])
    return {"tournaments": [summary(r, counts.get(r.id, 0)) for r in rows]}


@router.websocket("/ws/tournaments/{tournament_id}")
async def tournament_socket(ws: WebSocket, tournament_id: str) -> None:
    """The tournament's page follows it: ``{"type": "tournament", "tournament": info}`` at
    once and again after every change. Nothing is read from the client."""
    store = tournaments(ws)
    people: db.Storage = ws.app.state.store
    await ws.accept()
    try:
        row = found(store, tournament_id)
    except HubError as e:
        await ws.send_json(error(e.code, e.reason))
        await ws.close(code=CLOSE_NOT_FOUND)
        return
    watchers: dict[str, int] = ws.app.state.tournament_watchers
    if watchers.get(row.id, 0) >= MAX_WATCHERS:
        await ws.send_json(error("too_many_watchers", _("too many people follow this page")))
        await ws.close(code=CLOSE_FULL)
        return
    watchers[row.id] = watchers.get(row.id, 0) + 1
    player = people.player_by_token(ws.cookies.get(COOKIE) or ws.query_params.get("token"))
    viewer = player.id if player else None
    reader = asyncio.create_task(_drain(ws))
    try:
        seen = -1
        while not reader.done():
            version = watched_version(ws.app.state, store, row.id)
            if version != seen:
                seen = version
                row = store.get(row.id) or row
                info = info_of(people, store, row, viewer)
                await ws.send_json({"type": "tournament", "tournament": info})
            await asyncio.wait({reader}, timeout=WATCH_EVERY)
    except WebSocketDisconnect:
        pass
    finally:
        watchers[row.id] -= 1
        reader.cancel()
        with contextlib.suppress(asyncio.CancelledError, WebSocketDisconnect):
            await reader


def watched_version(state: Any, store: TournamentStore, tournament_id: str) -> int:
    """The tournament's version, read at most once a ``WATCH_EVERY`` per process however many
    sockets follow it (``state.tournament_versions``: id -> (when read, version))."""
    kept: dict[str, tuple[float, int]] = state.tournament_versions
    at = time.monotonic()
    read = kept.get(tournament_id)
    if read is None or at - read[0] >= WATCH_EVERY * 0.9:
        row = store.get(tournament_id)
        read = kept[tournament_id] = (at, row.version if row is not None else -1)
    if len(kept) > 10_000:  # (forget the tournaments nobody follows any more)
        kept.clear()
    return read[1]


async def _drain(ws: WebSocket) -> None:
    """Read (and drop) what the client sends, until it goes: a frame over the limit or a
    flood costs nothing but this read."""
    with contextlib.suppress(WebSocketDisconnect):
        while (await ws.receive())["type"] != "websocket.disconnect":
            pass
