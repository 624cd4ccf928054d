"""The ``cardtable`` command: serve, play, replay, rules, simulate, tournament, solve.

Errors go to stderr as one line: exit status 2 for a usage error (an unknown game or bot,
bad seats or options, a value out of range: the command was not run), 1 for a failure (a
missing file, a record that does not replay, games that ended with an error, a missing extra).
The games and bots named in the help come from their registries.
"""

from __future__ import annotations

import importlib.util
import json
import os
import sys
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer
from rich.console import Console
from rich.markdown import Markdown
from rich.markup import escape
from rich.table import Table

from cardtable import __version__, games
from cardtable import bots as bot_registry
from cardtable.core.errors import CardtableError
from cardtable.i18n.languages import LANGUAGES, from_environment, known
from cardtable.seeds import new_deal_seed
from cardtable.solvers import batch

# soft wrap: a message stays one line whatever the width (a table still fits the terminal)
console = Console(soft_wrap=True)
err_console = Console(stderr=True, soft_wrap=True)


def _title(name: str) -> str:
    try:
        return games.get(name).title
    except Exception:  # a broken game package must not break every command; using it will say
        return name


def _titles() -> str:
    titles = [_title(name) for name in games.names()]
    return ", ".join(titles[:-1]) + " and " + titles[-1] if len(titles) > 1 else "".join(titles)


def _or_list(names: list[str]) -> str:
    return ", ".join(names[:-1]) + " or " + names[-1] if len(names) > 1 else "".join(names)


app = typer.Typer(
    help=f"Play and study {_titles()}.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

GameArg = Annotated[str, typer.Argument(help=f"the game: {_or_list(games.names())}")]
LangOpt = Annotated[
    str | None,
    typer.Option(
        help=f"the language the game reads in: {', '.join(LANGUAGES)} (default: from LANG)"
    ),
]
OptionsOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--option",
        "-o",
        help="a game option as NAME=VALUE (VALUE in JSON), repeatable; "
        "seats counted from 1 (-o start=2: the second seat); `cardtable games` lists "
        "them",
    ),
]
BOTS_HELP = (
    f"built-in bots: {', '.join(bot_registry.names())} (NAME:LEVEL for a bot with "
    f"levels), or {bot_registry.EXTERNAL}COMMAND for a program (docs/bot-protocol.md)"
)


def usage_error(message: str) -> NoReturn:
    """The command cannot run as written: exit status 2."""
    err_console.print(f"[red]error:[/red] {escape(message)}", highlight=False)
    raise typer.Exit(2)


def failure(message: str) -> NoReturn:
    """The command ran and failed: exit status 1."""
    err_console.print(f"[red]error:[/red] {escape(message)}", highlight=False)
    raise typer.Exit(1)


#: extra -> the modules its commands import (tests/test_packaging.py checks them against
#: pyproject.toml's extras)
EXTRA_MODULES = {
    "tui": ("textual", "babel"),  # babel: the reader's language (cardtable.i18n.reader)
    "server": (
        "fastapi",
        "uvicorn",
        "sqlalchemy",
        "alembic",
        "openskill",
        "orjson",
        "pydantic_settings",
        "prometheus_client",
    ),
    "bus": ("redis", "arq"),
    "botclient": ("httpx", "websockets"),
}


def need_extra(extra: str, command: str) -> None:
    """Fail in one line, naming the extra to install, when ``command`` cannot import what it
    needs (``pip install cardtable`` installs the library alone)."""
    missing = [m for m in EXTRA_MODULES[extra] if importlib.util.find_spec(m) is None]
    if missing:
        failure(
            f"cardtable {command} needs the {extra} extra ({', '.join(missing)} not "
            f"installed): pip install 'cardtable[{extra}]'"
        )


def parse_options(pairs: list[str] | None, game: str) -> dict[str, Any]:
    """``["target=100", "pro=true"]`` -> ``{"target": 100, "pro": True}``.

    A seat option is written as people count seats, from 1 (``-o start=2``: the second seat),
    and kept as records keep it, from 0: this is the one place the two meet."""
    seat_options = {o.name for o in games.get(game).options if o.seat}
    options: dict[str, Any] = {}
    for pair in pairs or []:
        name, sep, raw = pair.partition("=")
        if not sep or not name:
            usage_error(f"-o {pair!r}: write an option as NAME=VALUE")
        try:
            options[name] = json.loads(raw)
        except json.JSONDecodeError:
            options[name] = raw
        if name in seat_options:
            options[name] = seat_from_one(name, options[name])
    return options


def seat_from_one(name: str, value: Any) -> int:
    """A seat option's value as written (1, 2, ...) -> as stored (0, 1, ...)."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        usage_error(
            f"-o {name}={json.dumps(value)}: {name} is a seat, counted from 1 "
            f"(-o {name}=1 is the first seat)"
        )
    return value - 1


def check_game(name: str) -> None:
    if name not in games.names():
        usage_error(f"no game called {name!r}; the games are {', '.join(games.names())}")


def show_version(value: bool) -> None:
    if value:
        print(f"cardtable {__version__}")
        raise typer.Exit()


@app.callback()
def root(
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=show_version, is_eager=True, help="print the version and exit"
        ),
    ] = False,
) -> None:
    # the options of ``cardtable`` itself; the Typer app's help describes the command
    pass


def env(field: str, default: Any = None) -> str:
    """The end of a ``serve`` option's help: its default and its environment variable."""
    shown = f"default {default}; " if default is not None else ""
    return f" ({shown}or ${'CARDTABLE_' + field.upper()})"


