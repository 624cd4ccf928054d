"""Replays of finished games: built once per table, kept in a bounded cache, answered a step
at a time (``GET /api/tables/{id}/replay``).

A replay step is the spectator's view after N actions of a finished game (and every seat's:
the game is over), that action in words, and a window of the game log. Rebuilt per request,
a long game cost the event loop seconds (issue #23: one request for a Slide of 8,064 actions
held every table for 5 s). So:

- a finished table's log in words and a snapshot of its state every ``SNAPSHOT_EVERY``
  actions are built once, ``SLICE`` seconds of work at a time, the event loop serving
  everything else between two slices; at most ``BUILDS`` builds run at once per process, and
  a request for a replay being built waits for that build (never starts its own);
- a step is the snapshot before it plus fewer than ``SNAPSHOT_EVERY`` actions;
- the log comes a page at a time: ``log_offset``, ``log_limit`` (at most ``LOG_PAGE_MAX``);
- the replays of the tables used last are kept, ``CACHE_ACTIONS`` actions in all; the
  game's record (``GET /api/tables/{id}/record``) is answered from them too.

A game's length is bounded as well (``engine.MAX_ACTIONS``), so one build is bounded.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from cardtable import games
from cardtable.core import logbook
from cardtable.core.errors import CardtableError
from cardtable.core.protocol import State
from cardtable.core.words import translatable, wire
from cardtable.server.api.messages import HubError
from cardtable.server.storage import store as db
from cardtable.server.storage.tournaments import secret_refusal
from cardtable.server.tables import gamelog
from cardtable.server.tables.broadcast import closed_ending, ending_words, seat_names
from cardtable.server.tables.live import (
    BOT_ACTOR,
    LiveTable,
    people_in,
    stored_seats,
)

_, _n = translatable("cardtable")

if TYPE_CHECKING:
    from cardtable.server.tables.hub import Hub

#: actions between two kept states: a step replays fewer than this many
SNAPSHOT_EVERY = 64
#: the log entries a replay answer carries at most (``log_limit``), and by default: nearly
#: every game's whole log (Doublets and The Game play a few hundred actions, a Slide deal 64
#: to 192), a tenth of the longest
LOG_PAGE_MAX = 500
#: actions of all the replays kept (the least recently used go first): about 400 bytes each
CACHE_ACTIONS = 50_000
#: seconds of building before the event loop gets a turn
SLICE = 0.005
#: action rows read from the store at once (about 10 ms of the event loop)
READ_ROWS = 2000
#: replays built at once by one process (a second waits: a few clients asking for many
#: long replays cannot take the loop between them)
BUILDS = 1


@dataclass(eq=False)
class Replay:
    """What a finished game's replay steps are answered from."""

    actions: list[tuple[int, str]]
    #: per action, who played it: ``{"name", "bot"}`` (shared between a player's actions)
    by: list[dict[str, Any]]
    #: the game log, built as the live table's (``logbook.add``): a spectator reads it
    log: gamelog.Log
    #: the state after ``k * SNAPSHOT_EVERY`` actions, for every k up to the end
    snapshots: list[State]
    #: the record's ``played_by``: per seat, who played it from which action
    played_by: list[list[dict[str, Any]]]
    #: the game's record (``GET /api/tables/{id}/record``) as JSON, made on first use
    _record: bytes | None = None
    #: the game's record without its actions: game, version, seed, players, options
    facts: dict[str, Any] = dataclasses.field(default_factory=dict)
    #: a table closed before its game's end: the end in words its last step shows, as the
    #: table showed it (``closed_ending``); None for a game played to its end
    closed: dict[str, Any] | None = None

    def record(self) -> bytes:
        """The game's record (docs/protocol.md) with ``played_by``, as compact JSON text
        (indented, the standard library's encoder runs in Python: 80 ms for 10,000 actions;
        compact, in C. orjson cannot: a seed has 128 bits)."""
        if self._record is None:
            self._record = json.dumps(
                {
                    **self.facts,
                    "actions": [[seat, action] for seat, action in self.actions],
                    "played_by": self.played_by,
                },
                ensure_ascii=False,
            ).encode()
        return self._record

    def state_at(self, step: int) -> State:
        """The state after ``step`` actions (``0 <= step <= len(actions)``)."""
        k = step // SNAPSHOT_EVERY
        state = self.snapshots[k].clone()
        for seat, action in self.actions[k * SNAPSHOT_EVERY : step]:
            state.act(seat, action)
        return state

    async def answer(self, step: int, log: bool, offset: int, limit: int) -> dict[str, Any]:
        """A ``ReplayStep``: the game after ``step`` actions (clamped), with the log's entries
        ``offset`` to ``offset + limit`` when ``log``. The event loop gets a turn between
        two views (a Slide view is half a millisecond, and there is one per seat)."""
        steps = len(self.actions)
        step = max(0, min(step, steps))
        state = self.state_at(step)
        action = None
        if step:
            seat, done = self.actions[step - 1]
            entry = self.log.entries[self.log.first[step - 1]]
            # (a change of mind, in no log, reads as its seat read it: the game is over)
            words = logbook.text_for(entry, entry.seat if entry.dropped else None)
            action = {
                "seat": seat,
                "action": done,
                "by": self.by[step - 1],
                "text": words,
                "msg": wire(words),
            }
        offset = max(0, min(offset, steps))
        # the game is over, so every card may be shown: each seat's own view as well
        views = []
        for seat in (None, *range(state.players)):
            await asyncio.sleep(0)
            views.append(state.view(seat))
        return {
            "step": step,
            "steps": steps,
            "view": views[0],
            "seat_views": views[1:],
            "action": action,
            "played_by": self.played_by,
            "log": gamelog.page(self.log, offset, offset + limit) if log else None,
            "log_offset": offset if log else None,
            "log_total": steps,
            "ending": self.ending(views[0], step == steps),
        }

    def ending(self, view: dict[str, Any], last: bool) -> dict[str, Any] | None:
        """The game's figures and notes at its end (null before): what the table's results
        panel shows, each seat under the last name it was played by; at the last step of a
        table closed before its game's end, how it closed."""
        if last and self.closed is not None:
            return ending_words(self.closed)
        result = view.get("result")
        if not result or not result.get("over"):
            return None
        game = games.get(view["game"])
        names = [runs[-1]["name"] for runs in self.played_by]
        return ending_words(
            {
                "lines": game.result_lines(result, names),
                "verdict": None,
                "breakdown": game.breakdown(view),
                "notes": game.result_notes(result, names),
            }
        )


