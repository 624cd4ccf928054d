"""Bad input: property-based fuzzing (hypothesis) of every way input gets in.

    python bench/fuzz.py [--cases 100000] [--targets act,deal,replay,ws,http] [--seed 0]

The cases are split evenly over the targets. Per target it counts:

- crashes: an exception of a kind the target must never raise (or a 5xx answer);
- state changes: a refused input that changed something (snapshot, version, the store);
- untyped: a refusal without its typed error or without a readable message.

Targets and what each must do:

- ``act``: random seats and actions (random text, objects, mutated legal actions) on states
  taken along games of every configuration -> accepted only if legal, else an
  ``IllegalAction`` subclass with a non-empty ``reason`` and the snapshot unchanged.
- ``deal``: random game names, seeds, player counts and options into ``Game.deal`` (the
  entry for options nobody has checked) -> a state or ``BadOptions``.
- ``replay``: records of real games mutated (fields removed, added, retyped; actions
  truncated, swapped, duplicated, edited) and garbage -> a state equal to its own replay with
  every action applied, or ``BadRecord``.
- ``ws``: messages into ``app.handle_message`` on a real in-process ``Hub`` (random JSON, wrong
  types, truncated and huge texts, deep nesting, repeated ids, old and future versions, legal
  actions now and then so games move) -> an ``error``, ``ack`` or ``pong`` dict that can be sent
  as UTF-8 JSON; on an error the table (state, version, status) is unchanged.
- ``http``: random bodies to every POST route and random path parameters to every route, with
  FastAPI's ``TestClient`` on ``create_app`` (its lifespan run) -> never 5xx; a 4xx answer is
  JSON with ``error`` and ``message``, except FastAPI's own 422 (body validation, JSON
  ``detail``), counted apart; a 4xx answer leaves the store unchanged.

    python bench/fuzz.py --processes 2 [--db postgresql://...] [--cases 20000]

With ``--processes 2`` the ``ws`` and ``http`` targets (the default targets then) go over real
connections to two ``cardtable serve --bus`` processes on one database and one Redis
(``cluster.py``; a fresh PostgreSQL database in the server ``--db`` names, else an SQLite
file), their bots never moving on their own. Every table is created at one process and every
case is sent to the other, so a request or message about a table is forwarded to its holder
(``server/cluster/tunnel.py``):

- ``ws``: each case's text is sent as a text frame (as bytes when it is not UTF-8) on a socket
  of the table's seat or a spectator, through the non-holding process; the answer is the next
  ``error``, ``ack`` or ``pong`` (the state broadcasts in between keep the socket's legal
  actions and version for the placeholders). Three sets of tables, each with two people, share
  the message rate out; the rate is not emptied by hand as in process (a ``rate_limited``
  answer is a refusal like any other). A refused case must leave the table's stored version,
  status and actions as they were; a socket closed by the websocket protocol itself (1007 not
  UTF-8, 1009 too big) is a refusal, any other close a crash.
- ``http``: the same requests with ``httpx`` to the non-holding process, the store's
  fingerprint read from the shared database.

A crash is also any traceback or ``ERROR`` line either process logs meanwhile.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import sys
import tempfile
import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from cardtable import games
from cardtable.core.errors import BadOptions, BadRecord, IllegalAction

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the benches' shared modules
from cluster import Cluster  # noqa: E402

PROGRESS = 0  # print running counts to stderr every N cases (--progress)
TARGETS = ("act", "deal", "replay", "ws", "http")
CONFIGS = [
    (g, n)
    for g in ("doublets", "slide", "the-game")
    for n in range(games.get(g).min_players, games.get(g).max_players + 1)
]


@dataclass
class Tally:
    cases: int = 0
    accepted: int = 0
    refused: int = 0
    crashes: int = 0
    state_changes: int = 0
    untyped: int = 0
    framework: int = 0  # FastAPI's 422 (documented)
    examples: list[str] = field(default_factory=list)

    def bad(self, kind: str, what: str) -> None:
        setattr(self, kind, getattr(self, kind) + 1)
        if len(self.examples) < 8:
            self.examples.append(f"{kind}: {what}"[:300])

    @property
    def problems(self) -> int:
        return self.crashes + self.state_changes + self.untyped


# -- strategies -------------------------------------------------------------------------------
scalars = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.integers(-3, 8)
    | st.floats(allow_nan=True)
    | st.text(max_size=20)
)
json_values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=10,
)
WORDS = [
    "take",
    "reveal",
    "play",
    "flip",
    "redeal",
    "end",
    "signal",
    "waste",
    "left",
    "right",
    "top",
    "bottom",
    "up1",
    "up2",
    "down1",
    "down2",
    "avoid",
    "small",
    "good",
    "clear",
    "a1",
    "d4",
    "e5",
    "r1",
    "r7",
    "r0",
    "0",
    "1",
    "07",
    "10",
    "11",
    "99",
    "100",
    "²",
    "١",
    "-1",
    "",
    " ",
    "\x00",
    "\ud800",
    "PLAY",
    "Take",
]
word_salad = st.lists(st.sampled_from(WORDS), min_size=1, max_size=4).map(" ".join)


def mutate(text: str, r: random.Random) -> str:
    """One small damage to a text: cut, doubled, case, spaces, a character, a word."""
    how = r.randrange(9)
    if how == 0:
        return text[: r.randrange(len(text) + 1)]
    if how == 1:
        return text + " " + text
    if how == 2:
        return text.upper()
    if how == 3:
        return " " + text.replace(" ", "  ") + "\t"
    if how == 4:
        i = r.randrange(len(text) + 1)
        return text[:i] + r.choice(["x", "0", "\u00a0", "\n", "'", "\\", "é", "\ud800"]) + text[i:]
    if how == 5:
        words = text.split(" ")
        words[r.randrange(len(words))] = r.choice(WORDS)
        return " ".join(words)
    if how == 6:
        return text * r.randrange(2, 40)
    if how == 7:
        return text.replace("1", "１")  # a full-width digit
    return text[::-1]


def states_pool(per_config: int, seed: int) -> list:
    """States along random games of every configuration (a mix of greedy and random moves)."""
    from cardtable.bots import make_bot

    r = random.Random(seed)
    pool = []
    for name, n in CONFIGS:
        for k in range(per_config):
            state = games.get(name).deal(seed * 1000 + k, n)
            greedy = make_bot("greedy", name)
            stop = r.randrange(300)
            while not state.over and len(state.actions) < stop:
                seat = r.choice(state.to_act())
                legal = state.legal(seat)
                action = (
                    greedy.choose(state.view(seat), legal) if r.random() < 0.7 else r.choice(legal)
                )
                state.act(seat, action)
            pool.append(state)
    return pool


def run_given(
    test: Callable,
    strategy: Any,
    cases: int,
    derandomize: bool,
    seed: int,
    tally: Tally | None = None,
) -> None:
    """Run ``test`` on ``cases`` examples of ``strategy``: generation only, no shrinking (the
    targets count problems instead of failing), deterministic when asked."""
    config = settings(
        max_examples=cases,
        deadline=None,
        database=None,
        derandomize=derandomize,
        phases=[Phase.generate],
        suppress_health_check=list(HealthCheck),
    )

    def counted(case: Any) -> None:
        test(case)
        if PROGRESS and tally is not None and tally.cases % PROGRESS == 0:
            print(
                f"  {tally.cases} cases, {tally.crashes} crashes, {tally.state_changes} "
                f"state changes, {tally.untyped} untyped",
                file=sys.stderr,
                flush=True,
            )

    run = config(given(strategy)(counted))
    if not derandomize:
        from hypothesis import seed as hseed

        run = hseed(seed)(run)
    run()


# -- engine targets ---------------------------------------------------------------------------
def target_act(cases: int, derandomize: bool, seed: int) -> Tally:
    tally = Tally()
    pool = states_pool(4, seed)
    seats = st.integers(-2, 7) | st.none() | st.booleans() | st.text(max_size=3) | st.floats()

    @st.composite
    def case(draw):
        state = draw(st.sampled_from(pool))
        seat = draw(seats | st.sampled_from(state.to_act() or (0,)))
        legal = [a for s in range(state.players) for a in state.legal(s)] or ["flip"]
        kind = draw(st.integers(0, 4))
        if kind == 0:
            action = draw(st.text(max_size=80))
        elif kind == 1:
            action = draw(word_salad)
        elif kind == 2:
            action = mutate(draw(st.sampled_from(legal)), draw(st.randoms()))
        elif kind == 3:
            action = draw(st.sampled_from(legal))  # legal for some seat, maybe not this one
        else:
            action = draw(json_values | st.binary(max_size=8) | st.just(object()))
        return state, seat, action

    def test(c):
        state, seat, action = c
        tally.cases += 1
        state = state.clone()
        before = state.snapshot()
        lawful = (
            isinstance(seat, int)
            and not isinstance(seat, bool)
            and 0 <= seat < state.players
            and action in state.legal(seat)
        )
        try:
            state.act(seat, action)
        except IllegalAction as e:
            tally.refused += 1
            if lawful:
                tally.bad("crashes", f"legal {action!r} by {seat!r} refused: {e.reason}")
            if not (isinstance(e.reason, str) and e.reason.strip()):
                tally.bad("untyped", f"{type(e).__name__} without a reason")
            if state.snapshot() != before:
                tally.bad("state_changes", f"{action!r} by {seat!r} refused, state changed")
        except Exception as e:  # noqa: BLE001 - counted, not raised
            tally.bad("crashes", f"act({seat!r}, {action!r}): {type(e).__name__}: {e}")
        else:
            tally.accepted += 1
            if not lawful:
                tally.bad("crashes", f"act({seat!r}, {action!r}) accepted but not legal")

    run_given(test, case(), cases, derandomize, seed, tally)
    return tally


def target_deal(cases: int, derandomize: bool, seed: int) -> Tally:
    tally = Tally()
    option_names = sorted({o.name for g in games.names() for o in games.get(g).options})
    names = st.sampled_from(games.names()) | st.text(max_size=10)
    seeds = (
        st.integers(-5, 2**64)
        | st.integers(0, 100)
        | st.floats()
        | st.none()
        | st.booleans()
        | st.text(max_size=5)
        | st.just(2**256 - 1)
        | st.just(2**256)
    )
    players = st.integers(-2, 8) | st.none() | st.booleans() | st.floats() | st.text(max_size=3)
    options = st.dictionaries(
        st.sampled_from(option_names) | st.text(max_size=8),
        json_values | st.integers(-3, 200),
        max_size=4,
    )

    def test(c):
        name, s, n, opts = c
        tally.cases += 1
        try:  # deal: options as they come from a request, a record or -o (any keys)
            state = games.get(name).deal(s, n, opts)
        except BadOptions as e:
            tally.refused += 1
            if not (isinstance(e.reason, str) and e.reason.strip()):
                tally.bad("untyped", f"BadOptions without a reason for {c!r}")
        except Exception as e:  # noqa: BLE001
            tally.bad("crashes", f"deal{c!r}: {type(e).__name__}: {e}")
        else:
            tally.accepted += 1
            if state.to_act() == () and not state.over:
                tally.bad("crashes", f"deal{c!r} gave a state nobody can play")

    run_given(test, st.tuples(names, seeds, players, options), cases, derandomize, seed, tally)
    return tally


def record_pool(seed: int) -> list[dict]:
    pool = [s.record() for s in states_pool(2, seed + 1)]
    for name, n in CONFIGS[::3]:  # some finished games too
        state = games.get(name).deal(seed, n)
        state.playout(["greedy"] * n, random.Random(seed))
        pool.append(state.record())
    return pool


def _plus1(x: Any) -> Any:
    return x + 1 if isinstance(x, int) else 1


def damage_record(record: dict, r: random.Random, junk: Any) -> Any:
    try:
        return _damage(record, r, junk)
    except (KeyError, TypeError, IndexError, ValueError):  # damaged twice: a field is gone
        return record


def _damage(record: dict, r: random.Random, junk: Any) -> Any:
    rec = json.loads(json.dumps(record))
    if not isinstance(rec.get("actions"), list):  # damaged twice: actions gone already
        return rec
    how = r.randrange(12)
    keys = list(rec)
    actions = rec["actions"]
    if how == 0:
        del rec[r.choice(keys)]
    elif how == 1:
        rec[r.choice(["extra", "Game", ""])] = junk
    elif how == 2:
        rec[r.choice(keys)] = junk
    elif how == 3:
        del actions[r.randrange(len(actions) + 1) :]  # truncated: a valid earlier moment
    elif how == 4 and actions:
        i, j = r.randrange(len(actions)), r.randrange(len(actions))
        actions[i], actions[j] = actions[j], actions[i]
    elif how == 5 and actions:
        i = r.randrange(len(actions))
        actions.insert(i, list(actions[i]))
    elif how == 6 and actions:
        pair = r.choice(actions)
        pair[1] = mutate(pair[1], r)
    elif how == 7 and actions:
        pair = r.choice(actions)
        pair[0] = r.choice([_plus1(pair[0]), -1, None, "0", 0.0, True, [0], junk])
    elif how == 8 and actions:
        actions[r.randrange(len(actions))] = r.choice([[0], [0, "flip", 1], "0 flip", junk, []])
    elif how == 9:
        rec["options"] = r.choice([junk, {"start": junk}, {"nope": 1}, [], {1: 2}, None])
    elif how == 10:
        rec["seed"] = r.choice([_plus1(rec["seed"]), -1, 2**256, "1", 1.0, None, junk])
    else:
        rec["players"] = r.choice([_plus1(rec["players"]), 0, 7, "2", None, True, junk])
    return rec


def target_replay(cases: int, derandomize: bool, seed: int) -> Tally:
    tally = Tally()
    pool = record_pool(seed)
    garbage = json_values | st.dictionaries(
        st.sampled_from(["game", "version", "seed", "players", "options", "actions"]),
        json_values,
        max_size=6,
    )
    records = st.one_of(
        st.builds(damage_record, st.sampled_from(pool), st.randoms(), json_values),
        st.builds(
            lambda rec, r, j: damage_record(damage_record(rec, r, j), r, j),
            st.sampled_from(pool),
            st.randoms(),
            json_values,
        ),
        garbage,
    )

    def test(rec):
        tally.cases += 1
        try:
            state = games.replay(rec)
        except BadRecord as e:
            tally.refused += 1
            if not (isinstance(e.reason, str) and e.reason.strip()):
                tally.bad("untyped", "BadRecord without a reason")
        except Exception as e:  # noqa: BLE001
            tally.bad("crashes", f"replay: {type(e).__name__}: {e} for {str(rec)[:150]}")
        else:
            tally.accepted += 1
            # never half-built: every action applied, and the state is its own replay
            if [list(a) for a in state.actions] != [
                list(a) for a in rec["actions"]
            ] or games.replay(state.record()) != state:
                tally.bad("state_changes", f"replay gave a partial state for {str(rec)[:150]}")

    run_given(test, records, cases, derandomize, seed, tally)
    return tally


# -- server targets ---------------------------------------------------------------------------
class WsBench:
    """A Store on a temporary SQLite file, a Hub, one table per game (renewed when over)."""

    def __init__(self, folder: str) -> None:
        from cardtable.server.storage.store import Store
        from cardtable.server.tables.conn import Conn
        from cardtable.server.tables.hub import Hub

        self.store = Store(f"sqlite:///{folder}/ws.sqlite")
        self.hub = Hub(self.store, bot_delay=0)
        self.people = [self.store.new_player(f"p{s}")[0] for s in range(3)]
        self.tables: dict[str, Any] = {}
        self.Conn = Conn

    def table(self, kind: str) -> Any:
        table = self.tables.get(kind)
        if table is None or table.status == "over" and kind != "over":
            seats = {
                "doublets": ["me"],
                "slide": ["me", "open"],
                "the-game": ["me", "open"],
                "open": ["me", "open"],
                "over": ["me"],
            }[kind]
            game = {"open": "slide", "over": "doublets"}.get(kind, kind)
            table = self.hub.create(self.people[0], game, seats, {}, random.randrange(10**6))
            if seats.count("open") and kind != "open":
                asyncio.get_event_loop().run_until_complete(self.hub.join(table, self.people[1], 1))
            if kind == "over":
                state = table.state
                while not state.over:  # finish it through the hub's checked path
                    asyncio.get_event_loop().run_until_complete(
                        self.hub.act(table, 0, state.legal(0)[0])
                    )
                    state = table.state
            self.tables[kind] = table
        return table


LEGAL, NOW = "\x00legal", "\x00now"  # placeholders, filled in from the table at run time


# The strategy must not read the tables (hypothesis wants the same draws to give the same
# case), so a legal action and the current version are placeholders filled in by the test.
#: "\x00": PostgreSQL's text refuses it, where SQLite stores it (an id is stored with its action)
ws_ids = (
    st.none() | st.sampled_from(["a", "b", "c", "d", "a\x00b"]) | st.text(max_size=70) | json_values
)
ws_versions = (
    st.none()
    | st.just(NOW)
    | st.integers(-3, 3).map(lambda d: (NOW, d))
    | st.integers()
    | json_values
)
ws_actions = (
    st.just(LEGAL)
    | st.just(LEGAL)
    | word_salad
    | st.text(max_size=80)
    | json_values
    | st.just((LEGAL, 30))
)
ws_structured = st.fixed_dictionaries(
    {"type": st.sampled_from(["act", "act", "act", "ping", "pong", "ACT"]) | json_values},
    optional={"action": ws_actions, "version": ws_versions, "id": ws_ids, "extra": json_values},
)
ws_texts = st.one_of(
    st.tuples(st.just("json"), ws_structured, st.none()),
    st.tuples(st.just("cut"), ws_structured, st.floats(0, 1)),  # truncated
    st.tuples(st.just("raw"), json_values.map(json.dumps), st.none()),
    st.tuples(st.just("raw"), st.text(max_size=200), st.none()),
    st.tuples(st.just("raw"), st.integers(1, 3000).map(lambda k: "[" * k + "]" * k), st.none()),
    st.tuples(
        st.just("raw"),
        st.integers(4000, 9000).map(lambda k: json.dumps({"type": "act", "action": "x" * k})),
        st.none(),
    ),
    st.tuples(
        st.just("raw"), st.just('{"type": "act", "action": "flip", "id": "\\ud800"}'), st.none()
    ),
)


def ws_text(case: tuple, legal: list[str], version: int, r: random.Random) -> str:
    """The raw text of a drawn message, placeholders filled in."""
    how, body, cut = case
    if how == "raw":
        return body
    message = dict(body)
    action = message.get("action")
    if action == LEGAL or action == (LEGAL, 30):
        pick = r.choice(legal) if legal else "flip"
        message["action"] = pick if action == LEGAL else pick * 30
    got = message.get("version")
    if got == NOW or isinstance(got, tuple):
        message["version"] = version + (got[1] if isinstance(got, tuple) else 0)
    text = json.dumps(message)
    return text[: int(len(text) * cut)] if how == "cut" else text


def target_ws(cases: int, derandomize: bool, seed: int, folder: str) -> Tally:
    tally = Tally()
    from cardtable.server.tables.conn import MESSAGE_BURST
    from cardtable.server.web.socket import handle_message

    loop = asyncio.new_event_loop()
    asyncio.set_event_loop(loop)
    bench = WsBench(folder)

    kinds = st.sampled_from(["doublets", "slide", "the-game", "open", "over"])
    cases_ = st.tuples(
        kinds,
        st.sampled_from([0, 0, 1, None]),
        ws_texts,
        st.randoms(use_true_random=True),  # it picks from live legal lists
        st.booleans(),
    )

    def test(c):
        kind, seat, drawn, r, refill = c
        table = bench.table(kind)
        if seat is not None and seat >= table.players:
            seat = 0
        legal = table.state.legal(seat) if seat is not None else []
        raw = ws_text(drawn, legal, table.version, r)
        tally.cases += 1
        conn = bench.Conn(seat=seat, player_id=None)
        if not refill:
            conn.bucket.tokens = 0  # now and then, as a client that sends too fast
        else:
            conn.bucket.tokens = MESSAGE_BURST
        before = (table.state.snapshot(), table.version, table.status)
        try:
            answer = loop.run_until_complete(handle_message(bench.hub, table, conn, raw))
        except Exception as e:  # noqa: BLE001
            tally.bad("crashes", f"handle_message({raw[:100]!r}): {type(e).__name__}: {e}")
            return
        judge_ws(
            tally,
            raw,
            answer,
            lambda: (table.state.snapshot(), table.version, table.status) != before,
        )

    try:
        run_given(test, cases_, cases, derandomize, seed, tally)
    finally:
        bench.store.close()
        loop.close()
        asyncio.set_event_loop(None)
    return tally


def judge_ws(tally: Tally, raw: str, answer: Any, changed: Callable[[], bool]) -> None:
    """An answer must be a typed ``error``, ``ack`` or ``pong`` that can be sent; after an
    error, ``changed()`` must say the table is as it was."""
    if not isinstance(answer, dict) or answer.get("type") not in ("error", "ack", "pong"):
        tally.bad("untyped", f"answer {answer!r} to {raw[:100]!r}")
        return
    try:  # as starlette's send_json does
        json.dumps(answer, ensure_ascii=False).encode("utf-8")
    except (TypeError, ValueError) as e:
        tally.bad("crashes", f"answer to {raw[:100]!r} cannot be sent: {e}")
    if answer["type"] == "error":
        tally.refused += 1
        if not (
            answer.get("code")
            and isinstance(answer.get("message"), str)
            and answer["message"].strip()
        ):
            tally.bad("untyped", f"error without code or message: {answer!r}")
        if changed():
            tally.bad(
                "state_changes", f"{raw[:100]!r} refused ({answer['code']}), but the table changed"
            )
    else:
        tally.accepted += 1


class LogWatch:
    """The errors the cluster's processes logged since the last look (each is a crash)."""

    def __init__(self, cluster: Cluster) -> None:
        self.procs = cluster.procs
        self.ends = [p.errors()[1] for p in self.procs]

    def new(self) -> list[str]:
        found = []
        for i, p in enumerate(self.procs):
            if p.log.stat().st_size > self.ends[i]:
                lines, self.ends[i] = p.errors(self.ends[i])
                found += lines
        return found


