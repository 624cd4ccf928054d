"""One hostile websocket client against a second client's action latency.

    python bench/hostile_ws.py [--actions 80] [--spectators 800] [--only ping,bad]

One ``cardtable serve`` process. A second client ("the victim") plays Doublets alone, about
12 actions a second, and times each action from sending it to its ``ack``. Meanwhile an
attacker, in a process of its own (so that its client work does not slow the victim's
event loop), does one of:

- ``quiet``: nothing (the baseline);
- ``spectators``: ``--spectators`` sockets connect to one table (each reading what it is
  sent) and leave, over and over;
- ``ping``: one seated socket sends pings as fast as it can (and reads the answers);
- ``bad``: the same with messages that are not JSON;
- ``4 sockets``: one seat of The Game with 4 sockets, each sending pile signals (legal at any
  time) as fast as it can.

A socket the server drops is opened again. Printed: the victim's p50, p99 and max latency,
and for the attacker the messages it sent, the messages it received (states among them), the
actions the server stored for it, and the drops. Run it with ``PYTHONPATH=.../src`` of the
code to measure (the server inherits it).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import importlib.util
import json
import multiprocessing
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import httpx
import websockets

HERE = Path(__file__).resolve().parent
ATTACKS = ["quiet", "spectators", "ping", "bad", "4 sockets"]
WINDOW = 16  # messages a flooding socket keeps unanswered


def load_chaos():
    spec = importlib.util.spec_from_file_location("chaos", HERE / "chaos.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["chaos"] = module  # (its dataclasses look their module up)
    spec.loader.exec_module(module)
    return module


def new_person(base: str, name: str) -> httpx.Client:
    client = httpx.Client(base_url=base, timeout=10)
    client.post("/api/me", json={"name": name}).raise_for_status()
    return client


# -- the attacker (its own process) ---------------------------------------------------------
class Tally:
    def __init__(self) -> None:
        self.sent = 0
        self.received: Counter = Counter()
        self.drops = 0


async def read_all(
    ws, tally: Tally, answered: asyncio.Event | None = None, answers: list[int] | None = None
) -> None:
    with contextlib.suppress(websockets.ConnectionClosed):
        async for raw in ws:
            message = json.loads(raw)
            kind = message["type"]
            tally.received[kind if kind != "error" else message["code"]] += 1
            if answered is not None and kind in ("pong", "ack", "error"):
                assert answers is not None  # given with answered
                answers[0] += 1
                answered.set()


async def flood(url: str, messages, tally: Tally, stop) -> None:
    """Send ``next(messages)`` as fast as the server answers, keeping ``WINDOW`` unanswered
    (a flood in one burst is merely dropped by the old server, at 33 messages); reconnect
    when dropped."""
    while not stop.is_set():
        try:
            async with websockets.connect(url, max_queue=None) as ws:
                answered = asyncio.Event()
                answers, sent = [0], 0
                reader = asyncio.create_task(read_all(ws, tally, answered, answers))
                while not stop.is_set():
                    while sent - answers[0] >= WINDOW and not reader.done():
                        answered.clear()
                        with contextlib.suppress(TimeoutError):
                            await asyncio.wait_for(answered.wait(), 0.5)
                        if stop.is_set():
                            break
                    if reader.done():
                        raise websockets.ConnectionClosedError(None, None)
                    await ws.send(next(messages))
                    sent += 1
                    tally.sent += 1
                reader.cancel()
        except (websockets.ConnectionClosed, OSError):
            if not stop.is_set():  # (closing at the end may time out behind the flood)
                tally.drops += 1
            await asyncio.sleep(0.05)


async def spectate(url: str, crowd: int, tally: Tally, stop) -> None:
    while not stop.is_set():
        sockets, readers = [], []
        for start in range(0, crowd, 50):
            batch = await asyncio.gather(
                *(websockets.connect(url) for _ in range(min(50, crowd - start))),
                return_exceptions=True,
            )
            for ws in batch:
                if isinstance(ws, BaseException):
                    tally.drops += 1
                    continue
                tally.sent += 1  # a connection made
                sockets.append(ws)
                readers.append(asyncio.create_task(read_all(ws, tally)))
            if stop.is_set():
                break
        await asyncio.sleep(0.5)
        await asyncio.gather(*(ws.close() for ws in sockets), return_exceptions=True)
        for r in readers:
            r.cancel()


def signals(pile: str):
    n = 0
    while True:
        n += 1
        yield json.dumps(
            {
                "type": "act",
                "action": f"signal {pile} {'avoid' if n % 2 else 'small'}",
                "id": f"{pile}-{n}",
            }
        )


def forever(text: str):
    while True:
        yield text


async def attack_main(
    kind: str, port: int, table_id: str, token: str, crowd: int, stop, ready, out
) -> None:
    url = f"ws://127.0.0.1:{port}/ws/tables/{table_id}"
    seated = f"{url}?token={token}"
    tally = Tally()
    flag = asyncio.Event()

    async def watch_stop() -> None:
        while not stop.is_set():
            await asyncio.sleep(0.05)
        flag.set()

    watcher = asyncio.create_task(watch_stop())
    ready.set()
    began = time.monotonic()
    if kind == "spectators":
        await spectate(url, crowd, tally, flag)
    elif kind == "ping":
        await flood(
            seated, (json.dumps({"type": "ping", "id": str(n)}) for n in range(10**12)), tally, flag
        )
    elif kind == "bad":
        await flood(seated, forever("not json"), tally, flag)
    elif kind == "4 sockets":
        await asyncio.gather(
            *(flood(seated, signals(p), tally, flag) for p in ["up1", "up2", "down1", "down2"])
        )
    else:
        await flag.wait()
    watcher.cancel()
    out.put(
        {
            "sent": tally.sent,
            "received": dict(tally.received),
            "drops": tally.drops,
            "seconds": time.monotonic() - began,
        }
    )


def attacker(*args) -> None:
    asyncio.run(attack_main(*args))


# -- the victim -----------------------------------------------------------------------------
async def victim(port: int, person: httpx.Client, actions: int) -> list[float]:
    """Seconds from sending an action to its ack, over ``actions`` Doublets actions."""
    from cardtable.bots import make_bot

    token = person.cookies["cardtable_token"]
    out: list[float] = []
    bot = make_bot("greedy", "doublets")
    while len(out) < actions:
        table = person.post("/api/tables", json={"game": "doublets", "seats": ["me"]}).json()
        url = f"ws://127.0.0.1:{port}/ws/tables/{table['id']}?token={token}"
        async with websockets.connect(url, max_queue=None) as ws:
            state, want = None, 0
            while len(out) < actions:
                while state is None or state["version"] < want:  # the state after the ack
                    message = json.loads(await asyncio.wait_for(ws.recv(), 30))
                    if message["type"] == "state":
                        state = message
                if state["table"]["status"] == "over" or not state["legal"]:
                    break
                action = bot.choose(state["view"], state["legal"])
                cid = f"v{len(out)}"
                start = time.perf_counter()
                await ws.send(
                    json.dumps(
                        {"type": "act", "action": action, "version": state["version"], "id": cid}
                    )
                )
                while True:
                    message = json.loads(await asyncio.wait_for(ws.recv(), 30))
                    if message["type"] == "state":
                        state = message
                    elif message["type"] in ("ack", "error") and message["id"] == cid:
                        break
                if message["type"] == "ack":
                    out.append(time.perf_counter() - start)
                    want = message["version"]
                await asyncio.sleep(0.08)
    return out


def percentile(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--actions", type=int, default=80)
    parser.add_argument("--spectators", type=int, default=800)
    parser.add_argument("--only", default=",".join(ATTACKS))
    args = parser.parse_args()
    chaos = load_chaos()
    ctx = multiprocessing.get_context("spawn")
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        server = chaos.ServerProcess(Path(tmp), bot_delay=0.5)
        server.start()
        try:
            vic, att = new_person(server.base, "Vic"), new_person(server.base, "Mal")
            token = att.cookies["cardtable_token"]
            asyncio.run(victim(server.port, vic, 20))  # warm-up
            for kind in args.only.split(","):
                seats = ["me", "greedy"] if kind == "4 sockets" else ["me", "open"]
                game = "the-game" if kind == "4 sockets" else "slide"
                table = att.post("/api/tables", json={"game": game, "seats": seats}).json()
                stop, ready, out = ctx.Event(), ctx.Event(), ctx.Queue()
                proc = ctx.Process(
                    target=attacker,
                    args=(kind, server.port, table["id"], token, args.spectators, stop, ready, out),
                )
                proc.start()
                ready.wait(30)
                time.sleep(2.0)  # the attack under way
                lat = asyncio.run(victim(server.port, vic, args.actions))
                stop.set()
                tally = out.get(timeout=60)
                proc.join(30)
                acks = tally["received"].get("ack", 0)
                stored = f"{acks / tally['seconds']:.0f}/s" if kind == "4 sockets" else ""
                rows.append((kind, lat, tally, stored))
                print(f"{kind}: done", file=sys.stderr)
        finally:
            server.kill()
    print(
        "| attack | victim p50 ms | p99 ms | max ms | attacker sent | attacker received "
        "(states) | actions stored | drops |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for kind, lat, tally, stored in rows:
        received = sum(tally["received"].values())
        states = tally["received"].get("state", 0)
        print(
            f"| {kind} | {1000 * statistics.median(lat):.1f} | {1000 * percentile(lat, 0.99):.1f}"
            f" | {1000 * max(lat):.1f} | {tally['sent']:,} | {received:,} ({states:,}) | "
            f"{stored} | {tally['drops']} |"
        )


if __name__ == "__main__":
    main()
