"""A short run of the load benchmark (bench/load.py): real websocket clients in their own
process against one server process. The long runs and their figures are in
docs/reliability.md ("Load")."""

from __future__ import annotations

import os

import pytest

from helpers import load_bench

pytestmark = [pytest.mark.skipif(os.name != "posix", reason="/proc"),
              pytest.mark.own_process]  # killed, restarted or timed: a process of its own


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
