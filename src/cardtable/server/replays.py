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
- the replays of the tables used last are kept, ``CACHE_ACTIONS`` actions in all.

A game's length is bounded as well (``engine.MAX_ACTIONS``), so one build is bounded.
"""

from __future__ import annotations

import asyncio
import time
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from cardtable import games
from cardtable.core.protocol import State
from cardtable.server import gamelog
from cardtable.server.live import LiveTable
from cardtable.server.messages import HubError

#: actions between two kept states: a step replays fewer than this many
SNAPSHOT_EVERY = 64
#: the log entries a replay answer carries by default, and at most (``log_limit``)
LOG_PAGE, LOG_PAGE_MAX = 100, 500
#: actions of all the replays kept (the least recently used go first): about 400 bytes each
CACHE_ACTIONS = 50_000
#: seconds of building before the event loop gets a turn
SLICE = 0.005
#: replays built at once by one process (a second waits: a few clients asking for many
#: long replays cannot take the loop between them)
BUILDS = 1


@dataclass
class Replay:
    """What a finished game's replay steps are answered from."""

    actions: list[tuple[int, str]]
    #: the log as a spectator reads it after the end: ``{n, seat, who, text}`` each
    words: list[dict[str, Any]]
    #: the state after ``k * SNAPSHOT_EVERY`` actions, for every k up to the end
    snapshots: list[State]
    #: the record's ``played_by``: per seat, who played it from which action
    played_by: list[list[dict[str, Any]]]

    def state_at(self, step: int) -> State:
        """The state after ``step`` actions (``0 <= step <= len(actions)``)."""
        k = step // SNAPSHOT_EVERY
        state = self.snapshots[k].clone()
        for seat, action in self.actions[k * SNAPSHOT_EVERY:step]:
            state.act(seat, action)
        return state

    def answer(self, table: LiveTable, step: int, log: bool, offset: int,
               limit: int) -> dict[str, Any]:
        """A ``ReplayStep``: the game after ``step`` actions (clamped), with the log's entries
        ``offset`` to ``offset + limit`` when ``log``."""
        steps = len(self.actions)
        step = max(0, min(step, steps))
        state = self.state_at(step)
        done = self.actions[step - 1] if step else None
        action = None
        if done is not None:
            actor = table.actors[step - 1] if step <= len(table.actors) else None
            action = {"seat": done[0], "action": done[1], "by": table.who(actor, done[0]),
                      "text": self.words[step - 1]["text"]}
        offset = max(0, min(offset, steps))
        # the game is over, so every card may be shown: each seat's own view as well
        return {"step": step, "steps": steps, "view": state.view(None),
                "seat_views": [state.view(s) for s in range(state.players)],
                "action": action, "played_by": self.played_by,
                "log": self.words[offset:offset + limit] if log else None,
                "log_offset": offset if log else None, "log_total": steps}


class Replays:
    """The replays of one process's finished tables (``Replay``), built on demand."""

    def __init__(self, keep_actions: int = CACHE_ACTIONS, builds: int = BUILDS) -> None:
        self.keep_actions = keep_actions
        self._kept: OrderedDict[tuple[str, int], Replay] = OrderedDict()
        self._building: dict[tuple[str, int], asyncio.Future[Replay]] = {}
        self._builds = asyncio.Semaphore(builds)
        #: replays built so far (each is built once while kept: the tests count them)
        self.built = 0

    async def get(self, table: LiveTable) -> Replay:
        """The replay of ``table``, a finished table (``HubError`` 403 otherwise)."""
        if table.status != "over":
            raise HubError("not_over", "the record of a game is public once the game is over",
                           403)
        key = (table.id, len(table.state.actions))
        kept = self._kept.get(key)
        if kept is not None:
            self._kept.move_to_end(key)
            return kept
        pending = self._building.get(key)
        if pending is None:
            pending = self._building[key] = asyncio.ensure_future(self._build(table, key))
            pending.add_done_callback(lambda _: self._building.pop(key, None))
        # shielded: a client that goes away does not cancel the build others wait for
        return await asyncio.shield(pending)

    async def _build(self, table: LiveTable, key: tuple[str, int]) -> Replay:
        async with self._builds:
            game = games.get(table.game)
            state = game.deal(table.seed, table.players, table.options)
            replay = Replay(list(table.state.actions), [], [], table.history())
            pause = time.monotonic() + SLICE
            known: dict[tuple[str | None, int], str] = {}
            for n, (seat, action) in enumerate(replay.actions):
                if n % SNAPSHOT_EVERY == 0:
                    replay.snapshots.append(state.clone())
                replay.words.append(gamelog.spectator_words(
                    game, state, n, seat, action, gamelog.who_of(table, n, seat, known)))
                state.act(seat, action)  # the log was checked when written
                if time.monotonic() > pause:
                    await asyncio.sleep(0)
                    pause = time.monotonic() + SLICE
            if len(replay.actions) % SNAPSHOT_EVERY == 0:
                replay.snapshots.append(state)
        self.built += 1
        self._keep(key, replay)
        return replay

    def _keep(self, key: tuple[str, int], replay: Replay) -> None:
        self._kept[key] = replay
        total = sum(len(r.actions) for r in self._kept.values())
        while total > self.keep_actions and len(self._kept) > 1:
            _, old = self._kept.popitem(last=False)
            total -= len(old.actions)