# the options of ``serve``, each also a ``CARDTABLE_*`` variable (server/web/settings.py)
HostOpt = Annotated[
    str | None, typer.Option(help="address to listen on" + env("host", "127.0.0.1"))
]
PortOpt = Annotated[int | None, typer.Option(help="port to listen on" + env("port", 8000))]
DbOpt = Annotated[
    str | None,
    typer.Option(
        "--db",
        help="database URL, e.g. postgresql://user@host/cardtable "
        "(default: an SQLite file in the data folder; or $CARDTABLE_DB)",
    ),
]
DataOpt = Annotated[
    Path | None,
    typer.Option(help="the data folder (default ~/.local/share/cardtable; or $CARDTABLE_DATA)"),
]
BotDelayOpt = Annotated[
    float | None,
    typer.Option(help="seconds a bot waits before it moves" + env("bot_delay", 0.8)),
]
BotTimeoutOpt = Annotated[
    float | None,
    typer.Option(
        help="seconds a bot may think before its seat passes to the game's fallback bot"
        + env("bot_timeout", 10)
    ),
]
ExternalBotOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--external-bot",
        metavar="NAME=COMMAND",
        help="offer an external bot (docs/bot-protocol.md) that tables may seat "
        "as ext:NAME; repeatable (or $CARDTABLE_EXTERNAL_BOT, comma-separated)",
    ),
]
BotWorkersOpt = Annotated[
    int | None,
    typer.Option(
        help="worker processes in which the bots that think (all but greedy and random) make "
        "their moves" + env("bot_workers", 2)
    ),
]
SeatGraceOpt = Annotated[
    float | None,
    typer.Option(
        help="seconds a person must have been gone before the table's creator may hand their "
        "seat to a bot" + env("seat_grace", 60)
    ),
]
MinClockOpt = Annotated[
    int | None,
    typer.Option(
        help="the least seconds a table's clock may give, below the usual 30 s a move, 5 min "
        "a game, 1 h a turn (short test games, blitz)" + env("min_clock")
    ),
]
IdleCloseOpt = Annotated[
    float | None,
    typer.Option(
        help="seconds without a move, and with nobody at the table, after which an unfinished "
        "table is closed as abandoned (0: never)" + env("idle_close", 86400)
    ),
]
AllowedOriginOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--allowed-origin",
        metavar="URL",
        help="a page origin (scheme://host[:port]) allowed besides the server's "
        "own to open table sockets and send requests; repeatable (or "
        "$CARDTABLE_ALLOWED_ORIGIN, comma-separated)",
    ),
]
SecureCookiesOpt = Annotated[
    bool | None,
    typer.Option(
        "--secure-cookies/--no-secure-cookies",
        help="always mark the cookie Secure (behind a proxy that terminates TLS and sends no "
        "X-Forwarded-Proto); it is already Secure whenever the request came over HTTPS"
        + env("secure_cookies", "no"),
    ),
]
ForwardedAllowIpsOpt = Annotated[
    str | None,
    typer.Option(
        help="addresses of proxies trusted to tell the client's scheme and address "
        "(X-Forwarded-Proto/-For), comma-separated, * for any (default 127.0.0.1,::1 or "
        "$FORWARDED_ALLOW_IPS; or $CARDTABLE_FORWARDED_ALLOW_IPS)"
    ),
]
NewPlayersPerMinuteOpt = Annotated[
    int | None,
    typer.Option(
        help="new players one client address may make: this many at once, then this many a "
        "minute (0: no limit)" + env("new_players_per_minute", 20)
    ),
]
MaxConnectionsOpt = Annotated[
    int | None,
    typer.Option(
        help="open connections (HTTP and websocket) beyond which new requests get 503"
        + env("max_connections", 10000)
    ),
]
LogLevelOpt = Annotated[
    str | None,
    typer.Option(
        help="what the server logs on stderr: debug, info (tables created and finished, bots "
        "replaced, errors) or warning" + env("log_level", "info")
    ),
]
LogFormatOpt = Annotated[
    str | None,
    typer.Option(
        help="the shape of a log line: text, or json (one JSON object a line, with the "
        "request id, table and player)" + env("log_format", "text")
    ),
]
MetricsPortOpt = Annotated[
    int | None,
    typer.Option(
        help="serve GET /metrics (Prometheus) on this port of --metrics-host, never on the "
        "public one" + env("metrics_port")
    ),
]
MetricsHostOpt = Annotated[
    str | None,
    typer.Option(help="the address --metrics-port listens on" + env("metrics_host", "127.0.0.1")),
]
DrainOpt = Annotated[
    float | None,
    typer.Option(
        help="seconds a server told to stop (SIGTERM) goes on serving with /readyz 503 "
        "stopping, so that a balancer sends it nobody new, before it closes" + env("drain", 0)
    ),
]
WsOpt = Annotated[
    str | None,
    typer.Option(
        "--ws",
        help="uvicorn's websocket implementation: auto, websockets, websockets-sansio "
        "or wsproto (docs/performance.md compares them)" + env("ws", "auto"),
    ),
]
BusOpt = Annotated[
    str | None,
    typer.Option(
        "--bus",
        metavar="URL",
        help="a Redis URL (redis://host:6379/0): run as one of several server "
        'processes sharing the --db database (docs/server.md, "Many '
        'processes"; or $CARDTABLE_BUS)',
    ),
]

