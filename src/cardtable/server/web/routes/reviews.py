"""Game review of a finished table: ask for it, and read how far it is or what it found
(``tables/reviews.py``; docs/server.md, "Game review")."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import Response

from cardtable.server.api.messages import ReviewAnswer, ReviewBody
from cardtable.server.tables.reviews import Reviews
from cardtable.server.web import deps
from cardtable.server.web.socket import encode

router = APIRouter()


def reviews(request: Request) -> Reviews:
    return request.app.state.reviews


# Both answers are encoded here (a ReviewAnswer, as the tests check): a long game's review is
# tens of kilobytes, and FastAPI's own encoding of that costs the event loop (replays.py)
@router.post(
    "/api/tables/{table_id}/review",
    status_code=202,
    response_model=ReviewAnswer,
    responses={202: {"description": "asked (or asked before): where the review is"}},
)
async def ask_review(request: Request, table_id: str, body: ReviewBody | None = None) -> Response:
    """Ask for the finished table's review (one per table: asking again answers the one
    asked). 409 ``not_over`` for an unfinished table, 429 ``review_limit`` past the daily
    number, 503 ``busy`` when the queue is full."""
    player = deps.me(request)
    depth = (body or ReviewBody()).depth
    answer = await reviews(request).ask(table_id, player.id, depth)
    return Response(encode(answer), status_code=202, media_type="application/json")


@router.get("/api/tables/{table_id}/review", response_model=ReviewAnswer)
async def get_review(request: Request, table_id: str) -> Response:
    """The table's review: its status and progress, the review once done or the error.
    Anyone who may see the game's replay may read it."""
    return Response(encode(reviews(request).get(table_id)), media_type="application/json")
