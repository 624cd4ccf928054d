"""Finished games: a game's record as a download, its replay a step at a time, and the
leaderboard."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import Response

from cardtable.server.api.messages import HubError, LeaderboardRow, ReplayStep
from cardtable.server.web import deps
from cardtable.server.web.leaderboard import leaderboard
from cardtable.server.web.replays import LOG_PAGE_MAX
from cardtable.server.web.socket import encode

router = APIRouter()


@router.get(
    "/api/tables/{table_id}/record",
    response_class=Response,
    responses={
        200: {
            "description": "the game's record (docs/protocol.md), as a download",
            "content": {"application/json": {"schema": {"type": "object"}}},
        }
    },
)
async def record(request: Request, table_id: str) -> Response:
    """Built once with the table's replay (``replays.py``): 10,000 actions took 20 ms
    of the event loop per request."""
    replay = await request.app.state.replays.get(deps.hub(request), table_id)  # 403, 404
    game = replay.facts["game"]
    return Response(
        replay.record(),
        media_type="application/json",
        headers={"content-disposition": f'attachment; filename="{game}-{table_id}.json"'},
    )


# -- replay steps (browser client) ------------------------------------------------------
# The replay page has no rules in JavaScript: it asks for the spectator view after N
# actions of a finished game, rebuilt from the record's prefix by the game itself.
@router.get("/api/tables/{table_id}/replay", response_model=ReplayStep)
async def replay_step(
    request: Request,
    table_id: str,
    step: int = 0,
    log: bool = False,
    log_offset: int = 0,
    log_limit: int = LOG_PAGE_MAX,
) -> Response:
    """The game after ``step`` actions; with ``log``, the log's entries from
    ``log_offset``, ``log_limit`` of them (at most and by default 500), and
    ``log_total``.
    Built once per finished table and kept (``replays.py``): a step costs the same at
    any point of a long game."""
    if not 1 <= log_limit <= LOG_PAGE_MAX:
        raise HubError("bad_request", f"log_limit is 1 to {LOG_PAGE_MAX}")
    replay = await request.app.state.replays.get(deps.hub(request), table_id)  # 403, 404
    # encoded here (a ReplayStep, as the tests check): FastAPI's own encoding of a
    # 200 KB answer took 25 ms of the event loop, orjson's 0.3 ms
    answer = await replay.answer(step, log, log_offset, log_limit)
    return Response(encode(answer), media_type="application/json")


@router.get("/api/leaderboard", response_model=list[LeaderboardRow])
async def get_leaderboard(request: Request, game: str | None = None) -> list[dict[str, Any]]:
    return leaderboard(deps.store(request), game)