#: websocket close codes that refuse a frame itself (RFC 6455: not UTF-8, too big)
PROTOCOL_CLOSES = {1007, 1009}
ANSWER_WAIT = 10.0  # seconds for an answer (a rate_limited one holds the next read)


class WsSocket:
    """A real websocket; a reader task keeps the latest state and queues the answers."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.state: dict | None = None
        self.answers: asyncio.Queue = asyncio.Queue()
        self.reader = asyncio.create_task(self.read())

    async def read(self) -> None:
        import websockets

        with contextlib.suppress(websockets.ConnectionClosed):
            async for text in self.ws:
                message = json.loads(text)
                if message.get("type") == "state":
                    self.state = message
                elif message.get("type") in ("error", "ack", "pong"):
                    self.answers.put_nowait(message)
        self.answers.put_nowait(None)  # closed

    async def exchange(self, raw: str) -> dict | None:
        """Send ``raw`` as a text frame (as bytes when it is no UTF-8: a hostile client may);
        the answer, or None if the socket closed."""
        import websockets

        try:
            try:
                await self.ws.send(raw)
            except UnicodeEncodeError:  # a lone surrogate
                await self.ws.send(raw.encode(errors="surrogatepass"), text=True)
        except websockets.ConnectionClosed:
            pass  # the reader says None
        return await asyncio.wait_for(self.answers.get(), ANSWER_WAIT)

    async def close(self) -> None:
        await self.ws.close()
        self.reader.cancel()


#: a Doublets deal that playing the first legal action each time wins
WON_BY_FIRST_MOVES = 1


class WsCluster:
    """Tables created at one process (their holder), played through real websockets to the
    other: ``SETS`` sets of a table per kind, each set with its two people (each person's
    messages have a rate of their own), and one finished table."""

    SETS = 3

    def __init__(self, cluster: Cluster, loop: asyncio.AbstractEventLoop) -> None:
        import httpx

        from cardtable.server.storage.store import make_engine

        self.holder, self.other = cluster.procs
        self.loop = loop
        self.http = httpx.Client(timeout=30)
        self.engine = make_engine(cluster.url)
        self.people = [[self.person() for _ in range(2)] for _ in range(self.SETS)]
        self.tables: dict[tuple[int, str], str] = {}
        self.socks: dict[tuple[str, str | None], WsSocket] = {}

    def close(self) -> None:
        for sock in self.socks.values():
            self.loop.run_until_complete(sock.close())
        self.http.close()
        self.engine.dispose()

    def drop(self, sock: WsSocket) -> None:
        self.loop.run_until_complete(sock.close())
        self.socks = {k: v for k, v in self.socks.items() if v is not sock}

    def person(self) -> str:
        self.http.cookies.clear()  # a known cookie would rename that person
        got = self.http.post(f"{self.holder.base}/api/me", json={"name": "Fuzz"})
        got.raise_for_status()
        self.http.cookies.clear()  # from here on each request names its person by header
        return got.cookies["cardtable_token"]

    def fingerprint(self, table_id: str) -> tuple:
        """The table as stored: version, status, actions."""
        from sqlalchemy import text

        with self.engine.connect() as conn:
            row = conn.execute(
                text("select version, status from tables where id = :id"), {"id": table_id}
            ).one()
            count = conn.execute(
                text("select count(*) from actions where table_id = :id"), {"id": table_id}
            ).scalar()
        return (*row, count)

    def table(self, j: int, kind: str) -> str:
        """The set's table of this kind, a new one when its game is over."""
        j = 0 if kind == "over" else j
        table_id = self.tables.get((j, kind))
        if table_id is not None and (kind == "over" or self.fingerprint(table_id)[1] != "over"):
            return table_id
        seats = {
            "doublets": ["me"],
            "slide": ["me", "open"],
            "the-game": ["me", "open"],
            "open": ["me", "open"],
            "over": ["me"],
        }[kind]
        game = {"open": "slide", "over": "doublets"}.get(kind, kind)
        p0, p1 = self.people[j]
        # the finished table: a deal its first legal actions win (``finish``), since one with
        # no move left is held open for undo (docs/server.md, "A stuck solitaire") and never ends
        deal = {"seed": WON_BY_FIRST_MOVES} if kind == "over" else {}
        got = self.http.post(
            f"{self.holder.base}/api/tables",
            json={"game": game, "seats": seats, **deal},
            headers={"x-cardtable-token": p0},
        )
        got.raise_for_status()
        table_id = got.json()["id"]
        if seats.count("open") and kind != "open":  # joined through the other: forwarded
            self.http.post(
                f"{self.other.base}/api/tables/{table_id}/join",
                json={},
                headers={"x-cardtable-token": p1},
            ).raise_for_status()
        self.tables[(j, kind)] = table_id
        if kind == "over":
            self.loop.run_until_complete(self.finish(self.sock(table_id, p0)))
        return table_id

    def sock(self, table_id: str, token: str | None) -> WsSocket:
        """A socket to the table through the process that does not hold it."""
        import websockets

        sock = self.socks.get((table_id, token))
        if sock is None or sock.ws.close_code is not None:
            query = f"?token={token}" if token else ""
            url = f"ws://127.0.0.1:{self.other.port}/ws/tables/{table_id}{query}"

            async def connect() -> WsSocket:
                new = WsSocket(
                    await websockets.connect(url, max_size=1 << 22, max_queue=None)
                )  # read all: never a slow client
                await self.settle(new)
                return new

            sock = self.socks[(table_id, token)] = self.loop.run_until_complete(connect())
        return sock

    async def settle(self, sock: WsSocket) -> None:
        """Let the socket read what has come (its first state, after a connect)."""
        for _ in range(200):
            await asyncio.sleep(0.005 if sock.state is None else 0)
            if sock.state is not None:
                return

    async def finish(self, sock: WsSocket) -> None:
        """Play a solitaire to its end through its socket (the first legal action each time)."""
        n = 0
        while True:
            state = sock.state
            assert state is not None
            if state["table"]["status"] == "over":
                return
            if not state["legal"]:  # the state after the last action is on its way
                await asyncio.sleep(0.01)
                continue
            n += 1
            answer = await sock.exchange(
                json.dumps(
                    {
                        "type": "act",
                        "action": state["legal"][0],
                        "version": state["version"],
                        "id": f"end-{n}",
                    }
                )
            )
            assert answer is not None, "the socket closed"
            if answer.get("retry_after"):
                await asyncio.sleep(answer["retry_after"])
            assert sock.state is not None  # (as state: a socket's state is never unset)
            while answer["type"] == "ack" and sock.state["version"] < answer["version"]:
                await asyncio.sleep(0.005)