class Replays:
    """The replays of one process's finished tables (``Replay``), built on demand."""

    def __init__(self, keep_actions: int = CACHE_ACTIONS, builds: int = BUILDS) -> None:
        self.keep_actions = keep_actions
        self._kept: OrderedDict[tuple[str, int], Replay] = OrderedDict()
        self._building: dict[tuple[str, int], asyncio.Future[Replay]] = {}
        self._builds = asyncio.Semaphore(builds)
        #: whether a tournament's table is a running duplicate challenge's, its deal secret
        #: (``TournamentStore.secret``, set when the server starts)
        self.secret: Callable[[str], bool] = lambda table_id: False

    async def get(self, hub: Hub, table_id: str) -> Replay:
        """The replay of a finished table (``HubError`` 404 if there is none, 403 while it
        is not over). A table this process has loaded is read as it is; any other is read
        from the store, not loaded (nothing of it runs here)."""
        table = hub.tables.get(table_id)
        if table is not None:
            table.used = time.monotonic()
            version, status, tournament = table.version, table.status, table.tournament
        else:
            row = hub.store.table(table_id)
            if row is None:
                raise HubError(
                    "not_found", _("there is no table {table}", table=repr(table_id)), 404
                )
            version, status, tournament = row.version, row.status, row.tournament
        if status != "over":
            raise HubError(
                "not_over", _("the record of a game is public once the game is over"), 403
            )
        if tournament is not None and self.secret(table_id):
            raise secret_refusal()
        key = (table_id, version)  # (a finished solitaire may be undone and played on)
        kept = self._kept.get(key)
        if kept is not None:
            self._kept.move_to_end(key)
            return kept
        pending = self._building.get(key)
        if pending is None:
            pending = self._building[key] = asyncio.ensure_future(
                self._build(hub, table_id, table, key)
            )
            pending.add_done_callback(lambda _done: self._building.pop(key, None))
        # shielded: a client that goes away does not cancel the build others wait for
        return await asyncio.shield(pending)

    async def _build(
        self, hub: Hub, table_id: str, live: LiveTable | None, key: tuple[str, int]
    ) -> Replay:
        async with self._builds:
            table, actions = (
                (live, list(live.state.actions))
                if live is not None
                else await finished_table(hub.store, table_id)
            )
            game = games.get(table.game)
            log = gamelog.new_log(game, table.seed, table.players, table.options)
            state = log.shadow
            assert state is not None
            replay = Replay(actions, [], log, [], [])
            pause = time.monotonic() + SLICE
            known: dict[tuple[str | None, int], str] = {}
            people: dict[tuple[str | None, int], dict[str, Any]] = {}
            for n, (seat, action) in enumerate(replay.actions):
                if n % SNAPSHOT_EVERY == 0:
                    replay.snapshots.append(state.clone())
                actor = table.actors[n] if n < len(table.actors) else None
                if (actor, seat) not in people:
                    people[actor, seat] = table.who(actor, seat)
                replay.by.append(people[actor, seat])
                try:  # (the state acts it: the log was checked when written)
                    logbook.add(game, log, seat, action, gamelog.who_of(table, n, seat, known))
                except CardtableError as e:  # (a row changed by hand, or a rule since)
                    raise HubError("bad_record", e.reason, 500) from None
                if time.monotonic() > pause:
                    await asyncio.sleep(0)
                    pause = time.monotonic() + SLICE
            if len(replay.actions) % SNAPSHOT_EVERY == 0:
                replay.snapshots.append(state)
            # who played each seat, from the table with its whole game played
            whole = dataclasses.replace(table, state=state)
            replay.played_by = whole.history()
            replay.facts = {k: v for k, v in state.record().items() if k != "actions"}
            if table.ended:  # the words the table's own results panel showed a spectator
                ending = closed_ending(whole, seat_names(whole), None)
                replay.closed = {**ending, "breakdown": None, "notes": []}
        self._keep(key, replay)
        return replay

    def forget_names(self) -> None:
        """Someone deleted their identity: the replays kept name them, so they are built
        again when next asked for (a build in progress reads the names it read)."""
        self._kept.clear()

    def _keep(self, key: tuple[str, int], replay: Replay) -> None:
        self._kept[key] = replay
        total = sum(len(r.actions) for r in self._kept.values())
        while total > self.keep_actions and len(self._kept) > 1:
            _key, old = self._kept.popitem(last=False)
            total -= len(old.actions)


