"""Load test: many tables of The Game, four real websocket clients each, 1-N server processes.

    python bench/load.py --tables 500 [--tables 1000 ...] [--seconds 60] [--period 2]
                         [--client-procs 2] [--py-spy FILE] [--labels]
                         [--server-procs 3 [--db postgresql://...] [--spread]]

For each table count: the tables (four people each, running) are written straight into a fresh
database (SQLite; with ``--db``, a fresh database on that PostgreSQL server), ``--server-procs``
``cardtable serve`` processes are started on it (more than one: with a ``redis-server`` as
their bus, ``serve --bus``), and ``--client-procs`` separate client processes (the tables split
among them, a table's four clients always in one process) open one websocket per seat. Table
``t``'s clients reach process ``t mod N`` (which then holds the table); with ``--spread`` seat
``s`` reaches process ``(t + s) mod N``, so three of every four sockets are forwarded to the
table's holder over the bus. Once
every client is connected, each client acts about every ``--period`` seconds for ``--seconds``:
the seat to move plays a card (greedy), the others set and clear pile signals (legal at any
time); then the clients stop acting and keep reading for a few seconds. The clients open their
sockets as the page of The Game does, with ``table=changed`` (the table info only when it
changed) and ``labels=0`` (its board names the moves; ``--labels`` asks for them, as a generic
client does).

Figures: for every accepted action the time from sending it to the moment the last of the
table's four clients has received a state at least that new ("action to last view"), p50, p95,
p99 and max; actions acknowledged per second; errors (refusals other than ``stale`` and
``rate_limited``, lost connections, actions whose views never all arrived, actions with no
answer at all by the end); memory per
connection (the servers' peak resident memory during the run minus their memory before the
clients connected, divided by the connections); the servers' CPU (cores, all processes
together) and per acknowledged action (ms), the clients' CPU use (cores) and the machine's
load average. ``--py-spy FILE`` records the server with py-spy during the run
(raw collapsed stacks) if py-spy is installed.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import os
import random
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, cast

SEATS = 4
DRAIN = 5.0  # seconds the clients go on reading after they stop acting

loads: Callable[[str | bytes], Any]
try:
    import orjson

    loads = orjson.loads
except ImportError:  # pragma: no cover - the bench works without it, a little slower
    loads = json.loads


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def cpu_seconds(pid: int) -> float:
    """User + system CPU of a process (its own, not its children's)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


# -- setting up: tables written straight into the database -----------------------------------


def make_database(url: str, tables: int, seed: int) -> list[list[str]]:
    """``tables`` running tables of The Game with four people; per table [id, 4 tokens]."""
    from sqlalchemy import Table, insert

    from cardtable.server.storage import store as db

    store = db.Store(url)  # creates the schema
    rng = random.Random(seed)
    players, rows, seats, out = [], [], [], []
    for i in range(tables):
        tid = f"load{i:05d}"
        tokens = []
        for s in range(SEATS):
            token = secrets.token_urlsafe(24)
            pid = f"p{i:05d}s{s}"
            players.append(
                {
                    "id": pid,
                    "name": f"p{i}-{s}",
                    "created_at": db.now(),
                    "token_hash": hashlib.sha256(token.encode()).hexdigest(),
                }
            )
            seats.append({"table_id": tid, "seat": s, "player_id": pid, "bot": None})
            tokens.append(token)
        rows.append(
            {
                "id": tid,
                "game": "the-game",
                "seed": rng.randrange(10**9),
                "players": SEATS,
                "options": {},
                "status": "running",
                "created_by": f"p{i:05d}s0",
                "created_at": db.now(),
                "redo": [],
                "version": 1,
            }
        )
        out.append([tid, *tokens])
    with store.engine.begin() as conn:
        conn.execute(insert(cast(Table, db.Player.__table__)), players)
        conn.execute(insert(cast(Table, db.Table.__table__)), rows)
        conn.execute(insert(cast(Table, db.Seat.__table__)), seats)
    store.close()
    return out


# -- the clients (run in their own processes) ------------------------------------------------


class TableRun:
    """One table: when each action was sent and acknowledged, when each seat saw each version."""

    def __init__(self) -> None:
        self.sent: dict[str, float] = {}  # action id -> time sent
        self.acked: list[tuple[int, float]] = []  # (version, time sent)
        self.receipts: list[list[tuple[int, float]]] = [[] for _ in range(SEATS)]

    def latencies(self) -> tuple[list[float], int]:
        """Per accepted action, seconds from sending it until the last seat had a state that
        new; and how many accepted actions some seat never saw."""
        out, unseen = [], 0
        for version, t0 in self.acked:
            last = 0.0
            for seen in self.receipts:
                arrival = next((t for v, t in seen if v >= version), None)
                if arrival is None:
                    unseen += 1
                    break
                last = max(last, arrival)
            else:
                out.append(last - t0)
        return out, unseen


async def client(
    url: str,
    seat: int,
    run: TableRun,
    stats: dict,
    period: float,
    go: asyncio.Event,
    times: dict,
    rng: random.Random,
    connected: list[int],
    sem: asyncio.Semaphore,
) -> None:
    import websockets

    from cardtable.bots import make_bot

    bot = make_bot("greedy", "the-game")
    n = 0
    try:
        async with sem:  # not every handshake at once
            ws = await websockets.connect(url, max_size=2**20, ping_interval=None, open_timeout=120)
        async with ws:
            connected[0] += 1
            state: dict | None = None
            await go.wait()
            start, stop = times["start"], times["stop"]
            next_move = start + rng.uniform(0, period)
            while True:
                now = time.monotonic()
                if now >= stop + DRAIN:
                    return
                wait = (next_move if now < stop else stop + DRAIN) - now
                try:
                    raw = await asyncio.wait_for(ws.recv(), max(0.001, wait))
                except TimeoutError:
                    raw = None
                now = time.monotonic()
                if raw is not None:
                    message = loads(raw)
                    kind = message["type"]
                    if kind == "state":
                        if "table" not in message and state is not None:  # table=changed
                            message["table"] = state["table"]
                        state = message
                        run.receipts[seat].append((message["version"], now))
                    elif kind == "ack":
                        t0 = run.sent.pop(message["id"], None)
                        if t0 is not None:
                            stats["acks"] += 1
                            run.acked.append((message["version"], t0))
                    elif kind == "error":
                        run.sent.pop(message.get("id"), None)
                        code = message["code"]
                        if code in ("stale", "rate_limited"):
                            stats["refused_ok"] += 1
                        else:
                            stats["errors"][code] = stats["errors"].get(code, 0) + 1
                    continue
                if now < next_move or now >= stop:
                    continue
                next_move = now + period * rng.uniform(0.75, 1.25)
                if state is None or state["table"]["status"] != "running":
                    continue
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
                await ws.send(
                    json.dumps(
                        {"type": "act", "action": action, "version": state["version"], "id": cid}
                    )
                )
    except (OSError, TimeoutError, websockets.WebSocketException) as e:
        code = getattr(getattr(e, "rcvd", None), "code", None)  # the server's close code
        key = f"connection lost ({type(e).__name__}{f', code {code}' if code else ''})"
        stats["errors"][key] = stats["errors"].get(key, 0) + 1


async def client_process(spec: dict) -> dict:
    """Connect every seat of the given tables, say ``ready``, act from the ``go`` line on."""
    runs, tasks = [], []
    stats: dict = {"acks": 0, "refused_ok": 0, "errors": {}}
    go, connected = asyncio.Event(), [0]
    times: dict[str, float] = {}
    rng = random.Random(spec["seed"])
    sem = asyncio.Semaphore(64)  # handshakes at once

    for tid, ports, *tokens in spec["tables"]:
        run = TableRun()
        runs.append(run)
        for seat, token in enumerate(tokens):
            url = f"ws://127.0.0.1:{ports[seat]}/ws/tables/{tid}?token={token}{spec['query']}"
            tasks.append(
                asyncio.create_task(
                    client(
                        url,
                        seat,
                        run,
                        stats,
                        spec["period"],
                        go,
                        times,
                        random.Random(rng.random()),
                        connected,
                        sem,
                    )
                )
            )
    want = len(tasks)
    while connected[0] < want and not all(t.done() for t in tasks):
        await asyncio.sleep(0.1)
    print("ready", connected[0], flush=True)
    line = await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
    _, start, stop = line.split()
    times.update(start=float(start), stop=float(stop))
    cpu0 = time.process_time()
    go.set()
    await asyncio.gather(*tasks)
    lat: list[float] = []
    unseen = unanswered = 0
    for run in runs:
        got, missing = run.latencies()
        lat += got
        unseen += missing
        unanswered += len(run.sent)  # sent, neither acknowledged nor refused by the end
    return {
        **stats,
        "latencies": lat,
        "unseen": unseen,
        "unanswered": unanswered,
        "cpu": time.process_time() - cpu0,
    }


def client_main(spec_file: str, out_file: str) -> None:
    spec = json.loads(Path(spec_file).read_text())
    result = asyncio.run(client_process(spec))
    Path(out_file).write_text(json.dumps(result))


# -- the driver --------------------------------------------------------------------------------


def percentile(values: list[float], q: float) -> float:
    return values[min(len(values) - 1, int(q * len(values)))] if values else float("nan")


def start_servers(n: int, url: str, tmp: str, server_args: list[str]) -> tuple[list[Any], Any]:
    """``n`` server processes on the database (with a redis-server as their bus when
    there are several); (the processes with their ports, the redis process or None)."""
    import httpx

    redis = None
    args = list(server_args)
    if n > 1:
        rport = free_port()
        redis = subprocess.Popen(
            [
                "redis-server",
                "--port",
                str(rport),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                tmp,
            ],
            stdout=subprocess.DEVNULL,
        )
        args += ["--bus", f"redis://127.0.0.1:{rport}/0"]
    servers = []
    for k in range(n):
        port = free_port()
        log = open(f"{tmp}/server{k}.log", "w")  # noqa: SIM115 - closed with the process
        proc = subprocess.Popen(
            [sys.executable, "-m", "cardtable", "serve", "--port", str(port), "--db", url, *args],
            env=dict(os.environ, CARDTABLE_DATA=tmp),
            stdout=subprocess.DEVNULL,
            stderr=log,
        )
        servers.append((proc, port, log))
        for _ in range(1200):
            try:
                httpx.get(f"http://127.0.0.1:{port}/api/games", timeout=1)
                break
            except httpx.HTTPError:
                if proc.poll() is not None:
                    raise RuntimeError(
                        "a server stopped: " + Path(f"{tmp}/server{k}.log").read_text()[-2000:]
                    ) from None
                time.sleep(0.1)
    return servers, redis


def fresh_database(tmp: str, db: str | None) -> str:
    if db is None:
        return f"sqlite:///{tmp}/load.sqlite"
    import psycopg

    name = "cardtable_load_" + secrets.token_hex(4)
    with psycopg.connect(db, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    return db.rsplit("/", 1)[0] + "/" + name


def run_one(
    tables: int,
    seconds: float,
    period: float,
    procs: int,
    spy: str | None,
    server_args: list[str],
    server_procs: int = 1,
    db: str | None = None,
    spread: bool = False,
    labels: bool = False,
) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        url = fresh_database(tmp, db)
        t_setup = time.monotonic()
        made = make_database(url, tables, seed=tables)
        servers, redis = start_servers(server_procs, url, tmp, server_args)
        pids = [proc.pid for proc, _, _ in servers]
        ports = [port for _, port, _ in servers]
        # table t at process t mod N; --spread: seat s at process (t + s) mod N
        placed = [
            [tid, [ports[(t + (s if spread else 0)) % len(ports)] for s in range(SEATS)], *tokens]
            for t, (tid, *tokens) in enumerate(made)
        ]
        clients: list[subprocess.Popen] = []
        spy_proc = None
        try:
            before = sum(rss_kb(p) for p in pids)
            for k in range(procs):
                spec = {
                    "period": period,
                    "seed": tables * 100 + k,
                    "tables": placed[k::procs],
                    # as the page of The Game asks
                    "query": "&table=changed" + ("" if labels else "&labels=0"),
                }
                Path(f"{tmp}/spec{k}.json").write_text(json.dumps(spec))
                clients.append(
                    subprocess.Popen(
                        [
                            sys.executable,
                            __file__,
                            "--client",
                            f"{tmp}/spec{k}.json",
                            f"{tmp}/out{k}.json",
                        ],
                        stdin=subprocess.PIPE,
                        stdout=subprocess.PIPE,
                        text=True,
                    )
                )
            connected = 0
            for c in clients:
                assert c.stdout is not None  # stdout=PIPE
                line = c.stdout.readline().split()
                connected += int(line[1]) if line and line[0] == "ready" else 0
            setup = time.monotonic() - t_setup
            idle = sum(rss_kb(p) for p in pids)
            start = time.monotonic() + 1.0
            stop = start + seconds
            for c in clients:
                assert c.stdin is not None  # stdin=PIPE
                c.stdin.write(f"go {start} {stop}\n")
                c.stdin.flush()
            load0 = os.getloadavg()
            time.sleep(max(0.0, start - time.monotonic()))
            cpu0, t0 = sum(cpu_seconds(p) for p in pids), time.monotonic()
            spy_bin = shutil.which("py-spy") or shutil.which(
                "py-spy", path=str(Path(sys.executable).parent)
            )
            if spy and spy_bin:
                spy_proc = subprocess.Popen(
                    [
                        spy_bin,
                        "record",
                        "--pid",
                        str(pids[0]),
                        "--duration",
                        str(int(seconds)),
                        "--rate",
                        "100",
                        "--gil",
                        "--format",
                        "raw",
                        "-o",
                        spy,
                        "--nonblocking",
                    ],
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                )
            peak = idle
            while time.monotonic() < stop:
                time.sleep(1.0)
                peak = max(peak, sum(rss_kb(p) for p in pids))
            cpu1, t1 = sum(cpu_seconds(p) for p in pids), time.monotonic()
            load1 = os.getloadavg()
            results = []
            for k, c in enumerate(clients):
                c.wait(timeout=DRAIN + 120)
                results.append(json.loads(Path(f"{tmp}/out{k}.json").read_text()))
            if spy_proc:
                spy_proc.wait(timeout=60)
        except Exception:
            for k in range(len(servers)):
                print(Path(f"{tmp}/server{k}.log").read_text()[-3000:], file=sys.stderr)
            raise
        finally:
            for c in clients:
                if c.poll() is None:
                    c.kill()
            for k, (proc, _, log) in enumerate(servers):
                proc.kill()
                proc.wait()
                log.close()
                if os.environ.get("CARDTABLE_LOAD_LOGS"):  # where to keep the servers' logs
                    shutil.copy(
                        f"{tmp}/server{k}.log", f"{os.environ['CARDTABLE_LOAD_LOGS']}/server{k}.log"
                    )
            if redis is not None:
                redis.kill()
                redis.wait()
    lat = sorted(x for r in results for x in r["latencies"])
    errors: dict[str, int] = {}
    for r in results:
        for k, v in r["errors"].items():
            errors[k] = errors.get(k, 0) + v
    unseen = sum(r["unseen"] for r in results)
    if unseen:
        errors["views never all received"] = unseen
    unanswered = sum(r["unanswered"] for r in results)
    if unanswered:
        errors["no answer by the end"] = unanswered
    if connected < tables * SEATS:
        errors["not connected"] = tables * SEATS - connected
    acks = sum(r["acks"] for r in results)
    return {
        "tables": tables,
        "connections": tables * SEATS,
        "server_procs": server_procs,
        "spread": spread,
        "actions_per_s": acks / seconds,
        "server_ms_per_action": 1000 * (cpu1 - cpu0) / acks if acks else float("nan"),
        "p50_ms": 1000 * percentile(lat, 0.50),
        "p95_ms": 1000 * percentile(lat, 0.95),
        "p99_ms": 1000 * percentile(lat, 0.99),
        "max_ms": 1000 * (lat[-1] if lat else 0),
        "errors": sum(errors.values()),
        "error_kinds": errors,
        "refused_stale": sum(r["refused_ok"] for r in results),
        "kb_per_connection": (peak - before) / (tables * SEATS),
        "kb_per_connection_idle": (idle - before) / (tables * SEATS),
        "server_cpu": (cpu1 - cpu0) / (t1 - t0),
        "client_cpu": sum(r["cpu"] for r in results) / (seconds + DRAIN),
        "load": (load0[0], load1[0]),
        "setup_s": setup,
    }


def main() -> None:
    if len(sys.argv) == 4 and sys.argv[1] == "--client":
        client_main(sys.argv[2], sys.argv[3])
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, action="append", default=None)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--period", type=float, default=2.0)
    parser.add_argument(
        "--client-procs",
        type=int,
        default=2,
        help="client processes (the tables are split among them)",
    )
    parser.add_argument(
        "--py-spy",
        default=None,
        metavar="FILE",
        help="record the server with py-spy (raw stacks; FILE.N per run)",
    )
    parser.add_argument("--json", default=None, metavar="FILE", help="append rows as JSON")
    parser.add_argument(
        "--server-arg",
        action="append",
        default=[],
        help="extra argument for cardtable serve (repeatable)",
    )
    parser.add_argument(
        "--server-procs",
        type=int,
        default=1,
        help="server processes (more than one: on a redis-server bus)",
    )
    parser.add_argument(
        "--db",
        default=None,
        help="a PostgreSQL server URL (a fresh database on it; default SQLite)",
    )
    parser.add_argument(
        "--spread", action="store_true", help="each table's four seats reach different processes"
    )
    parser.add_argument(
        "--labels",
        action="store_true",
        help="the clients ask for the move labels (the page of The Game does not: labels=0)",
    )
    args = parser.parse_args()
    print(
        f"{'procs':>5} {'tables':>6} {'conns':>6} {'acts/s':>7} {'ms/act':>7} {'p50 ms':>8} "
        f"{'p95 ms':>8} {'p99 ms':>8} {'max ms':>8} {'errors':>6} {'stale':>6} "
        f"{'KB/conn':>8} {'server':>7} {'clients':>7} {'load':>10}",
        flush=True,
    )
    for count in args.tables or [100]:
        spy = f"{args.py_spy}.{count}" if args.py_spy else None
        r = run_one(
            count,
            args.seconds,
            args.period,
            args.client_procs,
            spy,
            args.server_arg,
            args.server_procs,
            args.db,
            args.spread,
            args.labels,
        )
        print(
            f"{r['server_procs']:>5} {r['tables']:>6} {r['connections']:>6} "
            f"{r['actions_per_s']:>7.0f} {r['server_ms_per_action']:>7.2f} "
            f"{r['p50_ms']:>8.1f} {r['p95_ms']:>8.1f} {r['p99_ms']:>8.1f} "
            f"{r['max_ms']:>8.0f} {r['errors']:>6} {r['refused_stale']:>6} "
            f"{r['kb_per_connection']:>8.1f} {r['server_cpu']:>6.0%} "
            f"{r['client_cpu']:>6.0%} {r['load'][0]:>4.1f}-{r['load'][1]:<4.1f}",
            flush=True,
        )
        if r["error_kinds"]:
            print("       errors:", r["error_kinds"], flush=True)
        if args.json:
            with open(args.json, "a") as f:
                f.write(json.dumps(r) + "\n")


if __name__ == "__main__":
    main()
