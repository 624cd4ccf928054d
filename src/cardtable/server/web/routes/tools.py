"""A seated person's table tools, where the game offers them (``Game.tools_for``): undo,
redo, restart, a hint, "still winnable?", and a solitaire's statistics."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from cardtable.server.api.messages import HintAnswer, Stats, TableInfo, WinnableAnswer
from cardtable.server.web import deps
from cardtable.server.web.deps import created

router = APIRouter()


@router.post(
    "/api/tables/{table_id}/undo", response_model=TableInfo, response_model_exclude_unset=True
)
async def undo(request: Request, table_id: str) -> dict[str, Any]:
    return await take_back(request, table_id, redo=False)


@router.post(
    "/api/tables/{table_id}/redo", response_model=TableInfo, response_model_exclude_unset=True
)
async def redo(request: Request, table_id: str) -> dict[str, Any]:
    return await take_back(request, table_id, redo=True)


async def take_back(request: Request, table_id: str, redo: bool) -> dict[str, Any]:
    """Undo the last action, or redo the last one undone (``Hub.undo``, ``Hub.redo``)."""
    player = deps.me(request)
    hub = deps.hub(request)
    table = hub.load(table_id)
    await (hub.redo if redo else hub.undo)(table, player)
    return table.info(player.id)


@router.post(
    "/api/tables/{table_id}/restart", response_model=TableInfo, response_model_exclude_unset=True
)
async def restart(request: Request, table_id: str) -> dict[str, Any]:
    """The same deal again, as a new table (the person's tool ``restart``: alone)."""
    player = deps.me(request)
    old = deps.hub(request).load(table_id)
    old.tool_seat(player.id, "restart")
    # restarting gives up the game under way (a lost deal), in the new table's transaction
    table = await deps.hub(request).replace(old, player, old.game, ["me"], old.options, old.seed)
    return (await created(deps.hub(request), table)).info(player.id)


@router.get("/api/tables/{table_id}/hint", response_model=HintAnswer)
async def hint(request: Request, table_id: str) -> dict[str, Any]:
    player = deps.me(request)
    table = deps.hub(request).load(table_id)
    seat = table.tool_seat(player.id, "hint")
    answer: dict[str, Any] = await request.app.state.advice.hint(table, seat, player.id)
    return answer


@router.get("/api/tables/{table_id}/winnable", response_model=WinnableAnswer)
async def winnable(request: Request, table_id: str) -> dict[str, Any]:
    """Peeking: the solver, which knows the stock, says whether the deal can still be won."""
    player = deps.me(request)
    table = deps.hub(request).load(table_id)
    table.tool_seat(player.id, "peek")  # alone only, unless the game says otherwise
    answer: dict[str, Any] = await request.app.state.advice.winnable(table, player.id)
    return answer


@router.get("/api/stats/{game}", response_model=Stats)
async def stats(request: Request, game: str) -> dict[str, Any]:
    player = deps.me(request)
    from cardtable.server.tables.advice import solitaire_stats

    return solitaire_stats(deps.store(request), player.id, game)
