"""The ``cardtable`` command: play, replay, rules, simulate."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markdown import Markdown
from rich.table import Table

from cardtable import games
from cardtable.core.errors import CardtableError
from cardtable.seeds import new_deal_seed

app = typer.Typer(
    help="Play and study Slide, Doublets and The Game.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
console = Console()

GameArg = Annotated[str, typer.Argument(help="slide, doublets or the-game")]
OptionsOpt = Annotated[
    list[str] | None,
    typer.Option("--option", "-o", help="a game option as NAME=VALUE (VALUE in JSON), repeatable"),
]


def parse_options(pairs: list[str] | None) -> dict[str, Any]:
    """``["target=100", "pro=true"]`` -> ``{"target": 100, "pro": True}``."""
    options: dict[str, Any] = {}
    for pair in pairs or []:
        name, sep, raw = pair.partition("=")
        if not sep or not name:
            raise typer.BadParameter(f"{pair!r}: write an option as NAME=VALUE")
        try:
            options[name] = json.loads(raw)
        except json.JSONDecodeError:
            options[name] = raw
    return options


def fail(message: str) -> None:
    console.print(f"[red]error:[/red] {message}")
    raise typer.Exit(2)


def check_game(name: str) -> None:
    if name not in games.names():
        fail(f"no game called {name!r}; the games are {', '.join(games.names())}")


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="address to listen on")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="port to listen on")] = 8000,
    db: Annotated[
        str | None,
        typer.Option("--db", help="database URL, e.g. postgresql://user@host/cardtable "
                     "(default: an SQLite file in the data folder)"),
    ] = None,
    data: Annotated[
        Path | None, typer.Option(help="the data folder (default: $CARDTABLE_DATA or "
                                  "~/.local/share/cardtable)")
    ] = None,
    bot_delay: Annotated[float, typer.Option(help="seconds a bot waits before it moves")] = 0.8,
    bot_timeout: Annotated[
        float, typer.Option(help="seconds a bot may think before its seat passes to the "
                            "game's fallback bot")
    ] = 10.0,
    external_bot: Annotated[
        list[str] | None,
        typer.Option("--external-bot", metavar="NAME=COMMAND",
                     help="offer an external bot (docs/bot-protocol.md) that tables may seat "
                     "as ext:NAME; repeatable"),
    ] = None,
    bot_workers: Annotated[
        int, typer.Option(help="worker processes in which the bots that think (all but "
                          "greedy and random) make their moves")
    ] = 2,
    seat_grace: Annotated[
        float, typer.Option(help="seconds a person must have been gone before the table's "
                            "creator may hand their seat to a bot")
    ] = 60.0,
    allowed_origin: Annotated[
        list[str] | None,
        typer.Option("--allowed-origin", metavar="URL",
                     help="a page origin (scheme://host[:port]) allowed besides the server's "
                     "own to open table sockets and send requests; repeatable"),
    ] = None,
    secure_cookies: Annotated[
        bool, typer.Option(help="always mark the cookie Secure (behind a proxy that terminates "
                           "TLS and sends no X-Forwarded-Proto); it is already Secure whenever "
                           "the request came over HTTPS")
    ] = False,
    forwarded_allow_ips: Annotated[
        str | None,
        typer.Option(help="addresses of proxies trusted to tell the client's scheme and address "
                     "(X-Forwarded-Proto/-For), comma-separated, * for any (default "
                     "127.0.0.1,::1 or $FORWARDED_ALLOW_IPS)"),
    ] = None,
    new_players_per_minute: Annotated[
        int, typer.Option(help="new players one client address may make: this many at once, "
                          "then this many a minute (0: no limit)")
    ] = 20,
    max_connections: Annotated[
        int, typer.Option(help="open connections (HTTP and websocket) beyond which new "
                          "requests get 503")
    ] = 10_000,
    log_level: Annotated[
        str, typer.Option(help="what the server logs on stderr: debug, info (tables created "
                          "and finished, bots replaced, errors) or warning")
    ] = "info",
) -> None:
    """Start the web server: play in the browser with friends and bots."""
    import os

    import uvicorn

    from cardtable.bots.external import check_command
    from cardtable.server.app import LOG_LEVELS, MAX_WS_FRAME, configure_logging, create_app
    from cardtable.server.botrunner import EXTERNAL_NAME
    from cardtable.server.limits import (
        HEADER_TIMEOUT,
        guarded_http_protocol,
        raise_open_file_limit,
    )

    if log_level not in LOG_LEVELS:
        fail(f"--log-level is one of {', '.join(LOG_LEVELS)}")
    if bot_timeout <= 0:
        fail("--bot-timeout is a number of seconds above 0")
    if bot_workers < 1:
        fail("--bot-workers is a whole number above 0")
    if not 0 <= seat_grace <= 86400:
        fail("--seat-grace is a number of seconds from 0 to 86400")
    if new_players_per_minute < 0 or max_connections < 1:
        fail("--new-players-per-minute is 0 or more, --max-connections above 0")
    external: dict[str, str] = {}
    for entry in external_bot or []:
        name, eq, command = entry.partition("=")
        name = name.strip()
        if not eq or not EXTERNAL_NAME.match(name):
            fail(f"--external-bot {entry!r}: write NAME=COMMAND, NAME of letters, digits, "
                 "_ or -")
        try:
            check_command(command)
        except CardtableError as e:
            fail(f"--external-bot {name}: {e.reason}")
        external[name] = command
    from cardtable.server.security import normalize_origin

    for origin in allowed_origin or []:
        if normalize_origin(origin) is None:
            fail(f"--allowed-origin {origin!r}: write an origin such as https://cards.example")
    if data:
        os.environ["CARDTABLE_DATA"] = str(data)
    from cardtable.paths import data_dir

    where = db or f"SQLite in {data_dir()}"
    console.print(f"cardtable: open http://{host}:{port}/ in a browser  (storage: {where})")
    # no per-message deflate: it costs ~40 KB and a compression per message on every
    # connection (docs/server.md, "Limits"); a client's message over ws_max_size closes the
    # socket (1009), one over 4096 bytes gets the error too_large
    # every connection is a file: the soft limit (often 1,024) up to the hard one, and new
    # requests refused (503) well before the files run out
    configure_logging(log_level)
    files = raise_open_file_limit()
    if files:
        max_connections = min(max_connections, max(files[0] - 256, 64))
    # uvicorn's own timer runs only between requests (timeout_keep_alive): the guarded
    # protocol closes a connection that does not send its request headers in time
    uvicorn.run(create_app(db, bot_delay, bot_timeout, external, bot_workers, gc_tuning=True,
                           seat_grace=seat_grace, allowed_origins=allowed_origin,
                           secure_cookies=secure_cookies,
                           new_players_per_minute=new_players_per_minute),
                host=host, port=port, log_level="warning", ws_per_message_deflate=False,
                ws_max_size=MAX_WS_FRAME, http=guarded_http_protocol(HEADER_TIMEOUT),
                forwarded_allow_ips=forwarded_allow_ips,
                limit_concurrency=max_connections, timeout_keep_alive=5, backlog=2048)


@app.command("games")
def list_games() -> None:
    """List the games with their player counts and options."""
    table = Table("game", "players", "options")
    for name in games.names():
        d = games.get(name).describe()
        players = f"{d['min_players']}-{d['max_players']}" if d["max_players"] > 1 else "1"
        opts = ", ".join(f"{o['name']}={json.dumps(o['default'])}" for o in d["options"])
        table.add_row(name, players, opts or "-")
    console.print(table)


@app.command()
def play(
    game: GameArg,
    seats: Annotated[
        str | None,
        typer.Option(help="one entry per seat: me, or a bot (greedy, random, search:hard, "
                     "expert, team, fair, cmd:COMMAND), e.g. me,greedy,greedy"),
    ] = None,
    seed: Annotated[int | None, typer.Option(help="deal number; a new one if not given")] = None,
    option: OptionsOpt = None,
) -> None:
    """Play a game in the terminal against bots."""
    check_game(game)
    rules = games.get(game)
    seat_list = [s.strip() for s in seats.split(",")] if seats else (
        ["me"] if rules.max_players == 1 else ["me", "greedy"]
    )
    if seed is None:  # a short deal number alone; 128 secret bits against bots
        seed = new_deal_seed(len(seat_list))
    options = parse_options(option)
    try:
        rules.deal(seed, len(seat_list), options)  # check before the screen opens
        from cardtable.bots import make_bot

        for s in seat_list:
            if s.startswith("cmd:"):  # check the command without starting the program
                from cardtable.bots.external import check_command

                check_command(s[len("cmd:"):])
            elif s != "me":
                make_bot(s, game)
    except CardtableError as e:
        fail(e.reason)
    from cardtable.tui import run_play

    saved = run_play(game, seat_list, seed, options)
    if saved:
        console.print(f"Record saved: {saved}")
        console.print(f"Replay it with: cardtable replay {saved}")


@app.command()
def replay(file: Annotated[Path, typer.Argument(help="a saved record (JSON)")]) -> None:
    """Step through a saved record."""
    from cardtable.paths import load_record

    try:
        record = load_record(file)
        games.replay(record)  # refuse a bad record before the screen opens
    except FileNotFoundError:
        fail(f"no such file: {file}")
    except CardtableError as e:
        fail(e.reason)
    from cardtable.tui import run_replay

    run_replay(record)


@app.command()
def rules(game: GameArg) -> None:
    """Print the rules of a game."""
    check_game(game)
    from cardtable.paths import rules_page

    console.print(Markdown(rules_page(game)))


JobsOpt = Annotated[
    int | None, typer.Option("--jobs", "-j", help="worker processes (default: all cores)")
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
    typer.Option(help="the key of the bots' random seeds, to repeat a run exactly (the summary "
                 "names it); a new secret key if not given"),
]
TimeoutOpt = Annotated[
    float, typer.Option(help="seconds an external bot (cmd:...) may take to answer")
]


def run_and_report(
    game: str, tasks: list, seed: int, options: dict[str, Any], jobs: int | None,
    dask: str | None, out: Path | None, plot: Path | None, as_json: bool,
    progress: bool | None, title: str,
) -> dict[str, Any]:
    """Play the tasks with a progress bar, write rows and plot, print the summary."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    from cardtable.sim import default_jobs, plot_scores, run_tasks, summarize, write_rows

    err = Console(stderr=True)
    show = err.is_terminal if progress is None else progress
    outcomes = []
    with Progress(
        "[progress.description]{task.description}", BarColumn(), MofNCompleteColumn(),
        TimeRemainingColumn(), console=err, disable=not show, transient=True,
    ) as bar:
        job = bar.add_task(title, total=len(tasks))
        for outcome in run_tasks(tasks, jobs or default_jobs(), dask,
                                 lambda n: bar.advance(job, n)):
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
            console.print(f"rows: {out}")
        if plot:
            console.print(f"plot: {plot}")
    return summary


