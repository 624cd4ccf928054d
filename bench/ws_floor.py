"""The floor under the server's CPU per action: a bare websocket fan-out on the same stack.

    python bench/ws_floor.py [--tables 500] [--seconds 30] [--period 2] [--size 2700]
                             [--ws websockets --ws wsproto ...] [--outboxes] [--ack-in-state]

A FastAPI app under uvicorn (cardtable's stack, uvicorn's websocket implementation chosen by
``--ws``) with one websocket route and nothing behind it: tables of four sockets; a message a
client sends (a JSON object, parsed) is answered by an acknowledgement to the sender and a
message of ``--size`` bytes of JSON to each of its table's four sockets, as an action is
answered by the real server (an ack, and a state per connection: about 2.7 KB each for The
Game of four, ``bench/action_cost.py``). The clients (``--client-procs`` processes of their
own) act about every ``--period`` seconds, as ``bench/load.py``'s do. Printed per
implementation: actions per second, the server's CPU per action (ms) and its CPU use. Read
``bench/load.py``'s ms per action beside it, in the same run: the ratio is what cardtable's
own work costs above the floor.

``--outboxes`` sends as cardtable's connections do (``server/web/socket.py``): each socket's
messages go into a bounded queue that a writer task of its own drains, and the reader gives
the event loop a turn after each message it handles. The difference to the direct floor is
what that design costs an action.

``--ack-in-state`` (with ``--outboxes``) sends no acknowledgement of its own: the actor's
state carries it (``"ack": id``, first), four frames an action instead of five. With
``--size`` small (a state carrying only what changed), the two measure at the floor what a
protocol of folded acknowledgements and delta states could save (docs/performance.md).
"""

import argparse
import asyncio
import importlib.util
import json
import os
import random
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

SEATS = 4
DRAIN = 3.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def cpu_seconds(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


# -- the server: nothing but the sockets ------------------------------------------------------
def make_app(size: int, sends: str):
    # (FastAPI reads the route's annotation: WebSocket must be a real class here, so this
    # module does without ``from __future__ import annotations``)
    import orjson
    from fastapi import FastAPI, WebSocket, WebSocketDisconnect

    app = FastAPI()
    tables: dict[str, set[WebSocket]] = {}
    queues: dict[str, dict[WebSocket, asyncio.Queue[dict[str, Any]]]] = {}
    payload: dict[str, Any] = {
        "type": "state",
        "view": {"pad": "x" * max(0, size - 40)},
        "version": 0,
    }

    async def write(ws: WebSocket, outbox: asyncio.Queue[dict[str, Any]]) -> None:
        while True:
            await ws.send_text(orjson.dumps(await outbox.get()).decode())

    @app.websocket("/ws/{table}")
    async def play(ws: WebSocket, table: str) -> None:
        await ws.accept()
        sockets = tables.setdefault(table, set())
        sockets.add(ws)
        outbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue(64)
        queues.setdefault(table, {})[ws] = outbox
        outboxes, ack_in_state = sends != "direct", sends == "ack-in-state"
        writer = asyncio.create_task(write(ws, outbox)) if outboxes else None
        try:
            while True:
                message = orjson.loads(await ws.receive_text())
                ack = {"type": "ack", "id": message["id"]}
                payload["version"] += 1
                if outboxes:  # each its own message, as each connection gets its own state
                    if not ack_in_state:
                        outbox.put_nowait(ack)
                    for other, box in list(queues[table].items()):
                        mine = ack_in_state and other is ws
                        box.put_nowait({"ack": message["id"], **payload} if mine else dict(payload))
                    await asyncio.sleep(0)
                    continue
                await ws.send_text(orjson.dumps(ack).decode())
                for other in list(sockets):  # a state per connection, each encoded
                    await other.send_text(orjson.dumps(payload).decode())
        except WebSocketDisconnect:
            pass
        finally:
            sockets.discard(ws)
            queues[table].pop(ws, None)
            if writer is not None:
                writer.cancel()

    return app


def serve(port: int, ws: str, size: int, sends: str) -> None:
    import uvicorn

    uvicorn.run(
        make_app(size, sends),
        host="127.0.0.1",
        port=port,
        ws=ws,
        log_level="warning",
        ws_per_message_deflate=False,
        lifespan="off",
    )


# -- the clients ------------------------------------------------------------------------------
async def client(
    url: str, period: float, start: float, stop: float, counts: dict, sem: asyncio.Semaphore
) -> None:
    import websockets

    rng = random.Random(url)
    async with sem:  # not every handshake at once
        ws = await websockets.connect(url, max_size=2**20, ping_interval=None, open_timeout=120)
    async with ws:
        n = 0
        next_act = start + rng.uniform(0, period)
        while True:
            now = time.time()
            if now >= stop + DRAIN:
                return
            wait = (next_act if now < stop else stop + DRAIN) - now
            try:
                raw = await asyncio.wait_for(ws.recv(), max(0.001, wait))
                counts["received"] += 1
                if '"ack"' in raw[:20]:
                    counts["acks"] += 1
                continue
            except TimeoutError:
                pass
            if time.time() < stop:
                n += 1
                await ws.send(json.dumps({"type": "act", "action": "signal up1 small", "id": n}))
                next_act = time.time() + period * rng.uniform(0.75, 1.25)


async def clients(spec: dict) -> dict:
    counts = {"acks": 0, "received": 0}
    urls = [f"{spec['base']}/ws/t{t}" for t in spec["tables"] for _ in range(SEATS)]
    sem = asyncio.Semaphore(50)
    await asyncio.gather(
        *(client(u, spec["period"], spec["start"], spec["stop"], counts, sem) for u in urls)
    )
    return counts


def run_one(
    ws: str, tables: int, seconds: float, period: float, size: int, procs: int, sends: str
) -> dict:
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, __file__, "--serve", str(port), ws, str(size), sends],
    )
    try:
        for _ in range(200):
            try:
                socket.create_connection(("127.0.0.1", port), 0.1).close()
                break
            except OSError:
                time.sleep(0.05)
        warm = 8.0 + tables / 100  # every client connected before the measured window
        start = time.time() + warm
        stop = start + seconds
        with tempfile.TemporaryDirectory() as tmp:
            jobs = []
            for k in range(procs):
                spec = {
                    "base": f"ws://127.0.0.1:{port}",
                    "tables": list(range(k, tables, procs)),
                    "period": period,
                    "start": start,
                    "stop": stop,
                }
                path = Path(tmp) / f"spec{k}.json"
                path.write_text(json.dumps(spec))
                out = Path(tmp) / f"out{k}.json"
                jobs.append(
                    (
                        subprocess.Popen(
                            [sys.executable, __file__, "--client", str(path), str(out)]
                        ),
                        out,
                    )
                )
            time.sleep(max(0.0, start - time.time()))
            cpu0, load0 = cpu_seconds(server.pid), os.getloadavg()[0]
            time.sleep(seconds)
            cpu = cpu_seconds(server.pid) - cpu0
            load1 = os.getloadavg()[0]
            acks = 0
            for job, out in jobs:
                job.wait(timeout=seconds + 120)
                acks += json.loads(out.read_text())["acks"]
    finally:
        server.terminate()
        server.wait(10)
    return {
        "ws": ws,
        "sends": sends,
        "tables": tables,
        "actions_per_s": acks / seconds,
        "ms_per_action": 1000 * cpu / max(acks, 1),
        "server_cpu": cpu / seconds,
        "load": (load0, load1),
    }


