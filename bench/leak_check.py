"""Leak check: does any card a receiver may not know reach it? Figure wanted: 0.

    python bench/leak_check.py [--games 1000] [--twins 3] [--configs slide:2,the-game:3]
    python bench/leak_check.py --processes 2 [--db postgresql://...] [--games 100]

For every game and player count, ``--games`` games are played, each on two paths:

- through ``sim.play_one`` with every bot wrapped in a checker: each input a bot gets must equal
  ``state.view(seat)`` (and its legal actions ``state.legal(seat)``) and pass the twin check.
  Before every action, every viewer's view (each seat and a spectator) is twin-checked too.
- the same game again through a real in-process ``Hub`` (a ``Store`` on a temporary SQLite
  file, one ``Conn`` per seat and a spectator, people joining one by one, each action of the
  game sent by its seat as raw websocket text to ``app.handle_message``): every message drained
  from every outbox must carry exactly ``state.view(conn.seat)`` at that moment (twin-checked),
  ``legal`` must be ``state.legal(seat)``, and no other field may carry game data (the table
  info's seed is null for Slide/The Game until the game is over); the game log's words never
  tell another seat's secret action before its simultaneous step is over (``check_words``).
  The hub must accept every action and end with the same actions. ``hub.record()`` must
  refuse the table while it is unfinished, and the HTTP record and replay endpoints must
  refuse an unfinished table (checked on a few tables per configuration).

With ``--processes 2`` the games take a third path instead, over real websockets to two
``cardtable serve --bus`` processes on one database and one Redis (``cluster.py``; a fresh
PostgreSQL database in the server ``--db`` names, else an SQLite file). Each game's table is
created at one process (its holder, the processes taking turns), the other seats join through
the other process (forwarded, ``server/cluster/tunnel.py``); seat 0 and every even seat connect
through the non-holding process, the odd seats through the holder, and a spectator through
each. Each seat plays the greedy policy from the view its socket got. A shared deal's seed is
secret until the end, so every message of every socket is checked when the game is over,
against the engine's state rebuilt from the game's record after as many actions as the
message's log has, by the same check as the hub path's (``MessageCheck``; the chat a socket
gets when it opens must be empty and carry only its settings); the table's version must be
the one acknowledged after those actions, and the record's actions those played. The record
and a replay of the table are refused (403 ``not_over``) at both processes before the first
action and every 10 actions. The columns: ``views`` counts the state messages, ``bot inputs``
the people's choices.

Deals come from 128-bit seeds, as a shared table's on the server, and bots get seeds unrelated
to the deal (``seeds.bot_seed``); a view that names the seed fails (the seed deals every hidden
card again), and the table info may show it only for a solitaire or a finished game.

The twin check: ``state.redraw_hidden(seat, rng)`` redraws everything ``seat`` may not know
(other hands, the stock order, face-down values, other seats' pending reveals); the twin's
view must be the same. A view that shows a hidden card differs on some twin.

Each (state, viewer) pair is twin-checked once: a view that passed is remembered by the state's
snapshot (everything, hidden cards included: the same snapshot is the same state, so the same
``view(seat)``). A view met again on a state with that snapshot (a bot's input after the
check of every viewer at that step, a react call at an unchanged state, a websocket message
on the hub's copy of the game) must still equal ``state.view(seat)`` and the remembered view,
and is counted as ``reused`` instead of being redrawn again. A view that failed is never
remembered.

Bots: each seat gets a built-in bot of the game in turn (game ``i``, seat ``s``: bot
``(i + s) mod count``). The Slide search bot is slow (about 0.1 s a move), so it plays
(level ``easy``) only in every 25th game; greedy takes its seat otherwise.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sys
import tempfile
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from cardtable import bots, games
from cardtable.core.protocol import State
from cardtable.core.rng import random_words
from cardtable.core.words import wire
from cardtable.seeds import bot_seed
from cardtable.sim import play_one

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the benches' shared modules
from cluster import Cluster, ServerProcess  # noqa: E402

SEARCH_EVERY = 25
STATE_KEYS = {
    "type",
    "version",
    "seat",
    "table",
    "view",
    "legal",
    "spectators",
    "log",
    "log_from",
    "last",
    "to_act",
    "labels",
    "labels_msg",  # the labels as words for each reader's language (#26): check_words
    "ending",  # words: check_words
    "tools",
}  # check_tools
PRESENCE_KEYS = {"type", "version", "seat", "connected", "spectators", "hand_over_in"}
ACK_KEYS = {"type", "id", "version", "action"}
INFO_KEYS = {
    "id",
    "game",
    "title",
    "players",
    "options",
    "status",
    "seed",
    "creator",
    "version",
    "can_undo",
    "can_redo",
    "seats",
    "notices",
    "notices_msg",  # the notices as words for each reader's language (#26)
    "clock",
    "your_deadline",
    "created_at",
    "practice",  # a practice table's kind, null for any other (#27)
    "tournament",  # the tournament whose game it is, null for any other (#28)
}
#: only on a table closed before its game's end (#11): how, one word
ENDED_VALUES = {"abandoned", "resigned", "idle"}
#: per game, a deal the greedy bot wins alone (the two-process run plays it, and no other)
WON_BY_GREEDY = {"doublets": 1, "the-game": 4}
#: (``person``: whose seat a bot plays on, by name; ``hand_over_in``: when an away person's seat
#: may go to a bot; both public, #24)
SEAT_KEYS = {
    "seat",
    "name",
    "bot",
    "taken",
    "you",
    "connected",
    "bot_account",
    "person",
    "hand_over_in",
    "shown",  # its name as pages show it, as words (#26)
}
#: a table's clock (server/tables/clock.py ``public``): times only, never who was replaced
CLOCK_KEYS, SEAT_CLOCK_KEYS = {"mode", "seconds", "now", "seats"}, {"deadline", "left"}
#: the chat a socket gets when it opens (server/tables/chat.py ``message``): nobody writes in this
#: bench, so its lines are empty, and its settings are words and flags
CHAT_KEYS = {"type", "replay", "messages", "settings"}


def is_words(value: object) -> bool:
    """Whether ``value`` is words as the server sends them for each reader's language
    (``core.words.wire``: a message id, its catalog, and arguments)."""
    return isinstance(value, dict) and {"msg", "domain"} <= set(value) <= WORDS_KEYS


WORDS_KEYS = {"msg", "domain", "args", "plural", "n"}


@dataclass
class Tally:
    games: int = 0
    views: int = 0
    messages: int = 0
    bot_inputs: int = 0
    refusals: int = 0
    reused: int = 0  # views already twin-checked on the same state (see Checked)
    leaks: int = 0
    examples: list[str] = field(default_factory=list)

    def leak(self, what: str) -> None:
        self.leaks += 1
        if len(self.examples) < 5:
            self.examples.append(what)

    def add(self, other: Tally) -> None:
        for name in ("games", "views", "messages", "bot_inputs", "refusals", "reused", "leaks"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.examples.extend(other.examples[: 5 - len(self.examples)])


def twin_problem(
    state: State, seat: int | None, view: dict, rng: random.Random, twins: int
) -> str | None:
    """None if ``view`` is the same on ``twins`` redraws of what ``seat`` may not know."""
    for _ in range(twins):
        if state.redraw_hidden(seat, rng).view(seat) != view:
            return f"view({seat}) changes when hidden cards are redrawn"
    return None


class Checked:
    """Views that passed the twin check, by the state they are a view of.

    A state is known by its snapshot (everything, hidden cards included, in a fixed order):
    two states with the same snapshot are the same state and have the same ``view(seat)``, so
    a view that passed on one needs no second round of twins on the other.
    """

    def __init__(self) -> None:
        self.passed: dict[str, dict[int | None, dict]] = {}

    @staticmethod
    def key(state: State) -> str:
        return repr(state.snapshot())  # repr tells tuples from lists; dicts keep their order


def check_view(
    state: State,
    seat: int | None,
    view: dict,
    rng: random.Random,
    twins: int,
    tally: Tally,
    where: str,
    checked: Checked,
    key: str | None = None,
) -> None:
    """``view`` must be ``state.view(seat)`` and pass the twin check (once per state)."""
    if view != state.view(seat):
        tally.leak(f"{where}: the view of seat {seat} is not state.view({seat})")
        return
    # the seed deals every hidden card again (looked for where its digits are too many to
    # turn up by chance: the run's 128-bit deals)
    if state.seed >= 10**20 and str(state.seed) in json.dumps(view):
        tally.leak(f"{where}: the view of seat {seat} names the deal's seed")
        return
    key = key or checked.key(state)
    views = checked.passed.setdefault(key, {})
    if seat in views and views[seat] == view:
        tally.reused += 1
        return
    problem = twin_problem(state, seat, view, rng, twins)
    if problem:
        tally.leak(f"{where}: {problem}")
    else:
        views[seat] = view


def check_all_views(
    state: State, rng: random.Random, twins: int, tally: Tally, checked: Checked
) -> str:
    """Twin-check every viewer's view (each seat and a spectator) once per state; the key."""
    key = checked.key(state)
    done = checked.passed.get(key, {})
    for seat in [None, *range(state.players)]:
        if seat not in done:
            tally.views += 1
            check_view(state, seat, state.view(seat), rng, twins, tally, "engine", checked, key)
    return key


