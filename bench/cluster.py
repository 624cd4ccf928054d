"""Server processes for the benches: one ``cardtable serve``, or several on one database and one
Redis (``serve --bus``), as a deployment behind a load balancer runs them.

Not a bench of its own: ``chaos.py``, ``failover.py``, ``fuzz.py`` and ``leak_check.py`` import
it (each puts its own folder on ``sys.path`` first). ``Cluster`` starts a ``redis-server`` on a
free port and the processes on one database: a fresh PostgreSQL database when given a server's
URL, else one SQLite file. ``Cluster.holder`` tells which process holds a table (its lease on
the bus), ``Cluster.through`` picks another one, so that a client's requests about the table
are forwarded (``server/cluster/tunnel.py``). ``ServerProcess.errors`` reads the exceptions a
process logged, for the benches that count them as crashes.
"""

from __future__ import annotations

import os
import re
import secrets
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class ServerProcess:
    """``cardtable serve`` in a subprocess; ``restart()`` SIGKILLs it and starts another.

    Its own SQLite file in ``data`` unless ``db`` names a database; ``bus`` joins a cluster;
    ``src``: another source tree to run (an older commit's, for a before figure)."""

    def __init__(
        self,
        data: Path,
        bot_delay: float = 0.02,
        extra: list[str] | None = None,
        port: int | None = None,
        db: str | None = None,
        bus: str | None = None,
        src: Path | None = None,
    ) -> None:
        self.data = data
        self.src = src
        self.url = db or f"sqlite:///{data / 'cardtable.sqlite'}"
        self.port = port or free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.bot_delay = bot_delay
        self.extra = [*(extra or []), *(["--bus", bus] if bus else [])]
        self.proc: subprocess.Popen | None = None
        self._bus_id: str | None = None

    def start(self, wait: float = 60) -> None:
        self._bus_id = None
        env = dict(os.environ, CARDTABLE_DATA=str(self.data))
        if self.src is not None:
            env["PYTHONPATH"] = str(self.src)
        with open(self.log, "ab") as log:
            self.proc = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "cardtable",
                    "serve",
                    "--port",
                    str(self.port),
                    "--db",
                    self.url,
                    "--bot-delay",
                    str(self.bot_delay),
                    "--new-players-per-minute",
                    "0",
                    *self.extra,
                ],  # all people on 127.0.0.1
                env=env,
                stdout=subprocess.DEVNULL,
                stderr=log,
            )
        deadline = time.monotonic() + wait
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                break
            try:
                if httpx.get(self.base + "/api/games", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                time.sleep(0.05)
        raise RuntimeError("the server did not start: " + self.log.read_text()[-2000:])

    @property
    def log(self) -> Path:
        return self.data / "server.log"

    def kill(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.kill()  # SIGKILL: no chance to tidy up
            self.proc.wait()

    def restart(self) -> None:
        self.kill()
        self.start()

    @property
    def up(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def bus_id(self) -> str | None:
        """The id this process (its latest start) has on the bus, from its log."""
        if self._bus_id is None:
            found = re.findall(r"as process ([0-9a-f]+)", self.log.read_text(errors="replace"))
            self._bus_id = found[-1] if found else None
        return self._bus_id

    def errors(self, since: int = 0) -> tuple[list[str], int]:
        """The exceptions and errors logged after byte ``since``, and where the log ends."""
        with open(self.log, "rb") as f:
            f.seek(since)
            text = f.read().decode(errors="replace")
        found = [
            line for line in text.splitlines() if line.startswith("Traceback") or " ERROR " in line
        ]
        return found, since + len(text.encode(errors="replace"))


def start_redis(folder: Path) -> tuple[subprocess.Popen, str]:
    """A ``redis-server`` on a free port, answering; its process and URL."""
    if shutil.which("redis-server") is None:
        sys.exit("needs redis-server (apt-get install redis-server)")
    import redis

    port = free_port()
    proc = subprocess.Popen(
        [
            "redis-server",
            "--port",
            str(port),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
            "--appendonly",
            "no",
            "--dir",
            str(folder),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    client = redis.Redis(port=port)
    deadline = time.monotonic() + 10
    while True:
        try:
            client.ping()
            return proc, f"redis://127.0.0.1:{port}/0"
        except redis.ConnectionError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.05)


def database(folder: Path, pg: str | None, prefix: str = "cardtable_bench_") -> str:
    """A fresh database in the PostgreSQL server ``pg`` names, else an SQLite file."""
    if not pg:
        return f"sqlite:///{folder / 'cardtable.sqlite'}"
    import psycopg

    name = prefix + secrets.token_hex(4)
    admin = pg.replace("postgresql+psycopg://", "postgresql://")
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    return admin.rsplit("/", 1)[0] + "/" + name


class Cluster:
    """``n`` server processes on one database and one Redis, each in a folder of its own."""

    def __init__(
        self,
        n: int,
        folder: Path,
        pg: str | None = None,
        bot_delay: float = 0.02,
        extra: list[str] | None = None,
    ) -> None:
        self.folder = folder
        self.redis, self.bus = start_redis(folder)
        self.url = database(folder, pg)
        self.procs: list[ServerProcess] = []
        for i in range(n):
            (folder / f"p{i}").mkdir(exist_ok=True)
            self.procs.append(
                ServerProcess(folder / f"p{i}", bot_delay, extra, db=self.url, bus=self.bus)
            )

    def start(self) -> None:
        self.procs[0].start()  # the first creates the schema; the others find it
        for p in self.procs[1:]:
            p.start()

    def stop(self) -> None:
        for p in self.procs:
            p.kill()
        self.redis.terminate()
        self.redis.wait()

    def __enter__(self) -> Cluster:
        try:
            self.start()
        except BaseException:
            self.stop()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def holder(self, table_id: str) -> ServerProcess | None:
        """The live process whose id the table's lease names, if any."""
        import redis

        value = redis.Redis.from_url(self.bus).get(f"ct:lease:{table_id}")
        pid = value.decode() if isinstance(value, bytes) else None
        return next((p for p in self.procs if p.up and pid and p.bus_id() == pid), None)

    def through(self, table_id: str) -> ServerProcess:
        """A live process other than the table's holder (its requests are forwarded), else
        any live one (every other is down, or the table has no holder yet: the first)."""
        holder = self.holder(table_id)
        up = [p for p in self.procs if p.up]
        if not up:
            raise RuntimeError("no server process is up")
        others = [p for p in up if p is not holder]
        return others[0] if others and holder is not None else up[0]

    def errors(self) -> list[str]:
        """Every exception and error logged by any process so far."""
        return [line for p in self.procs for line in p.errors()[0]]