def target_ws_cluster(cases: int, derandomize: bool, seed: int, cluster: Cluster) -> Tally:
    """The ``ws`` target's messages over real websockets through the non-holding process."""
    tally = Tally()
    loop = asyncio.new_event_loop()
    asyncio.set_event_loop(loop)
    bench = WsCluster(cluster, loop)
    watch = LogWatch(cluster)
    kinds = st.sampled_from(["doublets", "slide", "the-game", "open", "over"])
    cases_ = st.tuples(
        kinds, st.sampled_from([0, 0, 1, None]), ws_texts, st.randoms(use_true_random=True)
    )

    def test(c):
        kind, seat, drawn, r = c
        table_id = bench.table(tally.cases % bench.SETS, kind)
        if seat is not None and kind in ("doublets", "over"):
            seat = 0
        sock = bench.sock(
            table_id,
            None
            if seat is None
            else bench.people[0 if kind == "over" else tally.cases % bench.SETS][seat],
        )
        loop.run_until_complete(asyncio.sleep(0))  # the states that came meanwhile
        state = sock.state or {"legal": [], "version": 0}
        raw = ws_text(drawn, state["legal"], state["version"], r)
        tally.cases += 1
        before = bench.fingerprint(table_id)
        try:
            answer = loop.run_until_complete(sock.exchange(raw))
        except TimeoutError:
            answer = "no answer"
            bench.drop(sock)  # a late answer must not be taken for the next one's
        logged = watch.new()
        if logged:
            tally.bad("crashes", f"{raw[:100]!r}: the server logged {logged}")
        elif answer is None and sock.ws.close_code in PROTOCOL_CLOSES:
            tally.refused += 1  # the frame itself refused by the websocket protocol
        elif answer is None:
            tally.bad("crashes", f"{raw[:100]!r}: the socket closed ({sock.ws.close_code})")
        else:
            judge_ws(tally, raw, answer, lambda: bench.fingerprint(table_id) != before)

    try:
        run_given(test, cases_, cases, derandomize, seed, tally)
    finally:
        bench.close()
        loop.close()
        asyncio.set_event_loop(None)
    return tally