# -- bot inputs, through sim.play_one ----------------------------------------------------------
class CheckedBot:
    """Wraps a bot: audits every input it is given, then asks the bot itself."""

    def __init__(
        self,
        inner: Any,
        seat: int,
        state: State,
        rng: random.Random,
        twins: int,
        tally: Tally,
        checked: Checked,
    ) -> None:
        self.inner, self.seat, self.state = inner, seat, state
        self.rng, self.twins, self.tally, self.checked = rng, twins, tally, checked
        # play_one asks hasattr(): offer only the hooks the real bot has
        for hook in ("react", "finish", "close"):
            if hasattr(inner, hook):
                setattr(self, hook, getattr(self, "_" + hook))

    def _audit(self, view: Mapping[str, Any], legal: Sequence[str], talk_only: bool) -> None:
        state, seat = self.state, self.seat
        # (the bot loop hands a Mapping and a sequence built by their first read, bots.lazy:
        # their plain copies are what the bot reads, and what the JSON encoder takes)
        view, legal = dict(view), list(legal)
        # play_one asks one bot at a time, before each action: every viewer, every step
        key = check_all_views(state, self.rng, self.twins, self.tally, self.checked)
        self.tally.bot_inputs += 1
        check_view(
            state, seat, view, self.rng, self.twins, self.tally, "bot input", self.checked, key
        )
        expected = state.legal(seat)
        if talk_only:
            expected = [a for a in expected if state.game.is_talk(a)]
        if legal != expected:
            self.tally.leak(f"bot input: seat {seat}'s legal actions are not state.legal()")

    def choose(self, view: dict, legal: list[str]) -> str:
        self._audit(view, legal, talk_only=False)
        return self.inner.choose(view, legal)

    def _react(self, view: dict, legal: list[str]) -> str | None:
        self._audit(view, legal, talk_only=True)
        return self.inner.react(view, legal)

    def _finish(self, result: dict) -> None:
        if result != self.state.result() or not self.state.over:
            self.tally.leak("bot finish: the result is not the final result")
        self.inner.finish(result)

    def _close(self) -> None:
        self.inner.close()


