"""A real cardtable server in a subprocess on 127.0.0.1, with real HTTP and websocket clients.

Every test runs against SQLite, and against PostgreSQL when ``CARDTABLE_TEST_PG_URL`` names
a server (e.g. ``postgresql://postgres@127.0.0.1:5433/postgres``), each server in a fresh
database; without it, the PostgreSQL runs show as skipped, with the reason.
"""

from __future__ import annotations

import json
import logging
import os
import secrets
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import websockets

PG = os.environ.get("CARDTABLE_TEST_PG_URL")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def listens(pid: int, port: int) -> bool | None:
    """Whether process ``pid`` holds the socket listening on ``port`` (None where ``/proc``
    cannot tell). A port that ``free_port`` gave may be taken by another test worker's server
    before ours binds it: ours then exits, and that other server answers our readiness check
    until its own test ends."""
    try:
        table = Path("/proc/net/tcp").read_text().splitlines()[1:]
    except OSError:
        return None
    held = set()
    try:
        fds = os.listdir(f"/proc/{pid}/fd")
    except OSError:
        return False  # the process is gone
    for fd in fds:
        try:
            held.add(os.readlink(f"/proc/{pid}/fd/{fd}"))
        except OSError:
            continue  # closed while we looked
    # each line: the local address as HEXIP:HEXPORT, the state (0A: LISTEN), the inode tenth
    rows = (line.split() for line in table)
    return any(
        int(f[1].split(":")[1], 16) == port and f[3] == "0A" and f"socket:[{f[9]}]" in held
        for f in rows
    )


def fresh_pg_database(url: str) -> str:
    import psycopg

    name = "cardtable_test_" + secrets.token_hex(4)
    admin = url.replace("postgresql+psycopg://", "postgresql://")
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    return admin.rsplit("/", 1)[0] + "/" + name


