"""Hostile tables: what many tables do to a second client, before and after (issue #9).

    python bench/hostile_tables.py [--src SRC ...] [--bot-tables 12] [--live 6000]
                                   [--seconds 15]

For each ``--src`` (a ``src`` folder to run the server from, e.g. /tmp/base/src after
``git worktree add /tmp/base fcb0323``, the code before issue #9; default this checkout's)
three attacks, each against a fresh ``cardtable serve`` process on SQLite:

- **bots**: ``--bot-tables`` tables of six ``search:hard`` bots each (Slide, target 1000,
  three per player: the most the limit allows), then a person plays Slide against one
  ``search:hard`` bot over a websocket. Figures: the person's action latency (sent to ack) and
  the bot's reply (the person's ack to the person's next turn, which includes the server's
  ``--bot-delay`` of 0.2 s), p50/p99; also with no tables of bots, for comparison.
- **create**: ``--live`` running tables written straight into the database (as bench/load.py
  does); for ``--seconds``, players create tables over HTTP one after another while a person
  plays Doublets over a websocket. Figures: create latency and the person's action latency.
- **restart**: the same database; seconds from starting the server to its first answer, its
  resident memory then, and the first websocket state of one of the tables (loaded on first
  use after the change).
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import os
import secrets
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import cast

import httpx
import websockets

HERE = Path(__file__).resolve().parent
SRC = HERE.parent / "src"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))] * 1000 if values else float("nan")


class Server:
    """``cardtable serve`` from ``src`` on the SQLite file ``db``."""

    def __init__(self, src: Path, db: Path, bot_delay: float = 0.2) -> None:
        self.src, self.db, self.bot_delay = src, db, bot_delay
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen | None = None

    def start(self) -> float:
        """Start it; the seconds until it answered."""
        env = dict(os.environ, PYTHONPATH=str(self.src), CARDTABLE_DATA=str(self.db.parent))
        t0 = time.monotonic()
        self.log = open(self.db.parent / "server.log", "ab")  # noqa: SIM115 - closed in stop
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "cardtable",
                "serve",
                "--port",
                str(self.port),
                "--db",
                f"sqlite:///{self.db}",
                "--bot-delay",
                str(self.bot_delay),
            ],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=self.log,
        )
        while True:
            if self.proc.poll() is not None:
                raise RuntimeError(
                    "the server stopped: " + (self.db.parent / "server.log").read_text()[-2000:]
                )
            try:
                if httpx.get(self.base + "/api/games", timeout=1).status_code == 200:
                    return time.monotonic() - t0
            except httpx.HTTPError:
                time.sleep(0.02)

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        self.log.close()


def person(server: Server, name: str) -> httpx.Client:
    http = httpx.Client(base_url=server.base, timeout=60)
    http.post("/api/me", json={"name": name}).raise_for_status()
    return http


class Player:
    """A person at a table over a websocket: acts when it may, times acks and turns."""

    def __init__(self, server: Server, http: httpx.Client, table_id: str) -> None:
        self.url = (
            f"ws://127.0.0.1:{server.port}/ws/tables/{table_id}"
            f"?token={http.cookies['cardtable_token']}"
        )
        self.acks: list[float] = []  # seconds from sending an action to its ack
        self.turns: list[float] = []  # seconds from an ack to the next state it may act in

    async def play(self, seconds: float) -> None:
        """Play greedy (Doublets: the first legal action) whenever this seat is to act, until
        the game ends or time runs out."""
        from cardtable.bots import Bot, make_bot

        bots: dict[str, Bot] = {}
        async with websockets.connect(self.url, max_size=2**22) as ws:
            stop = time.monotonic() + seconds
            state: dict | None = None
            pending: str | None = None  # the id of the action awaiting its answer
            sent = 0.0
            acked: tuple[int, float] | None = None  # the version it made, when
            n = 0
            while (left := stop - time.monotonic()) > 0:
                try:
                    message = json.loads(await asyncio.wait_for(ws.recv(), left))
                except TimeoutError:
                    return
                now = time.monotonic()
                if message["type"] == "state":
                    state = message
                    if state["table"]["status"] != "running":
                        return
                elif pending is not None and message.get("id") == pending:
                    pending = None
                    if message["type"] == "ack":
                        self.acks.append(now - sent)
                        acked = (message["version"], now)
                else:
                    continue
                if (
                    pending is not None
                    or state is None
                    or not state["legal"]
                    or state["seat"] not in state["view"]["to_act"]
                ):
                    continue
                if acked is not None and state["version"] > acked[0]:
                    self.turns.append(now - acked[1])  # another seat (the bot) moved first
                acked = None
                game = state["table"]["game"]
                if game == "doublets":
                    action = state["legal"][0]
                else:
                    bot = bots.get(game)
                    if bot is None:  # one bot per game, not one built (and dropped) per move
                        bot = bots[game] = make_bot("greedy", game)
                    action = bot.choose(state["view"], state["legal"])
                n += 1
                pending, sent = str(n), time.monotonic()
                await ws.send(
                    json.dumps(
                        {
                            "type": "act",
                            "action": action,
                            "id": pending,
                            "version": state["version"],
                        }
                    )
                )


# -- the attacks ------------------------------------------------------------------------------


def attack_bots(src: Path, folder: Path, bot_tables: int, seconds: float) -> list[dict]:
    rows = []
    for tables in (0, bot_tables):
        server = Server(src, folder / f"bots{tables}.sqlite")
        server.start()
        try:
            for i in range(tables):
                if i % 3 == 0:
                    maker = person(server, f"botmaker{i}")
                maker.post(
                    "/api/tables",
                    json={
                        "game": "slide",
                        "seats": ["search:hard"] * 6,
                        "options": {"target": 1000},
                    },
                ).raise_for_status()
            http = person(server, "Ann")
            # warm up (the workers start on first use) while the tables of bots get going
            warm = http.post(
                "/api/tables", json={"game": "slide", "seats": ["me", "search:hard"]}
            ).json()
            asyncio.run(Player(server, http, warm["id"]).play(3))
            acks: list[float] = []
            turns: list[float] = []
            deadline = time.monotonic() + seconds
            while time.monotonic() < deadline:
                table = http.post(
                    "/api/tables", json={"game": "slide", "seats": ["me", "search:hard"]}
                ).json()
                player = Player(server, http, table["id"])
                asyncio.run(player.play(deadline - time.monotonic()))
                acks += player.acks
                turns += player.turns
            rows.append(
                {
                    "attack": f"{tables} tables of 6 search:hard bots",
                    "what": "person's action: ack",
                    "n": len(acks),
                    "p50": pct(acks, 0.5),
                    "p99": pct(acks, 0.99),
                }
            )
            rows.append(
                {
                    "attack": f"{tables} tables of 6 search:hard bots",
                    "what": "person's bot replies (0.2 s delay)",
                    "n": len(turns),
                    "p50": pct(turns, 0.5),
                    "p99": pct(turns, 0.99),
                }
            )
        finally:
            server.stop()
    return rows


def write_live_tables(db: Path, count: int) -> None:
    """``count`` running tables of The Game with four people each, straight into SQLite."""
    from sqlalchemy import Table, insert

    sys.path.insert(0, str(SRC))
    from cardtable.server.storage import store as dbm

    store = dbm.Store(f"sqlite:///{db}")
    players, rows, seats = [], [], []
    for i in range(count):
        tid = f"live{i:05d}"
        for s in range(4):
            pid = f"p{i:05d}s{s}"
            players.append(
                {
                    "id": pid,
                    "name": f"p{i}-{s}",
                    "created_at": dbm.now(),
                    "token_hash": hashlib.sha256(secrets.token_bytes(8)).hexdigest(),
                }
            )
            seats.append({"table_id": tid, "seat": s, "player_id": pid, "bot": None})
        rows.append(
            {
                "id": tid,
                "game": "the-game",
                "seed": 1000 + i,
                "players": 4,
                "options": {},
                "status": "running",
                "created_by": f"p{i:05d}s0",
                "created_at": dbm.now(),
                "redo": [],
                "version": 0,
            }
        )
    with store.engine.begin() as conn:
        conn.execute(insert(cast(Table, dbm.Player.__table__)), players)
        conn.execute(insert(cast(Table, dbm.Table.__table__)), rows)
        conn.execute(insert(cast(Table, dbm.Seat.__table__)), seats)
    store.close()


def attack_create_and_restart(src: Path, folder: Path, live: int, seconds: float) -> list[dict]:
    db = folder / "live.sqlite"
    write_live_tables(db, live)
    server = Server(src, db)
    started = server.start()
    assert server.proc is not None  # started
    rows = [
        {
            "attack": f"restart, {live:,} running tables",
            "what": "start (ms, p50); memory (MB, p99)",
            "n": 1,
            "p50": started * 1000,
            "p99": rss_mb(server.proc.pid),
        }
    ]
    try:
        # a table nobody touched since the start: the first state (loaded on first use)
        http = person(server, "Ann")
        t0 = time.monotonic()

        async def first_state() -> None:
            url = f"ws://127.0.0.1:{server.port}/ws/tables/live{live // 2:05d}"
            async with websockets.connect(url, max_size=2**22) as ws:
                await ws.recv()

        asyncio.run(first_state())
        rows.append(
            {
                "attack": f"restart, {live:,} running tables",
                "what": "first state of an untouched table",
                "n": 1,
                "p50": (time.monotonic() - t0) * 1000,
                "p99": float("nan"),
            }
        )

        def play(label: str) -> None:
            acks: list[float] = []
            deadline = time.monotonic() + seconds
            while time.monotonic() < deadline:
                table = http.post("/api/tables", json={"game": "doublets", "seats": ["me"]})
                player = Player(server, http, table.json()["id"])
                asyncio.run(player.play(deadline - time.monotonic()))
                acks += player.acks
            rows.append(
                {
                    "attack": label,
                    "what": "person's action: ack",
                    "n": len(acks),
                    "p50": pct(acks, 0.5),
                    "p99": pct(acks, 0.99),
                }
            )

        play(f"{live:,} live tables, no creating")
        creating = subprocess.Popen(
            [sys.executable, __file__, "--create-loop", server.base, str(seconds + 3)],
            stdout=subprocess.PIPE,
            text=True,
        )
        time.sleep(1)
        play(f"{live:,} live tables, creating tables")
        out, _ = creating.communicate()
        times = json.loads(out)
        rows.append(
            {
                "attack": f"{live:,} live tables, creating tables",
                "what": "POST /api/tables",
                "n": len(times),
                "p50": pct(times, 0.5),
                "p99": pct(times, 0.99),
            }
        )
    finally:
        server.stop()
    return rows


def create_loop(base: str, seconds: float) -> None:
    """Players create solitaires one after another (new players as each reaches the table
    limit); prints the latencies as JSON."""
    times: list[float] = []
    deadline = time.monotonic() + seconds
    http = None
    while time.monotonic() < deadline:
        if http is None or len(times) % 25 == 0:
            http = httpx.Client(base_url=base, timeout=60)
            http.post("/api/me", json={"name": f"maker{len(times)}"}).raise_for_status()
        t0 = time.monotonic()
        answer = http.post("/api/tables", json={"game": "doublets", "seats": ["me"]})
        times.append(time.monotonic() - t0)
        answer.raise_for_status()
    print(json.dumps(times))


def main() -> None:
    if len(sys.argv) == 4 and sys.argv[1] == "--create-loop":
        create_loop(sys.argv[2], float(sys.argv[3]))
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--src",
        action="append",
        type=Path,
        help="the server's src folder (repeatable; default this checkout's)",
    )
    parser.add_argument("--bot-tables", type=int, default=12)
    parser.add_argument("--live", type=int, default=6000)
    parser.add_argument("--seconds", type=float, default=15)
    parser.add_argument("--only", choices=["bots", "create"], help="one attack only")
    args = parser.parse_args()
    print(f"{'server':<24} {'attack':<42} {'figure':<36} {'n':>5} {'p50 ms':>9} {'p99 ms':>9}")
    for src in args.src or [SRC]:
        with tempfile.TemporaryDirectory() as tmp:
            rows = []
            if args.only in (None, "bots"):
                rows += attack_bots(src, Path(tmp), args.bot_tables, args.seconds)
            if args.only in (None, "create"):
                rows += attack_create_and_restart(src, Path(tmp), args.live, args.seconds)
            for r in rows:
                print(
                    f"{str(src)[-24:]:<24} {r['attack']:<42} {r['what']:<36} {r['n']:>5} "
                    f"{r['p50']:>9.1f} {r['p99']:>9.1f}",
                    flush=True,
                )


if __name__ == "__main__":
    main()
