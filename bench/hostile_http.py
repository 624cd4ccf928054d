"""What one hostile HTTP client costs another client: websocket action latency under attack.

A victim plays a Doublets solitaire over its websocket (about 15 actions a second) and times
each action (sent until acknowledged), first on a quiet server and then while an attacker:

- ``hint``: hammers ``GET /api/tables/{id}/hint`` from 6 players at once, each at the slowest
  position found (deal 32 after 34 moves: about 0.8 s of the fair bot's search);
- ``slow``: keeps ``--slow-conns`` connections open that send half a request's headers and
  then nothing (reopening each one the server closes), while a new client tries a request
  every 0.5 s (``new ok`` counts those answered within 3 s);
- ``body``: sends ``POST /api/me`` with a body of ``--body-mb`` MB, again and again
  (``rss+`` is the server's peak resident memory over its memory before the attack);
- ``names``: makes new players (and a solitaire for each) as fast as 4 clients can;
- ``codes``: 4 clients guess recovery codes as fast as they can, asking whose each is
  (``POST /api/me/recover/whose``, #23) and using it (``POST /api/me/recover``) in turn.

    python bench/hostile_http.py              # this checkout's server
    git worktree add /tmp/base fcb0323   # the code before issue #9
    python bench/hostile_http.py --base /tmp/base/src
    python bench/hostile_http.py --port 8000  # a server already running

The server is started on a fresh SQLite database with a soft limit of ``--files`` open files
(1,024: common), as on a machine where nobody raised it; prints one table.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import secrets
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
import websockets

ROOT = Path(__file__).resolve().parents[1]
SLOW_DEAL, SLOW_STEP = 32, 34  # a position where the fair bot's hint takes ~0.8 s
ATTACKS = ("quiet", "hint", "slow", "body", "names", "codes")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(src: Path, port: int, data: Path, files: int) -> subprocess.Popen:
    def limit_files() -> None:
        hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(files, hard), hard))

    env = dict(os.environ, PYTHONPATH=str(src), CARDTABLE_DATA=str(data))
    log = open(data / "server.log", "wb")  # noqa: SIM115 - the server's for its lifetime
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "cardtable",
            "serve",
            "--port",
            str(port),
            "--db",
            f"sqlite:///{data / 'bench.sqlite'}",
            "--bot-delay",
            "0.05",
        ],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=log,
        preexec_fn=limit_files,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/games", timeout=1).status_code == 200:
                return proc
        except httpx.HTTPError:
            time.sleep(0.1)
    proc.kill()
    raise RuntimeError("the server did not start: " + (data / "server.log").read_text()[-2000:])


def rss_kb(pid: int, field: str = "VmRSS") -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    return 0


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, round(q * (len(values) - 1)))]


class Person:
    """A player over HTTP with its token, and its websocket to one table."""

    def __init__(self, base: str, token: str) -> None:
        self.base, self.token = base, token
        self.http = httpx.AsyncClient(
            base_url=base, timeout=30, headers={"x-cardtable-token": token}
        )
        self.ws: websockets.ClientConnection | None = None
        self.state: dict | None = None
        self.n = 0

    @classmethod
    async def new(cls, base: str, name: str) -> Person:
        async with httpx.AsyncClient(base_url=base, timeout=30) as http:
            answer = await http.post("/api/me", json={"name": name})
            answer.raise_for_status()
            return cls(base, answer.cookies["cardtable_token"])

    async def solitaire(self, seed: int | None = None) -> str:
        body = {"game": "doublets", "seats": ["me"], **({"seed": seed} if seed else {})}
        answer = await self.http.post("/api/tables", json=body)
        answer.raise_for_status()
        table_id = answer.json()["id"]
        if self.ws is not None:
            await self.ws.close()
        url = self.base.replace("http", "ws") + f"/ws/tables/{table_id}?token={self.token}"
        self.ws = await websockets.connect(url, max_size=None)
        self.state = None
        await self.until(lambda s: True)
        return table_id

    async def until(self, check) -> dict:
        while self.state is None or not check(self.state):
            assert self.ws is not None  # solitaire connected it
            message = json.loads(await self.ws.recv())
            if message["type"] == "state":
                self.state = message
        return self.state

    async def act(self, action: str) -> tuple[dict, float]:
        """Send an action; the answer (ack or error) and the seconds it took."""
        assert self.ws is not None and self.state is not None  # at a table (solitaire)
        self.n += 1
        cid = f"b{self.n}"
        sent = time.perf_counter()
        await self.ws.send(
            json.dumps(
                {"type": "act", "action": action, "id": cid, "version": self.state["version"]}
            )
        )
        while True:
            message = json.loads(await self.ws.recv())
            if message["type"] == "state":
                self.state = message
            elif message.get("id") == cid:
                took = time.perf_counter() - sent
                if message["type"] == "ack":
                    version = message["version"]
                    await self.until(lambda s, v=version: s["version"] >= v)
                return message, took

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
        await self.http.aclose()


def slow_line() -> list[str]:
    """The actions of the slow-hint deal up to the slow position (the fair bot's choices)."""
    sys.path.insert(0, str(ROOT / "src"))
    from cardtable import games
    from cardtable.bots.doublets.fair import FairBot

    state, bot, actions = games.get("doublets").deal(SLOW_DEAL), FairBot("doublets"), []
    for _ in range(SLOW_STEP):
        action, _reason = bot.hint(state.view(0), state.legal(0))
        state.act(0, action)
        actions.append(action)
    return actions


async def victim_loop(
    victim: Person, stop: asyncio.Event, out: list[float], errors: list[str]
) -> None:
    while not stop.is_set():
        tick = time.perf_counter()
        assert victim.state is not None  # at a table (solitaire)
        legal = victim.state["legal"]
        if not legal:  # the game is over: another
            await victim.solitaire()
            continue
        action = next((a for a in ("flip", "redeal") if a in legal), legal[0])
        try:
            answer, took = await asyncio.wait_for(victim.act(action), 30)
        except TimeoutError:
            errors.append("timeout")
            continue
        if answer["type"] == "ack":
            out.append(took)
        else:
            errors.append(answer.get("code", "?"))
        await asyncio.sleep(max(0.0, 0.065 - (time.perf_counter() - tick)))


async def hint_flood(
    base: str, attackers: list[tuple[Person, str]], stop: asyncio.Event, tally: dict
) -> None:
    async def one(person: Person, table_id: str) -> None:
        while not stop.is_set():
            try:
                answer = await person.http.get(f"/api/tables/{table_id}/hint")
                key = str(answer.status_code)
            except httpx.HTTPError as e:
                key = type(e).__name__
            tally[key] = tally.get(key, 0) + 1
            if key == "429":  # a client that reads retry_after: it asks again at once anyway
                await asyncio.sleep(0)

    await asyncio.gather(*(one(p, t) for p, t in attackers))


async def slow_headers(port: int, conns: int, stop: asyncio.Event, tally: dict) -> None:
    async def one() -> None:
        while not stop.is_set():
            try:
                reader, writer = await asyncio.open_connection("127.0.0.1", port)
                writer.write(b"GET /api/games HTTP/1.1\r\nHost: x\r\nX-Slow: ")
                await writer.drain()
            except OSError:
                tally["open failed"] = tally.get("open failed", 0) + 1
                await asyncio.sleep(0.2)
                continue
            tally["opened"] = tally.get("opened", 0) + 1
            reading = asyncio.ensure_future(reader.read(4096))
            waiting = asyncio.ensure_future(stop.wait())
            await asyncio.wait([reading, waiting], return_when=asyncio.FIRST_COMPLETED)
            waiting.cancel()
            if reading.done():
                tally["closed by server"] = tally.get("closed by server", 0) + 1
            reading.cancel()
            writer.close()

    await asyncio.gather(*(one() for _ in range(conns)))


async def big_bodies(base: str, megabytes: int, stop: asyncio.Event, tally: dict) -> None:
    chunk = b"a" * 65536
    size = megabytes * 1024 * 1024

    async def body():
        yield b'{"name": "'
        for _ in range(size // len(chunk)):
            yield chunk
        yield b'"}'

    async with httpx.AsyncClient(base_url=base, timeout=120) as http:
        while not stop.is_set():
            try:
                answer = await http.post(
                    "/api/me",
                    content=body(),
                    headers={
                        "content-type": "application/json",
                        "content-length": str(size + len(b'{"name": ""}')),
                    },
                )
                key = str(answer.status_code)
            except httpx.HTTPError as e:
                key = type(e).__name__
                await asyncio.sleep(0.05)
            tally[key] = tally.get(key, 0) + 1


async def name_flood(base: str, stop: asyncio.Event, tally: dict) -> None:
    async def one(k: int) -> None:
        async with httpx.AsyncClient(base_url=base, timeout=30) as http:
            n = 0
            while not stop.is_set():
                n += 1
                http.cookies.clear()
                answer = await http.post("/api/me", json={"name": f"flood {k}-{n}"})
                if answer.status_code != 200:
                    tally[str(answer.status_code)] = tally.get(str(answer.status_code), 0) + 1
                    continue
                tally["players"] = tally.get("players", 0) + 1
                made = await http.post("/api/tables", json={"game": "doublets", "seats": ["me"]})
                if made.status_code == 200:
                    tally["tables"] = tally.get("tables", 0) + 1

    await asyncio.gather(*(one(k) for k in range(4)))


async def code_guesses(base: str, stop: asyncio.Event, tally: dict) -> None:
    async def one() -> None:
        async with httpx.AsyncClient(base_url=base, timeout=30) as http:
            while not stop.is_set():
                for path in ("/api/me/recover/whose", "/api/me/recover"):
                    code = "-".join(secrets.token_hex(3)[:5].upper() for _ in range(4))
                    answer = await http.post(path, json={"code": code})
                    tally[str(answer.status_code)] = tally.get(str(answer.status_code), 0) + 1

    await asyncio.gather(*(one() for _ in range(4)))


async def new_clients(base: str, stop: asyncio.Event, tally: dict) -> None:
    while not stop.is_set():
        try:
            async with httpx.AsyncClient(base_url=base, timeout=3) as http:
                ok = (await http.get("/api/games")).status_code == 200
        except httpx.HTTPError:
            ok = False
        tally["ok" if ok else "failed"] = tally.get("ok" if ok else "failed", 0) + 1
        await asyncio.sleep(0.5)


async def run(
    base: str,
    port: int,
    pid: int | None,
    attacks: list[str],
    seconds: float,
    slow_conns: int,
    body_mb: int,
) -> list[dict]:
    victim = await Person.new(base, "Victim")
    attackers = []
    if "hint" in attacks:
        line = slow_line()
        for k in range(6):
            person = await Person.new(base, f"Hinter {k}")
            table_id = await person.solitaire(SLOW_DEAL)
            for action in line:
                answer, _ = await person.act(action)
                if answer["type"] != "ack":
                    break
            attackers.append((person, table_id))
        await attackers[0][0].http.get(f"/api/tables/{attackers[0][1]}/hint")  # warm up
    rows = []
    for attack in attacks:
        await victim.solitaire()
        stop = asyncio.Event()
        latencies: list[float] = []
        errors: list[str] = []
        tally: dict = {}
        probes: dict = {}
        before = rss_kb(pid) if pid else 0
        if pid:  # peak memory from here on
            with open(f"/proc/{pid}/clear_refs", "w") as f:
                f.write("5")
        jobs = [
            asyncio.ensure_future(victim_loop(victim, stop, latencies, errors)),
            asyncio.ensure_future(new_clients(base, stop, probes)),
        ]
        if attack == "hint":
            jobs.append(asyncio.ensure_future(hint_flood(base, attackers, stop, tally)))
        elif attack == "slow":
            jobs.append(asyncio.ensure_future(slow_headers(port, slow_conns, stop, tally)))
        elif attack == "body":
            jobs.append(asyncio.ensure_future(big_bodies(base, body_mb, stop, tally)))
        elif attack == "names":
            jobs.append(asyncio.ensure_future(name_flood(base, stop, tally)))
        elif attack == "codes":
            jobs.append(asyncio.ensure_future(code_guesses(base, stop, tally)))
        await asyncio.sleep(seconds)
        stop.set()
        done, pending = await asyncio.wait(jobs, timeout=15)
        for job in pending:
            job.cancel()
        peak = rss_kb(pid, "VmHWM") if pid else 0
        rows.append(
            {
                "attack": attack,
                "actions": len(latencies),
                "p50": percentile(latencies, 0.5) * 1000,
                "p99": percentile(latencies, 0.99) * 1000,
                "max": max(latencies, default=float("nan")) * 1000,
                "errors": len(errors),
                "new ok": f"{probes.get('ok', 0)}/{probes.get('ok', 0) + probes.get('failed', 0)}",
                "rss+": f"{(peak - before) // 1024} MB" if pid else "-",
                "attacker": ", ".join(f"{k} {v}" for k, v in sorted(tally.items())) or "-",
            }
        )
        if attack == "slow":
            await asyncio.sleep(2)  # let the server close what is left
    await victim.close()
    for person, _ in attackers:
        await person.close()
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--base",
        type=Path,
        metavar="SRC",
        help="run the server from another checkout's src folder (e.g. the "
        "code before issue #9, for 'before' figures)",
    )
    parser.add_argument("--port", type=int, help="a server already running on this port")
    parser.add_argument("--attacks", default=",".join(ATTACKS))
    parser.add_argument("--seconds", type=float, default=8)
    parser.add_argument("--slow-conns", type=int, default=1500)
    parser.add_argument("--body-mb", type=int, default=100)
    parser.add_argument(
        "--files", type=int, default=1024, help="the server's soft limit on open files"
    )
    args = parser.parse_args()
    attacks = [a for a in args.attacks.split(",") if a in ATTACKS]
    hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # the attacker's own sockets
    proc = None
    with tempfile.TemporaryDirectory() as tmp:
        if args.port:
            port = args.port
        else:
            port = free_port()
            proc = start_server(args.base or ROOT / "src", port, Path(tmp), args.files)
        try:
            rows = asyncio.run(
                run(
                    f"http://127.0.0.1:{port}",
                    port,
                    proc.pid if proc else None,
                    attacks,
                    args.seconds,
                    args.slow_conns,
                    args.body_mb,
                )
            )
        finally:
            if proc:
                proc.kill()
                proc.wait()
    which = (
        f"base {args.base}" if args.base else f"port {args.port}" if args.port else "this checkout"
    )
    print(
        f"server: {which}; victim: Doublets actions over its websocket, {args.seconds:g} s "
        "per attack"
    )
    header = [
        "attack",
        "actions",
        "p50 ms",
        "p99 ms",
        "max ms",
        "errors",
        "new ok",
        "rss+",
        "attacker got",
    ]
    print(" | ".join(header))
    for r in rows:
        print(
            " | ".join(
                [
                    r["attack"],
                    str(r["actions"]),
                    f"{r['p50']:.1f}",
                    f"{r['p99']:.1f}",
                    f"{r['max']:.1f}",
                    str(r["errors"]),
                    r["new ok"],
                    r["rss+"],
                    r["attacker"],
                ]
            )
        )


if __name__ == "__main__":
    main()