def bot_specs(name: str, players: int, i: int) -> list[str]:
    pool = bots.names(name)
    specs = []
    for s in range(players):
        spec = pool[(i + s) % len(pool)]
        if spec == "search":
            spec = "search:easy" if i % SEARCH_EVERY == 0 else "greedy"
        specs.append(spec)
    return specs


def bots_game(
    name: str, players: int, seed: int, twins: int, tally: Tally, checked: Checked | None = None
) -> list[tuple[int, str]]:
    """One game of bots, every input audited; its actions (for the hub to play again)."""
    checked = checked if checked is not None else Checked()
    state = games.get(name).deal(seed, players)
    rng = random.Random(seed)
    seat_bots = [
        CheckedBot(
            bots.make_bot(spec, name, bot_seed(0, seed, s)), s, state, rng, twins, tally, checked
        )
        for s, spec in enumerate(bot_specs(name, players, seed))
    ]
    play_one(state, seat_bots)
    check_all_views(state, rng, twins, tally, checked)
    return [(seat, action) for seat, action in state.actions]


def check_tools(
    state: State, seat: int | None, tools: list[str], running: bool, tally: Tally
) -> None:
    """A connection's table tools (#23) are those its game offers a seat at this player count
    (a peek at a shared table would read the other seats' cards), none for a spectator, and
    undo and redo only while the game runs."""
    offered = state.game.tools_for(state.players) if seat is not None else ()
    if tools != [t for t in offered if running or t not in ("undo", "redo")]:
        tally.leak(f"websocket: seat {seat} was offered the tools {tools}")


def check_words(state: State, seat: int | None, message: dict, running: bool, tally: Tally) -> None:
    """The words of a state message (the game log, the last move, labels, the end) carry
    nothing the viewer may not know: one entry per action, in order, each by its seat, but
    a change of mind (``Game.replaces``) that a later action of its seat took the place of,
    and news only after the action that brought it; the labels are ``move_label`` of the
    seat's own view; and while another seat's secret action (``public_action`` None) waits
    for the rest of its simultaneous step (its seat is not to act; the others are, and may
    only act in secret too), the viewer reads only its public words and no action in
    ``last``."""
    game = state.game
    log, actions = message["log"], state.actions
    if not log_in_order(game, log, changes_of_mind(state)):
        tally.leak("websocket: the log is not one entry per action, in order")
        return
    labels = [game.move_label(message["view"], a) for a in message["legal"]]
    if message["labels"] != labels or message["labels_msg"] != [wire(x) for x in labels]:
        tally.leak("websocket: the labels are not move_label of the seat's view")
    if message["to_act"] != (list(state.to_act()) if running else []):
        tally.leak("websocket: to_act is not the state's")
    # the end in words once the table is over (a solitaire with no move left is held open
    # for undo: over by its rules, not yet at its table)
    if (message["ending"] is None) != (message["table"]["status"] != "over"):
        tally.leak("websocket: an ending before the end, or none after it")
    if not actions:
        if message["last"] is not None:
            tally.leak("websocket: a last move before any move")
        return
    by, action = actions[-1]
    # still in the secret step: the seats to act are others, and all they may do is secret
    to_act = state.to_act()
    waiting = (
        not state.over
        and to_act
        and by not in to_act
        and all(game.public_action(a) is None for s in to_act for a in state.legal(s))
    )
    if by != seat and game.public_action(action) is None and waiting:
        words = game.describe_action(action, log[-1]["who"], state.view(None), public=True)
        if log[-1]["text"] != words or message["last"]["action"] is not None:
            tally.leak(f"websocket: seat {seat} reads another seat's secret action")


