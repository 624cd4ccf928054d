"""The HTTP and websocket surface of the server (FastAPI).

People need no password: ``POST /api/me`` with a name gives the browser a secret token in a
cookie, and that token owns the player's seats. Every message a table sends is built by the
hub from ``view(seat)``; see ``docs/server.md`` for the API.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import gc
import json
import logging
import math
import re
import socket
import time
import unicodedata
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import orjson
from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from cardtable import bots, games
from cardtable.paths import data_dir
from cardtable.server.api.limits import (
    BodyLimit,
    RateLimiter,
    SharedCounts,
    TooMany,
    address_key,
    too_many_response,
)
from cardtable.server.api.messages import (
    MAX_MESSAGE,
    ActMessage,
    BotAccount,
    BotAccountAnswer,
    BotAccounts,
    BotBody,
    BotSettingsBody,
    ChatMessage,
    ChatSettingsBody,
    ErrorAnswer,
    GameInfo,
    HintAnswer,
    HubError,
    InviteBody,
    JoinAnswer,
    JoinBody,
    LeaderboardRow,
    LeaveAnswer,
    MeAnswer,
    MyGames,
    NameBody,
    NewTable,
    NotHolder,
    PingMessage,
    RecoverBody,
    RecoveryAnswer,
    ReplayStep,
    Stats,
    TableInfo,
    WebsocketSchema,
    WinnableAnswer,
    encodable,
    error,
    parse_client,
    websocket_schema,
)
from cardtable.server.cluster.bus import PREFIX as BUS_PREFIX
from cardtable.server.cluster.bus import Bus
from cardtable.server.cluster.tunnel import CLOSE_MOVED, TableRouter, Tunnel
from cardtable.server.storage import store as db
from cardtable.server.tables import gamelog
from cardtable.server.tables.botrunner import EXTERNAL
from cardtable.server.tables.conn import Conn
from cardtable.server.tables.hub import Hub
from cardtable.server.tables.live import LiveTable, check_tool
from cardtable.server.web import security
from cardtable.server.web.leaderboard import leaderboard
from cardtable.server.web.replays import LOG_PAGE_MAX, Replays
from cardtable.server.web.settings import ServerSettings

STATIC = Path(__file__).parents[1] / "static"  # server/static, beside the sub-packages
COOKIE = "cardtable_token"
MAX_WS_FRAME = 65536  # beyond this the socket itself is closed (1009), not just refused
NAME = re.compile(r"^[^\x00-\x1f<>]{1,24}$")
LEVELS = {"search": ["easy", "normal", "hard"]}
#: recovery codes tried per client address: a burst of this many, then one a minute (a code
#: has about 99 bits: guessing is hopeless anyway, and this keeps it so)
RECOVER_BURST = 5
#: bot accounts one person may have
MAX_BOT_ACCOUNTS = 5
HTTP_CODES = {400: "bad_request", 404: "not_found", 405: "method_not_allowed"}
#: the statuses of refusals, as the API's documentation lists them
ERROR_STATUSES = [(400, "a bad request (a typed error)"), (401, "no player: POST /api/me"),
                  (403, "forbidden"), (404, "no such table"), (409, "a conflict"),
                  (422, "a body that fails its model"), (429, "over a limit: retry_after"),
                  (503, "busy: retry_after")]
#: websocket close codes (docs/server.md): the table does not exist; the client fell too far
#: behind (its outbox overflowed); no room (too many spectators or sockets of one player)
CLOSE_NOT_FOUND, CLOSE_TOO_SLOW, CLOSE_FULL = 4404, 4008, 4029
#: websocket close code: the credential the socket was opened with ended (a bot account's
#: token was renewed)
CLOSE_SIGNED_OUT = 4401
#: the bus message that tells every process a bot account's token was renewed
SIGNED_OUT = "signed_out"
CLOSE_WAIT = 5.0  # seconds a dropped connection's writer gets to send its close frame
WS_SEND_BUFFER = 65536  # bytes of kernel send buffer per websocket (Linux doubles it)
#: errors after which the sender also gets the table as it is now: its action was checked
#: against a table that is not what the client thought. Every other error (bad_message,
#: too_large, rate_limited, not_seated) is answered alone: the client's table is not the
#: question, and a flood must not cost a state per message ({"type": "sync"} asks for one).
FRESH_STATE_AFTER = frozenset({"stale", "illegal", "malformed", "not_your_turn", "game_over",
                               "not_started"})


# Every route is async: the hub and the store are used from the event loop only, one writer,
# never from the thread pool (where SQLite writers would wait on each other).
def create_app(settings: ServerSettings | None = None, *, gc_tuning: bool = False) -> FastAPI:
    """The server, configured by ``settings`` (``ServerSettings``: the options of ``cardtable
    serve``; without it, the defaults and the ``CARDTABLE_*`` environment). ``gc_tuning``: the
    server process is this app's own (``cardtable serve``): tune the garbage collector
    (``tune_gc``). The database defaults to an SQLite file in the data folder.
    """
    settings = settings or ServerSettings()
    url = settings.db or db.default_url(data_dir())

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        store = db.Store(url)
        hub = Hub(store, settings.bot_delay, settings.bot_timeout, settings.external_bots,
                  settings.bot_workers, seat_grace=settings.seat_grace,
                  min_clock=settings.min_clock, idle_close=settings.idle_close)
        app.state.store, app.state.hub = store, hub
        app.state.bot_sockets = {}  # bot account id -> its open websockets at this process
        from cardtable.server.tables.advice import Advice

        app.state.advice = Advice()  # hints and the solver, in a worker process of their own
        tunnel = None
        if settings.bus:
            tunnel = await start_bus(app, hub, settings.bus)
            # every limit a client meets counts its uses at every process
            counts = app.state.counts = SharedCounts(tunnel.bus.redis)
            for name, limiter in (("new-players", new_players), ("recovery", recoveries),
                                  ("hints", app.state.advice.hints),
                                  ("peeks", app.state.advice.peeks), ("chat", hub.chat.rate)):
                if limiter is not None:
                    limiter.share(counts, name)
            hub.broadcaster.shared = counts
            counts.start()
        hub.resume_all()
        if gc_tuning:
            tune_gc()
        yield
        if tunnel is not None:
            for task in app.state.bus_tasks:
                task.cancel()
            await app.state.counts.close()
            await tunnel.close()
            await tunnel.bus.close()  # the others take this process's tables over at once
        await hub.close()
        await app.state.advice.close()
        store.close()

    # every refusal has the same body (ErrorAnswer): documented once for every route
    app = FastAPI(title="cardtable", lifespan=lifespan, responses={
        code: {"model": ErrorAnswer, "description": why} for code, why in ERROR_STATUSES})
    security.install(app, settings.allowed_origin, settings.secure_cookies)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    app.state.replays = Replays()  # finished games' replays, built once each (replays.py)
    app.add_middleware(BodyLimit)  # request bodies: at most limits.MAX_BODY bytes
    # outermost: a request about a table another process holds goes there (tunnel.py)
    app.add_middleware(TableRouter)
    per_minute = settings.new_players_per_minute
    new_players = RateLimiter(per_minute / 60, per_minute) if per_minute > 0 else None

    @app.exception_handler(TooMany)
    async def too_many(_request: Request, e: TooMany) -> JSONResponse:
        return too_many_response(e)

    @app.exception_handler(HubError)
    async def hub_error(_request: Request, e: HubError) -> JSONResponse:
        return JSONResponse({"error": e.code, "message": e.reason, **e.extra},
                            status_code=e.status)

    # FastAPI's default 422 echoes the input, and an echoed NaN/Infinity made it a 500
    @app.exception_handler(RequestValidationError)
    async def invalid_body(_request: Request, e: RequestValidationError) -> JSONResponse:
        problems = "; ".join(
            f"{'.'.join(map(str, err.get('loc', ())))}: {err.get('msg', 'invalid')}"
            for err in e.errors()[:5])
        return JSONResponse({"error": "bad_request", "message": problems or "invalid request"},
                            status_code=422)

    # the framework's own refusals (a body that is not JSON, no such route) in the same shape
    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, e: StarletteHTTPException) -> Response:
        if e.status_code == 404 and wants_html(request):
            from cardtable.server.web.pages import not_found_html

            return HTMLResponse(not_found_html(request.url.path), status_code=404)
        code = HTTP_CODES.get(e.status_code, f"http_{e.status_code}")
        return JSONResponse({"error": code, "message": str(e.detail)},
                            status_code=e.status_code, headers=e.headers)

    def hub(request: Request) -> Hub:
        return request.app.state.hub

    def viewer(request: Request) -> db.Player | None:
        """The player the request's token names, if any."""
        token = request.cookies.get(COOKIE) or request.headers.get("x-cardtable-token")
        store: db.Storage = request.app.state.store
        return store.player_by_token(token)

    def me(request: Request) -> db.Player:
        player = viewer(request)
        if player is None:
            raise HubError("no_player", "choose a name first (POST /api/me)", 401)
        return player

    def seen_by(request: Request) -> str | None:
        player = viewer(request)
        return player.id if player else None

    # -- pages ------------------------------------------------------------------------------
    for route, page in [("/", "lobby.html"), ("/t/{table_id}", "table.html"),
                        ("/t/{table_id}/replay", "replay.html"),
                        ("/leaderboard", "leaderboard.html"), ("/me", "me.html")]:
        app.add_api_route(route, _page(page), methods=["GET"], include_in_schema=False)

    # the site's icon, an SVG, also where browsers ask for it unasked (/favicon.ico)
    @app.get("/favicon.svg", include_in_schema=False)
    @app.get("/favicon.ico", include_in_schema=False)
    async def favicon() -> FileResponse:
        return FileResponse(STATIC / "favicon.svg", media_type="image/svg+xml",
                            headers={"cache-control": "max-age=86400"})

    @app.get("/rules/{game}", include_in_schema=False, response_class=HTMLResponse)
    async def rules(request: Request, game: str) -> HTMLResponse:
        """A game's rules page (docs/rules/GAME.md) as HTML."""
        from cardtable.server.web.pages import not_found_html, rules_html

        page = rules_html(game) if GAME_NAME.match(game) else None
        if page is None:
            return HTMLResponse(not_found_html(request.url.path), status_code=404)
        return HTMLResponse(page, headers={"cache-control": "no-cache"})

    # -- people -----------------------------------------------------------------------------
    @app.get("/api/me", response_model=MeAnswer)
    async def get_me(request: Request) -> dict[str, Any]:
        player = viewer(request)
        if player is None:
            return {"player": None}
        store: db.Storage = request.app.state.store
        return {"player": {"id": player.id, "name": player.name,
                           "bot": player.bot_owner is not None},
                "recovery": store.has_recovery_code(player.id)}

    # -- bot accounts: a person's programs, playing through the API like people ------------
    bot_accounts_made = RateLimiter(1 / 60, MAX_BOT_ACCOUNTS)

    def owner(request: Request) -> db.Player:
        player = me(request)
        if player.bot_owner is not None:
            raise HubError("forbidden", "a bot account cannot own bot accounts", 403)
        return player

    @app.get("/api/me/bots", response_model=BotAccounts)
    async def my_bots(request: Request) -> dict[str, Any]:
        store: db.Storage = request.app.state.store
        return {"bots": [bot_account(b) for b in store.bot_accounts_of(owner(request).id)]}

    @app.post("/api/me/bots", response_model=BotAccountAnswer)
    async def new_bot_account(request: Request, body: NameBody) -> dict[str, Any]:
        """A bot account of yours and its token (shown once: only its hash is kept)."""
        player = owner(request)
        store: db.Storage = request.app.state.store
        name = body.name.strip()
        if not NAME.match(name):
            raise HubError("bad_name", "a name is 1 to 24 characters, without < or >")
        if reserved_name(name, hub(request).external_bots):  # the people's rule
            raise HubError("reserved_name", f"{name!r} is a name of this server's bots (or "
                           "looks like one): choose another")
        if len(store.bot_accounts_of(player.id)) >= MAX_BOT_ACCOUNTS:
            raise HubError("too_many_bots", f"you have {MAX_BOT_ACCOUNTS} bot accounts "
                           "already (at most)", 409)
        if store.bot_account_named(name) is not None:
            raise HubError("name_taken", f"there is a bot account called {name!r} already",
                           409)
        wait = bot_accounts_made.wait(player.id)
        if wait:
            raise TooMany("too_many_bots", f"you made several bot accounts just now: wait "
                          f"{wait:.0f} s", wait)
        bot, token = store.new_bot_account(player.id, name)
        return {"bot": bot_account(bot), "token": token}

    @app.post("/api/me/bots/{bot_id}/token", response_model=BotAccountAnswer)
    async def new_bot_token(request: Request, bot_id: str) -> dict[str, Any]:
        """A new token for your bot account: every other credential it had (the old token,
        browser tokens, a recovery code) stops working, and its open sockets close."""
        player = owner(request)
        store: db.Storage = request.app.state.store
        token = store.new_bot_token(player.id, bot_id[:32])
        bot = next((b for b in store.bot_accounts_of(player.id) if b.id == bot_id), None)
        if token is None or bot is None:
            raise HubError("not_found", "you have no bot account with this id", 404)
        await sign_out(request.app, bot.id)  # its open sockets too, at every process
        return {"bot": bot_account(bot), "token": token}

    @app.post("/api/me/bots/{bot_id}/settings", response_model=BotAccount)
    async def bot_settings(request: Request, bot_id: str,
                           body: BotSettingsBody) -> dict[str, Any]:
        """Whom your bot account plays with: ``anyone`` may invite it to a seat, or only
        you (``owner``, the default)."""
        store: db.Storage = request.app.state.store
        bot = store.set_plays_with(owner(request).id, bot_id[:32], body.plays_with == "anyone")
        if bot is None:
            raise HubError("not_found", "you have no bot account with this id", 404)
        return bot_account(bot)

    # -- one person, several browsers: a recovery code (no password) -------------------------
    recoveries = RateLimiter(1 / 60, RECOVER_BURST)

    @app.post("/api/me/recovery", response_model=RecoveryAnswer)
    async def new_recovery(request: Request) -> dict[str, Any]:
        """A new recovery code for you (any older one stops working): used in another
        browser (``POST /api/me/recover``), it makes that browser you."""
        player = me(request)
        if player.bot_owner is not None:  # a code would outlive the renewal of its token
            raise HubError("bot_account", "a bot account has no recovery code: its owner "
                           "renews its token (POST /api/me/bots/ID/token)", 403)
        wait = recoveries.wait("new:" + player.id)
        if wait:
            raise TooMany("too_many_codes", f"you made several codes just now: wait {wait:.0f} s",
                          wait)
        store: db.Storage = request.app.state.store
        return {"code": store.new_recovery_code(player.id)}

    def try_code(request: Request) -> None:
        """A recovery code tried from the request's address (used or looked up: one budget)."""
        host = request.client.host if request.client else None
        wait = recoveries.wait("use:" + address_key(host))
        if wait:
            raise TooMany("too_many_tries", f"too many recovery codes tried: wait {wait:.0f} s",
                          wait)

    def no_such_code() -> HubError:
        return HubError("bad_code", "no player has this recovery code (was it renewed?)", 404)

    @app.post("/api/me/recover/whose", response_model=MeAnswer)
    async def whose_code(request: Request, body: RecoverBody) -> dict[str, Any]:
        """Whose recovery code this is, without using it: a page asks before it makes the
        browser someone else (a link may carry another person's code)."""
        try_code(request)
        store: db.Storage = request.app.state.store
        player = store.whose_code(body.code)
        if player is None:
            raise no_such_code()
        return {"player": {"id": player.id, "name": player.name, "bot": False}}

    @app.post("/api/me/recover", response_model=MeAnswer)
    async def recover(request: Request, response: Response, body: RecoverBody) -> dict[str, Any]:
        """This browser becomes the player whose recovery code this is (its other browsers
        stay signed in); the code stays valid until renewed."""
        try_code(request)
        store: db.Storage = request.app.state.store
        found = store.recover(body.code)
        if found is None:
            raise no_such_code()
        player, token = found
        response.set_cookie(COOKIE, token, max_age=10 * 365 * 86400, httponly=True,
                            samesite="lax", secure=security.cookie_secure(request))
        return {"player": {"id": player.id, "name": player.name,
                           "bot": player.bot_owner is not None}, "recovery": True}

    @app.post("/api/me", response_model=MeAnswer)
    async def post_me(request: Request, response: Response, body: NameBody) -> dict[str, Any]:
        name = body.name.strip()
        if not NAME.match(name):
            raise HubError("bad_name", "a name is 1 to 24 characters, without < or >")
        if reserved_name(name, hub(request).external_bots):
            raise HubError("reserved_name", f"{name!r} is a bot's name (or looks like one): "
                           "bots' names are kept for bots; choose another")
        store: db.Storage = request.app.state.store
        player = viewer(request)
        if player and player.bot_owner is not None:
            raise HubError("forbidden", "a bot account keeps the name its owner gave it", 403)
        if player:
            store.rename(player.id, name)
        else:
            # request.client is the connection's address (uvicorn takes it from
            # X-Forwarded-For only from a trusted proxy: docs/server.md, "Limits")
            host = request.client.host if request.client else None
            wait = new_players.wait(address_key(host)) if new_players is not None else 0
            if wait:
                raise TooMany("too_many_players", "too many new players from your address: "
                              f"wait {wait:.0f} s", wait)
            player, token = store.new_player(name)
            response.set_cookie(COOKIE, token, max_age=10 * 365 * 86400, httponly=True,
                                samesite="lax", secure=security.cookie_secure(request))
        return {"player": {"id": player.id, "name": name}}

    # -- games and tables -------------------------------------------------------------------
    @app.get("/api/games", response_model=list[GameInfo])
    async def list_games(request: Request) -> list[dict[str, Any]]:
        external = [{"name": EXTERNAL + b, "levels": []} for b in hub(request).external_bots]
        return [{**games.get(n).describe(),
                 "bots": [{"name": b, "levels": LEVELS.get(b, [])}
                          for b in bots.names(n, research=False)]
                 + external}
                for n in games.names()]

    # a table's seats have ``history`` once the game is over: exclude_unset keeps it out
    # before (the same info as the websocket's)
    @app.get("/api/tables", response_model=list[TableInfo], response_model_exclude_unset=True)
    async def list_tables(request: Request, status: str = "open,running") -> list[dict[str, Any]]:
        from cardtable.server.web.lobby import lobby_tables

        h = hub(request)
        infos = lobby_tables(h.tables, request.app.state.store, status.split(",")[:3],
                             seen_by(request))
        if h.bus is not None:  # who is connected at the tables other processes hold
            elsewhere = [i["id"] for i in infos if i["id"] not in h.tables]
            for table_id, present in (await h.bus.presence(elsewhere)).items():
                info = next(i for i in infos if i["id"] == table_id)
                for n, seat in enumerate(info["seats"]):
                    if seat["connected"] is not None:
                        seat["connected"] = n in present
        return infos

    async def new_deal(request: Request, player: db.Player, body: NewTable,
                       clock: dict[str, Any] | None) -> LiveTable:
        """New deal: the new table, and the game it replaces abandoned (lost) in the new
        table's own transaction, where ``new_deal`` is the person's tool there. (With several
        processes, one held by another process is checked from the store and left to its
        idle close: docs/server.md)"""
        h = hub(request)
        assert body.replaces is not None
        if await h.own(body.replaces):
            try:
                old = h.load(body.replaces)
                old.tool_seat(player.id, "new_deal")
                return await h.replace(old, player, body.game, body.seats, body.options,
                                       body.seed, clock)
            finally:  # (claimed for this: let go unless it stays in memory here)
                await h.release(body.replaces)
        store: db.Storage = request.app.state.store
        row = store.table(body.replaces)
        if row is None:
            raise HubError("not_found", f"there is no table {body.replaces!r}", 404)
        mine = [s.seat for s in store.seats(body.replaces) if s.player_id == player.id]
        check_tool(row.game, row.players, mine[0] if mine else None, "new_deal")
        return h.create(player, body.game, body.seats, body.options, body.seed, clock)

    @app.post("/api/tables", response_model=TableInfo, response_model_exclude_unset=True)
    async def create_table(request: Request, body: NewTable) -> dict[str, Any]:
        # async: hub.create schedules the bots on the running loop (a worker thread has none)
        player = me(request)
        if any(len(s) > 200 for s in body.seats):
            raise HubError("bad_request", "a seat is 'me', 'open' or a bot's name")
        if body.seed is not None and len(body.seats) > 1:
            # whoever chose the seed could deal it again and read every other hand
            raise HubError("seed_not_allowed", "a deal number is for a game played alone; a "
                           "shared table's deal is secret and chosen by the server")
        clock = body.clock.model_dump() if body.clock is not None else None
        if body.replaces is not None:
            table = await new_deal(request, player, body, clock)
        else:
            table = hub(request).create(player, body.game, body.seats, body.options,
                                        body.seed, clock)
        table = await created(hub(request), table)
        return table.info(player.id)

    @app.get("/api/tables/{table_id}", response_model=TableInfo,
             response_model_exclude_unset=True)
    async def get_table(request: Request, table_id: str) -> dict[str, Any]:
        return hub(request).load(table_id).info(seen_by(request))

    @app.post("/api/tables/{table_id}/join", response_model=JoinAnswer,
              response_model_exclude_unset=True)
    async def join(request: Request, table_id: str, body: JoinBody) -> dict[str, Any]:
        player = me(request)
        table = hub(request).load(table_id)
        got = await hub(request).join(table, player, body.seat)
        return {"seat": got, "table": table.info(player.id)}

    @app.post("/api/tables/{table_id}/seats/{seat}/invite", response_model=TableInfo,
              response_model_exclude_unset=True)
    async def invite(request: Request, table_id: str, seat: int,
                     body: InviteBody) -> dict[str, Any]:
        """The table's creator seats a bot account at an open seat; its program finds the
        table among its games (GET /api/my-games) and plays it like a person."""
        player = me(request)
        table = hub(request).load(table_id)
        store: db.Storage = request.app.state.store
        bot = store.bot_account_named(body.bot.strip())
        if bot is None:
            raise HubError("not_found", f"there is no bot account called {body.bot!r}", 404)
        await hub(request).invite(table, player, seat, bot)
        return table.info(player.id)

    @app.post("/api/tables/{table_id}/seats/{seat}/bot", response_model=TableInfo,
              response_model_exclude_unset=True)
    async def seat_to_bot(request: Request, table_id: str, seat: int,
                          body: BotBody) -> dict[str, Any]:
        player = me(request)
        table = hub(request).load(table_id)
        await hub(request).hand_to_bot(table, player, seat, body.bot)
        return table.info(player.id)

    @app.post("/api/tables/{table_id}/chat", response_model=ChatSettingsBody)
    async def chat_settings(request: Request, table_id: str,
                            body: ChatSettingsBody) -> dict[str, Any]:
        """The creator switches the table's free chat (and spectators' writing) on or off."""
        player = me(request)
        h = hub(request)
        return h.chat.change(h.load(table_id), player.id, body.free, body.spectators)

    @app.post("/api/tables/{table_id}/undo", response_model=TableInfo,
              response_model_exclude_unset=True)
    async def undo(request: Request, table_id: str) -> dict[str, Any]:
        player = me(request)
        table = hub(request).load(table_id)
        await hub(request).undo(table, player)
        return table.info(player.id)

    @app.post("/api/tables/{table_id}/redo", response_model=TableInfo,
              response_model_exclude_unset=True)
    async def redo(request: Request, table_id: str) -> dict[str, Any]:
        player = me(request)
        table = hub(request).load(table_id)
        await hub(request).redo(table, player)
        return table.info(player.id)

    @app.post("/api/tables/{table_id}/restart", response_model=TableInfo,
              response_model_exclude_unset=True)
    async def restart(request: Request, table_id: str) -> dict[str, Any]:
        """The same deal again, as a new table (the person's tool ``restart``: alone)."""
        player = me(request)
        old = hub(request).load(table_id)
        old.tool_seat(player.id, "restart")
        # restarting gives up the game under way (a lost deal), in the new table's transaction
        table = await hub(request).replace(old, player, old.game, ["me"], old.options, old.seed)
        return (await created(hub(request), table)).info(player.id)

    @app.post("/api/tables/{table_id}/leave", response_model=LeaveAnswer,
              response_model_exclude_unset=True)
    async def leave(request: Request, table_id: str) -> dict[str, Any]:
        """Leave your seat (docs/server.md, "Table lifecycle"): an open table's seat is free
        again; in a started game the game's fallback bot plays it on (in a competitive game
        that is resigning); a solitaire, or a table left to bots only, is closed."""
        player = me(request)
        table = hub(request).load(table_id)
        outcome = await hub(request).leave(table, player)
        return {"outcome": outcome, "table": table.info(player.id)}

    @app.post("/api/tables/{table_id}/resign", response_model=LeaveAnswer,
              response_model_exclude_unset=True)
    async def resign(request: Request, table_id: str) -> dict[str, Any]:
        """Resign: in a competitive game your seat ranks last (the others play on against
        the fallback bot); a cooperative game or a solitaire ends as lost."""
        player = me(request)
        table = hub(request).load(table_id)
        outcome = await hub(request).leave(table, player, resign=True)
        return {"outcome": outcome, "table": table.info(player.id)}

    @app.get("/api/my-games", response_model=MyGames, response_model_exclude_unset=True)
    async def get_my_games(request: Request, page: int = 0, limit: int = 20) -> dict[str, Any]:
        """Your unfinished tables (yours to play first) and a page of your finished games."""
        from cardtable.server.web.mygames import MY_PAGE_MAX, my_games

        player = me(request)
        if not 0 <= page <= 10_000 or not 1 <= limit <= MY_PAGE_MAX:
            raise HubError("bad_request", f"page is 0 to 10000, limit 1 to {MY_PAGE_MAX}")
        return my_games(hub(request), player, page, limit)

    @app.get("/api/tables/{table_id}/hint", response_model=HintAnswer)
    async def hint(request: Request, table_id: str) -> dict[str, Any]:
        player = me(request)
        table = hub(request).load(table_id)
        seat = table.tool_seat(player.id, "hint")
        answer: dict[str, Any] = await request.app.state.advice.hint(table, seat, player.id)
        return answer

    @app.get("/api/tables/{table_id}/winnable", response_model=WinnableAnswer)
    async def winnable(request: Request, table_id: str) -> dict[str, Any]:
        """Peeking: the solver, which knows the stock, says whether the deal can still be won."""
        player = me(request)
        table = hub(request).load(table_id)
        table.tool_seat(player.id, "peek")  # alone only, unless the game says otherwise
        answer: dict[str, Any] = await request.app.state.advice.winnable(table, player.id)
        return answer

    @app.get("/api/tables/{table_id}/record", response_class=Response, responses={200: {
        "description": "the game's record (docs/protocol.md), as a download",
        "content": {"application/json": {"schema": {"type": "object"}}}}})
    async def record(request: Request, table_id: str) -> Response:
        """Built once with the table's replay (``replays.py``): 10,000 actions took 20 ms
        of the event loop per request."""
        replay = await request.app.state.replays.get(hub(request), table_id)  # 403, 404
        game = replay.facts["game"]
        return Response(replay.record(), media_type="application/json", headers={
            "content-disposition": f'attachment; filename="{game}-{table_id}.json"'})

    @app.get("/api/stats/{game}", response_model=Stats)
    async def stats(request: Request, game: str) -> dict[str, Any]:
        player = me(request)
        from cardtable.server.tables.advice import solitaire_stats

        return solitaire_stats(request.app.state.store, player.id, game)

    @app.get("/api/leaderboard", response_model=list[LeaderboardRow])
    async def get_leaderboard(request: Request, game: str | None = None) -> list[dict[str, Any]]:
        return leaderboard(request.app.state.store, game)

    @app.get("/api/ws-schema", response_model=WebsocketSchema)
    async def ws_schema() -> Response:
        """JSON Schemas of the websocket messages of ``/ws/tables/{id}``, both ways (OpenAPI
        describes HTTP only)."""
        return Response(ws_schema_body(), media_type="application/json")

    # -- replay steps (browser client) ------------------------------------------------------
    # The replay page has no rules in JavaScript: it asks for the spectator view after N
    # actions of a finished game, rebuilt from the record's prefix by the game itself.
    @app.get("/api/tables/{table_id}/replay", response_model=ReplayStep)
    async def replay_step(request: Request, table_id: str, step: int = 0, log: bool = False,
                          log_offset: int = 0, log_limit: int = LOG_PAGE_MAX) -> Response:
        """The game after ``step`` actions; with ``log``, the log's entries from
        ``log_offset``, ``log_limit`` of them (at most and by default 500), and
        ``log_total``.
        Built once per finished table and kept (``replays.py``): a step costs the same at
        any point of a long game."""
        if not 1 <= log_limit <= LOG_PAGE_MAX:
            raise HubError("bad_request", f"log_limit is 1 to {LOG_PAGE_MAX}")
        replay = await request.app.state.replays.get(hub(request), table_id)  # 403, 404
        # encoded here (a ReplayStep, as the tests check): FastAPI's own encoding of a
        # 200 KB answer took 25 ms of the event loop, orjson's 0.3 ms
        answer = await replay.answer(step, log, log_offset, log_limit)
        return Response(encode(answer), media_type="application/json")
    # -- end of replay steps ----------------------------------------------------------------

    # -- live tables ------------------------------------------------------------------------
    @app.websocket("/ws/tables/{table_id}")
    async def table_socket(ws: WebSocket, table_id: str) -> None:
        store: db.Storage = ws.app.state.store
        h: Hub = ws.app.state.hub
        await ws.accept()
        try:
            table = h.load(table_id)
        except HubError as e:
            await ws.send_json(error(e.code, e.reason))
            await ws.close(code=CLOSE_NOT_FOUND)
            return
        token = ws.cookies.get(COOKIE) or ws.query_params.get("token")
        player = store.player_by_token(token)
        if player is not None and table.clock:  # back after the clock gave the seat away
            await h.reclaim(table, player)
        seat = table.seat_of(player.id) if player else None
        conn = Conn(seat=seat, player_id=player.id if player else None)
        await gamelog.catch_up(table)  # a long game's log, built between other work
        try:
            await h.connect(table, conn)
        except HubError as e:  # no room at the table: say why, then close with a code
            await ws.send_json(error(e.code, e.reason))
            await ws.close(code=CLOSE_FULL, reason=e.reason[:120])
            return
        # a bot account's socket ends when its token is renewed (``sign_out``)
        signed_in = ws.app.state.bot_sockets.setdefault(player.id, set()) \
            if player is not None and player.bot_owner is not None else set()
        signed_in.add(ws)
        conn.push(h.chat.history(table, conn))  # the chat's last messages, after the table
        limit_send_buffer(ws)
        writer = asyncio.create_task(write_loop(ws, conn))
        try:
            while not conn.dropped:
                event = await ws.receive()
                if event["type"] == "websocket.disconnect":
                    break
                raw = event.get("text")
                try:
                    answer = await handle_message(h, table, conn, raw if raw is not None
                                                  else event.get("bytes"))
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
                await asyncio.sleep(answer.get("retry_after", 0) if answer and answer.get("code")
                                    == "rate_limited" else 0)
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            signed_in.discard(ws)
            await h.disconnect(table, conn)
            if conn.dropped:  # the writer closes with 4008 (or finds the socket gone)
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(writer, CLOSE_WAIT)
            writer.cancel()

    return app