def http_setup(client: Any) -> tuple[str, list[str]]:
    """A person (its token) and three tables of theirs (their ids), made through ``client``."""
    me = client.post("/api/me", json={"name": "Ann"})
    token = me.cookies.get("cardtable_token")
    ids = [
        client.post(
            "/api/tables", json={"game": g, "seats": s}, headers={"x-cardtable-token": token}
        ).json()["id"]
        for g, s in (
            ("doublets", ["me"]),
            ("slide", ["me", "open"]),
            ("the-game", ["me", "greedy"]),
        )
    ]
    return token, ids


def fingerprint_of(engine: Any) -> Callable[[], tuple]:
    """What a refused request must not change in the store (players, tables, seats)."""
    from sqlalchemy import text

    sqlite = engine.dialect.name == "sqlite"

    def joined(column: str) -> str:  # in a fixed order on PostgreSQL, whatever moved rows
        return (
            f"group_concat({column})"
            if sqlite
            else f"string_agg({column}::text, ',' order by {column})"
        )

    queries = (
        "select count(*) from players",
        f"select {joined('name')} from players",
        "select count(*) from tables",
        "select sum(version) from tables",
        "select count(*) from actions",
        f"select {joined('bot')} from seats",
        f"select {joined('player_id')} from seats",
    )

    def fingerprint() -> tuple:
        with engine.connect() as conn:
            return tuple(conn.execute(text(q)).scalar() for q in queries)

    return fingerprint


