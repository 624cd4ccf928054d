"""Failover of a table's holder: games on three server processes, the holder killed mid-game.

    python bench/failover.py --rounds 10 --tables 10 [--db postgresql://...]

Starts a ``redis-server`` and three ``cardtable serve --bus`` processes on one database (a
fresh PostgreSQL database when ``--db`` names a server, else one SQLite file). Each round
creates ``--tables`` tables at one process (a person and the expert bot at The Game), each
person connected through another process, plays a few moves, then kills the holder with
SIGKILL. Each client reconnects (round robin over the processes that are up) and plays to the
end. Reported per game: the time from the kill until its first state after reconnecting
(the takeover), whether every acknowledged action is in the record (lost) and whether the
record replays to the end through the engine (nothing applied twice). The killed process is
started again before the next round.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import secrets
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import websockets

from cardtable import games
from cardtable.bots import make_bot

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the benches' shared modules
from cluster import Cluster, ServerProcess  # noqa: E402


async def recv_state(ws: Any, timeout: float) -> dict:
    while True:
        message = json.loads(await asyncio.wait_for(ws.recv(), timeout))
        if message["type"] == "state":
            return message


async def play_game(
    procs: list[ServerProcess],
    holder: int,
    token: str,
    table_id: str,
    killed: asyncio.Event,
    moves_before: int,
    ready: asyncio.Event,
) -> dict[str, Any]:
    """One person's game: through another process than the holder, reconnecting after the
    kill; returns the takeover time, the acknowledged actions and the reconnects."""
    bot = make_bot("greedy", "the-game")
    acked: list[str] = []
    kill_time: float | None = None
    back_after: float | None = None
    reconnects = 0
    i = holder + 1
    n = 0
    while True:
        proc = procs[i % len(procs)]
        if not proc.up:
            i += 1
            continue
        url = f"ws://127.0.0.1:{proc.port}/ws/tables/{table_id}?token={token}"
        try:
            async with websockets.connect(url) as ws:
                state = await recv_state(ws, 20)
                if killed.is_set() and back_after is None:
                    back_after = time.monotonic() - kill_time  # type: ignore[operator]
                while True:
                    if state["table"]["status"] == "over":
                        ready.set()
                        return {"back": back_after, "acked": acked, "reconnects": reconnects}
                    if state["legal"] and state["seat"] in state["view"]["to_act"]:
                        if len(acked) >= moves_before and not killed.is_set():
                            ready.set()  # this game has played its moves: the kill may come
                            await killed.wait()
                            kill_time = killed.when  # type: ignore[attr-defined]
                        action = bot.choose(state["view"], state["legal"])
                        n += 1
                        cid = f"f-{n}"
                        await ws.send(
                            json.dumps(
                                {
                                    "type": "act",
                                    "action": action,
                                    "version": state["version"],
                                    "id": cid,
                                }
                            )
                        )
                        while True:
                            message = json.loads(await asyncio.wait_for(ws.recv(), 20))
                            if message["type"] == "state":
                                state = message
                            if message.get("id") == cid:
                                break
                        if message["type"] == "ack":
                            acked.append(action)
                        continue
                    state = await recv_state(ws, 30)
        except (websockets.ConnectionClosed, OSError, TimeoutError):
            reconnects += 1
            if killed.is_set() and kill_time is None:
                kill_time = killed.when  # type: ignore[attr-defined]
            i += 1
            await asyncio.sleep(0.05)


def replays(record: dict) -> bool:
    state = games.get(record["game"]).deal(record["seed"], record["players"], record["options"])
    for seat, action in record["actions"]:
        state.act(seat, action)
    return bool(state.result()["over"])


async def round_(procs: list[ServerProcess], holder: int, tables: int) -> list[dict[str, Any]]:
    base = procs[holder].base
    players = []
    for k in range(tables):
        with httpx.Client(base_url=base, timeout=10) as http:
            me = http.post("/api/me", json={"name": f"F{holder}{k}{secrets.token_hex(2)}"})
            token = me.cookies["cardtable_token"]
            table = http.post(
                "/api/tables", json={"game": "the-game", "seats": ["me", "expert"], "options": {}}
            )
            players.append((token, table.json()["id"]))
    killed = asyncio.Event()
    readies = [asyncio.Event() for _ in players]
    tasks = [
        asyncio.create_task(play_game(procs, holder, token, tid, killed, 4, ready))
        for (token, tid), ready in zip(players, readies, strict=True)
    ]
    await asyncio.wait_for(asyncio.gather(*(r.wait() for r in readies)), 60)
    killed.when = time.monotonic()  # type: ignore[attr-defined]
    procs[holder].kill()
    killed.set()
    results = await asyncio.wait_for(asyncio.gather(*tasks), 180)
    survivor = next(p for p in procs if p.up)
    out = []
    for (_token, tid), result in zip(players, results, strict=True):
        record = httpx.get(f"{survivor.base}/api/tables/{tid}/record", timeout=10).json()
        mine = [a for seat, a in record["actions"] if seat == 0]
        lost = sum(1 for a, b in zip(result["acked"], mine, strict=False) if a != b)
        lost += max(0, len(result["acked"]) - len(mine))
        out.append({**result, "lost": lost, "replays": replays(record)})
    await asyncio.to_thread(procs[holder].start)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--tables", type=int, default=10, help="games per round (per kill)")
    parser.add_argument("--db", default=None, help="a PostgreSQL server URL (default SQLite)")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="cardtable-failover-"))
    with Cluster(3, work, args.db, bot_delay=0.05) as cluster:
        procs = cluster.procs
        rows: list[dict[str, Any]] = []
        for r in range(args.rounds):
            rows += asyncio.run(round_(procs, r % 3, args.tables))
            backs = [x["back"] for x in rows if x["back"] is not None]
            print(
                f"round {r + 1}: {len(rows)} games, takeover median "
                f"{statistics.median(backs):.2f} s, max {max(backs):.2f} s",
                flush=True,
            )
    backs = sorted(x["back"] for x in rows if x["back"] is not None)
    print(
        f"\n{len(rows)} games, {args.rounds} kills of the holder ({args.tables} games each), "
        f"database {'PostgreSQL' if args.db else 'SQLite'}"
    )
    print(
        f"{'games':>6} {'finished':>9} {'lost':>5} {'replay':>7} {'back p50':>9} "
        f"{'p90':>6} {'max':>6} {'reconnects':>11}"
    )
    p90 = backs[int(0.9 * (len(backs) - 1))]
    print(
        f"{len(rows):>6} {len(rows):>9} {sum(x['lost'] for x in rows):>5} "
        f"{sum(x['replays'] for x in rows):>7} {statistics.median(backs):>8.2f}s "
        f"{p90:>5.2f}s {backs[-1]:>5.2f}s {sum(x['reconnects'] for x in rows):>11}"
    )
    print(
        "back: from the SIGKILL to the game's first state after reconnecting; lost: "
        "acknowledged actions missing from the record; replay: records that replay to "
        "the end through the engine"
    )


if __name__ == "__main__":
    main()
