"""The game log: every action of a table in words, as each viewer may read it.

Each action is described twice by its game (``Game.describe_action``): for the seat that
played it, with that seat's view before the action (its own secret words), and for everyone
else with the spectator's view before it and ``public=True`` (``Game.public_action``). A
secret action (Slide's reveal) reads publicly once it *resolves*: when a seat must act that is
not among those still to choose since it (the simultaneous choice is over and the board shows
it), or the game ends; then in the words of the spectator's view at that moment
(``Game.describe_resolved``: "Ann revealed a 7 from b2"), for its own seat too. A seat's
later secret action that takes the place of its earlier one (``Game.replaces``: a change of
mind) drops the earlier entry for every viewer. After an action that may bring news
(``Game.news_after``), the game's news from the spectator's view after it
(``Game.describe_news``: Slide's scoring of a deal) are entries of their own, marked
``news``. Nothing here knows a game: only the ``Game``'s words and ``to_act``; every word
comes from a view, the one redaction.

The words are built once per action and kept beside the live table (a shadow state replays
the log to know each view *before* an action), so a broadcast only picks, per viewer, the
text it may read. A finished game's replay builds its log with the same ``add``.

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
from cardtable.core.protocol import Game, State
from cardtable.server.tables.live import LiveTable, played_for


@dataclass
class Entry:
    n: int  # index in the action log (news: of the action that brought it)
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
    #: a change of mind (``Game.replaces``): the same seat's later choice took its place,
    #: and no viewer reads it any more
    dropped: bool = False
    #: news (``Game.describe_news``), no action of its own: the same words for everyone
    news: bool = False


@dataclass
class Log:
    actions: list[tuple[int, str]] = field(default_factory=list)
    actors: list[str | None] = field(default_factory=list)
    #: every entry, dropped ones too, in order: each action's, then the news it brought
    entries: list[Entry] = field(default_factory=list)
    #: per action, the index in ``entries`` of its own entry
    first: list[int] = field(default_factory=list)
    shadow: State | None = None
    #: the table's version the log was brought up to date at: a broadcast asks once per
    #: viewer, and only a change (a new version) can make it stale
    version: int = -1
    #: (table version, the first action whose words that version added or changed), oldest
    #: first
    marks: list[tuple[int, int]] = field(default_factory=list)
    #: a connection last sent a version before this gets the whole log
    floor: int = -1
    #: the secret entries not yet resolved: the only ones a new action may change
    unresolved: list[Entry] = field(default_factory=list)
    #: the first action whose words were added or changed since the last mark (None: none):
    #: the log may be built a chunk at a time (``catch_up``) before the next mark
    changed: int | None = None
    #: per seat, the name it last acted under (news names every seat)
    names: dict[int, str] = field(default_factory=dict)


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
    actors = table.actors[:len(actions)]
    if log is None or log.actions != actions[:len(log.actions)] or \
            log.actors != actors[:len(log.actors)]:
        # (whoever was sent the old one gets this one whole)
        log = _logs[table] = new_log(games.get(table.game), table.seed, table.players,
                                     table.options, floor=table.version)
    return log


def new_log(game: Game, seed: int, players: int, options: dict[str, Any],
            floor: int = -1) -> Log:
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


def add(game: Game, log: Log, seat: int, action: str, who: str) -> int:
    """The next action's entry, its shadow state played on, a change of mind it makes
    dropped, the secrets it resolves told, the news it brings added: the first action whose
    words that changed. (``CardtableError`` from the rules if the action is refused.)"""
    shadow = log.shadow
    assert shadow is not None
    n = len(log.first)
    # the seats still to choose alongside it (a simultaneous step)
    alongside = set(shadow.to_act()) - {seat}
    entry = _describe(game, shadow, n, seat, action, who)
    shadow.act(seat, action)
    changed = n
    for old in log.unresolved:
        if old.seat == seat and game.replaces(old.action, action):
            old.dropped = True
            changed = min(changed, old.n)
        old.pending.discard(seat)
    log.unresolved = [e for e in log.unresolved if not e.dropped]
    entry.pending = alongside
    log.first.append(len(log.entries))
    log.entries.append(entry)
    log.actions.append((seat, action))
    log.names[seat] = who
    if entry.secret:
        log.unresolved.append(entry)
    changed = min(changed, _resolve(game, log, shadow))
    if shadow.over or game.news_after(action, shadow.to_act()):
        view = shadow.view(None)
        names = [log.names.get(s, f"Seat {s + 1}") for s in range(shadow.players)]
        log.entries.extend(Entry(n=n, seat=seat, action=action, who="", mine=text,
                                 public=text, open=None, secret=False, news=True)
                           for text in game.describe_news(view, names))
    return changed


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


def _resolve(game: Game, log: Log, state: State) -> int:
    """Mark secret actions whose simultaneous choice is over as public, in the words of
    the spectator's view now (``Game.describe_resolved``: the revealed card); the first
    action marked (``len(log.first)`` if none)."""
    first = len(log.first)
    if not log.unresolved:
        return first
    to_act = set(state.to_act())
    still, done = [], []
    for e in log.unresolved:
        if state.over or not to_act <= e.pending:
            e.resolved = True
            first = min(first, e.n)
            done.append(e)
        else:
            still.append(e)
    log.unresolved = still
    if done:
        view = state.view(None)  # one view for the whole step
        for e in done:
            words = game.describe_resolved(e.action, e.seat, e.who, view)
            if words is not None:
                e.open = e.mine = words  # the seat itself reads the card too
    return first


def text_for(entry: Entry, viewer: int | None) -> str:
    """The words ``viewer`` (a seat, None for a spectator) may read of ``entry``."""
    if viewer == entry.seat:
        return entry.mine
    if entry.secret and entry.resolved and entry.open is not None:
        return entry.open
    return entry.public


def as_read(entries: list[Entry], viewer: int | None) -> list[dict[str, Any]]:
    """``entries`` as ``viewer`` reads them, ``{n, seat, who, text}`` each (``news`` true
    for news), without the dropped ones."""
    return [{"n": e.n, "seat": e.seat, "who": e.who, "text": text_for(e, viewer),
             **({"news": True} if e.news else {})}
            for e in entries if not e.dropped]


def page(log: Log, start: int, stop: int, viewer: int | None = None) -> list[dict[str, Any]]:
    """The entries of actions ``start`` to ``stop`` (excluded), and the news they brought,
    as ``viewer`` reads them."""
    def at(k: int) -> int:
        return log.first[k] if k < len(log.first) else len(log.entries)
    return as_read(log.entries[at(start):at(stop)], viewer)


def log_for(table: LiveTable, viewer: int | None) -> list[dict[str, Any]]:
    """The whole log as ``viewer`` may read it: ``{n, seat, who, text}`` each."""
    return as_read(entries(table), viewer)


def log_since(table: LiveTable, viewer: int | None,
              version: int | None) -> tuple[int, list[dict[str, Any]]]:
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