def main() -> None:
    if len(sys.argv) == 6 and sys.argv[1] == "--serve":
        serve(int(sys.argv[2]), sys.argv[3], int(sys.argv[4]), sys.argv[5])
        return
    if len(sys.argv) == 4 and sys.argv[1] == "--client":
        spec = json.loads(Path(sys.argv[2]).read_text())
        Path(sys.argv[3]).write_text(json.dumps(asyncio.run(clients(spec))))
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=500)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--period", type=float, default=2.0)
    parser.add_argument("--size", type=int, default=2700, help="bytes of each state message")
    parser.add_argument("--client-procs", type=int, default=2)
    parser.add_argument("--ws", action="append", default=None, help="uvicorn's --ws (repeatable)")
    parser.add_argument(
        "--outboxes",
        action="store_true",
        help="each socket's messages through its own queue and writer task, as cardtable's",
    )
    parser.add_argument(
        "--ack-in-state",
        action="store_true",
        help="with --outboxes: the actor's state carries the acknowledgement (no frame of its own)",
    )
    args = parser.parse_args()
    sends = "direct" if not args.outboxes else "ack-in-state" if args.ack_in_state else "outboxes"

    print(
        f"{'ws':<18} {'sends':<12} {'tables':>6} {'acts/s':>7} {'ms/act':>7} {'server':>7} "
        f"{'load':>10}"
    )
    for ws in args.ws or ["websockets-sansio", "websockets", "wsproto"]:
        if ws == "wsproto" and importlib.util.find_spec("wsproto") is None:
            print(f"{ws:<18} not installed here (pip install wsproto to compare it)")
            continue
        r = run_one(ws, args.tables, args.seconds, args.period, args.size, args.client_procs, sends)
        print(
            f"{r['ws']:<18} {r['sends']:<12} {r['tables']:>6} {r['actions_per_s']:>7.0f} "
            f"{r['ms_per_action']:>7.3f} {r['server_cpu']:>6.0%} "
            f"{r['load'][0]:>4.1f}-{r['load'][1]:<4.1f}",
            flush=True,
        )


if __name__ == "__main__":
    main()