async def created(h: Hub, table: LiveTable) -> LiveTable:
    """A table just created here, its lease claimed on the bus (a new id: nobody else
    knows it, so it is ours unless this process is coming back from a pause)."""
    if not await h.own(table.id):
        h.drop(table)
        raise HubError("moved", "the table moved to another server: reload", 503)
    return table


async def start_bus(app: FastAPI, hub: Hub, url: str) -> Tunnel:
    """Join the other processes on the bus: the hub claims before it loads, drops its
    tables if it loses its leases, takes over dead processes' tables; the tunnel runs the
    requests they forward here."""
    bus = Bus(url)
    tunnel = Tunnel(bus, app.state.tunnel_target, app)
    hub.bus = bus
    bus.on_lost = hub.drop_all
    bus.on_take = hub.take_over
    await bus.start()
    tunnel.start()
    app.state.bus_tasks = [asyncio.create_task(hub.share_presence())]
    app.state.tunnel = tunnel
    forward = bus.on_message  # the tunnel's; a renewed token's news is the app's

    def on_message(message: dict[str, Any]) -> None:
        if message.get("t") == SIGNED_OUT and isinstance(message.get("player"), str):
            task = asyncio.create_task(close_sockets(app, message["player"]))
            app.state.bus_tasks.append(task)  # (cancelled at shutdown, dropped when done)
            task.add_done_callback(app.state.bus_tasks.remove)
        else:
            forward(message)

    bus.on_message = on_message
    return tunnel


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
        logging.getLogger("cardtable.server").warning(
            "could not tell the other processes that %s signed out", player_id, exc_info=True)


