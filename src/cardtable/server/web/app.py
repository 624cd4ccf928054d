"""The server's app (FastAPI): its settings, lifespan, middleware and error shapes, and the
routes of every area (``routes/``, ``socket``) included.

People need no password: ``POST /api/me`` with a name gives the browser a secret token in a
cookie, and that token owns the player's seats. Every message a table sends is built by the
hub from ``view(seat)``; see ``docs/server.md`` for the API.
"""

from __future__ import annotations

import asyncio
import gc
import logging
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from cardtable.core.words import wire
from cardtable.paths import data_dir
from cardtable.server.api.limits import (
    BodyLimit,
    RateLimiter,
    SharedCounts,
    TooMany,
    too_many_response,
)
from cardtable.server.api.logs import JsonFormatter, RedactingFormatter
from cardtable.server.api.messages import ErrorAnswer, HubError
from cardtable.server.cluster.bus import Bus
from cardtable.server.cluster.tunnel import TableRouter, Tunnel
from cardtable.server.storage import store as db
from cardtable.server.storage.tournaments import TournamentStore
from cardtable.server.tables.hub import Hub
from cardtable.server.tables.reviews import ReviewQueue, Reviews
from cardtable.server.tournaments.runner import TournamentRunner
from cardtable.server.web import deps, observe, security, socket
from cardtable.server.web.replays import Replays
from cardtable.server.web.routes import (
    bot_accounts,
    history,
    pages,
    people,
    practice,
    reviews,
    tables,
    tools,
    tournaments,
)
from cardtable.server.web.routes.pages import STATIC
from cardtable.server.web.settings import ServerSettings
from cardtable.server.web.socket import MAX_WS_FRAME, SIGNED_OUT, close_sockets

__all__ = ["MAX_WS_FRAME", "configure_logging", "create_app"]

HTTP_CODES = {400: "bad_request", 404: "not_found", 405: "method_not_allowed"}
#: the statuses of refusals, as the API's documentation lists them
ERROR_STATUSES = [
    (400, "a bad request (a typed error)"),
    (401, "no player: POST /api/me"),
    (403, "forbidden"),
    (404, "no such table"),
    (409, "a conflict"),
    (422, "a body that fails its model"),
    (429, "over a limit: retry_after"),
    (503, "busy: retry_after"),
]


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

    readiness = app_readiness = observe.Readiness()

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        store = db.Store(url)
        readiness.store = store
        hub = Hub(
            store,
            settings.bot_delay,
            settings.bot_timeout,
            settings.external_bots,
            settings.bot_workers,
            seat_grace=settings.seat_grace,
            min_clock=settings.min_clock,
            idle_close=settings.idle_close,
        )
        app.state.store, app.state.hub = store, hub
        app.state.bot_sockets = {}  # bot account id -> its open websockets at this process
        from cardtable.server.tables.advice import Advice

        app.state.advice = Advice()  # hints and the solver, in a worker process of their own
        tunnel = None
        if settings.bus:
            tunnel = await start_bus(app, hub, settings.bus)
            # every limit a client meets counts its uses at every process
            counts = app.state.counts = SharedCounts(tunnel.bus.redis)
            for name, limiter in (
                ("new-players", limits.new_players),
                ("recovery", limits.recoveries),
                ("hints", app.state.advice.hints),
                ("peeks", app.state.advice.peeks),
                ("chat", hub.chat.rate),
                ("tutor", limits.tutor),
            ):
                if limiter is not None:
                    limiter.share(counts, name)
            hub.broadcaster.shared = counts
            counts.start()
        app.state.reviews = await start_reviews(store, url, settings)
        app.state.tournaments = TournamentStore(store.engine)
        app.state.replays.secret = app.state.tournaments.secret
        app.state.tournament_watchers, app.state.tournament_versions = {}, {}
        runner = app.state.tournament_runner = TournamentRunner(hub, app.state.tournaments)
        hub.resume_all()
        runner.start()
        metrics = None
        if settings.metrics_port is not None:
            metrics = await observe.start_metrics(app, settings.metrics_host, settings.metrics_port)
        readiness.bus = hub.bus
        readiness.started = True
        if gc_tuning:
            tune_gc()
        yield
        # stopping: unready first (GracefulServer already said so when signalled), then the
        # tables handed over (the bus closed), then everything else closed
        readiness.stopping = True
        await observe.stop_metrics(app, metrics)
        await runner.close()
        if tunnel is not None:
            for task in app.state.bus_tasks:
                task.cancel()
            await app.state.counts.close()
            await tunnel.close()
            await tunnel.bus.close()  # the others take this process's tables over at once
        await app.state.reviews.close()
        await hub.close()
        await app.state.advice.close()
        store.close()

    # every refusal has the same body (ErrorAnswer): documented once for every route
    app = FastAPI(
        title="cardtable",
        lifespan=lifespan,
        responses={
            code: {"model": ErrorAnswer, "description": why} for code, why in ERROR_STATUSES
        },
    )
    app.state.readiness = app_readiness
    security.install(app, settings.allowed_origin, settings.secure_cookies)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    app.state.replays = Replays()  # finished games' replays, built once each (replays.py)
    app.add_middleware(BodyLimit)  # request bodies: at most limits.MAX_BODY bytes
    # outermost: a request about a table another process holds goes there (tunnel.py)
    app.add_middleware(TableRouter)
    # outermost of all: every request's id, forwarded with it to a table's holder
    app.add_middleware(observe.RequestId)
    per_minute = settings.new_players_per_minute
    app.state.limiters = limits = deps.Limiters(
        RateLimiter(per_minute / 60, per_minute) if per_minute > 0 else None
    )

    @app.exception_handler(TooMany)
    async def too_many(_request: Request, e: TooMany) -> JSONResponse:
        return too_many_response(e)

    @app.exception_handler(HubError)
    async def hub_error(_request: Request, e: HubError) -> JSONResponse:
        body = {"error": e.code, "message": e.reason, "msg": wire(e.reason), **e.extra}
        return JSONResponse(body, status_code=e.status)

    # FastAPI's default 422 echoes the input, and an echoed NaN/Infinity made it a 500
    @app.exception_handler(RequestValidationError)
    async def invalid_body(_request: Request, e: RequestValidationError) -> JSONResponse:
        problems = "; ".join(
            f"{'.'.join(map(str, err.get('loc', ())))}: {err.get('msg', 'invalid')}"
            for err in e.errors()[:5]
        )
        return JSONResponse(
            {"error": "bad_request", "message": problems or "invalid request"}, status_code=422
        )

    # the framework's own refusals (a body that is not JSON, no such route) in the same shape
    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, e: StarletteHTTPException) -> Response:
        if e.status_code == 404 and wants_html(request):
            from cardtable.server.web.language import request_language
            from cardtable.server.web.pages import not_found_html

            page = not_found_html(request.url.path, request_language(request))
            return HTMLResponse(page, status_code=404)
        code = HTTP_CODES.get(e.status_code, f"http_{e.status_code}")
        return JSONResponse(
            {"error": code, "message": str(e.detail)}, status_code=e.status_code, headers=e.headers
        )

    for area in (
        observe,
        pages,
        people,
        bot_accounts,
        tables,
        practice,
        tools,
        history,
        reviews,
        tournaments,
        socket,
    ):
        app.include_router(area.router)
    return app


