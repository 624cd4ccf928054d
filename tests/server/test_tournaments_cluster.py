"""A tournament with several server processes: one runs it at a time (its lease on the bus),
and when that process is killed mid-round another finishes it (issue #28)."""

from __future__ import annotations

import asyncio
import re

import httpx
import pytest

from cardtable.botclient import BotClient
from server.conftest import Client
from server.test_bot_accounts import as_bot, make_bot_account
from server.test_cluster import NO_REDIS, holder, make_cluster, redis_url  # noqa: F401 (fixtures)
from server.test_tournaments import until_over

pytestmark = [
    pytest.mark.asyncio,
    pytest.mark.own_process,
    pytest.mark.skipif(NO_REDIS, reason="no redis-server (apt-get install redis-server)"),
]


def bus_id(server) -> str:
    log = (server.data / "server.log").read_text()
    return re.findall(r"as process ([0-9a-f]+)", log)[-1]


async def test_a_tournament_whose_runner_is_killed_mid_round_is_finished_by_another(
    make_cluster,  # noqa: F811
    redis_url,  # noqa: F811
):
    a, b = make_cluster(2)
    ann = Client(a, "Ann")
    tokens = [make_bot_account(ann, f"Robo {i}")[1] for i in range(4)]
    made = ann.post(
        "/api/tournaments",
        {
            "name": "Relay",
            "game": "slide",
            "table_size": 2,
            "rounds": 2,
            "starts_in": 3600,
            "bots": True,
        },
    )
    for token in tokens:
        with as_bot(a, token) as bot:
            assert bot.post(f"/api/tournaments/{made['id']}/enter", json={}).status_code == 200
    ann.post(f"/api/tournaments/{made['id']}/start")
    deadline = asyncio.get_running_loop().time() + 30
    while True:  # round 1 paired, its tables created by the runner's process
        info = httpx.get(f"{b.base}/api/tournaments/{made['id']}").json()
        if info["round"] == 1 and all(
            t["status"] == "running" for t in info["round_list"][0]["tables"]
        ):
            break
        assert asyncio.get_running_loop().time() < deadline, info
        await asyncio.sleep(0.2)
    runner = holder(redis_url, f"tournament:{made['id']}")
    killed, survivor = (a, b) if runner == bus_id(a) else (b, a)
    assert runner == bus_id(killed)
    killed.kill()  # SIGKILL: the runner and the holder of round 1's tables, mid-round
    clients = [
        BotClient(survivor.base, t, "greedy", games=2, timeout=30, say=lambda s: None)
        for t in tokens
    ]
    played = await asyncio.wait_for(asyncio.gather(*(c.run() for c in clients)), 180)
    assert all(len(games) == 2 for games in played)
    info = await until_over(survivor, made["id"], timeout=60)
    assert [r["number"] for r in info["round_list"]] == [1, 2]
    assert all(line["games"] == 2 for line in info["standings"])
    assert holder(redis_url, f"tournament:{made['id']}") == bus_id(survivor)
    # nobody met twice while it could be avoided: four entrants, two rounds
    pairs = [frozenset(t["players"]) for r in info["round_list"] for t in r["tables"]]
    assert len(set(pairs)) == 4
    assert "Traceback" not in (survivor.data / "server.log").read_text()