async def close_sockets(app: FastAPI, player_id: str) -> None:
    sockets = app.state.bot_sockets.pop(player_id, set())
    for ws in list(sockets):
        with contextlib.suppress(Exception):  # (already closing)
            await ws.close(code=CLOSE_SIGNED_OUT, reason="signed out: the token was renewed")


#: ``cardtable serve --log-level``: what the server's logger (``cardtable.server``) writes
LOG_LEVELS = ("debug", "info", "warning")


def configure_logging(level: str) -> None:
    """The server's log lines on stderr, at ``level`` (one of ``LOG_LEVELS``): at info, what
    an operator needs (tables created and finished, bots replaced or handed seats, errors).
    uvicorn's own loggers stay at warning: a line per request would drown them."""
    handler = logging.StreamHandler()
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    logger = logging.getLogger("cardtable")
    logger.addHandler(handler)
    logger.setLevel(level.upper())
    logger.propagate = False  # (one line each, whatever else configures the root logger)


#: the garbage collector's thresholds while serving (generation 0, 1, 2; Python's are 700, 10,
#: 10). Nearly all of a server's garbage dies by reference counting; with the defaults, the
#: collector's passes over the live tables and connections took about a third of the event
#: loop's time and paused it for 100+ ms (docs/reliability.md, "Load")
GC_THRESHOLDS = (10_000, 20, 100)


