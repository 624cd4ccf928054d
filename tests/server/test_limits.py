"""One HTTP client must not slow or block the others (issue #9): the lobby, new players,
hints, half-sent requests, big bodies. Each against a real server process.

What one client costs the *others* in latency is measured by bench/hostile_http.py, not here.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time

import httpx
import pytest

HEADER_TIMEOUT = 10  # server/api/limits.py
MAX_BODY = 64 * 1024


def new_player(base: str, name: str, forwarded_for: str | None = None) -> httpx.Response:
    headers = {"x-forwarded-for": forwarded_for} if forwarded_for else {}
    return httpx.post(base + "/api/me", json={"name": name}, headers=headers, timeout=10)


@pytest.mark.own_process
def test_the_lobby_shows_a_multiplayer_table_behind_101_solitaires(server, people):
    ann = people("Ann")
    open_table = ann.new_table("slide", ["me", "open"])
    # 101 Doublets games, newer than the open table (30 unfinished tables each at most)
    solos = [people(f"Solo {i}") for i in range(5)]
    for i in range(101):
        solos[i % 5].new_table("doublets", ["me"])
    lobby = ann.http.get("/api/tables").json()
    assert [t["id"] for t in lobby] == [open_table["id"]]
    (info,) = lobby
    assert info["players"] == 2 and info["creator"] and info["seats"][0]["you"]
    assert info["seats"][0]["name"] == "Ann" and not info["seats"][1]["taken"]
    assert info == ann.http.get(f"/api/tables/{open_table['id']}").json()
    # the list is the same after a restart (tables built from their rows, not loaded)
    server.restart()
    again = ann.http.get("/api/tables").json()
    assert [t["id"] for t in again] == [open_table["id"]]
    assert again[0]["seats"] == info["seats"] and again[0]["version"] == info["version"]
    assert ann.http.get("/api/tables", params={"status": "nonsense"}).json() == []


@pytest.mark.own_process  # 21 requests must come within the 3 s a token takes to refill
def test_new_players_are_limited_per_address(server):
    answers = [new_player(server.base, f"P{i}") for i in range(21)]
    assert [a.status_code for a in answers[:20]] == [200] * 20
    refused = answers[20]
    assert refused.status_code == 429, refused.text
    body = refused.json()
    assert body["error"] == "too_many_players" and body["message"]
    assert 0 < body["retry_after"] <= 3.5 and int(refused.headers["retry-after"]) >= 1
    assert "cardtable_token" not in refused.cookies
    # a player who has a token may still rename
    ann = httpx.Client(base_url=server.base, timeout=10)
    ann.cookies.set("cardtable_token", answers[0].cookies["cardtable_token"])
    assert ann.post("/api/me", json={"name": "Ann"}).json()["player"]["name"] == "Ann"
    # another client address is counted apart (behind a proxy on this machine uvicorn takes
    # the address from X-Forwarded-For: docs/server.md)
    assert new_player(server.base, "Bob", forwarded_for="203.0.113.7").status_code == 200
    time.sleep(3.1)  # 20 a minute: one more every 3 s
    assert new_player(server.base, "Carl").status_code == 200
    assert new_player(server.base, "Dan").status_code == 429


@pytest.mark.perf  # the allowance refills with time: a very busy machine can refill it
def test_hints_and_the_solver_are_rate_limited_per_player(server, people):
    ann, bob = people("Ann"), people("Bob")
    table = ann.new_table("doublets", ["me"])
    hints = [ann.http.get(f"/api/tables/{table['id']}/hint") for _ in range(6)]
    assert [h.status_code for h in hints[:5]] == [200] * 5
    assert hints[0].json()["action"].startswith(("play ", "flip"))
    assert hints[0].json()["reason"]
    assert hints[5].status_code == 429
    assert hints[5].json()["error"] == "rate_limited" and hints[5].json()["retry_after"] > 0
    time.sleep(hints[5].json()["retry_after"] + 0.05)
    assert ann.http.get(f"/api/tables/{table['id']}/hint").status_code == 200
    # each player has their own allowance
    bobs = bob.new_table("doublets", ["me"])
    assert bob.http.get(f"/api/tables/{bobs['id']}/hint").status_code == 200
    peeks = [ann.http.get(f"/api/tables/{table['id']}/winnable") for _ in range(4)]
    assert [p.status_code for p in peeks] == [200, 200, 200, 429]
    assert peeks[0].json() == {"winnable": True, "peeking": True}
    assert peeks[3].json()["error"] == "rate_limited"


def half_sent(port: int, n: int) -> list[socket.socket]:
    """``n`` connections that each send the start of a request and then nothing."""
    socks = []
    for _ in range(n):
        s = socket.create_connection(("127.0.0.1", port), timeout=5)
        s.sendall(b"GET /api/games HTTP/1.1\r\nHost: x\r\nX-Slow: ")
        socks.append(s)
    return socks


def test_a_half_sent_request_is_closed_after_the_header_timeout(server):
    (slow,) = half_sent(server.port, 1)
    started = time.monotonic()
    assert httpx.get(server.base + "/api/games", timeout=5).status_code == 200
    slow.settimeout(HEADER_TIMEOUT + 5)
    answer = slow.recv(4096)
    waited = time.monotonic() - started
    assert answer.startswith(b"HTTP/1.1 408"), answer
    assert b"request_timeout" in answer
    assert HEADER_TIMEOUT - 1 < waited < HEADER_TIMEOUT + 3
    slow.settimeout(2)
    assert slow.recv(100) == b""  # and closed
    slow.close()
    # request headers have a size limit too
    with socket.create_connection(("127.0.0.1", server.port), timeout=5) as big:
        big.sendall(b"GET /api/games HTTP/1.1\r\nHost: x\r\nX-Big: " + b"b" * 40_000)
        assert big.recv(4096).startswith(b"HTTP/1.1 431")


def start_with_few_files(tmp_path) -> tuple[subprocess.Popen, int]:
    """A server started with a low soft limit on open files (256; 1,024 is common)."""
    import resource

    def low_soft_limit() -> None:
        hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
        resource.setrlimit(resource.RLIMIT_NOFILE, (256, hard))

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = dict(os.environ, CARDTABLE_DATA=str(tmp_path))
    with open(tmp_path / "server.log", "ab") as log:
        proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "cardtable",
                "serve",
                "--port",
                str(port),
                "--db",
                f"sqlite:///{tmp_path / 'cardtable.sqlite'}",
            ],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=log,
            preexec_fn=low_soft_limit,
        )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/games", timeout=1).status_code == 200:
                return proc, port
        except httpx.HTTPError:
            time.sleep(0.1)
    proc.kill()
    raise RuntimeError("the server did not start")


def test_300_half_sent_requests_do_not_stop_a_new_client(tmp_path):
    import resource

    if resource.getrlimit(resource.RLIMIT_NOFILE)[1] < 2048:
        pytest.skip("the hard limit on open files is too low to show the soft one raised")
    proc, port = start_with_few_files(tmp_path)
    base = f"http://127.0.0.1:{port}"
    try:
        socks = half_sent(port, 300)
        started = time.monotonic()
        for name in ("Ann", "Bob"):  # new clients are served at once
            assert new_player(base, name).status_code == 200
        assert httpx.get(base + "/api/tables", timeout=5).status_code == 200
        # and every half-sent connection is closed once its time is up
        for s in socks:
            s.settimeout(max(0.1, HEADER_TIMEOUT + 5 - (time.monotonic() - started)))
            assert s.recv(4096).startswith(b"HTTP/1.1 408")
            s.close()
        assert httpx.get(base + "/api/games", timeout=5).status_code == 200
    finally:
        proc.kill()
        proc.wait()


def test_a_body_over_the_limit_gets_413_unread(server):
    # Content-Length over the limit: refused before a byte of the body is read
    with socket.create_connection(("127.0.0.1", server.port), timeout=5) as s:
        s.sendall(
            b"POST /api/me HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b'Content-Length: 300000000\r\n\r\n{"name": "'
        )
        answer = b""
        while chunk := s.recv(4096):  # the headers and the body may come in two segments
            answer += chunk
        assert answer.startswith(b"HTTP/1.1 413"), answer
        assert b'"too_large"' in answer and b"connection: close" in answer.lower()
    # a chunked body: refused once it passes the limit, and the rest is not read
    with socket.create_connection(("127.0.0.1", server.port), timeout=5) as s:
        s.sendall(
            b"POST /api/me HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Transfer-Encoding: chunked\r\n\r\n"
        )
        chunk = b"%x\r\n%s\r\n" % (4096, b"a" * 4096)
        sent = 0
        try:
            while sent < 50_000_000:
                s.sendall(chunk)
                sent += 4096
        except OSError:  # the server closed the connection: fine
            pass
        s.settimeout(5)
        try:
            answer = s.recv(4096)
        except ConnectionResetError:
            answer = b"(reset)"
        assert sent < 10_000_000, f"the server read {sent} bytes"
        assert answer.startswith(b"HTTP/1.1 413") or answer == b"(reset)", answer
    # a body within the limit is still fine
    assert new_player(server.base, "x" * 20).status_code == 200
