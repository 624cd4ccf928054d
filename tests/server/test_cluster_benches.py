"""Short runs of the benches' two-process modes (bench/cluster.py): chaos, the leak check and
the fuzzer against two ``cardtable serve --bus`` processes on one database (PostgreSQL when
``CARDTABLE_TEST_PG_URL`` names a server, else one SQLite file) and a Redis of their own,
with the messages of people connected through the process that does not hold their table
forwarded to the one that does. The long runs' figures: docs/reliability.md ("Measured
again")."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from helpers import load_bench
from server.conftest import PG

NO_REDIS = shutil.which("redis-server") is None and not os.environ.get("CARDTABLE_TEST_NEED_REDIS")
pytestmark = [
    pytest.mark.own_process,
    pytest.mark.skipif(NO_REDIS, reason="no redis-server (apt-get install redis-server)"),
]

chaos = load_bench("chaos")
leak_check = load_bench("leak_check")
fuzz = load_bench("fuzz")
cluster_bench = load_bench("cluster")


@pytest.fixture
def two(tmp_path: Path) -> Iterator[Any]:
    """Two processes whose bots never move on their own (the leak check's and fuzzer's)."""
    with cluster_bench.Cluster(2, tmp_path, PG, bot_delay=3600) as cluster:
        yield cluster
    assert not cluster.errors(), cluster.errors()


async def test_chaos_with_two_processes_loses_nothing(tmp_path: Path):
    figures = await chaos.run(
        games=4,
        kills=2,
        parallel=4,
        seed=5,
        gap=(0.5, 1.5),
        deadline=150,
        data=tmp_path,
        processes=2,
        pg=PG,
    )
    print(figures)
    assert figures["processes"] == 2 and 1 <= figures["kills"] <= 2, figures
    assert figures["finished"] == 4, figures
    assert figures["actions lost"] == 0 and figures["applied twice"] == 0, figures
    assert figures["connections forwarded"] >= 4, figures  # people reached the non-holder
    assert figures["acks"] > 50, figures


def test_leak_check_through_two_processes(two):
    tally = leak_check.run_cluster_config(two, "the-game", 2, 1, 1)
    assert tally.leaks == 0, tally.examples
    assert tally.games == 1 and tally.messages > 50 and tally.bot_inputs > 20
    assert tally.refusals >= 8  # record and replay, at both processes, before and during
    assert tally.reused > 0  # the same state's views, met again on another socket


def test_leak_check_through_two_processes_catches_a_leak(two, monkeypatch):
    """Not vacuous: a card added to one view a socket got is caught after the game."""
    real = leak_check.Socket.read

    async def tampered(self, timeout: float = 20) -> dict:
        message = await real(self, timeout)
        if message.get("type") == "state" and message["log"] and self.seat == 1:
            message["view"] = {**message["view"], "draw": [42]}
        return message

    monkeypatch.setattr(leak_check.Socket, "read", tampered)
    tally = leak_check.run_cluster_config(two, "the-game", 2, 1, 1)
    assert tally.leaks > 0 and "not state.view(1)" in tally.examples[0], tally.examples


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
@pytest.mark.parametrize("target", ["ws", "http"])
def test_fuzz_through_two_processes(target, two):
    tally = fuzz.run_target(target, 80, derandomize=True, cluster=two)
    assert tally.cases >= 40
    assert tally.problems == 0, tally.examples
    assert tally.refused > 0


def test_a_server_error_logged_by_either_process_is_a_crash(two):
    """What the fuzzer's cluster targets count as a crash besides a 5xx: a traceback in
    either process's log."""
    watch = fuzz.LogWatch(two)
    assert watch.new() == []
    with open(two.procs[1].log, "a") as log:
        log.write("Traceback (most recent call last):\n  boom\n")
    assert watch.new() == ["Traceback (most recent call last):"]
    assert watch.new() == []
    with open(two.procs[1].log, "a") as log:  # (the fixture's own check would count it)
        log.truncate(0)


def test_an_id_no_table_can_have_is_not_found_at_either_process(two):
    """An id the router never routes (over 64 characters, or with a dot) reached a process that
    held no lease on it, which refused it with 503 ``moved`` ("try again"), for ever (found
    by the fuzzer's two-process mode after the holder rule); no table has such an id."""
    import httpx

    for server in two.procs:
        for path in ("x" * 65, "x" * 500, "a.b", "x" * 65 + "/record", "x" * 65 + "/replay"):
            got = httpx.get(f"{server.base}/api/tables/{path}")
            assert got.status_code == 404 and got.json()["error"] == "not_found", (path, got.text)
