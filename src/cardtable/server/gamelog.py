"""The game log: every action of a table in words, as each viewer may read it.

Each action is described twice by its game (``Game.describe_action``): for the seat that
played it, with that seat's view before the action (its own secret words), and for everyone
else with the spectator's view before it and ``public=True`` (``Game.public_action``). A
secret action (Slide's reveal) reads publicly once it *resolves*: when a seat must act that is
not among those still to choose since it (the simultaneous choice is over and the board shows
it), or the game ends. Nothing here knows a game: only the ``Game``'s words and ``to_act``.

The words are built once per action and kept beside the live table (a shadow state replays
the log to know each view *before* an action), so a broadcast only picks, per viewer, the
text it may read.

A connection is sent only what changed since the last state it was sent (``log_since``):
the entries from the first one that is new or whose words changed (a secret action that
resolved), and where they start (``log_from``); the client keeps the ones before. A new
connection, or one older than what the log remembers, gets the whole log, or its last
``LOG_TAIL`` entries in a longer game.

The build is linear in the actions: each new action looks only at the secrets still
unresolved, and views are built only for a game whose words read them
(``Game.words_need_view``).
"""

from __future__ import annotations

import asyncio
import weakref
from dataclasses import dataclass, field
from typing import Any

from cardtable import games
from cardtable.core.protocol import Game, State
from cardtable.server.live import LiveTable, played_for


@dataclass
class Entry:
    n: int  # index in the action log
    seat: int
    action: str
    who: str
    mine: str  # the words for the seat that acted
    public: str  # the words for the others while the action is secret (or for good)
    open: str | None  # the words for the others once resolved (None: same as ``public``)
    secret: bool  # public_action was None: the others see ``public`` until resolved
    resolved: bool = False
    # the seats still to choose since (``to_act`` before it but its own seat, less those
    # who acted since): it resolves when a seat not among them must act
    pending: set[int] = field(default_factory=set)


@dataclass
class Log:
    actions: list[tuple[int, str]] = field(default_factory=list)
    actors: list[str | None] = field(default_factory=list)
    entries: list[Entry] = field(default_factory=list)
    shadow: State | None = None
    #: the table's version the log was brought up to date at: a broadcast asks once per
    #: viewer, and only a change (a new version) can make it stale
    version: int = -1
    #: (table version, index of the first entry that version added or changed), oldest first
    marks: list[tuple[int, int]] = field(default_factory=list)
    #: a connection last sent a version before this gets the whole log
    floor: int = -1
    #: the secret entries not yet resolved: the only ones a new action may change
    unresolved: list[Entry] = field(default_factory=list)
    #: the first entry added or changed since the last mark (None: none): the log may be
    #: built a chunk at a time (``catch_up``) before the next mark
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


def who_of(table: LiveTable, n: int, seat: int,
           known: dict[tuple[str | None, int], str] | None = None) -> str:
    """The name of whoever played action ``n``: a person's, a bot's marked as one ("Greedy
    (bot)"), or a bot's on a person's seat with theirs ("Ann — played by Greedy").
    ``known``: the names found so far by (actor, seat), for a build of many entries (naming
    a bot was most of a long log's cost)."""
    actor = table.actors[n] if n < len(table.actors) else None
    if known is not None and (actor, seat) in known:
        return known[actor, seat]
    who = table.who(actor, seat)
    name = str(who["name"])
    if who["bot"]:
        name = played_for(who["person"], name) if who["person"] else f"{name} (bot)"
    if known is not None:
        known[actor, seat] = name
    return name


def entries(table: LiveTable) -> list[Entry]:
    """The log of ``table`` up to date with its state (rebuilt after an undo). Linear in the
    actions it adds: each looks only at the secrets still unresolved, not the whole log."""
    log = _logs.get(table)
    if log is not None and log.version == table.version:
        return log.entries
    log = _current(table)
    _extend(table, log, len(table.state.actions))
    if log.changed is not None and log.changed < len(log.entries):
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
    actors = table.actors[:len(actions)]
    if log is None or log.actions != actions[:len(log.actions)] or \
            log.actors != actors[:len(log.actors)]:
        # (whoever was sent the old one gets this one whole)
        log = _logs[table] = Log(shadow=games.get(table.game).deal(
            table.seed, table.players, table.options), floor=table.version)
    return log


