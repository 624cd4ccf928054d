"""A game's log in words, as each viewer may read it: pure, for any screen.

Each action is described twice by its game (``Game.describe_action``): for the seat that
played it, with that seat's view before the action, and for everyone else with the
spectator's view before it and ``public=True``. A secret action (``Game.public_action``
None: Slide's reveal) reads publicly once it *resolves*: when a seat must act that is not
among those still to choose since it (the simultaneous choice is over), or the game ends;
then in the words of the spectator's view at that moment (``Game.describe_resolved``: "Ann
revealed a 7 from b2"), for its own seat too. A seat's later secret action that takes the
place of its earlier one (``Game.replaces``: a change of mind) drops the earlier entry for
every viewer. After an action that may bring news (``Game.news_after``), the game's news
(``Game.describe_news``: Slide's scoring of a deal) are entries of their own, marked
``news``. Nothing here knows a game, a server or a screen; every word comes from a view.

A ``Logbook`` plays its own copy of the game (``shadow``) to know each view *before* an
action; ``add`` is linear in the actions: each looks only at the secrets still unresolved.
The terminal reads its log through it (``cardtable.tui.table``), and the server's game log
builds on it (``server/tables/gamelog.py``: a ``Logbook`` kept beside each live table, and
the deltas each connection is sent).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from cardtable.core.protocol import Game, State, seat_name
from cardtable.core.words import wire


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
    #: the seats still to choose since (``to_act`` before it but its own seat, less those
    #: who acted since): it resolves when a seat not among them must act
    pending: set[int] = field(default_factory=set)
    #: a change of mind (``Game.replaces``): the same seat's later choice took its place,
    #: and no viewer reads it any more
    dropped: bool = False
    #: news (``Game.describe_news``), no action of its own: the same words for everyone
    news: bool = False
    #: each of its words as read (``as_read``), built once: (the words, the dict)
    read: list[tuple[str, dict[str, Any]]] = field(default_factory=list, repr=False, compare=False)


@dataclass
class Logbook:
    """The entries of a game's actions so far, and what ``add`` needs to go on."""

    #: the game played alongside, one action behind each ``add`` (views *before* it)
    shadow: State | None = None
    actions: list[tuple[int, str]] = field(default_factory=list)
    #: every entry, dropped ones too, in order: each action's, then the news it brought
    entries: list[Entry] = field(default_factory=list)
    #: per action, the index in ``entries`` of its own entry
    first: list[int] = field(default_factory=list)
    #: the secret entries not yet resolved: the only ones a new action may change
    unresolved: list[Entry] = field(default_factory=list)
    #: per seat, the name it last acted under (news names every seat)
    names: dict[int, str] = field(default_factory=dict)


def new_logbook(game: Game, seed: int, players: int, options: dict[str, Any]) -> Logbook:
    """An empty log of a game dealt from ``seed``."""
    return Logbook(shadow=game.deal(seed, players, options))


def add(game: Game, log: Logbook, seat: int, action: str, who: str) -> int:
    """The next action's entry, its shadow state played on, a change of mind it makes
    dropped, the secrets it resolves told, the news it brings added: the first action whose
    words that changed. (``CardtableError`` from the rules if the action is refused.)"""
    shadow = log.shadow
    assert shadow is not None
    n = len(log.first)
    # the seats still to choose alongside it (a simultaneous step)
    alongside = set(shadow.to_act()) - {seat}
    entry = describe(game, shadow, n, seat, action, who)
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
    changed = min(changed, resolve(game, log, shadow))
    if shadow.over or game.news_after(action, shadow.to_act()):
        view = shadow.view(None)
        names = [log.names[s] if s in log.names else seat_name(s) for s in range(shadow.players)]
        log.entries.extend(
            Entry(
                n=n,
                seat=seat,
                action=action,
                who="",
                mine=text,
                public=text,
                open=None,
                secret=False,
                news=True,
            )
            for text in game.describe_news(view, names)
        )
    return changed


def describe(game: Game, state: State, n: int, seat: int, action: str, who: str) -> Entry:
    """Action ``n``'s entry in every viewer's words, from ``state`` before it. (Views only
    for a game whose words read them: a Slide view costs half a millisecond.)"""
    need = game.words_need_view
    spectator = state.view(None) if need else None
    secret = game.public_action(action) is None
    return Entry(
        n=n,
        seat=seat,
        action=action,
        who=who,
        mine=game.describe_action(action, who, state.view(seat) if need else None),
        public=game.describe_action(action, who, spectator, public=True),
        open=game.describe_action(action, who, spectator) if secret else None,
        secret=secret,
    )


def resolve(game: Game, log: Logbook, state: State) -> int:
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
    """``entries`` as ``viewer`` reads them, ``{n, seat, who, text, msg}`` each (``news``
    true for news), without the dropped ones: ``text`` in English, ``msg`` the same words
    for a client to put into its reader's language (``core.words.wire``). Each entry's dict
    is built once per text and shared by every reader of it: read-only."""
    return [read_as(e, text_for(e, viewer)) for e in entries if not e.dropped]


def read_as(entry: Entry, text: str) -> dict[str, Any]:
    """``entry`` read in ``text`` (one of its words), built once per text."""
    for known, read in entry.read:  # (at most its three words; held, so never reused)
        if known is text:
            return read
    read = {"n": entry.n, "seat": entry.seat, "who": entry.who, "text": text, "msg": wire(text)}
    if entry.news:
        read["news"] = True
    entry.read.append((text, read))
    return read
