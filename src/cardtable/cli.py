"""The ``cardtable`` command: play, replay, rules, simulate."""

from __future__ import annotations

import json
import secrets
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markdown import Markdown
from rich.table import Table

from cardtable import games
from cardtable.core.errors import CardtableError

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
        typer.Option(help="one entry per seat: me, greedy or random (e.g. me,greedy,greedy)"),
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
    if seed is None:
        seed = secrets.randbelow(1_000_000_000)
    options = parse_options(option)
    try:
        rules.deal(seed, len(seat_list), **options)  # check before the screen opens
        from cardtable.bots import make_bot

        for s in seat_list:
            if s != "me":
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


@app.command()
def simulate(
    game: GameArg,
    players: Annotated[int | None, typer.Option(help="number of seats")] = None,
    bots: Annotated[str, typer.Option(help="one bot for all seats, or one per seat")] = "greedy",
    games_: Annotated[int, typer.Option("--games", help="how many games")] = 1000,
    seed: Annotated[int, typer.Option(help="seed of the first game; game i uses seed + i")] = 1,
    option: OptionsOpt = None,
    as_json: Annotated[bool, typer.Option("--json", help="print the summary as JSON")] = False,
    fast: Annotated[
        bool, typer.Option(help="use the games' fast playouts when every seat is built in")
    ] = True,
) -> None:
    """Play seeded games between bots and summarise win rates and scores."""
    from cardtable.sim import simulate as run

    check_game(game)
    bot_names = [b.strip() for b in bots.split(",")]
    n = players or max(games.get(game).min_players, len(bot_names))
    try:
        summary = run(game, n, bot_names, games_, seed, parse_options(option), fast)
    except (CardtableError, ValueError) as e:
        fail(str(e))
    if as_json:
        print(json.dumps(summary, indent=2))
        return
    print_summary(summary)


def print_summary(summary: dict[str, Any]) -> None:
    better = "lowest" if summary["better"] == "low" else "highest"
    console.print(
        f"{summary['game']}: {summary['games']} games, {summary['players']} players, "
        f"seeds {summary['seed']}..{summary['seed'] + summary['games'] - 1} ({better} score wins)"
    )
    table = Table("seat", "bot", "win rate", "mean score")
    for s in summary["seats"]:
        table.add_row(
            str(s["seat"]), s["bot"],
            f"{100 * s['win_rate']:.1f} % ± {100 * s['win_rate_ci']:.1f}",
            f"{s['mean_score']:.2f} ± {s['mean_score_ci']:.2f}",
        )
    console.print(table)
    if "won" in summary:
        console.print(f"games won: {100 * summary['won']:.1f} % ± {100 * summary['won_ci']:.1f}")


def main() -> None:
    app()