def _extend(table: LiveTable, log: Log, stop: int) -> None:
    """Add the entries of the table's actions up to ``stop``; ``log.changed`` is the first
    entry added or changed (a secret resolved) since the last mark."""
    actions = table.state.actions
    changed = len(log.entries) if log.changed is None else min(log.changed, len(log.entries))
    game = games.get(table.game)
    shadow = log.shadow
    assert shadow is not None
    known: dict[tuple[str | None, int], str] = {}
    for n in range(len(log.actions), stop):
        seat, action = actions[n]
        # the seats still to choose alongside it (a simultaneous step)
        alongside = set(shadow.to_act()) - {seat}
        entry = _describe(game, shadow, n, seat, action, who_of(table, n, seat, known))
        shadow.act(seat, action)
        for old in log.unresolved:
            old.pending.discard(seat)
        entry.pending = alongside
        log.entries.append(entry)
        if entry.secret:
            log.unresolved.append(entry)
        changed = min(changed, _resolve(log, shadow))
        log.actions.append((seat, action))
        log.actors.append(table.actors[n] if n < len(table.actors) else None)
    log.changed = changed


def _describe(game: Game, state: State, n: int, seat: int, action: str, who: str) -> Entry:
    """Action ``n``'s entry in every viewer's words, from ``state`` before it. (Views only
    for a game whose words read them: a Slide view costs half a millisecond.)"""
    need = game.words_need_view
    spectator = state.view(None) if need else None
    secret = game.public_action(action) is None
    return Entry(
        n=n, seat=seat, action=action, who=who,
        mine=game.describe_action(action, who, state.view(seat) if need else None),
        public=game.describe_action(action, who, spectator, public=True),
        open=game.describe_action(action, who, spectator) if secret else None,
        secret=secret)


def _resolve(log: Log, state: State) -> int:
    """Mark secret actions whose simultaneous choice is over as public; the index of the
    first one marked (``len(log.entries)`` if none)."""
    first = len(log.entries)
    if not log.unresolved:
        return first
    to_act = set(state.to_act())
    still = []
    for e in log.unresolved:
        if state.over or not to_act <= e.pending:
            e.resolved = True
            first = min(first, e.n)
        else:
            still.append(e)
    log.unresolved = still
    return first


def spectator_words(game: Game, state: State, n: int, seat: int, action: str,
                    who: str) -> dict[str, Any]:
    """Action ``n`` as a spectator reads it once the game is over (every secret resolved),
    from ``state`` before it: what ``log_for(table, None)`` says of a finished table, without
    the live log's bookkeeping (``replays.py`` builds a finished game's words with it)."""
    secret = game.public_action(action) is None
    view = state.view(None) if game.words_need_view else None
    return {"n": n, "seat": seat, "who": who,
            "text": game.describe_action(action, who, view, public=not secret)}


def text_for(entry: Entry, viewer: int | None) -> str:
    """The words ``viewer`` (a seat, None for a spectator) may read of ``entry``."""
    if viewer == entry.seat:
        return entry.mine
    if entry.secret and entry.resolved and entry.open is not None:
        return entry.open
    return entry.public


def log_for(table: LiveTable, viewer: int | None) -> list[dict[str, Any]]:
    """The whole log as ``viewer`` may read it: ``{n, seat, who, text}`` each."""
    return [{"n": e.n, "seat": e.seat, "who": e.who, "text": text_for(e, viewer)}
            for e in entries(table)]


def log_since(table: LiveTable, viewer: int | None,
              version: int | None) -> tuple[int, list[dict[str, Any]]]:
    """What a connection last sent the table at ``version`` (None: never) lacks of the log
    as ``viewer`` may read it: (the index of the first entry sent, the entries from there).
    A connection that has nothing of it gets the last ``LOG_TAIL`` entries."""
    log_entries = entries(table)
    log = _logs[table]
    start = max(0, len(log_entries) - LOG_TAIL)
    if version is not None and version >= log.floor:
        start = len(log_entries)
        for changed, first in reversed(log.marks):
            if changed <= version:
                break
            start = min(start, first)
    return start, [{"n": e.n, "seat": e.seat, "who": e.who, "text": text_for(e, viewer)}
                   for e in log_entries[start:]]


def last_for(table: LiveTable, viewer: int | None) -> dict[str, Any] | None:
    """The last action for the board to highlight: ``{n, seat, action}``, ``action`` null
    while it is secret from ``viewer``."""
    log = entries(table)
    if not log:
        return None
    e = log[-1]
    visible = viewer == e.seat or not e.secret or e.resolved
    return {"n": e.n, "seat": e.seat, "action": e.action if visible else None}