def changes_of_mind(state: State) -> list[tuple[int, int, bool]]:
    """Per action of ``state``: (n, seat, dropped), dropped when the same seat later took
    it back in the same simultaneous step (acting again though not to act, an action that
    ``Game.replaces`` it)."""
    game = state.game
    replay = game.deal(state.seed, state.players, state.options)
    out: list[tuple[int, int, bool]] = []
    mine: dict[int, int] = {}  # seat -> its last action while it was to act
    for n, (seat, action) in enumerate(state.actions):
        if (
            seat not in replay.to_act()
            and seat in mine
            and game.replaces(state.actions[mine[seat]][1], action)
        ):
            k = mine[seat]
            out[k] = (k, seat, True)
        mine[seat] = n
        out.append((n, seat, False))
        replay.act(seat, action)
    return out


def log_in_order(game: Any, log: list[dict], actions: list[tuple[int, int, bool]]) -> bool:
    """``log`` has an entry per action (``changes_of_mind``), in order and by its seat, but
    for a dropped change of mind; news only right after the entry of the action that
    brought it."""
    moves = [(e["n"], e["seat"]) for e in log if not e.get("news")]
    kept = [(n, seat) for n, seat, dropped in actions if not dropped]
    if moves != kept:
        return False
    last = -1
    for e in log:
        if e.get("news") and e["n"] != last:
            return False
        last = e["n"]
    return True


# -- websocket messages, through a real Hub ----------------------------------------------------
class MessageCheck:
    """The check of one message a connection (with its ``seat``) got, at the state the table
    (``state``, ``version``, ``status``, ``options``, ``players``, ``game``) was in."""

    def __init__(self) -> None:
        #: per connection, the game log as sent so far (messages carry what changed)
        self.logs: dict[int, list[dict]] = {}

    def check_message(
        self,
        table: Any,
        conn: Any,
        message: dict,
        rng: random.Random,
        twins: int,
        tally: Tally,
        checked: Checked,
        key: str,
    ) -> None:
        tally.messages += 1
        state, seat = table.state, conn.seat
        kind = message.get("type")
        if kind == "ack":
            if set(message) != ACK_KEYS:
                tally.leak(f"ack with fields {sorted(message)}")
            return
        if kind == "error":
            return  # code, message, id: text about the sender's own action
        if kind == "chat":
            settings = message.get("settings")
            if (
                set(message) != CHAT_KEYS
                or message["messages"]
                or not isinstance(settings, dict)
                or not all(
                    v is None or type(v) in (str, bool, list) or is_words(v)
                    for v in settings.values()
                )
            ):
                tally.leak(f"a chat message {str(message)[:200]}")
            return
        if kind == "presence":  # a seat number, a flag, a count, a countdown: nothing else
            hand_over = message.get("hand_over_in")
            if (
                set(message) != PRESENCE_KEYS
                or not all(
                    v is None or type(v) in (int, bool)
                    for v in (message["seat"], message["connected"], message["spectators"])
                )
                or not (hand_over is None or type(hand_over) in (int, float))
            ):
                tally.leak(f"a presence event {message}")
            return
        if kind != "state" or set(message) != STATE_KEYS:
            tally.leak(f"a message of type {kind!r} with fields {sorted(message)}")
            return
        if message["seat"] != seat or message["version"] != table.version:
            tally.leak(f"a state message for seat {message['seat']} on a seat {seat} socket")
        check_view(state, seat, message["view"], rng, twins, tally, "websocket", checked, key)
        running = table.status == "running"
        legal = state.legal(seat) if seat is not None and running else []
        if message["legal"] != legal:
            tally.leak(f"websocket: seat {seat}'s legal actions are not state.legal()")
        # the log comes as a delta (what changed since the connection's last state): the
        # words are checked on the whole log, put back as a client does
        logs = self.logs
        sent = logs.get(id(conn), [])
        if message["log_from"] > (sent[-1]["n"] + 1 if sent else 0):
            tally.leak("websocket: a log delta starts past what the connection was sent")
        full = [e for e in sent if e["n"] < message["log_from"]] + message["log"]
        logs[id(conn)] = full
        check_words(state, seat, {**message, "log": full}, running, tally)
        check_tools(state, seat, message["tools"], running, tally)
        info = message["table"]
        # a finished game's seats also say who played them over time (names only)
        seat_keys = SEAT_KEYS | {"history"} if info["status"] == "over" else SEAT_KEYS
        ended = info.get("ended", "abandoned")
        if (
            set(info) - {"ended"} != INFO_KEYS
            or ended not in ENDED_VALUES
            or any(set(s) - {"you_away"} != seat_keys for s in info["seats"])
        ):
            tally.leak(f"table info with fields {sorted(info)}")
        clock = info.get("clock")
        if clock is not None and (
            set(clock) != CLOCK_KEYS or any(set(c) != SEAT_CLOCK_KEYS for c in clock["seats"])
        ):
            tally.leak(f"a table clock with fields {sorted(clock)}")
        # a solitaire shows its deal number; a shared deal's seed is secret until the end
        # (a practice table's deal is known to its player: a replayed deal, a tutorial's)
        secret = table.players > 1 and table.status != "over" and not table.practice
        if info["practice"] != table.practice:
            tally.leak("table info: practice is not the table's")
        if info["tournament"] != table.tournament:
            tally.leak("table info: tournament is not the table's")
        if table.tournament and info["seed"] is not None:  # (a challenge deals everyone alike)
            tally.leak("table info shows the seed of a tournament's table")
        if secret and info["seed"] is not None:
            tally.leak(f"table info shows the seed of a running {table.game} game")
        if info["options"] != table.options or info["status"] != table.status:
            tally.leak("table info: options or status are not the table's")


