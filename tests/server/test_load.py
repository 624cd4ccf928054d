"""A short run of the load benchmark (bench/load.py): real websocket clients in their own
process against one server process. The long runs and their figures are in
docs/reliability.md ("Load")."""

from __future__ import annotations

import os
import shutil

import pytest

from helpers import load_bench

pytestmark = [
    pytest.mark.skipif(os.name != "posix", reason="/proc"),
    pytest.mark.own_process,
]  # killed, restarted or timed: a process of its own


@pytest.mark.perf
def test_twenty_tables_of_four_clients_lose_nothing_and_stay_quick():
    bench = load_bench("load")
    r = bench.run_one(tables=20, seconds=8, period=1.0, procs=1, spy=None, server_args=[])
    print({k: v for k, v in r.items() if k != "error_kinds"}, r["error_kinds"])
    assert r["errors"] == 0, r["error_kinds"]
    assert r["actions_per_s"] > 20  # 80 clients acting about once a second
    # generous bounds for a shared CI machine; the real figures are in docs/reliability.md
    assert r["p50_ms"] < 250, r
    assert r["kb_per_connection"] < 200, r


@pytest.mark.perf
@pytest.mark.skipif(
    shutil.which("redis-server") is None and not os.environ.get("CARDTABLE_TEST_NEED_REDIS"),
    reason="no redis-server",
)
def test_three_processes_with_every_table_spread_over_them_lose_nothing():
    """Each table's four seats reach three different processes: three sockets of four are
    forwarded to the table's holder over the bus, and every action still reaches all four."""
    bench = load_bench("load")
    r = bench.run_one(
        tables=12,
        seconds=6,
        period=1.0,
        procs=1,
        spy=None,
        server_args=[],
        server_procs=3,
        spread=True,
    )
    print({k: v for k, v in r.items() if k != "error_kinds"}, r["error_kinds"])
    assert r["errors"] == 0, r["error_kinds"]
    assert r["actions_per_s"] > 12
    assert r["p50_ms"] < 400, r