def http_requests(ids: list[str]) -> Any:
    """The strategy of one request: (method, url, body bytes or None, signed)."""
    path_params = (
        st.sampled_from([*ids, "a\x00b"])
        | st.text(max_size=20)
        | st.integers(-5, 10).map(str)
        | st.just("x" * 500)
    )
    seat_params = st.integers(-3, 8).map(str) | st.text(max_size=5) | st.just("1e9")
    seat_specs = st.sampled_from(
        [
            "me",
            "open",
            "greedy",
            "random",
            "search:hard",
            "search:x",
            "cmd:true",
            "ext:nope",
            "expert",
        ]
    )
    bodies = {
        "/api/me": st.fixed_dictionaries({}, optional={"name": json_values | st.text(max_size=30)}),
        "/api/tables": st.fixed_dictionaries(
            {},
            optional={
                "game": st.sampled_from(games.names()) | json_values,
                "seats": st.lists(seat_specs | st.text(max_size=10), max_size=8) | json_values,
                "options": st.dictionaries(st.text(max_size=15), json_values, max_size=9)
                | json_values,
                "seed": st.integers(-2, 2**64) | json_values,
            },
        ),
        "join": st.fixed_dictionaries({}, optional={"seat": st.integers(-2, 8) | json_values}),
        "bot": st.fixed_dictionaries({}, optional={"bot": seat_specs | json_values}),
    }

    @st.composite
    def request(draw):
        tid = quote(draw(path_params), safe="")
        route = draw(
            st.sampled_from(
                [
                    "me",
                    "tables",
                    "join",
                    "bot",
                    "undo",
                    "redo",
                    "restart",
                    "get",
                    "hint",
                    "record",
                    "replay",
                    "stats",
                    "leaderboard",
                    "list",
                ]
            )
        )
        body = None
        if route == "me":
            method, url, body = "POST", "/api/me", draw(bodies["/api/me"])
        elif route == "tables":
            method, url, body = "POST", "/api/tables", draw(bodies["/api/tables"])
        elif route == "join":
            method, url, body = "POST", f"/api/tables/{tid}/join", draw(bodies["join"])
        elif route == "bot":
            seat = quote(draw(seat_params), safe="")
            method, url = "POST", f"/api/tables/{tid}/seats/{seat}/bot"
            body = draw(bodies["bot"])
        elif route in ("undo", "redo", "restart"):
            method, url = "POST", f"/api/tables/{tid}/{route}"
        elif route == "get":
            method, url = "GET", f"/api/tables/{tid}"
        elif route in ("hint", "record"):
            method, url = "GET", f"/api/tables/{tid}/{route}"
        elif route == "replay":
            step = quote(draw(seat_params), safe="")
            method, url = "GET", f"/api/tables/{tid}/replay?step={step}"
        elif route == "stats":
            method, url = "GET", f"/api/stats/{tid}"
        elif route == "leaderboard":
            method, url = "GET", f"/api/leaderboard?game={tid}"
        else:
            method, url = "GET", f"/api/tables?status={tid}"
        shape = draw(st.integers(0, 9))
        if body is not None and shape == 0:
            content = draw(st.binary(max_size=50))  # not JSON at all
        elif body is not None and shape == 1:
            content = json.dumps(draw(json_values)).encode()  # JSON of the wrong shape
        elif body is not None and shape == 2:
            whole = json.dumps(body).encode()
            content = whole[: draw(st.integers(0, len(whole)))]  # truncated
        elif body is not None and shape == 3:
            content = json.dumps({**body, "pad": "x" * 20000}).encode()  # oversized
        else:
            content = json.dumps(body).encode() if body is not None else None
        signed = draw(st.integers(0, 5)) > 0
        return method, url, content, signed

    return request()