ReviewWorkersOpt = Annotated[
    int | None,
    typer.Option(
        help="worker processes per server process that make game reviews, apart from the "
        'bots\' (docs/server.md, "Game review")' + env("review_workers", 1)
    ),
]
ReviewQueueOpt = Annotated[
    int | None,
    typer.Option(
        help="game reviews queued or running at once over every process; beyond, asking "
        "for one gets 503 busy" + env("review_queue", 8)
    ),
]
ReviewsPerDayOpt = Annotated[
    int | None,
    typer.Option(
        help="game reviews one player may ask for in 24 hours" + env("reviews_per_day", 20)
    ),
]


@app.command()
def serve(
    host: HostOpt = None,
    port: PortOpt = None,
    db: DbOpt = None,
    data: DataOpt = None,
    bot_delay: BotDelayOpt = None,
    bot_timeout: BotTimeoutOpt = None,
    external_bot: ExternalBotOpt = None,
    bot_workers: BotWorkersOpt = None,
    seat_grace: SeatGraceOpt = None,
    min_clock: MinClockOpt = None,
    idle_close: IdleCloseOpt = None,
    allowed_origin: AllowedOriginOpt = None,
    secure_cookies: SecureCookiesOpt = None,
    forwarded_allow_ips: ForwardedAllowIpsOpt = None,
    new_players_per_minute: NewPlayersPerMinuteOpt = None,
    max_connections: MaxConnectionsOpt = None,
    log_level: LogLevelOpt = None,
    log_format: LogFormatOpt = None,
    metrics_port: MetricsPortOpt = None,
    metrics_host: MetricsHostOpt = None,
    drain: DrainOpt = None,
    ws: WsOpt = None,
    bus: BusOpt = None,
    review_workers: ReviewWorkersOpt = None,
    review_queue: ReviewQueueOpt = None,
    reviews_per_day: ReviewsPerDayOpt = None,
) -> None:
    """Start the web server: play in the browser with friends and bots."""
    options = dict(locals())  # exactly this command's options
    from cardtable.server.web.observe import GracefulServer

    settings = server_settings(options)
    config = server_config(settings)
    GracefulServer(config, config.app.state.readiness, settings.drain).run()


ForceOpt = Annotated[bool, typer.Option("--force", help="replace what is there")]


def storage_url(db: str | None, data: Path | None) -> str:
    """The database ``serve`` would use with these options (and its ``CARDTABLE_*``
    variables): ``--db``, else the SQLite file in the data folder."""
    settings = server_settings({"db": db, "data": data})
    if settings.db:
        return str(settings.db)
    from cardtable.paths import data_dir

    folder = Path(settings.data) if settings.data else data_dir()
    return f"sqlite:///{folder / 'cardtable.sqlite'}"


@app.command()
def backup(
    path: Annotated[Path, typer.Argument(help="the file to write the copy to")],
    db: DbOpt = None,
    data: DataOpt = None,
    force: ForceOpt = False,
) -> None:
    """Copy the server's SQLite database to PATH, while the server runs (PostgreSQL:
    pg_dump; docs/server.md, "Backups")."""
    from cardtable.server.storage import backup as backups

    url = storage_url(db, data)
    try:
        revision = backups.backup(url, path, force)
    except backups.BackupError as e:
        failure(str(e))
    console.print(f"backed up {url} to {path} (migration {revision})", highlight=False)


@app.command()
def restore(
    path: Annotated[Path, typer.Argument(help="a file `cardtable backup` wrote")],
    db: DbOpt = None,
    data: DataOpt = None,
    force: ForceOpt = False,
) -> None:
    """Put a backup in place of the server's SQLite database (its server stopped) and
    migrate it forward; --force to replace a database that holds tables."""
    from cardtable.server.storage import backup as backups

    url = storage_url(db, data)
    try:
        held, now = backups.restore(path, url, force)
    except backups.BackupError as e:
        failure(str(e))
    moved = f", migrated from {held} to {now}" if held != now else f" (migration {now})"
    console.print(f"restored {path} to {url}{moved}", highlight=False)


def server_settings(options: dict[str, Any]) -> Any:
    """The server's settings (``ServerSettings``) from ``serve``'s options: those given on the
    command line, the rest from ``CARDTABLE_*`` variables, else the defaults; a wrong value
    is a usage error naming the option and its variable."""
    need_extra("server", "serve")
    from pydantic import ValidationError

    from cardtable.server.web.settings import ServerSettings, env_name, option_name

    given = {name: value for name, value in options.items() if value not in (None, [])}
    try:
        return ServerSettings(**given)
    except ValidationError as e:
        error = e.errors()[0]
        field = str(error["loc"][0]) if error["loc"] else ""
        message = error["msg"].removeprefix("Value error, ")
        usage_error(f"{option_name(field)} (or ${env_name(field)}): {message}")