class HubRun(MessageCheck):
    """One Store and Hub for a configuration; people seated by ``Conn``s; raw messages in."""

    def __init__(self, folder: str) -> None:
        from cardtable.server.storage.store import Store
        from cardtable.server.tables.hub import Hub

        super().__init__()
        self.store = Store(f"sqlite:///{folder}/leaks.sqlite")
        self.hub = Hub(self.store, bot_delay=0)
        self.people = [self.store.new_player(f"p{s}")[0] for s in range(6)]

    def close(self) -> None:
        self.store.close()

    def drain(
        self,
        table: Any,
        conns: list,
        rng: random.Random,
        twins: int,
        tally: Tally,
        checked: Checked,
    ) -> dict:
        """Check every waiting message; return the last state message per connection."""
        last = {}
        key = checked.key(table.state)  # the state does not change while draining
        for conn in conns:
            while not conn.outbox.empty():
                message = conn.outbox.get_nowait()
                self.check_message(table, conn, message, rng, twins, tally, checked, key)
                if message.get("type") == "state":
                    last[id(conn)] = message
        return last

    async def game(
        self,
        name: str,
        players: int,
        seed: int,
        twins: int,
        tally: Tally,
        actions: list[tuple[int, str]],
        checked: Checked | None = None,
    ) -> None:
        """Play ``actions`` (a game of ``bots_game``) again, each sent by its seat's socket."""
        from cardtable.server.api.messages import HubError
        from cardtable.server.tables.conn import MESSAGE_BURST, Conn
        from cardtable.server.tables.engine import stuck
        from cardtable.server.web.socket import handle_message

        checked = checked if checked is not None else Checked()
        hub, rng = self.hub, random.Random(seed)
        seats = ["me"] + ["open"] * (players - 1)
        table = hub.create(self.people[0], name, seats, {}, seed)
        conns = [Conn(seat=s, player_id=self.people[s].id) for s in range(players)]
        conns.append(Conn(seat=None, player_id=None))  # a spectator
        latest: dict[int, dict] = {}

        def refused() -> None:
            tally.refusals += 1
            try:
                hub.record(table)
            except HubError as e:
                if e.code != "not_over":
                    tally.leak(f"hub.record() refused with {e.code}")
            else:
                tally.leak("hub.record() gave the record of an unfinished game")

        # people arrive: the first connects, the others connect (as spectators) and join
        await hub.connect(table, conns[0])
        await hub.connect(table, conns[-1])
        for s in range(1, players):
            conn = conns[s]
            conn.seat = None
            await hub.connect(table, conn)
            latest.update(self.drain(table, conns, rng, twins, tally, checked))
            await hub.join(table, self.people[s], s)
            latest.update(self.drain(table, conns, rng, twins, tally, checked))
            conn.seat = s  # the client reconnects with its new seat
            await hub.broadcast(table)
        latest.update(self.drain(table, conns, rng, twins, tally, checked))
        refused()
        for n, (seat, action) in enumerate(actions, 1):
            conn = conns[seat]
            message = latest[id(conn)]
            conn.bucket.tokens = MESSAGE_BURST  # the harness sends faster than the limit
            raw = json.dumps(
                {"type": "act", "action": action, "version": message["version"], "id": f"c-{n}"}
            )
            answer = await handle_message(hub, table, conn, raw)
            if answer is not None:  # as app.table_socket does
                conn.push(answer)
                if answer["type"] == "error":
                    conn.push(hub.message_for(table, conn))
                    tally.leak(
                        f"websocket: the hub refused {action!r} by seat {seat}, which "
                        f"the engine took: {answer}"
                    )
            latest.update(self.drain(table, conns, rng, twins, tally, checked))
            if table.status == "running" and n % 10 == 0:
                refused()
        held_open = table.status == "running" and stuck(table, table.state)
        if [tuple(a) for a in table.state.actions] != actions or not (
            table.status == "over" or held_open
        ):
            tally.leak("websocket: the hub's game is not the engine's game")
        if held_open:  # a solitaire with no move left: given up, as its player would leave it
            # (held open, it would count against the player's unfinished tables, at most 30)
            await hub.leave(table, self.people[0])
            self.drain(table, conns, rng, twins, tally, checked)
        for conn in conns:
            await hub.disconnect(table, conn)
        self.drain(table, conns, rng, twins, tally, checked)
        hub.tables.pop(table.id, None)  # keep memory flat over many games