def tune_gc() -> None:
    """Collect once, move everything loaded at start (modules, resumed tables) out of the
    collector's sight, and collect less often from then on."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


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
    except Exception:  # noqa: BLE001 - the socket is gone; the reader side cleans up
        conn.dropped = True


@functools.cache
def ws_schema_body() -> bytes:
    """``GET /api/ws-schema``'s body, built once: the schemas never change while serving,
    and building them took 13 ms of the event loop per request."""
    return orjson.dumps(WebsocketSchema(**websocket_schema()).model_dump())


def encode(message: dict[str, Any]) -> str:
    """A message as compact JSON text (orjson; the standard library for what it refuses,
    such as integers beyond 64 bits)."""
    try:
        return orjson.dumps(message).decode()
    except TypeError:  # orjson.JSONEncodeError
        return json.dumps(message, separators=(",", ":"), ensure_ascii=False)


async def handle_message(h: Hub, table: LiveTable, conn: Conn,
                         raw: str | bytes | None) -> dict[str, Any] | None:
    """One client message (``messages.ClientMessage``: ``act``, ``ping``, ``sync`` or
    ``chat``).
    Anything else is a typed error.

    Every message, whatever it is, counts against the sender's rate (``Conn.allow``): past
    it the answer is only ``rate_limited``, with ``retry_after`` seconds."""
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
    if client_id is not None and not (isinstance(client_id, str) and len(client_id) <= 64
                                      and encodable(client_id)):
        client_id = None
        answer = answer or error("bad_message", "id must be a short string")
    if wait:  # the rate first: a flood is told to slow down, whatever it sends
        wait = math.ceil(wait * 100) / 100  # never 0: "wait 0 s" would invite a resend now
        answer = error("rate_limited", f"too many messages: wait {wait:.2f} s", client_id)
        return {**answer, "retry_after": wait}
    if answer is not None:
        return answer
    if not isinstance(message, dict):
        return error("bad_message", "messages are JSON objects")
    if message.get("type") == "act" and conn.seat is None:  # whatever else the act says
        return error("not_seated", "you are watching this table: take a seat to play",
                     client_id)
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
    return await h.act(table, conn.seat, parsed.action, parsed.version, client_id)


#: what a game's name may be in an address (/rules/GAME): as renderers.js asks of it
GAME_NAME = re.compile(r"^[a-z0-9][a-z0-9_-]{0,63}$")


def wants_html(request: Request) -> bool:
    """A browser asking for a page: HTML accepted and not an address of the API (which keeps
    its JSON errors whatever the client accepts)."""
    path = request.url.path
    if path.startswith(("/api/", "/ws/")) or path == "/api":
        return False
    return "text/html" in request.headers.get("accept", "")


#: words that make a name a bot's: "greedy bot", "Search (bot)", "bots"
BOT_WORD = re.compile(r"(^|[^a-z0-9])bots?$")
#: what a table or the leaderboard calls a program's seat (``names.bot_label``: ``cmd:...``)
PROGRAM_LABEL = "program"


def reserved_name(name: str, external: dict[str, str] | None = None) -> bool:
    """Whether a ``name`` of a person or a bot account is (or looks like) one of this
    server's bots, so that the leaderboard and the tables never show someone as the server's
    bot: any built-in bot's name, with or without " bot", in any case (``Greedy``,
    ``greedy bot``, ``GreedyBot``, ``search:hard``); what a table shows for one (``Search
    (hard)``, ``Greedy 3``, ``Program``); an operator's external bot (``NAME``,
    ``ext:NAME``); a spec (``ext:``, ``cmd:``, ``bot:``); and any name whose last word is
    "bot"."""
    text = unicodedata.normalize("NFKC", name).casefold().strip()
    if text.startswith((EXTERNAL, bots.EXTERNAL, "cmd(", "bot:")) or BOT_WORD.search(text):
        return True
    reserved = {b for g in games.names() for b in bots.names(g)}
    reserved |= {n.casefold() for n in external or {}}
    base = text.partition(":")[0].strip()  # a bot with a level: "search:hard"
    compact = re.sub(r"[^a-z0-9]", "", base)
    if base in reserved or compact in reserved or compact.removesuffix("bot") in reserved:
        return True
    # the labels tables show: a level in brackets, a seat's number after the label
    shown = re.sub(r"[^a-z0-9]", "", text).rstrip("0123456789")
    return shown in bot_labels(reserved)


def bot_labels(names: set[str]) -> set[str]:
    """The labels of these bots at every level, and a program's, letters and digits only
    (``searchhard``)."""
    levels = {level for known in LEVELS.values() for level in known}
    labels = {PROGRAM_LABEL, *names}
    return labels | {re.sub(r"[^a-z0-9]", "", n) + level for n in names for level in levels}


def bot_account(bot: db.Player) -> dict[str, Any]:
    """A bot account as its owner sees it (``messages.BotAccount``)."""
    return {"id": bot.id, "name": bot.name, "plays_with": bot.plays_with or "owner"}


def _page(name: str):
    def page() -> FileResponse:
        return FileResponse(STATIC / name, headers={"cache-control": "no-cache"})

    return page
