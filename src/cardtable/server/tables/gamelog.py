"""The game log of a live table: every action in words, as each viewer may read it.

The rules of what a viewer reads are the core's (``cardtable.core.logbook``: the words of
``Game.describe_action`` for the seat that acted and for the others, a secret action resolved
once its simultaneous choice is over, a change of mind dropped, the game's news), the same as
the terminal's. Here is what a server adds: the log kept beside each live table, built once
per action (a finished game's replay builds its own with the same ``add``), and the deltas.

A connection is sent only what changed since the last state it was sent (``log_since``):
the entries from the first action that is new or whose words changed (a secret action that
resolved or was dropped), and that action's number (``log_from``); the client keeps its
entries of the actions before. A new connection, or one older than what the log remembers,
gets the whole log, or the entries of its last ``LOG_TAIL`` actions in a longer game.

The build is linear in the actions: each new action looks only at the secrets still
unresolved, and views are built only for a game whose words read them
(``Game.words_need_view``), once per resolved step, and after an action with news.
"""

from __future__ import annotations

import asyncio
import weakref
from dataclasses import dataclass, field
from typing import Any

from cardtable import games
from cardtable.core.logbook import Entry, Logbook, add, as_read
from cardtable.core.protocol import Game
from cardtable.core.words import translatable
from cardtable.server.tables.live import LiveTable, played_for

_, _n = translatable("cardtable")


@dataclass
class Log(Logbook):
    """A live table's log: the core's ``Logbook`` and what the deltas need."""

    actors: list[str | None] = field(default_factory=list)
    #: the table's version the log was brought up to date at: a broadcast asks once per
    #: viewer, and only a change (a new version) can make it stale
    version: int = -1
    #: (table version, the first action whose words that version added or changed), oldest
    #: first
    marks: list[tuple[int, int]] = field(default_factory=list)
    #: a connection last sent a version before this gets the whole log
    floor: int = -1
    #: the first action whose words were added or changed since the last mark (None: none):
    #: the log may be built a chunk at a time (``catch_up``) before the next mark
    changed: int | None = None


#: changes a log remembers for ``log_since``; a connection further behind gets everything
MARKS = 64
#: actions ``catch_up`` adds to a log between two turns of the event loop (~5 ms of Slide)
CHUNK = 250
#: the entries a new connection (or one too far behind) is sent at most: the last ones. A
#: long game's whole log was a megabyte per connection; the replay pages the rest
LOG_TAIL = 500


#: the log of each live table, forgotten with the table
_logs: weakref.WeakKeyDictionary[LiveTable, Log] = weakref.WeakKeyDictionary()


def who_of(
    table: LiveTable, n: int, seat: int, known: dict[tuple[str | None, int], str] | None = None
) -> str:
    """The name of whoever played action ``n``: a person's, a bot's marked as one ("Greedy
    (bot)"), or a bot's on a person's seat with theirs ("Ann — played by Greedy").
    ``known``: the names found so far by (actor, seat), for a build of many entries (naming
    a bot was most of a long log's cost)."""
    actor = table.actors[n] if n < len(table.actors) else None
    if known is not None and (actor, seat) in known:
        return known[actor, seat]
    who = table.who(actor, seat)
    # (a ``Text`` stays one: a former player's name, read in each reader's language)
    name = who["name"] if isinstance(who["name"], str) else str(who["name"])
    if who["bot"]:
        # TRANSLATORS: a bot's name in the game log
        name = played_for(who["person"], name) if who["person"] else _("{name} (bot)", name=name)
    if known is not None:
        known[actor, seat] = name
    return name


def entries(table: LiveTable) -> list[Entry]:
    """The log of ``table`` up to date with its state (rebuilt after an undo), every entry
    (dropped ones too). Linear in the actions it adds: each looks only at the secrets still
    unresolved, not the whole log."""
    log = _logs.get(table)
    if log is not None and log.version == table.version:
        return log.entries
    log = _current(table)
    _extend(table, log, len(table.state.actions))
    if log.changed is not None and log.changed < len(log.first):
        log.marks.append((table.version, log.changed))
        if len(log.marks) > MARKS:
            log.floor = log.marks.pop(0)[0]
    log.changed = None
    log.version = table.version
    return log.entries