def http_refusals(folder: str, tally: Tally) -> None:
    """The record and replay endpoints refuse unfinished tables (open and running)."""
    from fastapi.testclient import TestClient

    from cardtable.server.web.app import create_app
    from cardtable.server.web.settings import ServerSettings

    app = create_app(ServerSettings(db=f"sqlite:///{folder}/http.sqlite", bot_delay=3600))
    with TestClient(app) as client:
        client.post("/api/me", json={"name": "Ann"})
        for name, seats in (
            ("slide", ["me", "greedy"]),
            ("the-game", ["me", "open"]),
            ("doublets", ["me"]),
            ("slide", ["me", "open", "open"]),
        ):
            table = client.post("/api/tables", json={"game": name, "seats": seats}).json()
            for path in ("record", "replay?step=0", "replay?step=5", "replay?step=999"):
                tally.refusals += 1
                got = client.get(f"/api/tables/{table['id']}/{path}")
                if got.status_code != 403 or got.json().get("error") != "not_over":
                    tally.leak(f"GET {path} of an unfinished {name} table: {got.status_code}")
            if len(seats) > 1 and table["seed"] is not None:
                tally.leak(f"POST /api/tables shows the seed of a running {name} game")


# -- websocket messages, through two server processes ------------------------------------------
class Socket:
    """A real websocket to a table, keeping every message it receives, in order."""

    def __init__(self, ws: Any, seat: int | None) -> None:
        self.ws, self.seat = ws, seat
        self.messages: list[dict] = []
        self.state: dict | None = None  # the latest state message

    async def read(self, timeout: float = 20) -> dict:
        message = json.loads(await asyncio.wait_for(self.ws.recv(), timeout))
        self.messages.append(message)
        if message.get("type") == "state":
            self.state = message
        return message

    async def until_version(self, version: int) -> None:
        while self.state is None or self.state["version"] < version:
            await self.read()

    async def act(self, action: str, version: int, cid: str) -> dict:
        """Send an action; its answer (waiting out the message rate when told to)."""
        while True:
            await self.ws.send(
                json.dumps({"type": "act", "action": action, "version": version, "id": cid})
            )
            while True:
                message = await self.read()
                if message.get("id") == cid and message.get("type") in ("ack", "error"):
                    break
            if message.get("code") != "rate_limited":
                return message
            await asyncio.sleep(message["retry_after"])