async def start_reviews(store: db.Store, url: str, settings: ServerSettings) -> Reviews:
    """Game reviews: a runner with worker processes of its own, fed by a queue in this
    process, or with a bus by the job queue on its Redis that every process serves."""
    from cardtable.server.storage.reviews import ReviewStore
    from cardtable.server.tables.reviews import REVIEW_TIMEOUT, LocalReviews, ReviewRunner

    rows = ReviewStore(store.engine)
    runner = ReviewRunner(url, rows, settings.review_workers)
    queue: ReviewQueue
    if settings.bus:
        from cardtable.server.cluster.reviews import ArqReviews

        queue = ArqReviews(settings.bus, runner.run, settings.review_workers, REVIEW_TIMEOUT)
    else:
        queue = LocalReviews(runner)
    await queue.start()
    return Reviews(rows, queue, runner, settings.reviews_per_day, settings.review_queue)


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


#: ``cardtable serve --log-level``: what the server's logger (``cardtable.server``) writes
LOG_LEVELS = ("debug", "info", "warning")


def log_formatter(shape: str = "text") -> logging.Formatter:
    """``--log-format``: ``text`` (a line of words) or ``json`` (a JSON object a line);
    both name the request, table and player, and blank anything like a token."""
    if shape == "json":
        return JsonFormatter()
    return RedactingFormatter("%(asctime)s %(levelname)s %(name)s: %(message)s")


def configure_logging(level: str, shape: str = "text") -> None:
    """The server's log lines on stderr, at ``level`` (one of ``LOG_LEVELS``), in ``shape``
    (``log_formatter``): at info, what an operator needs (tables created and finished, bots
    replaced or handed seats, errors). uvicorn's own loggers stay at warning (a line per
    request would drown them); in json, their lines are json too (``server_config`` then
    leaves uvicorn's logging to this)."""
    handler = logging.StreamHandler()
    handler.setFormatter(log_formatter(shape))
    for name in ("cardtable", "uvicorn") if shape == "json" else ("cardtable",):
        logger = logging.getLogger(name)
        logger.addHandler(handler)
        logger.propagate = False  # (one line each, whatever else configures the root logger)
    logging.getLogger("cardtable").setLevel(level.upper())


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


def wants_html(request: Request) -> bool:
    """A browser asking for a page: HTML accepted and not an address of the API (which keeps
    its JSON errors whatever the client accepts)."""
    path = request.url.path
    if path.startswith(("/api/", "/ws/")) or path == "/api":
        return False
    return "text/html" in request.headers.get("accept", "")
