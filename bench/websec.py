"""The web attacks of issue #9, made against a real ``cardtable serve`` as a page on another port
of the same host would make them (the victim's cookie, the page's ``Origin``); prints what the
server answered.

    PYTHONPATH=src python bench/websec.py             # this checkout
    git worktree add /tmp/base fcb0323                # the code before issue #9
    PYTHONPATH=/tmp/base/src python bench/websec.py   # ... for "before"
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import stat
import statistics
import sys
import tempfile
import time
from pathlib import Path

import httpx
import websockets
from websockets.typing import Origin

sys.path.insert(0, str(Path(__file__).parent))
from chaos import ServerProcess  # noqa: E402


async def first_state(ws) -> dict:
    while True:
        message = json.loads(await asyncio.wait_for(ws.recv(), 10))
        if message["type"] == "state":
            return message


async def socket_attack(srv: ServerProcess, token: str, evil: str) -> tuple[str, str]:
    """Open the victim's table socket from the evil page: what is read, and a signal sent."""
    http = httpx.Client(base_url=srv.base, cookies={"cardtable_token": token}, timeout=10)
    table = http.post("/api/tables", json={"game": "the-game", "seats": ["me", "greedy"]}).json()
    url = f"ws://127.0.0.1:{srv.port}/ws/tables/{table['id']}"
    try:
        ws = await websockets.connect(
            url, origin=Origin(evil), additional_headers={"cookie": f"cardtable_token={token}"}
        )
    except websockets.exceptions.InvalidStatus as e:
        code = json.loads(e.response.body or b"{}").get("error")
        return (f"refused: HTTP {e.response.status_code} {code}",) * 2
    try:
        state = await first_state(ws)
        hand = f"read: seat {state['seat']}, hand {state['view']['hand']}"
        await ws.send(
            json.dumps(
                {
                    "type": "act",
                    "action": "signal up1 good",
                    "id": "evil",
                    "version": state["version"],
                }
            )
        )
        while True:
            answer = json.loads(await asyncio.wait_for(ws.recv(), 10))
            if answer.get("id") == "evil":
                return hand, f"{answer['type']} {answer.get('action') or answer.get('code')}"
    finally:
        await ws.close()


async def solitaire_move(srv: ServerProcess, token: str) -> str:
    http = httpx.Client(base_url=srv.base, cookies={"cardtable_token": token}, timeout=10)
    table = http.post("/api/tables", json={"game": "doublets", "seats": ["me"]}).json()
    url = f"ws://127.0.0.1:{srv.port}/ws/tables/{table['id']}?token={token}"
    async with websockets.connect(url) as ws:
        state = await first_state(ws)
        await ws.send(
            json.dumps(
                {
                    "type": "act",
                    "action": state["legal"][-1],
                    "version": state["version"],
                    "id": "m",
                }
            )
        )
        while json.loads(await asyncio.wait_for(ws.recv(), 10)).get("id") != "m":
            pass
    return table["id"]


def post_answer(got: httpx.Response, srv: ServerProcess, table_id: str, token: str) -> str:
    info = httpx.get(f"{srv.base}/api/tables/{table_id}", cookies={"cardtable_token": token}).json()
    undone = "move undone" if info["can_redo"] else "move kept"
    try:
        code = got.json().get("error") or "ok"
    except ValueError:
        code = "?"
    return f"HTTP {got.status_code} {code}: {undone}"


def latency(srv: ServerProcess, path: str, n: int) -> str:
    with httpx.Client(base_url=srv.base, timeout=10) as http:
        times = []
        for _ in range(n):
            start = time.perf_counter()
            http.get(path).raise_for_status()
            times.append((time.perf_counter() - start) * 1000)
    times.sort()
    return f"median {statistics.median(times):.2f} ms, p99 {times[int(n * 0.99) - 1]:.2f} ms"


async def run(requests: int) -> list[tuple[str, str]]:
    rows: list[tuple[str, str]] = []
    old_umask = os.umask(0o022)
    with tempfile.TemporaryDirectory() as tmp:
        srv = ServerProcess(Path(tmp))
        srv.start()
        try:
            evil = f"http://127.0.0.1:{srv.port + 1}"
            me = httpx.post(srv.base + "/api/me", json={"name": "Ann"})
            token = me.cookies["cardtable_token"]
            read, signal = await socket_attack(srv, token, evil)
            rows += [
                ("socket from another port: the hand", read),
                ("socket from another port: a signal", signal),
            ]
            solo = await solitaire_move(srv, token)
            got = httpx.post(
                f"{srv.base}/api/tables/{solo}/undo",
                headers={"origin": evil, "cookie": f"cardtable_token={token}"},
            )
            rows.append(
                ("POST undo from another port (no body)", post_answer(got, srv, solo, token))
            )
            solo = await solitaire_move(srv, token)
            got = httpx.post(
                f"{srv.base}/api/tables/{solo}/undo",
                content=b"x=1",
                headers={
                    "content-type": "application/x-www-form-urlencoded",
                    "cookie": f"cardtable_token={token}",
                },
            )
            rows.append(("form POST undo, no Origin", post_answer(got, srv, solo, token)))
            page = httpx.get(srv.base + "/")
            wanted = (
                "content-security-policy",
                "x-content-type-options",
                "x-frame-options",
                "referrer-policy",
            )
            rows.append(
                ("headers on /", ", ".join(h for h in wanted if h in page.headers) or "none")
            )
            proxied = httpx.post(
                srv.base + "/api/me", json={"name": "Bob"}, headers={"x-forwarded-proto": "https"}
            )
            rows.append(
                (
                    "cookie behind a TLS proxy",
                    "Secure" if "secure" in proxied.headers["set-cookie"].lower() else "not Secure",
                )
            )
            files = sorted(Path(tmp).glob("cardtable.sqlite*"))
            rows.append(
                (
                    "SQLite files",
                    ", ".join(f"{f.name} {stat.S_IMODE(f.stat().st_mode):o}" for f in files),
                )
            )
            rows.append(
                (
                    f"GET /api/tables/{{id}} x{requests}",
                    latency(srv, f"/api/tables/{solo}", requests),
                )
            )
        finally:
            srv.kill()
            os.umask(old_umask)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--requests",
        type=int,
        default=1000,
        help="GETs timed, for the cost of the checks and headers",
    )
    args = parser.parse_args()
    rows = asyncio.run(run(args.requests))
    width = max(len(a) for a, _ in rows)
    print(f"| {'attack or check':{width}} | answer |")
    print(f"|{'-' * (width + 2)}|--------|")
    for what, answer in rows:
        print(f"| {what:{width}} | {answer} |")


if __name__ == "__main__":
    main()