class ClusterRun(MessageCheck):
    """Two ``serve --bus`` processes on one database (``cluster.py``); games played over real
    websockets by greedy people, the table created at one process (its holder), the others
    joining and connecting through both. The deal's seed is secret until the end, so the
    messages are checked once the game is over, against the engine's states rebuilt from the
    game's record (each state message at the state after as many actions as its log has)."""

    def __init__(self, cluster: Cluster) -> None:
        super().__init__()
        self.cluster = cluster
        self.made = 0

    def person(self, server: ServerProcess) -> str:
        import httpx

        self.made += 1
        got = httpx.post(f"{server.base}/api/me", json={"name": f"p{self.made}"}, timeout=20)
        got.raise_for_status()
        return got.cookies["cardtable_token"]

    def refused(self, table_id: str, tally: Tally, where: str) -> None:
        """The record and a replay of the unfinished table: 403 ``not_over`` at both."""
        import httpx

        for server in self.cluster.procs:
            for path in ("record", "replay?step=0"):
                tally.refusals += 1
                got = httpx.get(f"{server.base}/api/tables/{table_id}/{path}", timeout=20)
                if got.status_code != 403 or got.json().get("error") != "not_over":
                    tally.leak(f"{where}: GET {path} of an unfinished table: {got.status_code}")

    async def game(self, name: str, players: int, i: int, twins: int, tally: Tally) -> None:
        import httpx
        import websockets

        holder, other = self.cluster.procs[i % 2], self.cluster.procs[(i + 1) % 2]
        tokens = [self.person(holder) for _ in range(players)]
        seats = ["me"] + ["open"] * (players - 1)
        with httpx.Client(timeout=20) as http:
            # alone: a deal the greedy bot wins, since one with no move left is held open
            # for undo and never ends (docs/server.md, "A stuck solitaire")
            deal = {"seed": WON_BY_GREEDY[name]} if players == 1 else {}
            got = http.post(
                f"{holder.base}/api/tables",
                json={"game": name, "seats": seats, **deal},
                headers={"x-cardtable-token": tokens[0]},
            )
            got.raise_for_status()
            table_id = got.json()["id"]
            for s in range(1, players):  # joined through the other process: forwarded
                http.post(
                    f"{other.base}/api/tables/{table_id}/join",
                    json={"seat": s},
                    headers={"x-cardtable-token": tokens[s]},
                ).raise_for_status()
        if self.cluster.holder(table_id) is not holder:
            tally.leak(f"{name} {players}: the table is not held where it was created")
        # seat s through the other process when s is even (seat 0 always); a spectator at each
        ways = [
            (s, other if s % 2 == 0 else holder, f"?token={tokens[s]}") for s in range(players)
        ] + [(None, other, ""), (None, holder, "")]
        socks = []
        for seat, server, query in ways:
            ws = await websockets.connect(
                f"ws://127.0.0.1:{server.port}/ws/tables/{table_id}{query}", max_size=1 << 22
            )
            socks.append(Socket(ws, seat))
        try:
            versions = await self.play(name, socks, table_id, i, tally)
        finally:
            for sock in socks:
                await sock.ws.close()
        record = httpx.get(f"{other.base}/api/tables/{table_id}/record", timeout=20).json()
        self.check(name, players, record, socks, versions, twins, tally)

    async def play(
        self, name: str, socks: list[Socket], table_id: str, i: int, tally: Tally
    ) -> list[int]:
        """Play to the end, each seat choosing from what its socket got; the table's version
        after each number of actions."""
        for sock in socks:
            await sock.until_version(0)
        version = max(sock.state["version"] for sock in socks if sock.state)
        versions = [version]
        seated = [sock for sock in socks if sock.seat is not None]
        people = [bots.make_bot("greedy", name, bot_seed(1, i, s)) for s in range(len(seated))]
        while True:
            for sock in socks:
                await sock.until_version(version)
            state = seated[0].state
            assert state is not None
            if state["table"]["status"] == "over":
                return versions
            if len(versions) % 10 == 1:  # before the first action, then every 10 (running)
                await asyncio.to_thread(
                    self.refused, table_id, tally, f"after {len(versions) - 1} actions"
                )
            mover = next(
                (
                    s
                    for s in seated
                    if s.state and s.state["legal"] and s.seat in s.state["view"]["to_act"]
                ),
                None,
            )
            if mover is None:
                tally.leak(f"{name}: the game is running and no seat may act")
                return versions
            assert mover.state is not None and mover.seat is not None  # as next() chose it
            view, legal = mover.state["view"], mover.state["legal"]
            tally.bot_inputs += 1
            answer = await mover.act(
                people[mover.seat].choose(view, legal),
                version,
                f"c-{len(versions)}",
            )
            if answer["type"] != "ack":
                tally.leak(f"websocket: a legal action was refused: {answer}")
                return versions
            version = answer["version"]
            versions.append(version)

    def check(
        self,
        name: str,
        players: int,
        record: dict,
        socks: list[Socket],
        versions: list[int],
        twins: int,
        tally: Tally,
    ) -> None:
        """Every message of every socket, at the engine's state it was sent in."""
        if record.get("game") != name or len(record.get("actions", ())) != len(versions) - 1:
            tally.leak(f"{name}: the record is not the game played: {str(record)[:200]}")
            return
        state = games.get(name).deal(record["seed"], players, record["options"])
        rng, checked = random.Random(record["seed"]), Checked()
        moments = []  # (actions before it, socket, message), in each socket's order
        for k, sock in enumerate(socks):
            n = 0
            for message in sock.messages:
                if message.get("type") == "state":
                    got = message["log"][-1]["n"] + 1 if message["log"] else message["log_from"]
                    if got < n:
                        tally.leak("websocket: a state older than the one before it")
                    n = got
                moments.append((n, k, message))
        moments.sort(key=lambda m: m[0])  # stable: each socket's messages stay in order
        done, key = 0, checked.key(state)
        for n, k, message in moments:
            while done < n:
                state.act(*record["actions"][done])
                done += 1
                key = checked.key(state)
            table = SimpleNamespace(
                state=state,
                version=versions[n],
                game=name,
                status="over" if state.over else "running",
                options=record["options"],
                players=players,
                practice=None,  # the cluster run plays ordinary tables
                tournament=None,
            )
            self.check_message(table, socks[k], message, rng, twins, tally, checked, key)
            tally.views += message.get("type") == "state"