async def catch_up(table: LiveTable, chunk: int = CHUNK) -> None:
    """Bring ``table``'s log up to date ``chunk`` actions at a time, the event loop serving
    everything else in between: a long game's first connection (``entries`` then has
    nothing left to do)."""
    while True:
        log = _logs.get(table)
        if log is not None and log.version == table.version:
            return
        log = _current(table)
        if len(log.actions) >= len(table.state.actions):
            return
        _extend(table, log, min(len(table.state.actions), len(log.actions) + chunk))
        await asyncio.sleep(0)


def _current(table: LiveTable) -> Log:
    """The table's log so far: a new one if it has none, or anew after an undo."""
    log = _logs.get(table)
    actions = table.state.actions
    actors = table.actors[: len(actions)]
    if (
        log is None
        or log.actions != actions[: len(log.actions)]
        or log.actors != actors[: len(log.actors)]
    ):
        # (whoever was sent the old one gets this one whole)
        log = _logs[table] = new_log(
            games.get(table.game), table.seed, table.players, table.options, floor=table.version
        )
    return log


def new_log(game: Game, seed: int, players: int, options: dict[str, Any], floor: int = -1) -> Log:
    """An empty log of a game dealt from ``seed``: its shadow state plays the actions
    ``add`` is given."""
    return Log(shadow=game.deal(seed, players, options), floor=floor)


def _extend(table: LiveTable, log: Log, stop: int) -> None:
    """Add the entries of the table's actions up to ``stop``; ``log.changed`` is the first
    action whose words were added or changed (a secret resolved) since the last mark."""
    actions = table.state.actions
    changed = len(log.first) if log.changed is None else min(log.changed, len(log.first))
    game = games.get(table.game)
    known: dict[tuple[str | None, int], str] = {}
    for n in range(len(log.actions), stop):
        seat, action = actions[n]
        changed = min(changed, add(game, log, seat, action, who_of(table, n, seat, known)))
        log.actors.append(table.actors[n] if n < len(table.actors) else None)
    log.changed = changed


def page(log: Log, start: int, stop: int, viewer: int | None = None) -> list[dict[str, Any]]:
    """The entries of actions ``start`` to ``stop`` (excluded), and the news they brought,
    as ``viewer`` reads them."""

    def at(k: int) -> int:
        return log.first[k] if k < len(log.first) else len(log.entries)

    return as_read(log.entries[at(start) : at(stop)], viewer)


def log_for(table: LiveTable, viewer: int | None) -> list[dict[str, Any]]:
    """The whole log as ``viewer`` may read it: ``{n, seat, who, text}`` each."""
    return as_read(entries(table), viewer)


def log_since(
    table: LiveTable, viewer: int | None, version: int | None
) -> tuple[int, list[dict[str, Any]]]:
    """What a connection last sent the table at ``version`` (None: never) lacks of the log
    as ``viewer`` may read it: (the first action whose entries are sent, the entries from
    there). A connection that has nothing of it gets the entries of the last ``LOG_TAIL``
    actions."""
    entries(table)
    log = _logs[table]
    actions = len(log.first)
    start = max(0, actions - LOG_TAIL)
    if version is not None and version >= log.floor:
        start = actions
        for changed, first in reversed(log.marks):
            if changed <= version:
                break
            start = min(start, first)
    return start, page(log, start, actions, viewer)


def last_for(table: LiveTable, viewer: int | None) -> dict[str, Any] | None:
    """The last action for the board to highlight: ``{n, seat, action}``, ``action`` null
    while it is secret from ``viewer``."""
    entries(table)
    log = _logs[table]
    if not log.first:
        return None
    e = log.entries[log.first[-1]]
    visible = viewer == e.seat or not e.secret or e.resolved
    return {"n": e.n, "seat": e.seat, "action": e.action if visible else None}
