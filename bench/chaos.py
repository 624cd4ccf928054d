"""Chaos: SIGKILL the server at random moments while people and bots play, and check nothing
acknowledged is lost and nothing is applied twice.

    python bench/chaos.py --games 100 --kills 20 [--parallel 20] [--seed 1]
    python bench/chaos.py --games 100 --kills 20 --processes 2 [--db postgresql://...]

A real server (``cardtable serve``) runs in a subprocess on an SQLite file. Each table is Slide,
The Game or Doublets, with one or two simulated people and sometimes greedy bots. A person is an
asyncio websocket client that plays the greedy bot's policy from its own view; when its socket
breaks it reconnects with backoff and sends its unacknowledged action again with the same id. A
killer SIGKILLs the server every few seconds and starts a new one on the same database.

With ``--processes 2``, two ``cardtable serve --bus`` processes share one Redis and one
database (a fresh PostgreSQL database in the server ``--db`` names, else an SQLite file;
``cluster.py``). The tables are created at each in turn, and every (re)connection goes
through a live process other than the table's holder when there is one, so the messages are
forwarded (counted: ``connections forwarded``); the killer SIGKILLs one of the two at random
and starts it again. A killed holder's tables are taken over by the other process.

At the end the stored action log of every table is compared with the acks the people got:

- lost: an acknowledged action missing from the log (must be 0);
- applied twice: a client action id stored more than once (must be 0);
- finished: tables whose game is over.

Client ids are stored with the actions, so an action acknowledged before a kill and sent
again after it is answered with its first ack; one that was never stored is applied then, or
refused (``stale``) if the table moved on meanwhile, and the client plays on from the fresh
state.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import websockets

from cardtable.bots import make_bot
from cardtable.server.storage import store as db

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the benches' shared modules
from cluster import Cluster, ServerProcess  # noqa: E402

GAMES = ("slide", "the-game", "doublets")


@dataclass
class Figures:
    acks: list[tuple[str, int, str, str]] = field(default_factory=list)  # table, seat, id, act
    latencies: list[float] = field(default_factory=list)
    reconnects: int = 0  # connections made again after one broke
    failed_connects: int = 0  # attempts refused while the server was down
    resent: int = 0
    resent_acked: int = 0
    refused: Counter = field(default_factory=Counter)  # error code -> count
    kills: int = 0
    kills_breaking: int = 0  # kills that found a person connected (the others broke nothing)
    connected: int = 0  # people with an open socket now
    forwarded: int = 0  # connections made through a process that does not hold the table


#: where a person connects: the port, and whether that process forwards to the table's holder
Route = Callable[[], tuple[int, bool]]


class Person:
    """A simulated person at one seat: plays greedily, reconnects, resends by id."""

    def __init__(
        self,
        route: Route,
        name: str,
        token: str,
        table_id: str,
        game: str,
        seed: int,
        figures: Figures,
        idle: float = 20.0,
    ) -> None:
        self.route, self.path = route, f"/ws/tables/{table_id}?token={token}"
        self.name, self.table_id, self.game, self.token = name, table_id, game, token
        self.port = 0
        self.bot = make_bot("greedy", game, seed)
        self.figures = figures
        self.idle = idle
        self.n = 0
        self.pending: dict | None = None  # the unacknowledged act message
        self.sent_at = 0.0
        self.resending = False

    async def play(self) -> None:
        failures, broken = 0, False
        while True:
            port, forwarded = await asyncio.to_thread(self.route)
            self.port = port
            try:
                async with websockets.connect(
                    f"ws://127.0.0.1:{port}{self.path}",
                    open_timeout=5,
                    close_timeout=1,
                    max_size=1 << 20,
                ) as ws:
                    failures = 0
                    self.figures.forwarded += forwarded
                    self.figures.reconnects += broken
                    broken = True
                    self.figures.connected += 1
                    try:
                        if await self._session(ws):
                            return
                    finally:
                        self.figures.connected -= 1
            except (
                OSError,
                TimeoutError,
                websockets.ConnectionClosed,
                websockets.InvalidHandshake,
            ):
                if failures:
                    self.figures.failed_connects += 1
            failures += 1
            await asyncio.sleep(min(1.0, 0.05 * 2**failures) * random.uniform(0.5, 1.5))

    def _leave(self) -> None:
        with contextlib.suppress(httpx.HTTPError):  # (killed meanwhile: asked again later)
            httpx.post(
                f"http://127.0.0.1:{self.port}/api/tables/{self.table_id}/leave",
                headers={"x-cardtable-token": self.token},
                timeout=30,
            )

    async def _send(self, ws) -> None:
        self.sent_at = time.monotonic()
        await ws.send(json.dumps(self.pending))

    async def _session(self, ws) -> bool:
        """One connection; True once the game is over."""
        if self.pending is not None:  # sent before the connection broke: send it again
            self.figures.resent += 1
            self.resending = True
            await self._send(ws)
        state = None
        while True:
            message = json.loads(await asyncio.wait_for(ws.recv(), self.idle))
            kind = message["type"]
            mine = self.pending is not None and message.get("id") == self.pending["id"]
            if kind == "state":
                state = message
            elif kind == "ack" and mine:
                self.figures.acks.append(
                    (
                        self.table_id,
                        state["seat"] if state else -1,
                        message["id"],
                        message["action"],
                    )
                )
                self.figures.latencies.append(time.monotonic() - self.sent_at)
                self.figures.resent_acked += self.resending
                self.pending, self.resending = None, False
            elif kind == "error" and mine:
                if message["code"] == "rate_limited":
                    await asyncio.sleep(message["retry_after"])
                    await self._send(ws)
                    continue
                # stale, illegal...: the server sends the table as it is now; play from that
                self.figures.refused[message["code"]] += 1
                self.pending, self.resending = None, False
            if state is None or self.pending is not None:
                continue
            if state["table"]["status"] == "over":
                return True
            if (
                state["table"]["status"] == "running"
                and state["table"]["players"] == 1
                and not state["view"]["to_act"]
            ):
                # a solitaire with no move left, held open for undo: give it up (it ends as
                # lost), as a player who does not undo leaves it
                await asyncio.to_thread(self._leave)
                continue
            seat = state["seat"]
            if state["legal"] and seat in state["view"]["to_act"]:
                self.n += 1
                action = self.bot.choose(state["view"], state["legal"])
                self.pending = {
                    "type": "act",
                    "action": action,
                    "version": state["version"],
                    "id": f"{self.name}-{self.n}",
                }
                await self._send(ws)


def seats_for(game: str, rng: random.Random) -> list[str]:
    """A table of people ("me", "open") and bots."""
    if game == "doublets":
        return ["me"]
    if game == "slide":
        return rng.choice(
            [
                ["me", "greedy"],
                ["me", "open"],
                ["me", "open", "greedy"],
                ["me", "greedy", "open", "random"],
            ]
        )
    return rng.choice([["me", "open"], ["me", "greedy"], ["me", "open", "greedy"]])


async def new_person(http: httpx.AsyncClient, name: str) -> tuple[str, str]:
    http.cookies.clear()  # a known cookie would rename that player instead
    answer = await http.post("/api/me", json={"name": name})
    answer.raise_for_status()
    return answer.json()["player"]["id"], answer.cookies["cardtable_token"]


async def set_up(servers: list[ServerProcess], games: int, rng: random.Random) -> list[dict]:
    """Players and tables, before the first kill: [{id, game, people: [(name, token)]}].
    The tables are created at each process in turn; the people join through another (their
    requests forwarded to the holder) when there are several."""
    tables = []
    for i in range(games):
        server, other = servers[i % len(servers)], servers[(i + 1) % len(servers)]
        async with httpx.AsyncClient(base_url=server.base, timeout=30) as http:
            game = GAMES[i % len(GAMES)]
            seats = seats_for(game, rng)
            people = [
                await new_person(http, f"p{i}-{j}") + (f"p{i}-{j}",)
                for j in range(seats.count("me") + seats.count("open"))
            ]
            http.cookies.clear()  # from here on each request names its player by header
            answer = await http.post(
                "/api/tables",
                json={"game": game, "seats": seats},
                headers={"x-cardtable-token": people[0][1]},
            )
            answer.raise_for_status()
            table_id = answer.json()["id"]
            for _pid, token, _name in people[1:]:
                joined = await http.post(
                    f"{other.base}/api/tables/{table_id}/join",
                    json={},
                    headers={"x-cardtable-token": token},
                )
                joined.raise_for_status()
            tables.append(
                {
                    "id": table_id,
                    "game": game,
                    "seats": seats,
                    "people": [(name, token) for _pid, token, name in people],
                }
            )
    return tables


async def killer(
    servers: list[ServerProcess],
    kills: int,
    gap: tuple[float, float],
    done: asyncio.Event,
    rng: random.Random,
    figures: Figures,
) -> None:
    while figures.kills < kills and not done.is_set():
        with_gap = rng.uniform(*gap)
        try:
            await asyncio.wait_for(done.wait(), with_gap)
            return
        except TimeoutError:
            pass
        # a kill while every person waits out a backoff (the last restart is recent) breaks
        # no socket, so it is counted apart
        figures.kills_breaking += figures.connected > 0
        await asyncio.to_thread(rng.choice(servers).restart)
        figures.kills += 1


def check(url: str, tables: list[dict], figures: Figures) -> dict:
    """Compare the stored logs with the acks."""
    store = db.Store(url)
    try:
        stored: dict[tuple[str, str], list] = {}
        finished = 0
        for t in tables:
            row = store.table(t["id"])
            assert row is not None, f"table {t['id']} is not stored"  # set_up created it
            finished += row.status == "over"
            for a in store.actions(t["id"]):
                if a.client_id:
                    stored.setdefault((t["id"], a.client_id), []).append(a)
        lost = sum(
            1
            for table_id, seat, cid, action in figures.acks
            if not any(
                a.seat == seat and a.action == action for a in stored.get((table_id, cid), [])
            )
        )
        twice = sum(1 for rows in stored.values() if len(rows) > 1)
        logged = store.count_actions()
    finally:
        store.close()
    return {"finished": finished, "lost": lost, "twice": twice, "logged": logged}


def router(servers: list[ServerProcess], cluster: Cluster | None, table_id: str) -> Route:
    """One process: its port. Several: a live one other than the table's holder when there
    is one, so that the person's messages are forwarded (``Cluster.through``)."""
    if cluster is None:
        return lambda: (servers[0].port, False)

    def route() -> tuple[int, bool]:
        holder = cluster.holder(table_id)
        through = cluster.through(table_id)
        return through.port, holder is not None and through is not holder

    return route