def run_cluster_config(
    cluster: Cluster, name: str, players: int, count: int, twins: int, progress: int = 0
) -> Tally:
    """``count`` games of one configuration played through two processes."""
    tally, run = Tally(), ClusterRun(cluster)
    for i in range(count):
        asyncio.run(run.game(name, players, i, twins, tally))
        tally.games += 1
        if progress and tally.games % progress == 0:
            print(
                f"  {name} {players}: {tally.games} games, {tally.messages} messages, "
                f"{tally.leaks} leaks",
                file=sys.stderr,
                flush=True,
            )
    return tally


def run_config(
    name: str, players: int, count: int, twins: int, folder: str, progress: int = 0
) -> Tally:
    tally = Tally()
    run = HubRun(folder)
    try:
        for i in range(count):
            # a 128-bit deal like the server's, so its digits cannot turn up in a view by chance
            high, low = random_words(f"leak-check/{name}/{players}/{i}", 2)
            seed = high << 64 | low
            checked = Checked()  # shared by the two paths of one game
            actions = bots_game(name, players, seed, twins, tally, checked)
            asyncio.run(run.game(name, players, seed, twins, tally, actions, checked))
            tally.games += 1
            if progress and tally.games % progress == 0:
                print(
                    f"  {name} {players}: {tally.games} games, {tally.views} views, "
                    f"{tally.messages} messages, {tally.bot_inputs} bot inputs, "
                    f"{tally.reused} reused, {tally.leaks} leaks",
                    file=sys.stderr,
                    flush=True,
                )
    finally:
        run.close()
    return tally


def configs(only: str | None) -> list[tuple[str, int]]:
    every = [
        (g, n)
        for g in ("slide", "doublets", "the-game")
        for n in range(games.get(g).min_players, games.get(g).max_players + 1)
    ]
    if not only:
        return every
    wanted = {(g, int(n)) for g, _, n in (c.partition(":") for c in only.split(","))}
    return [c for c in every if c in wanted]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=1000, help="games per configuration")
    parser.add_argument("--twins", type=int, default=3, help="redraws per view checked")
    parser.add_argument("--configs", help="e.g. slide:2,the-game:3 (default: all)")
    parser.add_argument(
        "--progress", type=int, default=0, help="print running counts to stderr every N games"
    )
    parser.add_argument(
        "--processes",
        type=int,
        default=1,
        choices=(1, 2),
        help="2: the games over real websockets through two serve --bus "
        "processes instead of the engine and in-process hub paths",
    )
    parser.add_argument(
        "--db", default=None, help="with --processes 2: a PostgreSQL server URL (default SQLite)"
    )
    args = parser.parse_args(argv)
    # tmpfs when there is one: the store commits every action with fsync
    base = "/dev/shm" if os.path.isdir("/dev/shm") else None
    total = Tally()
    header = (
        f"{'game':<9} {'players':>7} {'games':>6} {'views':>9} {'messages':>9} "
        f"{'bot inputs':>10} {'reused':>9} {'refusals':>8} {'leaks':>5} {'seconds':>7} "
        f"{'cpu s':>7}"
    )
    print(header)
    print("-" * len(header))
    with tempfile.TemporaryDirectory(dir=base) as folder:
        cluster = Cluster(2, Path(folder), args.db, 0) if args.processes == 2 else None
        if cluster is None:
            tally = Tally()
            http_refusals(folder, tally)
            print(
                f"{'http':<9} {'-':>7} {0:>6} {0:>9} {0:>9} {0:>10} {0:>9} "
                f"{tally.refusals:>8} {tally.leaks:>5} {'-':>7}",
                flush=True,
            )
            total.add(tally)
        else:
            cluster.start()
        try:
            for name, players in configs(args.configs):
                start, cpu = time.perf_counter(), time.process_time()
                sub = os.path.join(folder, f"{name}-{players}")
                os.mkdir(sub)
                if cluster is None:
                    tally = run_config(name, players, args.games, args.twins, sub, args.progress)
                else:
                    tally = run_cluster_config(
                        cluster, name, players, args.games, args.twins, args.progress
                    )
                total.add(tally)
                print(
                    f"{name:<9} {players:>7} {tally.games:>6} {tally.views:>9} "
                    f"{tally.messages:>9} {tally.bot_inputs:>10} {tally.reused:>9} "
                    f"{tally.refusals:>8} {tally.leaks:>5} {time.perf_counter() - start:>7.0f} "
                    f"{time.process_time() - cpu:>7.0f}",
                    flush=True,
                )
        finally:
            if cluster is not None:
                cluster.stop()
    print("-" * len(header))
    print(
        f"{'total':<9} {'':>7} {total.games:>6} {total.views:>9} {total.messages:>9} "
        f"{total.bot_inputs:>10} {total.reused:>9} {total.refusals:>8} {total.leaks:>5}"
    )
    for example in total.examples:
        print("leak:", example)
    return 1 if total.leaks else 0


if __name__ == "__main__":
    sys.exit(main())
