"""Load test: many tables of The Game, four real websocket clients each, one server process.

    python bench/load.py --tables 500 [--tables 1000 ...] [--seconds 60] [--period 2]

Each client acts about every ``--period`` seconds: the seat to move plays a card (greedy), the
others set and clear pile signals (legal at any time). For every accepted action the time from
sending it to the moment the last of the table's four clients has received the new state is
recorded ("action to last view"). Errors are refusals other than ``stale`` (a signal sent just
as the seat's turn came) and ``rate_limited``, and lost connections. Memory per connection is
the server's resident memory with all clients connected, minus its memory before, divided by
the connections. Prints one row per table count.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
import websockets

from cardtable.bots import make_bot

SEATS = 4


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


class Stats:
    def __init__(self) -> None:
        self.errors: dict[str, int] = {}
        self.refused_ok = 0
        self.actions = 0

    def error(self, kind: str) -> None:
        self.errors[kind] = self.errors.get(kind, 0) + 1


class TableRun:
    """One table: when each action was sent and acknowledged, when each seat saw each version."""

    def __init__(self) -> None:
        self.sent: dict[str, float] = {}  # action id -> time sent
        self.acked: list[tuple[int, float]] = []  # (version, time sent)
        self.receipts: list[list[tuple[int, float]]] = [[] for _ in range(SEATS)]

    def latencies(self) -> list[float]:
        """Per accepted action: from sending it until the last seat had a state that new."""
        out = []
        for version, t0 in self.acked:
            last = 0.0
            for seen in self.receipts:
                arrival = next((t for v, t in seen if v >= version), None)
                if arrival is None:
                    break  # the run ended before every seat saw it
                last = max(last, arrival)
            else:
                out.append(last - t0)
        return out


async def client(url: str, seat: int, run: TableRun, stats: Stats, period: float,
                 stop: float, rng: random.Random) -> None:
    bot = make_bot("greedy", "the-game")
    try:
        async with websockets.connect(url, max_size=2**20, ping_interval=None) as ws:
            state: dict | None = None
            next_move = time.monotonic() + rng.uniform(0, period)
            n = 0
            while time.monotonic() < stop:
                try:
                    raw = await asyncio.wait_for(ws.recv(), max(0.01, next_move - time.monotonic()))
                except TimeoutError:
                    raw = None
                now = time.monotonic()
                if raw is not None:
                    message = json.loads(raw)
                    if message["type"] == "state":
                        state = message
                        run.receipts[seat].append((message["version"], now))
                    elif message["type"] == "ack":
                        t0 = run.sent.pop(message["id"], None)
                        if t0 is not None:
                            stats.actions += 1
                            run.acked.append((message["version"], t0))
                    elif message["type"] == "error":
                        run.sent.pop(message.get("id"), None)
                        if message["code"] in ("stale", "rate_limited"):
                            stats.refused_ok += 1
                        else:
                            stats.error(message["code"])
                    continue
                if now < next_move or state is None or state["table"]["status"] != "running":
                    next_move = max(next_move, now + 0.2) if state is None else next_move
                    continue
                next_move = now + period * rng.uniform(0.75, 1.25)
                legal = state["legal"]
                if seat in state["view"]["to_act"]:
                    action = bot.choose(state["view"], legal)
                else:
                    talk = [a for a in legal if a.startswith("signal up1")]
                    if not talk:
                        continue
                    action = talk[0]
                n += 1
                cid = f"{seat}-{n}"
                run.sent[cid] = time.monotonic()
                await ws.send(json.dumps({"type": "act", "action": action,
                                          "version": state["version"], "id": cid}))
    except (OSError, websockets.ConnectionClosed):
        stats.error("connection lost")


async def make_tables(base: str, count: int) -> list[list[str]]:
    """``count`` running tables of four people; per table the four tokens."""
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        sem = asyncio.Semaphore(8)

        async def person(name: str) -> tuple[httpx.AsyncClient, str]:
            c = httpx.AsyncClient(base_url=base, timeout=60)
            await c.post("/api/me", json={"name": name})
            return c, c.cookies["cardtable_token"]

        async def table(i: int) -> list[str]:
            async with sem:
                people = [await person(f"p{i}-{s}") for s in range(SEATS)]
                made = await people[0][0].post("/api/tables", json={
                    "game": "the-game", "seats": ["me"] + ["open"] * (SEATS - 1),
                    "options": {}, "seed": i})
                tid = made.json()["id"]
                for c, _ in people[1:]:
                    await c.post(f"/api/tables/{tid}/join", json={})
                for c, _ in people:
                    await c.aclose()
                return [tid] + [t for _, t in people]

        del http
        return await asyncio.gather(*(table(i) for i in range(count)))


async def run_load(port: int, pid: int, tables: int, seconds: float, period: float
                   ) -> dict[str, float]:
    base = f"http://127.0.0.1:{port}"
    made = await make_tables(base, tables)
    before = rss_kb(pid)
    stats = Stats()
    stop = time.monotonic() + seconds
    rng = random.Random(tables)
    tasks = []
    runs = []
    for entry in made:
        tid, tokens = entry[0], entry[1:]
        run = TableRun()
        runs.append(run)
        for seat, token in enumerate(tokens):
            url = f"ws://127.0.0.1:{port}/ws/tables/{tid}?token={token}"
            tasks.append(asyncio.create_task(
                client(url, seat, run, stats, period, stop, random.Random(rng.random()))))
    await asyncio.sleep(min(10, seconds / 3))
    after = rss_kb(pid)
    started = time.monotonic()
    cpu0 = sum(map(int, Path(f"/proc/{pid}/stat").read_text().split()[13:15]))
    await asyncio.gather(*tasks)
    cpu1 = sum(map(int, Path(f"/proc/{pid}/stat").read_text().split()[13:15]))
    wall = time.monotonic() - started
    lat = sorted(x for run in runs for x in run.latencies()) or [0.0]
    return {
        "tables": tables, "connections": tables * SEATS,
        "actions_per_s": stats.actions / seconds,
        "p50_ms": 1000 * statistics.median(lat),
        "p99_ms": 1000 * lat[min(len(lat) - 1, int(0.99 * len(lat)))],
        "errors": sum(stats.errors.values()), "error_kinds": stats.errors,
        "refused_stale": stats.refused_ok,
        "kb_per_connection": (after - before) / (tables * SEATS),
        "server_cpu": (cpu1 - cpu0) / os.sysconf("SC_CLK_TCK") / wall,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, action="append", default=None)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--period", type=float, default=2.0)
    args = parser.parse_args()
    print(f"{'tables':>6} {'conns':>6} {'actions/s':>9} {'p50 ms':>8} {'p99 ms':>8} "
          f"{'errors':>6} {'stale':>6} {'KB/conn':>8} {'server CPU':>10}")
    for count in args.tables or [100]:
        with tempfile.TemporaryDirectory() as tmp:
            port = free_port()
            with open(f"{tmp}/server.log", "w") as log:
                server = subprocess.Popen(
                    [sys.executable, "-m", "cardtable", "serve", "--port", str(port),
                     "--db", f"sqlite:///{tmp}/load.sqlite"],
                    env=dict(os.environ, CARDTABLE_DATA=tmp),
                    stdout=subprocess.DEVNULL, stderr=log)
            try:
                for _ in range(300):
                    try:
                        httpx.get(f"http://127.0.0.1:{port}/api/games", timeout=1)
                        break
                    except httpx.HTTPError:
                        time.sleep(0.1)
                r = asyncio.run(run_load(port, server.pid, count, args.seconds, args.period))
            except Exception:
                print(Path(f"{tmp}/server.log").read_text()[-3000:])
                raise
            finally:
                server.kill()
                server.wait()
        print(f"{r['tables']:>6} {r['connections']:>6} {r['actions_per_s']:>9.0f} "
              f"{r['p50_ms']:>8.1f} {r['p99_ms']:>8.1f} {r['errors']:>6} "
              f"{r['refused_stale']:>6} {r['kb_per_connection']:>8.1f} "
              f"{100 * r['server_cpu']:>9.0f}%", flush=True)
        if r["error_kinds"]:
            print("       errors:", r["error_kinds"])


if __name__ == "__main__":
    main()
