"""``--log-format json`` of a real server process: one JSON object a line with its time,
level, process, logger and message, the request's id (the edge's ``X-Request-ID`` when it is
a good one, a new one otherwise, sent back either way), its table and player; never a
token. With several processes, a request forwarded to a table's holder is logged there with
the id it came in with."""

from __future__ import annotations

import asyncio
import json
import os
import re
import shutil
import time
from pathlib import Path

import httpx
import pytest
import websockets

from helpers import load_bench
from server.conftest import Client, Server

pytestmark = pytest.mark.own_process
NO_REDIS = shutil.which("redis-server") is None and not os.environ.get("CARDTABLE_TEST_NEED_REDIS")
FIELDS = {"ts", "level", "pid", "logger", "message"}


def lines(server: Server) -> list[dict]:
    """The server's log, every line a JSON object (anything else fails)."""
    text = (server.data / "server.log").read_text()
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def wait_for(server: Server, check, timeout: float = 10) -> dict:
    deadline = time.monotonic() + timeout
    while True:
        found = [line for line in lines(server) if check(line)]
        if found:
            return found[0]
        if time.monotonic() > deadline:
            raise AssertionError(f"no such line in {lines(server)}")
        time.sleep(0.1)


async def open_socket(server: Server, table_id: str, token: str, rid: str) -> None:
    url = f"ws://127.0.0.1:{server.port}/ws/tables/{table_id}?token={token}"
    async with websockets.connect(url, additional_headers={"X-Request-ID": rid}) as ws:
        assert ws.response.headers["x-request-id"] == rid
        await ws.recv()


def test_json_lines_name_the_request_table_and_player_and_no_token(tmp_path: Path) -> None:
    srv = Server(
        f"sqlite:///{tmp_path / 'cardtable.sqlite'}",
        tmp_path,
        ["--log-format", "json", "--log-level", "debug"],
    )
    srv.start()
    try:
        ada, bo = Client(srv, "Ada"), Client(srv, "Bo")
        table = ada.new_table("slide", ["me", "greedy"])
        resigned = ada.http.post(
            f"/api/tables/{table['id']}/resign", json={}, headers={"X-Request-ID": "edge-42.a_b"}
        )
        assert resigned.status_code == 200 and resigned.headers["x-request-id"] == "edge-42.a_b"
        ended = wait_for(srv, lambda line: line.get("request_id") == "edge-42.a_b")
        assert set(ended) >= FIELDS and ended["level"] == "info"
        assert ended["pid"] == srv.proc.pid and ended["logger"] == "cardtable.server"
        assert re.match(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$", ended["ts"])
        assert ended["table_id"] == table["id"] and table["id"] in ended["message"]
        # a socket's lines: its request id, its table and its player
        asyncio.run(open_socket(srv, table["id"], ada.token, "sock-1"))
        opened = wait_for(srv, lambda line: line["message"].startswith("table socket opened"))
        assert opened["request_id"] == "sock-1"
        assert (opened["table_id"], opened["player_id"]) == (table["id"], ada.id)
        # an id that is not a good one is replaced by a new one, sent back
        bad = httpx.get(srv.base + "/readyz", headers={"X-Request-ID": "x" * 65})
        assert re.match(r"^[0-9a-f]{16}$", bad.headers["x-request-id"])
        made = httpx.get(srv.base + "/healthz").headers["x-request-id"]
        assert made != bad.headers["x-request-id"]
        text = (tmp_path / "server.log").read_text()
        for secret in (ada.token, bo.token):
            assert secret not in text
    finally:
        srv.kill()


@pytest.mark.skipif(NO_REDIS, reason="no redis-server (apt-get install redis-server)")
def test_a_forwarded_request_is_logged_at_the_holder_with_its_id(tmp_path: Path) -> None:
    redis, bus = load_bench("cluster").start_redis(tmp_path)
    url = f"sqlite:///{tmp_path / 'cardtable.sqlite'}"
    servers = []
    try:
        for name in ("a", "b"):
            (tmp_path / name).mkdir()
            servers.append(Server(url, tmp_path / name, ["--bus", bus, "--log-format", "json"]))
            servers[-1].start()
        holder, other = servers
        ada = Client(holder, "Ada")
        table = ada.new_table("slide", ["me", "greedy"])  # held where it was made
        at_other = httpx.Client(base_url=other.base, cookies={"cardtable_token": ada.token})
        resigned = at_other.post(
            f"/api/tables/{table['id']}/resign", json={}, headers={"X-Request-ID": "through-b"}
        )
        assert resigned.status_code == 200 and resigned.headers["x-request-id"] == "through-b"
        line = wait_for(holder, lambda line: line.get("request_id") == "through-b")
        assert line["table_id"] == table["id"] and table["id"] in line["message"]
        assert line["pid"] == holder.proc.pid
        for srv in servers:
            assert ada.token not in (srv.data / "server.log").read_text()
    finally:
        for srv in servers:
            srv.kill()
        redis.terminate()
        redis.wait()