def http_test(
    tally: Tally,
    client: Any,
    token: str,
    fingerprint: Callable[[], tuple],
    crashed: Callable[[], list[str]] = list,
) -> Callable[[tuple], None]:
    """The check of one request sent by ``client``; ``crashed`` tells the errors servers
    logged since it was last asked (none in process: an exception is a 500 there)."""

    def test(c):
        method, url, content, signed = c
        tally.cases += 1
        headers = {"content-type": "application/json"}
        if signed:
            headers["x-cardtable-token"] = token
        before = fingerprint()
        client.cookies.clear()
        try:
            got = client.request(method, url, content=content, headers=headers)
        except Exception as e:  # noqa: BLE001
            tally.bad("crashes", f"{method} {url}: {type(e).__name__}: {e}")
            return
        where = f"{method} {url[:80]} {(content or b'')[:60]!r}"
        if got.status_code >= 500:
            tally.bad("crashes", f"{where} -> {got.status_code} {got.text[:120]}")
            time.sleep(0.2)  # its traceback, logged meanwhile, is this crash's, not the next's
            crashed()
            return
        logged = crashed()
        if logged:
            tally.bad("crashes", f"{where} -> {got.status_code}, the server logged {logged}")
            return
        if got.status_code < 400:
            tally.accepted += 1
            return
        tally.refused += 1
        if fingerprint() != before:
            tally.bad("state_changes", f"{where} -> {got.status_code}, store changed")
        try:
            answer = got.json()
        except ValueError:
            tally.bad("untyped", f"{where} -> {got.status_code} not JSON: {got.text[:80]}")
            return
        if (
            isinstance(answer, dict)
            and set(answer) >= {"error", "message"}
            and isinstance(answer["message"], str)
            and answer["message"].strip()
        ):
            return
        if isinstance(answer, dict) and "detail" in answer and got.status_code == 422:
            tally.framework += 1  # FastAPI's body validation: documented
            return
        tally.bad("untyped", f"{where} -> {got.status_code} {got.text[:120]}")

    return test


