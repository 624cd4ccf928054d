"""What the server measures of itself, for Prometheus (``prometheus-client``): counters and
histograms that the parts below the web edge note as things happen, and a collector that
reads the live state (tables, connections, workers, queues) only when it is scraped.

Every metric lives in one registry of this module's (``REGISTRY``), served by the web edge
on its own port (``--metrics-port``; docs/server.md, "Health, metrics and logs"). Labels are
few and bounded: a game, a table status, an error code, a bot's name, a limit's code; never
a table, a player or an address. Each per-action note costs a dict lookup and a lock
(``Child`` objects are looked up once per label set and kept), a few microseconds beside
the ~0.8 ms an action costs.

Single-process collection suffices: the bot workers and the review workers are process
pools whose calls are timed here, in the server process that waits for them, so nothing is
measured inside a worker. With several server processes (``--bus``), each is a target of
its own.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from typing import Any

from prometheus_client import (
    CollectorRegistry,
    Counter,
    Histogram,
    PlatformCollector,
    ProcessCollector,
)
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector

__all__ = ["REGISTRY", "LastSent", "LiveCollector", "note_action", "note_bot", "note_refusal"]

REGISTRY = CollectorRegistry(auto_describe=True)
ProcessCollector(registry=REGISTRY)  # process_cpu_seconds_total, memory, open files
PlatformCollector(registry=REGISTRY)  # python_info

#: seconds: a person's action, from its frame read to its last view written
ACTION_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
#: seconds: a bot's decision (greedy: microseconds; search: up to --bot-timeout)
BOT_BUCKETS = (0.0005, 0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)
#: seconds: one group commit of actions to the database
COMMIT_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 5.0)

ACTIONS_ACCEPTED = Counter(
    "cardtable_actions_accepted",
    "Actions the rules accepted and the database stored (people's and bots')",
    ["game"],
    registry=REGISTRY,
)
ACTIONS_REFUSED = Counter(
    "cardtable_actions_refused",
    "Actions refused, by error code (stale, illegal, not_your_turn, game_over, ...)",
    ["game", "code"],
    registry=REGISTRY,
)
ACTION_SECONDS = Histogram(
    "cardtable_action_seconds",
    "A person's accepted action over a table socket: from its frame read to the new state "
    "written to the last socket at the table",
    ["game"],
    buckets=ACTION_BUCKETS,
    registry=REGISTRY,
)
BOT_SECONDS = Histogram(
    "cardtable_bot_decision_seconds",
    "A bot's decision of a move, waiting for a worker included",
    ["game", "bot"],
    buckets=BOT_BUCKETS,
    registry=REGISTRY,
)
RATE_LIMITED = Counter(
    "cardtable_rate_limited",
    "Requests and messages refused by a rate limit, by the refusal's code",
    ["code"],
    registry=REGISTRY,
)
COMMIT_SECONDS = Histogram(
    "cardtable_db_commit_seconds",
    "One group commit of actions (one transaction for many tables' actions)",
    buckets=COMMIT_BUCKETS,
    registry=REGISTRY,
)
COMMIT_ROWS = Counter(
    "cardtable_db_committed_actions", "Actions committed by group commit", registry=REGISTRY
)
FORWARDS = Counter(
    "cardtable_bus_forwards",
    "Requests about a table forwarded to its holder over the bus, by the side: sent (this "
    "process forwarded it) or run (this process held the table)",
    ["side", "kind"],
    registry=REGISTRY,
)
FAILOVERS = Counter(
    "cardtable_bus_failovers",
    "Tables this process took over from a dead process",
    registry=REGISTRY,
)
DEAD_PROCESSES = Counter(
    "cardtable_bus_dead_processes",
    "Dead processes whose tables this process took over",
    registry=REGISTRY,
)

_accepted: dict[str, Any] = {}
_refused: dict[tuple[str, str], Any] = {}
_latency: dict[str, Any] = {}
_bots: dict[tuple[str, str], Any] = {}
_limited: dict[str, Any] = {}


def note_action(game: str, answer: dict[str, Any]) -> None:
    """An action's answer (``ack`` or a typed error) counted by game and code."""
    if answer["type"] == "ack":
        child = _accepted.get(game)
        if child is None:
            child = _accepted[game] = ACTIONS_ACCEPTED.labels(game)
    else:
        key = (game, str(answer.get("code")))
        child = _refused.get(key)
        if child is None:
            child = _refused[key] = ACTIONS_REFUSED.labels(*key)
    child.inc()


def note_latency(game: str, seconds: float) -> None:
    child = _latency.get(game)
    if child is None:
        child = _latency[game] = ACTION_SECONDS.labels(game)
    child.observe(seconds)


def note_bot(game: str, spec: str, seconds: float) -> None:
    """A bot's decision, labelled by its name (``search`` for ``search:hard``; ``ext`` for
    every external bot)."""
    key = (game, spec.partition(":")[0])
    child = _bots.get(key)
    if child is None:
        child = _bots[key] = BOT_SECONDS.labels(*key)
    child.observe(seconds)


def note_refusal(code: str) -> None:
    """A rate limit said no (``rate_limited``, ``chat_rate_limited``, ``too_many_tries``...)."""
    child = _limited.get(code)
    if child is None:
        child = _limited[code] = RATE_LIMITED.labels(code)
    child.inc()


class LastSent:
    """One accepted action's latency, observed once the state it caused has been written
    to the last of the sockets it was queued for (``done`` once per socket)."""

    __slots__ = ("game", "left", "start")

    def __init__(self, game: str, start: float, sockets: int) -> None:
        self.game, self.start, self.left = game, start, sockets
        if sockets == 0:
            note_latency(game, time.perf_counter() - start)

    def done(self) -> None:
        self.left -= 1
        if self.left == 0:
            note_latency(self.game, time.perf_counter() - self.start)


class LiveCollector(Collector):
    """The gauges read from live objects at each scrape: ``read`` returns
    ``(name, help, labels, [(label values, value), ...])`` for each gauge. Nothing is
    counted per action for these: a scrape walks the live tables once."""

    def __init__(self, read: Callable[[], Iterable[tuple[str, str, list[str], list[Any]]]]):
        self.read = read

    def collect(self) -> Iterable[GaugeMetricFamily]:
        for name, doc, labels, samples in self.read():
            family = GaugeMetricFamily(name, doc, labels=labels)
            for values, value in samples:
                family.add_metric(list(values), value)
            yield family

    def describe(self) -> Iterable[GaugeMetricFamily]:
        return []
