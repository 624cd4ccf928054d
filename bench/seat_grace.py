"""A page reload against a creator who wants the seat: does the returning player keep it?

Bob creates a Slide table, Ann takes the other seat and connects. Ann's socket closes (a page
reload) and she reconnects ``--reload-ms`` later; meanwhile Bob asks every millisecond or so
to hand her seat to the greedy bot. Prints, per run, how long after the close Bob's first
success came (or the refusal he kept getting) and which seat Ann's new socket got.

    PYTHONPATH=src python bench/seat_grace.py                       # this tree
    git worktree add /tmp/base fcb0323                               # the starting commit
    PYTHONPATH=/tmp/base/src python bench/seat_grace.py --runs 5    # ... for "before"
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
import time
from pathlib import Path

import httpx
import websockets

sys.path.insert(0, str(Path(__file__).resolve().parent))
from chaos import ServerProcess  # noqa: E402


async def one_run(base: str, port: int, reload_ms: float) -> tuple[str, str]:
    bob = httpx.AsyncClient(base_url=base, timeout=10)
    ann = httpx.AsyncClient(base_url=base, timeout=10)
    await bob.post("/api/me", json={"name": "Bob"})
    await ann.post("/api/me", json={"name": "Ann"})
    table = (await bob.post("/api/tables", json={"game": "slide", "seats": ["me", "open"]})).json()
    await ann.post(f"/api/tables/{table['id']}/join", json={})
    url = f"ws://127.0.0.1:{port}/ws/tables/{table['id']}?token={ann.cookies['cardtable_token']}"
    ws = await websockets.connect(url)
    await ws.recv()
    closed = time.monotonic()
    await ws.close()
    outcome = "never"
    back_at = closed + reload_ms / 1000
    while time.monotonic() < back_at:
        answer = await bob.post(f"/api/tables/{table['id']}/seats/1/bot", json={"bot": "greedy"})
        if answer.status_code == 200:
            outcome = f"handed after {(time.monotonic() - closed) * 1000:.0f} ms"
            break
        outcome = f"refused: {answer.json()['error']}"
        await asyncio.sleep(0.001)
    await asyncio.sleep(max(0.0, back_at - time.monotonic()))
    ws = await websockets.connect(url)
    seat = json.loads(await ws.recv())["seat"]
    await ws.close()
    await bob.aclose()
    await ann.aclose()
    return outcome, "her seat" if seat == 1 else "spectator"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument(
        "--reload-ms",
        type=float,
        default=300,
        help="milliseconds between the close and the reconnect",
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        server = ServerProcess(Path(tmp))
        server.start()
        try:
            print(f"reload of {args.reload_ms:.0f} ms | creator's hand-to-bot | Ann back as")
            print("---|---|---")
            for n in range(args.runs):
                outcome, back = asyncio.run(one_run(server.base, server.port, args.reload_ms))
                print(f"run {n + 1} | {outcome} | {back}")
        finally:
            server.kill()


if __name__ == "__main__":
    main()