def target_http(
    cases: int, derandomize: bool, seed: int, folder: str, cluster: Cluster | None = None
) -> Tally:
    """In process (``TestClient`` on ``create_app``), or with a cluster through the process
    that does not hold the tables."""
    tally = Tally()
    if cluster is not None:
        return http_cluster(cases, derandomize, seed, cluster, tally)
    from fastapi.testclient import TestClient

    from cardtable.server.web.app import create_app
    from cardtable.server.web.settings import ServerSettings

    app = create_app(ServerSettings(db=f"sqlite:///{folder}/http.sqlite", bot_delay=3600))
    client = TestClient(app, raise_server_exceptions=False)
    with client:
        token, ids = http_setup(client)
        test = http_test(tally, client, token, fingerprint_of(app.state.store.engine))
        run_given(test, http_requests(ids), cases, derandomize, seed, tally)
    return tally


def http_cluster(cases: int, derandomize: bool, seed: int, cluster: Cluster, tally: Tally) -> Tally:
    import httpx

    from cardtable.server.storage.store import make_engine

    holder, other = cluster.procs
    with httpx.Client(base_url=holder.base, timeout=30) as setup:
        token, ids = http_setup(setup)
    engine = make_engine(cluster.url)
    watch = LogWatch(cluster)
    try:
        with httpx.Client(base_url=other.base, timeout=30) as client:
            test = http_test(tally, client, token, fingerprint_of(engine), watch.new)
            run_given(test, http_requests(ids), cases, derandomize, seed, tally)
    finally:
        engine.dispose()
    return tally