def server_config(settings: Any, *, in_process: bool = False) -> Any:
    """The uvicorn configuration of ``serve`` from its settings (``ServerSettings``).
    ``in_process``: for a server run in a thread of another program (the tests), which keeps
    that program's garbage collector and logging."""
    import os

    import uvicorn
    from uvicorn.config import LOGGING_CONFIG

    from cardtable.server.api.limits import (
        HEADER_TIMEOUT,
        guarded_http_protocol,
        raise_open_file_limit,
    )
    from cardtable.server.web.app import MAX_WS_FRAME, configure_logging, create_app

    if settings.ws == "wsproto" and importlib.util.find_spec("wsproto") is None:
        failure("--ws wsproto needs the wsproto package: pip install wsproto")
    if settings.bus is not None:
        need_extra("bus", "serve --bus")
    if settings.data:
        os.environ["CARDTABLE_DATA"] = str(settings.data)
    from cardtable.paths import data_dir

    where = settings.db or f"SQLite in {data_dir()}"
    console.print(
        f"cardtable: open http://{settings.host}:{settings.port}/ in a browser  (storage: {where})",
        highlight=False,
    )
    if not in_process:
        configure_logging(settings.log_level, settings.log_format)
    # every connection is a file: the soft limit (often 1,024) up to the hard one, and new
    # requests refused (503) well before the files run out
    max_connections = settings.max_connections
    files = raise_open_file_limit()
    if files:
        max_connections = min(max_connections, max(files[0] - 256, 64))
    # no per-message deflate: it costs ~40 KB and a compression per message on every
    # connection (docs/server.md, "Limits"); a client's message over ws_max_size closes the
    # socket (1009), one over 4096 bytes gets the error too_large. uvicorn's own timer runs
    # only between requests (timeout_keep_alive): the guarded protocol closes a connection
    # that does not send its request headers in time
    return uvicorn.Config(
        create_app(settings, gc_tuning=not in_process),
        host=settings.host,
        port=settings.port,
        log_level="warning",
        # in json, uvicorn's loggers write through the server's own handler (configure_logging)
        log_config=None if settings.log_format == "json" and not in_process else LOGGING_CONFIG,
        ws=settings.ws,
        ws_per_message_deflate=False,
        ws_max_size=MAX_WS_FRAME,
        http=guarded_http_protocol(HEADER_TIMEOUT),
        forwarded_allow_ips=settings.forwarded_allow_ips,
        limit_concurrency=max_connections,
        timeout_keep_alive=5,
        backlog=2048,
    )


def as_written(option: dict[str, Any]) -> Any:
    """An option's default as ``-o`` takes it (a seat counted from 1)."""
    return option["default"] + 1 if option["seat"] else option["default"]


@app.command("games")
def list_games() -> None:
    """List the games with their player counts and options."""
    table = Table("game", "players", "options")
    for name in games.names():
        d = games.get(name).describe()
        players = f"{d['min_players']}-{d['max_players']}" if d["max_players"] > 1 else "1"
        opts = ", ".join(f"{o['name']}={json.dumps(as_written(o))}" for o in d["options"])
        table.add_row(name, players, opts or "-")
    console.print(table)


@app.command()
def play(
    game: GameArg,
    seats: Annotated[
        str | None,
        typer.Option(
            help=f"one entry per seat, comma-separated: me, or a bot; {BOTS_HELP}. "
            "Default: me alone for a solitaire, else me and the game's fallback bot"
        ),
    ] = None,
    seed: Annotated[int | None, typer.Option(help="deal number; a new one if not given")] = None,
    option: OptionsOpt = None,
    lang: LangOpt = None,
) -> None:
    """Play a game in the terminal against bots."""
    check_game(game)
    rules = games.get(game)
    seat_list = (
        [s.strip() for s in seats.split(",")]
        if seats
        else (["me"] if rules.max_players == 1 else ["me", rules.fallback_bot])
    )
    if seed is None:  # a short deal number alone; 128 secret bits against bots
        seed = new_deal_seed(len(seat_list))
    options = parse_options(option, game)
    try:
        rules.deal(seed, len(seat_list), options)  # check before the screen opens
        for s in seat_list:
            if bot_registry.is_external(s):  # check without starting the program
                from cardtable.bots.external import check_spec

                check_spec(s)
            elif s != "me":
                bot_registry.make_bot(s, game)
    except CardtableError as e:
        usage_error(e.reason)
    need_extra("tui", "play")
    from cardtable.tui import run_play

    run_play(game, seat_list, seed, options, terminal_language(lang))


def terminal_language(lang: str | None) -> str | None:
    """The language ``--lang`` names (None: the terminal's ``LANG`` decides); a usage error
    for one cardtable does not speak."""
    if lang is None:
        return None
    found = known(lang)
    if found is None:
        usage_error(f"no language called {lang!r}; the languages are {', '.join(LANGUAGES)}")
    return found


