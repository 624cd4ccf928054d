"""``GET /metrics`` on the server's own metrics port (``--metrics-port``), scraped during a
real game: a person's websocket against a bot seat, a spectator's, and a refused action.
The counters move, the live gauges see the table and its sockets, no label names a table
or a person, and the public port serves no metrics."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families

from server.conftest import PG, Client, InProcessServer, free_port, fresh_pg_database

#: the only label names a metric may have (bounded: never a table, a player, an address)
LABELS = {"game", "status", "code", "bot", "kind", "state", "side", "le", "quantile"}


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
def measured(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[InProcessServer]:
    url = (
        f"sqlite:///{tmp_path / 'cardtable.sqlite'}"
        if request.param == "sqlite"
        else fresh_pg_database(PG)
    )
    port = free_port()
    srv = InProcessServer(url, tmp_path, ["--metrics-port", str(port)])
    srv.metrics = f"http://127.0.0.1:{port}/metrics"  # type: ignore[attr-defined]
    srv.start()
    yield srv
    srv.stop()


def scrape(server: InProcessServer) -> dict[tuple[str, frozenset], float]:
    """Every sample: (name, its labels) -> value."""
    answer = httpx.get(server.metrics, timeout=5)  # type: ignore[attr-defined]
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("text/plain")
    samples = {}
    for family in text_string_to_metric_families(answer.text):
        for s in family.samples:
            if s.name.startswith("cardtable_"):
                assert set(s.labels) <= LABELS, (s.name, s.labels)
            samples[s.name, frozenset(s.labels.items())] = s.value
    return samples


def value(samples: dict, name: str, **labels: str) -> float:
    return samples.get((name, frozenset(labels.items())), 0.0)


async def play(server: InProcessServer) -> tuple[str, list]:
    """A person against a greedy bot, watched by a spectator: a few of the person's actions
    accepted, one refused as stale; the sockets left open (the caller scrapes meanwhile)."""
    ada, bo = Client(server, "Ada"), Client(server, "Bo")
    table = ada.new_table("slide", ["me", "greedy"])
    sock, watcher = await ada.connect(table["id"]), await bo.connect(table["id"])
    await watcher.recv()
    acked = 0
    from cardtable.bots import make_bot

    bot = make_bot("greedy", "slide")
    while acked < 4:
        state = await sock.until(
            lambda s: (
                s["table"]["status"] == "over" or (s["legal"] and s["seat"] in s["view"]["to_act"])
            )
        )
        if state["table"]["status"] == "over":
            break
        answer = await sock.act(bot.choose(state["view"], state["legal"]))
        acked += answer["type"] == "ack"
    stale = await sock.act(sock.state["legal"][0] if sock.state["legal"] else "x", version=0)
    assert stale["type"] == "error" and stale["code"] == "stale", stale
    return table["id"], [sock, watcher]


def test_metrics_move_during_a_real_game(measured: InProcessServer) -> None:
    before = scrape(measured)

    async def game_then_scrape() -> dict:
        _, sockets = await play(measured)
        await asyncio.sleep(0.2)  # the last writes done
        during = await asyncio.to_thread(scrape, measured)
        for s in sockets:
            await s.close()
        return during

    after = asyncio.run(game_then_scrape())

    def moved(name: str, **labels: str) -> float:
        return value(after, name, **labels) - value(before, name, **labels)

    assert moved("cardtable_actions_accepted_total", game="slide") >= 4 + 1  # (the bot's too)
    assert moved("cardtable_actions_refused_total", game="slide", code="stale") == 1
    assert moved("cardtable_action_seconds_count", game="slide") >= 4
    assert 0 < moved("cardtable_action_seconds_sum", game="slide") < 60
    assert moved("cardtable_bot_decision_seconds_count", game="slide", bot="greedy") >= 1
    assert moved("cardtable_db_committed_actions_total") >= 5
    assert moved("cardtable_db_commit_seconds_count") >= 1
    # the live gauges, read while the sockets were open
    assert value(after, "cardtable_tables", game="slide", status="running") >= 1
    assert value(after, "cardtable_connections", kind="seated") == 1
    assert value(after, "cardtable_connections", kind="spectator") == 1
    assert ("cardtable_bot_workers", frozenset({("state", "busy")})) in after
    assert ("cardtable_review_queue", frozenset()) in after
    assert value(after, "cardtable_ready") == 1
    assert value(after, "process_cpu_seconds_total") > 0


def test_metrics_are_not_on_the_public_port_and_count_refusals(measured: InProcessServer) -> None:
    before = scrape(measured)
    with httpx.Client(base_url=measured.base) as http:
        assert http.get("/metrics").status_code == 404
        for _ in range(7):  # recovery codes: a burst of 5, then one a minute
            http.post("/api/me/recover", json={"code": "no-such-code"})
    assert httpx.get(measured.metrics.replace("/metrics", "/other")).status_code == 404  # type: ignore[attr-defined]
    after = scrape(measured)
    refused = value(after, "cardtable_rate_limited_total", code="too_many_tries") - value(
        before, "cardtable_rate_limited_total", code="too_many_tries"
    )
    assert refused >= 1