async def finished_table(
    store: db.Storage, table_id: str
) -> tuple[LiveTable, list[tuple[int, str]]]:
    """A table as its rows say, for reading only, and its action log: the table's state is
    only dealt (the replay's build plays the log, a slice at a time). Not the hub's: no
    bots, no clock, never written. The log is read ``READ_ROWS`` rows at a time, the event
    loop serving others between two reads."""
    row = store.table(table_id)
    if row is None:
        raise HubError("not_found", _("there is no table {table}", table=repr(table_id)), 404)
    log: list[db.LoggedAction] = []
    while True:
        more = store.actions(table_id, len(log), READ_ROWS)
        log += more
        if len(more) < READ_ROWS:
            break
        await asyncio.sleep(0)
    seats = store.seats(table_id)
    actors = [a.actor for a in log]
    people = {a for a in actors if a and not a.startswith(BOT_ACTOR)}
    names = store.names(list(people | people_in(seats)))
    state = games.get(row.game).deal(row.seed, row.players, row.options)
    return LiveTable(
        id=row.id,
        game=row.game,
        seed=row.seed,
        players=row.players,
        options=dict(row.options),
        status=row.status,
        created_by=row.created_by,
        state=state,
        version=row.version,
        actors=actors,
        actor_names=names,
        seats=stored_seats(seats, names),
        ended=row.ended,
        resigned=list(row.resigned or []),
    ), [(a.seat, a.action) for a in log]