@app.command()
def replay(
    file: Annotated[Path, typer.Argument(help="a saved record (JSON)")],
    review: Annotated[
        bool, typer.Option("--review", help="review the game (a finished one) as it opens")
    ] = False,
    review_file: Annotated[
        Path | None,
        typer.Option(help="show this review beside the moves (cardtable review --json)"),
    ] = None,
    lang: LangOpt = None,
) -> None:
    """Step through a saved record, with the game's review beside the moves (r: review)."""
    from cardtable.paths import load_record

    made = None
    try:
        record = load_record(file)
        final = games.replay(record)  # refuse a bad record before the screen opens
        if review and not final.over:
            failure("the game is not over: only a finished game is reviewed")
    except FileNotFoundError:
        failure(f"no such file: {file}")
    except OSError as e:
        failure(f"cannot read {file}: {e.strerror}")
    except CardtableError as e:
        failure(e.reason)
    if review_file is not None:
        made = load_review(review_file, record)
    need_extra("tui", "replay")
    from cardtable.tui import run_replay

    run_replay(record, terminal_language(lang), review=made, review_now=review)


def load_review(path: Path, record: dict[str, Any]) -> dict[str, Any]:
    """A review saved by ``cardtable review --json``, checked to be of ``record``'s game."""
    try:
        made = json.loads(path.read_text())
    except OSError as e:
        failure(f"cannot read {path}: {e.strerror}")
    except json.JSONDecodeError as e:
        failure(f"{path} is not JSON: {e}")
    fits = isinstance(made, dict) and made.get("game") == record["game"]
    if not fits or made.get("players") != record["players"] or "moves" not in made:
        failure(f"{path} is not a review of this game")
    return made


@app.command()
def review(
    file: Annotated[Path, typer.Argument(help="a finished game's record (JSON)")],
    seat: Annotated[int | None, typer.Option(help="review only this seat (counted from 1)")] = None,
    depth: Annotated[
        str, typer.Option(help="quick, normal or deep: how many positions a move is tried on")
    ] = "normal",
    every: Annotated[
        bool, typer.Option("--all", help="list every decision, not only the marked ones")
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help="print the review as JSON")] = False,
    lang: LangOpt = None,
) -> None:
    """Review a finished game: each move judged from what its player could see, the mistakes
    marked, and (peeking) whether the deal could be won."""
    from cardtable.paths import load_record
    from cardtable.review import DEPTHS, NotFinished, review_record

    if depth not in DEPTHS:
        usage_error(f"the depths are {', '.join(DEPTHS)}, not {depth!r}")
    try:
        record = load_record(file)
        players = games.replay(record).players
        if seat is not None and not 1 <= seat <= players:
            usage_error(f"this game's seats are 1 to {players}, not {seat}")
        seats = None if seat is None else [seat - 1]
        found = review_record(record, depth=depth, seats=seats)
    except FileNotFoundError:
        failure(f"no such file: {file}")
    except OSError as e:
        failure(f"cannot read {file}: {e.strerror}")
    except NotFinished as e:
        failure(str(e))
    except CardtableError as e:
        failure(e.reason)
    if as_json:
        console.print_json(json.dumps(found))
        return
    print_review(found, record, every, terminal_language(lang))


def print_review(
    found: dict[str, Any], record: dict[str, Any], every: bool, lang: str | None
) -> None:
    """The review as lines in the reader's language (English without the tui extra's Babel)."""
    from cardtable.core.protocol import seat_name
    from cardtable.review import words

    say: Any = str
    if importlib.util.find_spec("babel") is not None:
        from cardtable.i18n.reader import Reader

        say = Reader(lang or from_environment(os.environ))
    names: list[Any] = [seat_name(s) for s in range(found["players"])]
    # a record from the server names who sat where (``played_by``: the first player of each)
    for s, who in enumerate((record.get("played_by") or [])[: len(names)]):
        if isinstance(who, list) and who and isinstance(who[0], dict) and who[0].get("name"):
            names[s] = str(who[0]["name"])
    for entry in found["summary"]:
        console.print(escape(say(words.summary_line(entry, names[entry["seat"]]))))
    console.print()
    for move in found["moves"]:
        if every or move["mark"]:
            console.print(escape(say(words.move_line(move, names[move["seat"]]))))
    if found["verdict"] is not None:
        console.print()
        console.print(escape(say(words.verdict_line(found["verdict"], names))))


@app.command()
def rules(
    game: GameArg,
    lang: Annotated[
        str | None,
        typer.Option(help=f"the page's language ({', '.join(LANGUAGES)}); default: the locale's"),
    ] = None,
) -> None:
    """Print the rules of a game, in the terminal's language (LANG) or another."""
    check_game(game)
    from cardtable.paths import rules_page

    if lang is not None and lang not in LANGUAGES:
        usage_error(f"no language called {lang!r}; the languages are {', '.join(LANGUAGES)}")
    try:
        page, _ = rules_page(game, lang or from_environment(os.environ))
    except OSError:
        failure(f"no rules page for {game} in this installation")
    console.print(Markdown(page), soft_wrap=False)  # wrapped, or a list item is cut


@app.command()
def schemas(
    folder: Annotated[Path, typer.Argument(help="where to write them")] = Path("docs/schemas"),
) -> None:
    """Write every game's view and result JSON Schemas (for bots and browser code)."""
    need_extra("server", "schemas")  # pydantic builds them
    from cardtable.core.schema import write

    for path in write(folder, (games.get(name) for name in games.names())):
        console.print(str(path), highlight=False)