@app.command()
def simulate(
    game: GameArg,
    players: Annotated[int | None, typer.Option(help="number of seats")] = None,
    bots: Annotated[
        str, typer.Option(help="one bot for all seats, or one per seat (e.g. greedy,random)")
    ] = "greedy",
    games_: Annotated[int, typer.Option("--games", help="how many games")] = 1000,
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
    options = parse_options(option)
    try:
        tasks = make_tasks(game, n, bot_specs, games_, seed, options, fast, timeout, bot_key)
        summary = run_and_report(game, tasks, seed, options, jobs, dask, out, plot, as_json,
                                 progress, f"{game}: {games_} games")
    except (CardtableError, ValueError) as e:
        fail(str(e))
    if summary["errors"]:
        raise typer.Exit(1)


@app.command()
def tournament(
    game: GameArg,
    bots: Annotated[str, typer.Option(help="the bots to compare, e.g. greedy,random")],
    players: Annotated[int | None, typer.Option(help="seats at each table")] = None,
    games_: Annotated[int, typer.Option("--games", help="seeds each table plays")] = 200,
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
    rules = games.get(game)
    n = players or (rules.min_players if rules.cooperative else
                    max(rules.min_players, min(rules.max_players, len(bot_specs))))
    options = parse_options(option)
    try:
        tasks = tournament_tasks(game, n, bot_specs, games_, seed, options, bot_key=bot_key)
        summary = run_and_report(game, tasks, seed, options, jobs, dask, out, plot, as_json,
                                 progress, f"{game} tournament: {len(tasks)} games")
    except (CardtableError, ValueError) as e:
        fail(str(e))
    if summary["errors"]:
        raise typer.Exit(1)


def split_bots(spec: str) -> list[str]:
    """``greedy,cmd:python bot.py,random`` -> three specs (a command may not hold commas)."""
    return [b.strip() for b in spec.split(",") if b.strip()]


def print_summary(summary: dict[str, Any]) -> None:
    better = "lowest" if summary["better"] == "low" else "highest"
    first = summary["seed"]
    console.print(
        f"{summary['game']}: {summary['games']} games, {summary['players']} players, "
        f"first seed {first} ({better} score wins; a shared win counts for each winner)"
    )
    if summary.get("bot_key") is not None:
        console.print(f"bot key {summary['bot_key']} (--bot-key repeats this run exactly)")
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
        cells = [seat, bot, str(r["games"]),
                 f"{100 * r['win_rate']:.1f} % ± {100 * r['win_rate_ci']:.1f}",
                 f"{r['mean_score']:.2f} ± {r['mean_score_ci']:.2f}"]
        table.add_row(*cells, *([] if coop else [f"{r['mean_rank']:.2f}"]))
    console.print(table)
    if summary["seats"] and len(summary["by_bot"]) > 1:
        by_bot = Table("bot", "seats", "win rate", "mean score")
        for bot, f in summary["by_bot"].items():
            by_bot.add_row(bot, str(f["games"]),
                           f"{100 * f['win_rate']:.1f} % ± {100 * f['win_rate_ci']:.1f}",
                           f"{f['mean_score']:.2f} ± {f['mean_score_ci']:.2f}")
        console.print(by_bot)
    if coop and summary["seats"]:
        console.print(f"games won: {100 * summary['won']:.1f} % ± {100 * summary['won_ci']:.1f}")
    if summary["errors"]:
        console.print(f"[red]{summary['errors']} games ended with an error:[/red]")
        for message in summary["error_messages"]:
            console.print(f"  {message}")


from cardtable.solvers.cli import solve_command  # noqa: E402

app.command("solve")(solve_command)


def main() -> None:
    app()