class Server:
    """One server process; ``restart()`` kills it and starts another on the same database."""

    def __init__(
        self, db_url: str, data: Path, args: list[str] | None = None, src: str | None = None
    ) -> None:
        self.db_url = db_url
        self.data = data
        self.args = args or []  # more `cardtable serve` options
        self.src = src  # another source tree to run (e.g. an older commit's), first on the path
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen | None = None
        self.tries = 0  # ports found taken at start

    def start(self) -> None:
        env = dict(os.environ, CARDTABLE_DATA=str(self.data))
        if self.src:
            env["PYTHONPATH"] = self.src
        with open(self.data / "server.log", "ab") as log:
            logged = log.tell()
            self.proc = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "cardtable",
                    "serve",
                    "--port",
                    str(self.port),
                    "--db",
                    self.db_url,
                    "--bot-delay",
                    "0.01",
                    *self.args,
                ],
                env=env,
                stdout=subprocess.DEVNULL,
                stderr=log,
            )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                break
            try:
                answered = httpx.get(self.base + "/api/games", timeout=1).status_code == 200
            except httpx.HTTPError:
                answered = False
            if answered and listens(self.proc.pid, self.port) is not False:
                return
            time.sleep(0.1)
        if self.proc.poll() is not None and self.port_was_taken(logged):
            return self.start()
        raise RuntimeError("the server did not start: " + (self.data / "server.log").read_text())

    def port_was_taken(self, logged: int) -> bool:
        """Whether this start failed on a port another test's server took first (what the
        log says after its first ``logged`` bytes); if so, the next start takes a new port."""
        said = (self.data / "server.log").read_bytes()[logged:]
        if b"address already in use" not in said or self.tries >= 5:
            return False
        self.tries += 1
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        return True

    def kill(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.kill()  # SIGKILL: no chance to tidy up
            self.proc.wait()

    def restart(self) -> None:
        self.kill()
        self.start()


class InProcessServer(Server):
    """The same server in a thread of this process (``start``, ``stop``); it cannot be
    killed or restarted: a test that needs that is marked ``own_process``."""

    def start(self) -> None:
        import typer
        import uvicorn

        from cardtable import cli

        command = typer.main.get_command(cli.app).commands["serve"]  # type: ignore[attr-defined]
        options = command.make_context(
            "serve",
            [
                "--port",
                str(self.port),
                "--db",
                self.db_url,
                "--data",
                str(self.data),
                "--bot-delay",
                "0.01",
                *self.args,
            ],
        ).params
        self.uvicorn = uvicorn.Server(
            cli.server_config(cli.server_settings(options), in_process=True)
        )
        # what the server logs (errors with their tracebacks) goes to server.log, as a
        # subprocess's stderr does
        self.log = logging.FileHandler(self.data / "server.log")
        self.log.setLevel(logging.INFO)
        for name in ("uvicorn", "cardtable"):
            logging.getLogger(name).addHandler(self.log)
        self.thread = threading.Thread(
            target=self.uvicorn.run, name=f"server:{self.port}", daemon=True
        )
        logged = (self.data / "server.log").stat().st_size
        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.uvicorn.started:
            if not self.thread.is_alive() or time.monotonic() > deadline:
                self.stop()
                if not self.thread.is_alive() and self.port_was_taken(logged):
                    return self.start()
                raise RuntimeError(
                    "the server did not start: " + (self.data / "server.log").read_text()
                )
            time.sleep(0.02)

    def stop(self) -> None:
        self.uvicorn.should_exit = True
        self.thread.join(30)
        for name in ("uvicorn", "cardtable"):
            logging.getLogger(name).removeHandler(self.log)
        self.log.close()

    def kill(self) -> None:
        raise RuntimeError("an in-process server cannot be killed: mark the test own_process")

    def restart(self) -> None:
        raise RuntimeError("an in-process server cannot restart: mark the test own_process")


@pytest.fixture(
    params=[
        "sqlite",
        pytest.param(
            "postgresql",
            marks=pytest.mark.skipif(
                not PG, reason="no PostgreSQL: set CARDTABLE_TEST_PG_URL to run these against one"
            ),
        ),
    ]
)
def server(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Server]:
    url = (
        f"sqlite:///{tmp_path / 'cardtable.sqlite'}"
        if request.param == "sqlite"
        else fresh_pg_database(PG)
    )
    if request.node.get_closest_marker("own_process"):
        srv = Server(url, tmp_path)
        srv.start()
        yield srv
        srv.kill()
    else:
        inside = InProcessServer(url, tmp_path)
        inside.start()
        yield inside
        inside.stop()


class Client:
    """A person: an HTTP client with the token cookie, and websocket connections."""

    def __init__(self, server: Server, name: str) -> None:
        self.server = server
        self.http = httpx.Client(base_url=server.base, timeout=10)
        answer = self.http.post("/api/me", json={"name": name})
        answer.raise_for_status()
        self.id = answer.json()["player"]["id"]
        self.token = self.http.cookies["cardtable_token"]

    def post(self, path: str, body: dict | None = None) -> dict:
        answer = self.http.post(path, json=body or {})
        assert answer.status_code == 200, answer.text
        return answer.json()

    def new_table(self, game: str, seats: list[str], **options) -> dict:
        return self.post("/api/tables", {"game": game, "seats": seats, "options": options})

    async def connect(self, table_id: str, query: str = "", token: bool = True) -> Socket:
        """A websocket to the table, with the token and ``query`` (e.g. ``labels=0``)."""
        url = f"ws://127.0.0.1:{self.server.port}/ws/tables/{table_id}"
        asked = [f"token={self.token}"] if token else []
        if query:
            asked.append(query)
        if asked:
            url += "?" + "&".join(asked)
        return Socket(await websockets.connect(url))


class Socket:
    """A websocket to a table that remembers the last state it was sent."""

    def __init__(self, ws) -> None:
        self.ws = ws
        self.state: dict | None = None
        self.states: list[dict] = []
        self.messages: list[dict] = []  # every message received, of any type
        self.n = 0

    async def recv(self, timeout: float = 10) -> dict:
        import asyncio

        message = json.loads(await asyncio.wait_for(self.ws.recv(), timeout))
        self.messages.append(message)
        if message["type"] == "state":
            # the log comes as a delta (log_from): the state kept has the log put back, as
            # table.js does (``messages`` keeps what was sent); a first state has the whole
            # log, or its last entries (gamelog.LOG_TAIL); a dropped change of mind is no
            # entry, so the first one sent may come after log_from
            assert not message["log"] or message["log"][0]["n"] >= message["log_from"]
            kept = (
                [e for e in self.state["log"] if e["n"] < message["log_from"]] if self.state else []
            )
            message = {**message, "log": kept + message["log"]}
            if "table" not in message and self.state:  # (table=changed) the last, as it was
                message["table"] = {**self.state["table"], "version": message["version"]}
            self.state = message
            self.states.append(message)
        return message

    async def until(self, check, timeout: float = 20) -> dict:
        """Read messages until ``check(state)`` holds for the latest state."""
        import asyncio

        deadline = asyncio.get_running_loop().time() + timeout
        while self.state is None or not check(self.state):
            left = deadline - asyncio.get_running_loop().time()
            if left <= 0:
                raise TimeoutError(f"never reached; last state: {self.state}")
            await self.recv(left)
        return self.state

    async def act(self, action: str, version: int | None = None) -> dict:
        """Send an action and return the server's answer (ack or error); like a good client,
        wait and send again when the server says to slow down."""
        import asyncio

        self.n += 1
        cid = f"t-{id(self):x}-{self.n}"  # unique across connections, like a real client's
        v = self.state["version"] if version is None else version
        while True:
            await self.ws.send(
                json.dumps({"type": "act", "action": action, "version": v, "id": cid})
            )
            while True:
                message = await self.recv()
                if message["type"] in ("ack", "error") and message.get("id") == cid:
                    break
            if message.get("code") != "rate_limited":
                return message
            await asyncio.sleep(message["retry_after"])

    async def send_raw(self, text: str) -> dict:
        await self.ws.send(text)
        while True:
            message = await self.recv()
            if message["type"] in ("ack", "error", "pong"):
                return message

    async def close(self) -> None:
        await self.ws.close()


@pytest.fixture
def people(server: Server):
    made: list[Client] = []

    def make(name: str) -> Client:
        made.append(Client(server, name))
        return made[-1]

    yield make
    for c in made:
        c.http.close()