JobsOpt = Annotated[
    int | None,
    typer.Option("--jobs", "-j", min=1, help="worker processes (default: all cores)"),
]
DaskOpt = Annotated[
    str | None, typer.Option("--dask", help="run on the Dask scheduler at this address")
]
OutOpt = Annotated[
    Path | None, typer.Option("--out", help="one row per game: a .csv or .jsonl file")
]
PlotOpt = Annotated[
    Path | None, typer.Option("--plot", help="score distributions per bot, as a PNG")
]
JsonOpt = Annotated[bool, typer.Option("--json", help="print the summary as JSON")]
ProgressOpt = Annotated[
    bool | None, typer.Option("--progress/--no-progress", help="a progress bar on stderr")
]
BotKeyOpt = Annotated[
    int | None,
    typer.Option(
        help="the key of the bots' random seeds, to repeat a run exactly (the summary "
        "names it); a new secret key if not given"
    ),
]
TimeoutOpt = Annotated[
    float, typer.Option(help="seconds an external bot (cmd:...) may take to answer")
]
#: suffixes ``sim.write_rows`` writes
ROW_SUFFIXES = (".csv", ".jsonl", ".json", ".ndjson")


def check_outputs(out: Path | None, plot: Path | None, dask: str | None) -> None:
    """Refuse, before the games are played, what the run could not do at the end."""
    if out is not None and out.suffix not in ROW_SUFFIXES:
        usage_error(f"--out {out}: write rows to a .csv or .jsonl file")
    if plot is not None and importlib.util.find_spec("matplotlib") is None:
        failure("--plot needs matplotlib: pip install 'cardtable[plot]'")
    if dask is not None and importlib.util.find_spec("distributed") is None:
        failure("--dask needs the dask extra: pip install 'cardtable[dask]'")