async def run(
    games: int = 100,
    kills: int = 20,
    parallel: int = 20,
    seed: int = 1,
    gap: tuple[float, float] = (0.5, 2.5),
    deadline: float = 1800,
    data: Path | None = None,
    bot_delay: float = 0.02,
    processes: int = 1,
    pg: str | None = None,
) -> dict:
    """Play ``games`` tables while killing a server ``kills`` times; return the figures.
    With ``processes`` above 1, they share a database (``pg``'s, else an SQLite file) and a
    Redis, and each kill picks one of them."""
    rng = random.Random(seed)
    random.seed(seed)
    own = None
    if data is None:
        own = tempfile.TemporaryDirectory(prefix="cardtable-chaos-")
        data = Path(own.name)
    cluster = Cluster(processes, data, pg, bot_delay) if processes > 1 else None
    servers = cluster.procs if cluster else [ServerProcess(data, bot_delay=bot_delay)]
    figures = Figures()
    started = time.monotonic()
    try:
        if cluster:
            cluster.start()
        else:
            servers[0].start()
        tables = await set_up(servers, games, rng)
        gate = asyncio.Semaphore(parallel)

        async def play_table(i: int, t: dict) -> None:
            route = router(servers, cluster, t["id"])
            async with gate:
                await asyncio.gather(
                    *(
                        Person(
                            route, name, token, t["id"], t["game"], seed * 1000 + i, figures
                        ).play()
                        for name, token in t["people"]
                    )
                )

        done = asyncio.Event()
        kill_task = asyncio.create_task(killer(servers, kills, gap, done, rng, figures))
        played = asyncio.gather(*(play_table(i, t) for i, t in enumerate(tables)))
        timed_out = False
        try:
            await asyncio.wait_for(played, deadline)
        except TimeoutError:
            timed_out = True
        done.set()
        await kill_task
        elapsed = time.monotonic() - started
        for server in servers:
            server.kill()
        result = check(servers[0].url, tables, figures)
    finally:
        if cluster:
            cluster.stop()
        for server in servers:
            server.kill()
        if own is not None:
            own.cleanup()
    lat = sorted(figures.latencies)
    return {
        "processes": processes,
        "database": "PostgreSQL" if pg and cluster else "SQLite",
        "games": games,
        "mix": dict(Counter(t["game"] for t in tables)),
        "people": sum(len(t["people"]) for t in tables),
        "bot seats": sum(len(t["seats"]) - len(t["people"]) for t in tables),
        "finished": result["finished"],
        "kills": figures.kills,
        "kills that broke a connection": figures.kills_breaking,
        "reconnects": figures.reconnects,
        "connections forwarded": figures.forwarded,
        "connect attempts refused": figures.failed_connects,
        "acks": len(figures.acks),
        "actions stored": result["logged"],
        "actions lost": result["lost"],
        "applied twice": result["twice"],
        "resent": figures.resent,
        "resent, acked again": figures.resent_acked,
        "refused": dict(figures.refused),
        "ack latency p50 ms": round(1000 * statistics.median(lat), 1) if lat else None,
        "ack latency p95 ms": round(1000 * lat[int(0.95 * (len(lat) - 1))], 1) if lat else None,
        "seconds": round(elapsed, 1),
        "timed out": timed_out,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--kills", type=int, default=20)
    parser.add_argument("--parallel", type=int, default=20, help="tables played at once")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--gap", default="0.5,2.5", help="seconds between a restart and the next kill: LOW,HIGH"
    )
    parser.add_argument("--deadline", type=float, default=1800)
    parser.add_argument(
        "--processes",
        type=int,
        default=1,
        help="server processes on one database and one Redis (serve --bus)",
    )
    parser.add_argument(
        "--db", default=None, help="with --processes 2: a PostgreSQL server URL (default SQLite)"
    )
    args = parser.parse_args()
    low, high = (float(x) for x in args.gap.split(","))
    figures = asyncio.run(
        run(
            args.games,
            args.kills,
            args.parallel,
            args.seed,
            (low, high),
            args.deadline,
            processes=args.processes,
            pg=args.db,
        )
    )
    print(f"chaos: {' '.join(sys.argv[1:]) or '(defaults)'}")
    print("| figure | value |")
    print("|---|---|")
    for key, value in figures.items():
        if isinstance(value, dict):
            value = ", ".join(f"{k} {v}" for k, v in value.items()) or "-"
        print(f"| {key} | {value} |")
    ok = (
        figures["actions lost"] == 0
        and figures["applied twice"] == 0
        and figures["finished"] == figures["games"]
    )
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
