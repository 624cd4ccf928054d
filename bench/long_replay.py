"""A long finished game's replay, asked for in a loop by anonymous clients: what it costs
another client (issue #23).

    python bench/long_replay.py                      # this checkout's server
    git worktree add /tmp/base-replay a509c6e        # the code before issue #23
    python bench/long_replay.py --src /tmp/base-replay/src

For each game (``--games``), a fresh SQLite database gets one finished table written straight
into it (as bench/load.py writes tables):

- ``slide``: six greedy seats, ``target`` 1000, the deal (seed 126) that ran longest of 150
  (9,408 actions; the issue's table had 8,064);
- ``the-game``: four seats whose greedy game is padded with pile signals to ``--actions``
  (10,000) actions: the talk a hostile table could pile up.

Then ``cardtable serve`` starts on it; a victim (a person at a Doublets solitaire) pings over
its websocket every 0.1 s for ``--seconds`` in each phase (``--phases``):

- ``quiet``: alone;
- ``replays``: while ``--clients`` (4) clients without a player loop
  ``GET /api/tables/ID/replay?step=S&log=1&log_offset=S`` (S random; the first request
  finds the table unloaded, as after the finished table's unload);
- ``records``: while they loop ``GET /api/tables/ID/record``;
- ``sockets``: while they loop opening a spectator's websocket to the table, reading its
  first state and closing.

Prints one table: the victim's ping p50/p99/max in each phase, the answers the loops got,
their mean size and the slowest.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import cast

import httpx
import websockets

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the benches' shared modules
from cluster import ServerProcess  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
GAMES = ("slide", "the-game")
PHASES = ("quiet", "replays", "records", "sockets")
SLIDE_SEED = 126  # of seeds 0-149, the longest six-greedy Slide to target 1000


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, round(q * (len(values) - 1)))]


def long_game(game: str, actions: int) -> tuple[dict, list[tuple[int, str]], dict]:
    """(the table's facts, its actions, its result): a finished game of ``game``."""
    from cardtable import games

    rng = random.Random(1)
    if game == "slide":
        options, players, seed = {"target": 1000}, 6, SLIDE_SEED
        state = games.get(game).deal(seed, players, options)
        state.playout(["greedy"] * players, random.Random(seed))
        log = list(state.actions)
    else:
        options, players, seed = {}, 4, 7
        played = games.get(game).deal(seed, players, options)
        played.playout(["random"] * players, rng)
        talk = [
            (n % players, f"signal up1 {('avoid', 'small')[(n // players) % 2]}")
            for n in range(max(0, actions - len(played.actions)))
        ]
        log = talk + list(played.actions)
        state = games.get(game).deal(seed, players, options)
        for seat, action in log:
            state.act(seat, action)
    assert state.over
    facts = {"game": game, "seed": seed, "players": players, "options": options}
    return facts, log, dict(state.result())


def make_database(url: str, game: str, actions: int) -> tuple[str, int]:
    """Write one finished table of ``game`` into a new database: its id and length."""
    from sqlalchemy import Table, insert

    from cardtable.server.storage import store as db

    facts, log, result = long_game(game, actions)
    store = db.Store(url)  # creates the schema
    maker = {"id": "maker", "name": "Maker", "created_at": db.now(), "token_hash": "x" * 64}
    table = {
        "id": "long1",
        **facts,
        "status": "over",
        "created_by": "maker",
        "created_at": db.now(),
        "finished_at": db.now(),
        "result": result,
        "redo": [],
        "version": len(log) + 1,
    }
    seats = [
        {"table_id": "long1", "seat": s, "player_id": None, "bot": "greedy"}
        for s in range(facts["players"])
    ]
    rows = [
        {
            "table_id": "long1",
            "n": n,
            "seat": seat,
            "action": action,
            "client_id": None,
            "version": n + 2,
            "actor": "bot:greedy",
            "at": db.now(),
        }
        for n, (seat, action) in enumerate(log)
    ]
    with store.engine.begin() as conn:
        conn.execute(insert(cast(Table, db.Player.__table__)), [maker])
        conn.execute(insert(cast(Table, db.Table.__table__)), [table])
        conn.execute(insert(cast(Table, db.Seat.__table__)), seats)
        conn.execute(insert(cast(Table, db.Action.__table__)), rows)
    store.close()
    return "long1", len(log)


async def victim(base: str, stop: asyncio.Event, pings: list[float]) -> None:
    """A person at a solitaire pinging over its websocket every 0.1 s until ``stop``."""
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        me = await http.post("/api/me", json={"name": "Victim"})
        token = me.cookies["cardtable_token"]
        table = await http.post(
            "/api/tables",
            json={"game": "doublets", "seats": ["me"]},
            headers={"x-cardtable-token": token},
        )
    url = base.replace("http", "ws") + f"/ws/tables/{table.json()['id']}?token={token}"
    async with websockets.connect(url, max_size=None) as ws:
        n = 0
        while not stop.is_set():
            n += 1
            sent = time.perf_counter()
            await ws.send(json.dumps({"type": "ping", "id": f"p{n}"}))
            while json.loads(await ws.recv()).get("id") != f"p{n}":
                pass
            pings.append(time.perf_counter() - sent)
            await asyncio.sleep(0.1)


async def http_loop(
    base: str,
    table_id: str,
    steps: int,
    stop: asyncio.Event,
    got: list[tuple[float, int]],
    seed: int,
    phase: str,
) -> None:
    """Ask for random steps of the replay (with the log), or for the record, until
    ``stop`` (no player)."""
    rng = random.Random(seed)
    async with httpx.AsyncClient(base_url=base, timeout=120) as http:
        while not stop.is_set():
            step = rng.randrange(steps + 1)
            sent = time.perf_counter()
            if phase == "replays":
                answer = await http.get(
                    f"/api/tables/{table_id}/replay",
                    params={"step": step, "log": 1, "log_offset": step},
                )
            else:
                answer = await http.get(f"/api/tables/{table_id}/record")
            answer.raise_for_status()
            got.append((time.perf_counter() - sent, len(answer.content)))


async def socket_loop(
    base: str, table_id: str, stop: asyncio.Event, got: list[tuple[float, int]]
) -> None:
    """Open a spectator's websocket to the table, read its first state, close; again."""
    url = base.replace("http", "ws") + f"/ws/tables/{table_id}"
    while not stop.is_set():
        sent = time.perf_counter()
        async with websockets.connect(url, max_size=None) as ws:
            first = await ws.recv()
        got.append((time.perf_counter() - sent, len(first)))


async def run(
    base: str, table_id: str, steps: int, clients: int, seconds: float, phases: list[str]
) -> dict:
    out: dict = {}
    for phase in phases:
        stop = asyncio.Event()
        pings: list[float] = []
        got: list[tuple[float, int]] = []
        jobs = [asyncio.ensure_future(victim(base, stop, pings))]
        if phase != "quiet":
            await asyncio.sleep(1)  # the victim's table first
            jobs += [
                asyncio.ensure_future(
                    socket_loop(base, table_id, stop, got)
                    if phase == "sockets"
                    else http_loop(base, table_id, steps, stop, got, k, phase)
                )
                for k in range(clients)
            ]
        await asyncio.sleep(seconds)
        stop.set()
        await asyncio.wait_for(asyncio.gather(*jobs), 300)
        out[phase] = (pings, got)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--src", type=Path, default=ROOT / "src", help="the src folder to run the server from"
    )
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--phases", default=",".join(PHASES))
    parser.add_argument(
        "--actions", type=int, default=10_000, help="the-game: its length, padded with signals"
    )
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=20)
    args = parser.parse_args()
    sys.path.insert(0, str(args.src))  # the database is written by the server's own code
    print(
        f"server: {args.src}; victim: ping every 0.1 s; {args.clients} clients loop; "
        f"{args.seconds:g} s per phase"
    )
    print(
        "game | actions | phase | pings | p50 ms | p99 ms | max ms | answers | mean KB | "
        "slowest answer s"
    )
    for game in [g for g in args.games.split(",") if g in GAMES]:
        with tempfile.TemporaryDirectory() as tmp:
            data = Path(tmp)
            table_id, steps = make_database(
                f"sqlite:///{data / 'bench.sqlite'}", game, args.actions
            )
            server = ServerProcess(data, db=f"sqlite:///{data / 'bench.sqlite'}", src=args.src)
            server.start()
            try:
                out = asyncio.run(
                    run(
                        server.base,
                        table_id,
                        steps,
                        args.clients,
                        args.seconds,
                        [p for p in args.phases.split(",") if p in PHASES],
                    )
                )
            finally:
                server.kill()
        for phase, (pings, got) in out.items():
            ms = [p * 1000 for p in pings]
            mean_kb = sum(n for _, n in got) / len(got) / 1024 if got else 0
            print(
                f"{game} | {steps} | {phase} | {len(ms)} | {percentile(ms, 0.5):.1f} | "
                f"{percentile(ms, 0.99):.1f} | {max(ms, default=float('nan')):.1f} | "
                f"{len(got)} | {mean_kb:.0f} | "
                f"{max((t for t, _ in got), default=0):.2f}"
            )


if __name__ == "__main__":
    main()
