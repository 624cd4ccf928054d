"""``/healthz`` and ``/readyz`` of a real server: what they answer, that a balancer may poll
them fast, that a lost Redis makes a process unready, and that a stopping process is unready
before it closes (``--drain``)."""

from __future__ import annotations

import os
import shutil
import signal
import time
from pathlib import Path

import httpx
import pytest

from helpers import load_bench
from server.conftest import Client, Server

NO_REDIS = shutil.which("redis-server") is None and not os.environ.get("CARDTABLE_TEST_NEED_REDIS")


def test_health_and_readiness_answer_and_say_nothing_else(server: Server) -> None:
    Client(server, "Ada").new_table("slide", ["me", "greedy"])  # a table exists: not said
    with httpx.Client(base_url=server.base, timeout=5) as http:
        alive = http.get("/healthz")
        assert (alive.status_code, alive.json()) == (200, {"status": "ok"})
        ready = http.get("/readyz")
        assert (ready.status_code, ready.json()) == (200, {"status": "ok"})
        assert ready.headers["cache-control"] == "no-store"
        # a balancer polling many times a second is never refused (no rate limit)
        answers = [
            http.get(path).status_code for _ in range(60) for path in ("/healthz", "/readyz")
        ]
        assert set(answers) == {200}
        # neither is part of the public API's description
        paths = http.get("/openapi.json").json()["paths"]
        assert "/healthz" not in paths and "/readyz" not in paths


@pytest.mark.own_process
@pytest.mark.skipif(NO_REDIS, reason="no redis-server (apt-get install redis-server)")
def test_a_process_that_lost_its_redis_is_unready_but_alive(tmp_path: Path) -> None:
    redis, url = load_bench("cluster").start_redis(tmp_path)
    srv = Server(f"sqlite:///{tmp_path / 'cardtable.sqlite'}", tmp_path, ["--bus", url])
    try:
        srv.start()
        assert httpx.get(srv.base + "/readyz").json() == {"status": "ok"}
        redis.terminate()
        redis.wait()
        deadline = time.monotonic() + 15
        while True:
            ready = httpx.get(srv.base + "/readyz", timeout=10)
            if ready.status_code == 503 or time.monotonic() > deadline:
                break
            time.sleep(0.2)
        assert (ready.status_code, ready.json()) == (503, {"status": "unready", "reason": "bus"})
        assert ready.headers["retry-after"] == "1"
        assert httpx.get(srv.base + "/healthz").status_code == 200
    finally:
        srv.kill()
        if redis.poll() is None:
            redis.terminate()
            redis.wait()


@pytest.mark.own_process
def test_a_stopping_process_is_unready_first_then_closes(tmp_path: Path) -> None:
    srv = Server(f"sqlite:///{tmp_path / 'cardtable.sqlite'}", tmp_path, ["--drain", "3"])
    srv.start()
    try:
        assert httpx.get(srv.base + "/readyz").status_code == 200
        assert srv.proc is not None
        srv.proc.send_signal(signal.SIGTERM)
        time.sleep(0.3)
        # still serving: unready, alive, and a person's request is still answered
        ready = httpx.get(srv.base + "/readyz")
        assert (ready.status_code, ready.json()) == (
            503,
            {"status": "unready", "reason": "stopping"},
        )
        assert httpx.get(srv.base + "/healthz").status_code == 200
        assert httpx.get(srv.base + "/api/games").status_code == 200
        srv.proc.wait(30)  # then it closes by itself
        with pytest.raises(httpx.HTTPError):
            httpx.get(srv.base + "/healthz", timeout=1)
        assert "Traceback" not in (tmp_path / "server.log").read_text()
    finally:
        srv.kill()