def run_and_report(
    game: str,
    tasks: list,
    seed: int,
    options: dict[str, Any],
    jobs: int | None,
    dask: str | None,
    out: Path | None,
    plot: Path | None,
    as_json: bool,
    progress: bool | None,
    title: str,
) -> dict[str, Any]:
    """Play the tasks with a progress bar, write rows and plot, print the summary."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    from cardtable.sim import default_jobs, plot_scores, run_tasks, summarize, write_rows

    show = err_console.is_terminal if progress is None else progress
    outcomes = []
    with Progress(
        "[progress.description]{task.description}",
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=err_console,
        disable=not show,
        transient=True,
    ) as bar:
        job = bar.add_task(title, total=len(tasks))
        for outcome in run_tasks(
            tasks, jobs or default_jobs(), dask, lambda n: bar.advance(job, n)
        ):
            outcomes.append(outcome)
    if out:
        write_rows(outcomes, out)
    if plot:
        plot_scores(outcomes, game, plot)
    summary = summarize(game, outcomes, seed, options, tasks[0].bot_key if tasks else None)
    if as_json:
        print(json.dumps(summary, indent=2))
    else:
        print_summary(summary)
        if out:
            console.print(f"rows: {out}", highlight=False)
        if plot:
            console.print(f"plot: {plot}", highlight=False)
    return summary


def run_study(
    game: str,
    make: Any,
    seed: int,
    options: dict[str, Any],
    jobs: int | None,
    dask: str | None,
    out: Path | None,
    plot: Path | None,
    as_json: bool,
    progress: bool | None,
    title: str,
) -> None:
    """Build the tasks (a bad bot, option or seat count: a usage error), play them (a failure
    on the way, or games that ended with an error: exit 1)."""
    check_outputs(out, plot, dask)
    try:
        tasks = make()
    except (CardtableError, ValueError) as e:
        usage_error(str(e))
    try:
        summary = run_and_report(
            game,
            tasks,
            seed,
            options,
            jobs,
            dask,
            out,
            plot,
            as_json,
            progress,
            title.format(games=len(tasks)),
        )
    except (CardtableError, OSError) as e:
        failure(str(e))
    if summary["errors"]:
        raise typer.Exit(1)


@app.command()
def simulate(
    game: GameArg,
    players: Annotated[int | None, typer.Option(help="number of seats")] = None,
    bots: Annotated[
        str,
        typer.Option(help=f"one bot for all seats, or one per seat, comma-separated; {BOTS_HELP}"),
    ] = "greedy",
    games_: Annotated[int, typer.Option("--games", min=1, help="how many games")] = 1000,
    seed: Annotated[int, typer.Option(help="seed of the first game; game i uses seed + i")] = 1,
    option: OptionsOpt = None,
    jobs: JobsOpt = None,
    dask: DaskOpt = None,
    out: OutOpt = None,
    plot: PlotOpt = None,
    as_json: JsonOpt = False,
    progress: ProgressOpt = None,
    timeout: TimeoutOpt = 5.0,
    bot_key: BotKeyOpt = None,
    fast: Annotated[
        bool, typer.Option(help="use the games' fast playouts when every seat is built in")
    ] = True,
) -> None:
    """Play seeded games between bots and summarise win rates and scores."""
    from cardtable.sim import make_tasks

    check_game(game)
    bot_specs = split_bots(bots)
    n = players or max(games.get(game).min_players, len(bot_specs))
    options = parse_options(option, game)
    run_study(
        game,
        lambda: make_tasks(game, n, bot_specs, games_, seed, options, fast, timeout, bot_key),
        seed,
        options,
        jobs,
        dask,
        out,
        plot,
        as_json,
        progress,
        f"{game}: {{games}} games",
    )


@app.command()
def tournament(
    game: GameArg,
    bots: Annotated[str, typer.Option(help=f"the bots to compare, comma-separated; {BOTS_HELP}")],
    players: Annotated[int | None, typer.Option(help="seats at each table")] = None,
    games_: Annotated[int, typer.Option("--games", min=1, help="seeds each table plays")] = 200,
    seed: Annotated[int, typer.Option(help="the first seed")] = 1,
    option: OptionsOpt = None,
    jobs: JobsOpt = None,
    dask: DaskOpt = None,
    out: OutOpt = None,
    plot: PlotOpt = None,
    as_json: JsonOpt = False,
    progress: ProgressOpt = None,
    bot_key: BotKeyOpt = None,
) -> None:
    """Several bots over the same seeds, seats rotated; a table of results per bot."""
    from cardtable.sim import tournament_tasks

    check_game(game)
    bot_specs = split_bots(bots)
    if not bot_specs:
        usage_error("--bots names at least one bot")
    rules = games.get(game)
    n = players or (
        rules.min_players
        if rules.cooperative
        else max(rules.min_players, min(rules.max_players, len(bot_specs)))
    )
    options = parse_options(option, game)
    run_study(
        game,
        lambda: tournament_tasks(game, n, bot_specs, games_, seed, options, bot_key=bot_key),
        seed,
        options,
        jobs,
        dask,
        out,
        plot,
        as_json,
        progress,
        f"{game} tournament: {{games}} games",
    )


def split_bots(spec: str) -> list[str]:
    """``greedy,cmd:python bot.py,random`` -> three specs (a command may not hold commas)."""
    return [b.strip() for b in spec.split(",") if b.strip()]


def rate(share: float | None, interval: list[float]) -> str:
    """A win share with its 95 % interval, in percent: ``82.8 % (81.1-84.4)``."""
    if share is None:
        return "-"
    low, high = interval
    return f"{100 * share:.1f} % ({100 * low:.1f}-{100 * high:.1f})"


def mean(value: float | None, interval: list[float] | None) -> str:
    """A mean with the half-width of its (symmetric) 95 % interval: ``27.40 ± 0.52``."""
    if value is None or interval is None:
        return "-"
    return f"{value:.2f} ± {(interval[1] - interval[0]) / 2:.2f}"


def print_summary(summary: dict[str, Any]) -> None:
    better = "lowest" if summary["better"] == "low" else "highest"
    first = summary["seed"]
    console.print(
        f"{summary['game']}: {summary['games']} games, {summary['players']} players, "
        f"first seed {first} ({better} score wins; a shared win counts for each winner; "
        "95 % intervals)",
        highlight=False,
    )
    if summary.get("bot_key") is not None:
        console.print(
            f"bot key {summary['bot_key']} (--bot-key repeats this run exactly)", highlight=False
        )
    coop = "won" in summary
    if summary["seats"]:
        rows = [(str(r["seat"]), r["bot"], r) for r in summary["seats"]]
        table = Table("seat", "bot", "games", "win rate", "mean score")
    else:  # a tournament: bots move between seats
        rows = [("", b, f) for b, f in summary["by_bot"].items()]
        table = Table("", "bot", "games" if coop else "seats played", "win rate", "mean score")
    if not coop:
        table.add_column("mean rank")
    for seat, bot, r in rows:
        cells = [
            seat,
            bot,
            str(r["games"]),
            rate(r["win_rate"], r["win_rate_ci95"]),
            mean(r["mean_score"], r["mean_score_ci95"]),
        ]
        rank = "-" if r["mean_rank"] is None else f"{r['mean_rank']:.2f}"
        table.add_row(*cells, *([] if coop else [rank]))
    console.print(table)
    if summary["seats"] and len(summary["by_bot"]) > 1:
        by_bot = Table("bot", "seats", "win rate", "mean score")
        for bot, f in summary["by_bot"].items():
            by_bot.add_row(
                bot,
                str(f["games"]),
                rate(f["win_rate"], f["win_rate_ci95"]),
                mean(f["mean_score"], f["mean_score_ci95"]),
            )
        console.print(by_bot)
    if coop and summary["seats"]:
        console.print(f"games won: {rate(summary['won'], summary['won_ci95'])}", highlight=False)
    if summary["errors"]:
        err_console.print(f"[red]{summary['errors']} games ended with an error:[/red]")
        for message in summary["error_messages"]:
            err_console.print(f"  {message}", highlight=False)


bot_app = typer.Typer(
    help="Bots as programs: the bot protocol (docs/bot-protocol.md).", no_args_is_help=True
)
app.add_typer(bot_app, name="bot")


@bot_app.command("run")
def bot_run(
    spec: Annotated[
        str,
        typer.Argument(
            help=f"a built-in bot: {', '.join(bot_registry.names())} (NAME:LEVEL for a level)"
        ),
    ],
    one_game: Annotated[
        bool, typer.Option("--one-game", help="play one game per process (do not offer newgame)")
    ] = False,
) -> None:
    """Play a built-in bot as a program: the bot protocol on stdin and stdout
    (e.g. --bots "cmd:cardtable bot run expert")."""
    from cardtable.bots.program import serve

    if bot_registry.is_external(spec):
        usage_error("bot run plays a built-in bot, not a program")
    if spec.partition(":")[0] not in bot_registry.names():
        usage_error(f"no bot called {spec!r}; the bots are {', '.join(bot_registry.names())}")
    serve(spec, sys.stdin, sys.stdout, newgame=not one_game)


@bot_app.command("connect")
def bot_connect(
    url: Annotated[str, typer.Argument(help="the server, e.g. http://127.0.0.1:8000")],
    spec: Annotated[str, typer.Argument(help=f"the bot that plays: {BOTS_HELP}")],
    token: Annotated[
        str,
        typer.Option(
            envvar="CARDTABLE_BOT_TOKEN", help="the bot account's token (POST /api/me/bots)"
        ),
    ],
    join: Annotated[
        str | None, typer.Option(help="also take open seats at tables of this game in the lobby")
    ] = None,
    games_: Annotated[
        int | None,
        typer.Option(
            "--games", min=1, help="stop after this many games (default: play until Ctrl-C)"
        ),
    ] = None,
    timeout: Annotated[
        float, typer.Option(help="seconds a program (cmd:...) may take to answer")
    ] = 5.0,
) -> None:
    """Play a bot account's tables on a server: the seats it is invited to, the tables it
    made, and with --join open seats, each with a built-in bot or a program."""
    need_extra("botclient", "bot connect")
    from cardtable.botclient import ClientError, connect

    if bot_registry.is_external(spec):
        try:
            from cardtable.bots.external import check_spec

            check_spec(spec)
        except CardtableError as e:
            usage_error(e.reason)
    elif spec.partition(":")[0] not in bot_registry.names():
        usage_error(f"no bot called {spec!r}; {BOTS_HELP}")
    if join is not None:
        check_game(join)
    try:
        connect(url, token, spec, join=join, games=games_, timeout=timeout)
    except ClientError as e:
        failure(str(e))


@app.command()
def solve(
    game: Annotated[str, typer.Argument(help=f"the game to solve: {_or_list(batch.names())}")],
    seeds: Annotated[str, typer.Option(help="deals, as ranges and numbers: 1-100,200")] = "1-100",
    jobs: Annotated[int, typer.Option(min=1, help="worker processes")] = 1,
    as_json: Annotated[bool, typer.Option("--json", help="print JSON, winning lines too")] = False,
    budget: Annotated[
        int | None, typer.Option(min=1, help="search nodes per deal; over it a deal is 'unknown'")
    ] = None,
    players: Annotated[
        int | None, typer.Option(min=1, help="players at the table (default: the game's fewest)")
    ] = None,
) -> None:
    """Solve deals with full knowledge (peeking at hidden cards); count the winnable ones."""
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
    )

    if game not in batch.names():
        usage_error(f"there is no solver for {game!r} (only: {', '.join(batch.names())})")
    try:
        seed_list = batch.parse_seeds(seeds)
    except ValueError as e:
        usage_error(f"--seeds: {e}")
    try:
        count = batch.players_for(game, players)
    except ValueError as e:
        usage_error(f"--players: {e}")
    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
    )
    with Progress(*columns, console=err_console, transient=True) as progress:
        task = progress.add_task("solving", total=len(seed_list))
        results = batch.run(
            game, seed_list, jobs, budget, lambda: progress.advance(task), players=count
        )
    summary = batch.summarise(results)
    if as_json:
        print(
            json.dumps(
                {
                    "game": game,
                    "players": count,
                    "budget": budget,
                    "summary": summary,
                    "deals": results,
                }
            )
        )
        return
    for r in results:
        extra = f"{r['nodes']} nodes, {r['ms']:.1f} ms"
        console.print(f"deal {r['seed']}: {r['status']} ({extra})", highlight=False)
    share = summary["winnable"]
    low, high = summary["winnable_ci95"]
    console.print(
        f"decided {summary['decided']} of {summary['deals']} deals"
        + (f" ({summary['unknown']} unknown: budget spent)" if summary["unknown"] else ""),
        highlight=False,
    )
    if share is not None:
        console.print(
            f"winnable: {summary['won']} = {100 * share:.2f} % "
            f"(95 % CI {100 * low:.2f} - {100 * high:.2f} %)",
            highlight=False,
        )
    if summary["unknown"]:
        low, high = summary["winnable_bounds"]
        console.print(
            f"winnable of all deals, the unknown counted lost to won: "
            f"{100 * low:.2f} - {100 * high:.2f} % (95 % Wilson bounds)",
            highlight=False,
        )
    console.print(
        f"ms per deal: median {summary['median_ms']:.2f}, max {summary['max_ms']:.1f}; "
        f"total {summary['total_s']:.1f} s (CPU: median {summary['median_cpu_ms']:.2f}, "
        f"p99 {summary['p99_cpu_ms']:.1f}, max {summary['max_cpu_ms']:.1f}, "
        f"total {summary['total_cpu_s']:.1f} s)",
        highlight=False,
    )


def main() -> None:
    app()
