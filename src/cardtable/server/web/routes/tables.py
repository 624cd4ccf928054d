"""Games and tables: what is offered, the lobby's tables, a new table or deal, joining,
inviting a bot account, handing a seat to a bot, chat settings, leaving and resigning, and
My games."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from cardtable import bots, games
from cardtable.core.words import translatable
from cardtable.server.api.messages import (
    BotBody,
    ChatSettingsBody,
    GameInfo,
    HubError,
    InviteBody,
    JoinAnswer,
    JoinBody,
    LeaveAnswer,
    MyGames,
    NewTable,
    TableInfo,
)
from cardtable.server.storage import store as db
from cardtable.server.tables.botrunner import EXTERNAL
from cardtable.server.tables.live import LiveTable, check_tool
from cardtable.server.web import deps
from cardtable.server.web.deps import created
from cardtable.server.web.naming import LEVELS

_, _n = translatable("cardtable")

router = APIRouter()


# -- games and tables -------------------------------------------------------------------
@router.get("/api/games", response_model=list[GameInfo])
async def list_games(request: Request) -> list[dict[str, Any]]:
    external = [{"name": EXTERNAL + b, "levels": []} for b in deps.hub(request).external_bots]
    return [
        {
            **games.get(n).describe(),
            "bots": [
                {"name": b, "levels": LEVELS.get(b, [])} for b in bots.names(n, research=False)
            ]
            + external,
        }
        for n in games.names()
    ]


# a table's seats have ``history`` once the game is over: exclude_unset keeps it out
# before (the same info as the websocket's)
@router.get("/api/tables", response_model=list[TableInfo], response_model_exclude_unset=True)
async def list_tables(request: Request, status: str = "open,running") -> list[dict[str, Any]]:
    from cardtable.server.web.lobby import lobby_tables

    h = deps.hub(request)
    infos = lobby_tables(
        h.tables, deps.store(request), status.split(",")[:3], deps.seen_by(request)
    )
    if h.bus is not None:  # who is connected at the tables other processes hold
        elsewhere = [i["id"] for i in infos if i["id"] not in h.tables]
        for table_id, present in (await h.bus.presence(elsewhere)).items():
            info = next(i for i in infos if i["id"] == table_id)
            for n, seat in enumerate(info["seats"]):
                if seat["connected"] is not None:
                    seat["connected"] = n in present
    return infos


async def new_deal(
    request: Request, player: db.Player, body: NewTable, clock: dict[str, Any] | None
) -> LiveTable:
    """New deal: the new table, and the game it replaces abandoned (lost) in the new
    table's own transaction, where ``new_deal`` is the person's tool there. (With several
    processes, one held by another process is checked from the store and left to its
    idle close: docs/server.md)"""
    h = deps.hub(request)
    assert body.replaces is not None
    if await h.own(body.replaces):
        try:
            old = h.load(body.replaces)
            old.tool_seat(player.id, "new_deal")
            return await h.replace(
                old, player, body.game, body.seats, body.options, body.seed, clock
            )
        finally:  # (claimed for this: let go unless it stays in memory here)
            await h.release(body.replaces)
    store = deps.store(request)
    row = store.table(body.replaces)
    if row is None:
        raise HubError("not_found", _("there is no table {table}", table=repr(body.replaces)), 404)
    mine = [s.seat for s in store.seats(body.replaces) if s.player_id == player.id]
    check_tool(row.game, row.players, mine[0] if mine else None, "new_deal")
    return h.create(player, body.game, body.seats, body.options, body.seed, clock)


@router.post("/api/tables", response_model=TableInfo, response_model_exclude_unset=True)
async def create_table(request: Request, body: NewTable) -> dict[str, Any]:
    # async: hub.create schedules the bots on the running loop (a worker thread has none)
    player = deps.me(request)
    if any(len(s) > 200 for s in body.seats):
        raise HubError("bad_request", _("a seat is 'me', 'open' or a bot's name"))
    if body.seed is not None and len(body.seats) > 1:
        # whoever chose the seed could deal it again and read every other hand
        raise HubError(
            "seed_not_allowed",
            "a deal number is for a game played alone; a "
            "shared table's deal is secret and chosen by the server",
        )
    clock = body.clock.model_dump() if body.clock is not None else None
    if body.replaces is not None:
        table = await new_deal(request, player, body, clock)
    else:
        table = deps.hub(request).create(
            player, body.game, body.seats, body.options, body.seed, clock
        )
    table = await created(deps.hub(request), table)
    return table.info(player.id)


@router.get("/api/tables/{table_id}", response_model=TableInfo, response_model_exclude_unset=True)
async def get_table(request: Request, table_id: str) -> dict[str, Any]:
    return deps.hub(request).load(table_id).info(deps.seen_by(request))


@router.post(
    "/api/tables/{table_id}/join", response_model=JoinAnswer, response_model_exclude_unset=True
)
async def join(request: Request, table_id: str, body: JoinBody) -> dict[str, Any]:
    player = deps.me(request)
    table = deps.hub(request).load(table_id)
    got = await deps.hub(request).join(table, player, body.seat)
    return {"seat": got, "table": table.info(player.id)}


@router.post(
    "/api/tables/{table_id}/seats/{seat}/invite",
    response_model=TableInfo,
    response_model_exclude_unset=True,
)
async def invite(request: Request, table_id: str, seat: int, body: InviteBody) -> dict[str, Any]:
    """The table's creator seats a bot account at an open seat; its program finds the
    table among its games (GET /api/my-games) and plays it like a person."""
    player = deps.me(request)
    table = deps.hub(request).load(table_id)
    store = deps.store(request)
    bot = store.bot_account_named(body.bot.strip())
    if bot is None:
        raise HubError(
            "not_found", _("there is no bot account called {name}", name=repr(body.bot)), 404
        )
    await deps.hub(request).invite(table, player, seat, bot)
    return table.info(player.id)


@router.post(
    "/api/tables/{table_id}/seats/{seat}/bot",
    response_model=TableInfo,
    response_model_exclude_unset=True,
)
async def seat_to_bot(request: Request, table_id: str, seat: int, body: BotBody) -> dict[str, Any]:
    player = deps.me(request)
    table = deps.hub(request).load(table_id)
    await deps.hub(request).hand_to_bot(table, player, seat, body.bot)
    return table.info(player.id)


@router.post("/api/tables/{table_id}/chat", response_model=ChatSettingsBody)
async def chat_settings(request: Request, table_id: str, body: ChatSettingsBody) -> dict[str, Any]:
    """The creator switches the table's free chat (and spectators' writing) on or off."""
    player = deps.me(request)
    h = deps.hub(request)
    return h.chat.change(h.load(table_id), player.id, body.free, body.spectators)


@router.post(
    "/api/tables/{table_id}/leave", response_model=LeaveAnswer, response_model_exclude_unset=True
)
async def leave(request: Request, table_id: str) -> dict[str, Any]:
    """Leave your seat (docs/server.md, "Table lifecycle"): an open table's seat is free
    again; in a started game the game's fallback bot plays it on (in a competitive game
    that is resigning); a solitaire, or a table left to bots only, is closed."""
    player = deps.me(request)
    table = deps.hub(request).load(table_id)
    outcome = await deps.hub(request).leave(table, player)
    return {"outcome": outcome, "table": table.info(player.id)}


@router.post(
    "/api/tables/{table_id}/resign", response_model=LeaveAnswer, response_model_exclude_unset=True
)
async def resign(request: Request, table_id: str) -> dict[str, Any]:
    """Resign: in a competitive game your seat ranks last (the others play on against
    the fallback bot); a cooperative game or a solitaire ends as lost."""
    player = deps.me(request)
    table = deps.hub(request).load(table_id)
    outcome = await deps.hub(request).leave(table, player, resign=True)
    return {"outcome": outcome, "table": table.info(player.id)}


@router.get("/api/my-games", response_model=MyGames, response_model_exclude_unset=True)
async def get_my_games(request: Request, page: int = 0, limit: int = 20) -> dict[str, Any]:
    """Your unfinished tables (yours to play first) and a page of your finished games."""
    from cardtable.server.web.mygames import MY_PAGE_MAX, my_games

    player = deps.me(request)
    if not 0 <= page <= 10_000 or not 1 <= limit <= MY_PAGE_MAX:
        raise HubError("bad_request", f"page is 0 to 10000, limit 1 to {MY_PAGE_MAX}")
    return my_games(deps.hub(request), player, page, limit)
