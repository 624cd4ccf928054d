"""The pages: the browser's HTML files, the site's icon, a game's rules, and the
websocket's schemas."""

from __future__ import annotations

import functools
import re
from pathlib import Path

import orjson
from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, HTMLResponse, Response

from cardtable.i18n.languages import LANGUAGES
from cardtable.server.api.messages import WebsocketSchema, websocket_schema
from cardtable.server.web.language import (
    catalog_body,
    catalog_digest,
    catalog_language,
    render_page,
    request_language,
)

#: server/static, beside the sub-packages
STATIC = Path(__file__).parents[2] / "static"
router = APIRouter()

#: what a game's name may be in an address (/rules/GAME): as renderers.js asks of it
GAME_NAME = re.compile(r"^[a-z0-9][a-z0-9_-]{0,63}$")


def _page(name: str):
    def page(request: Request) -> HTMLResponse:
        html = render_page(name, request_language(request))
        # the page differs by language: a cache keys it by the cookie and the header too
        headers = {"cache-control": "no-cache", "vary": "cookie, accept-language"}
        return HTMLResponse(html, headers=headers)

    return page


for route, page in [
    ("/", "lobby.html"),
    ("/t/{table_id}", "table.html"),
    ("/t/{table_id}/replay", "replay.html"),
    ("/leaderboard", "leaderboard.html"),
    ("/me", "me.html"),
    ("/tournaments", "tournaments.html"),
    ("/tournaments/{tournament_id}", "tournament.html"),
]:
    router.add_api_route(route, _page(page), methods=["GET"], include_in_schema=False)


# the site's icon, an SVG, also where browsers ask for it unasked (/favicon.ico)
@router.get("/favicon.svg", include_in_schema=False)
@router.get("/favicon.ico", include_in_schema=False)
async def favicon() -> FileResponse:
    return FileResponse(
        STATIC / "favicon.svg",
        media_type="image/svg+xml",
        headers={"cache-control": "max-age=86400"},
    )


def rules_language(request: Request) -> str:
    """The language a rules page is asked for in: ``?lang=`` when it is one of ours (a link to
    one language's page), else the reader's (``request_language``)."""
    asked = request.query_params.get("lang", "")
    return asked if asked in LANGUAGES else request_language(request)


@router.get("/rules/{game}", include_in_schema=False, response_class=HTMLResponse)
async def rules(request: Request, game: str) -> HTMLResponse:
    """A game's rules page (docs/rules/GAME.md, or docs/rules/LANG/GAME.md) as HTML."""
    from cardtable.server.web.pages import not_found_html, rules_html

    page = rules_html(game, rules_language(request)) if GAME_NAME.match(game) else None
    if page is None:
        page = not_found_html(request.url.path, request_language(request))
        return HTMLResponse(page, status_code=404)
    headers = {"cache-control": "no-cache", "vary": "cookie, accept-language"}
    return HTMLResponse(page, headers=headers)


@router.get("/i18n/{code}.json", include_in_schema=False)
async def catalog(code: str, v: str = "") -> Response:
    """A language's catalog for the browser (``static/i18n.js``); kept for good by the browser
    when asked by its current address (``?v=`` its digest)."""
    lang = catalog_language(code)
    if lang is None:
        return Response(b'{"error": "no_language"}', 404, media_type="application/json")
    fresh = v == catalog_digest(lang)
    cache = "public, max-age=31536000, immutable" if fresh else "no-cache"
    return Response(
        catalog_body(lang), media_type="application/json", headers={"cache-control": cache}
    )


@router.get("/api/ws-schema", response_model=WebsocketSchema)
async def ws_schema() -> Response:
    """JSON Schemas of the websocket messages of ``/ws/tables/{id}``, both ways (OpenAPI
    describes HTTP only)."""
    return Response(ws_schema_body(), media_type="application/json")


@functools.cache
def ws_schema_body() -> bytes:
    """``GET /api/ws-schema``'s body, built once: the schemas never change while serving,
    and building them took 13 ms of the event loop per request."""
    return orjson.dumps(WebsocketSchema(**websocket_schema()).model_dump())