def run_target(
    name: str,
    cases: int,
    derandomize: bool = False,
    seed: int = 0,
    folder: str | None = None,
    cluster: Cluster | None = None,
) -> Tally:
    if name == "ws" and cluster is not None:
        return target_ws_cluster(cases, derandomize, seed, cluster)
    if name == "http" and cluster is not None:
        return target_http(cases, derandomize, seed, "", cluster)
    if name in ("ws", "http"):
        with tempfile.TemporaryDirectory(dir=folder) as sub:
            fn = target_ws if name == "ws" else target_http
            return fn(cases, derandomize, seed, sub)
    return {"act": target_act, "deal": target_deal, "replay": target_replay}[name](
        cases, derandomize, seed
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cases", type=int, default=100_000, help="cases in all")
    parser.add_argument(
        "--targets", help=f"default {','.join(TARGETS)} (with --processes 2: ws,http)"
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--progress", type=int, default=0, help="print counts every N cases")
    parser.add_argument(
        "--processes",
        type=int,
        default=1,
        choices=(1, 2),
        help="2: the ws and http targets over real connections to two serve --bus processes",
    )
    parser.add_argument(
        "--db", default=None, help="with --processes 2: a PostgreSQL server URL (default SQLite)"
    )
    args = parser.parse_args(argv)
    global PROGRESS
    PROGRESS = args.progress
    warnings.simplefilter("ignore")  # starlette's TestClient deprecation notice
    targets = (args.targets or ",".join(TARGETS if args.processes == 1 else ("ws", "http"))).split(
        ","
    )
    base = "/dev/shm" if os.path.isdir("/dev/shm") else None  # the store fsyncs every commit
    with contextlib.ExitStack() as stack:
        cluster = None
        if args.processes == 2:
            folder = Path(stack.enter_context(tempfile.TemporaryDirectory(dir=base)))
            # bots never move on their own: a case's answer is the only change
            cluster = stack.enter_context(Cluster(2, folder, args.db, bot_delay=3600))
        return run_targets(targets, args.cases // len(targets), args.seed, base, cluster)


def run_targets(
    targets: list[str], per: int, seed: int, base: str | None, cluster: Cluster | None
) -> int:
    """Each target's row of the table, the total and the first examples; 1 on a problem."""
    header = (
        f"{'target':<7} {'cases':>7} {'accepted':>8} {'refused':>8} {'crashes':>7} "
        f"{'state changes':>13} {'untyped':>7} {'422':>7} {'seconds':>7}"
    )
    print(header)
    print("-" * len(header))
    total = Tally()
    for name in targets:
        start = time.perf_counter()
        t = run_target(name, per, seed=seed, folder=base, cluster=cluster)
        print(
            f"{name:<7} {t.cases:>7} {t.accepted:>8} {t.refused:>8} {t.crashes:>7} "
            f"{t.state_changes:>13} {t.untyped:>7} {t.framework:>7} "
            f"{time.perf_counter() - start:>7.0f}",
            flush=True,
        )
        for attr in ("cases", "crashes", "state_changes", "untyped"):
            setattr(total, attr, getattr(total, attr) + getattr(t, attr))
        total.examples.extend(t.examples)
    print("-" * len(header))
    print(
        f"{'total':<7} {total.cases:>7} {'':>8} {'':>8} {total.crashes:>7} "
        f"{total.state_changes:>13} {total.untyped:>7}"
    )
    for example in total.examples[:20]:
        print(example)
    return 1 if total.problems else 0


if __name__ == "__main__":
    sys.exit(main())
