"""A live table: what the server holds in memory for one table, and its public description.

Every part of the server works over a :class:`LiveTable`: the engine changes it (actions,
undo, seats), the bot runner plays its bot seats, the broadcaster sends its views, and
``table_info`` describes it (and a table only in the store, for the lobby) in one place. It
also says which table tools each viewer has (``tools``) and refuses the others
(``tool_seat``), so every route and every state message follow one rule.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, TypedDict

from cardtable import games
from cardtable.core.protocol import State
from cardtable.core.words import Text, translatable, wire
from cardtable.server.api.messages import HubError
from cardtable.server.api.names import bot_label
from cardtable.server.tables import clock as clocks

if TYPE_CHECKING:
    from cardtable.server.tables.conn import Conn

_, _n = translatable("cardtable")

#: the ``actor`` of an action a bot played: ``bot:SPEC`` (a person's is their player id)
BOT_ACTOR = "bot:"
#: table tools that end with the game (``LiveTable.tools``)
RUNNING_ONLY = frozenset({"undo", "redo"})
#: each table tool in words, for refusals
TOOL_WORDS = {
    "undo": "undo",
    "redo": "redo",
    "hint": "hints",
    "peek": '"still winnable?" (peeking)',
    "restart": "restarting the deal",
    "new_deal": "a new deal in place of this game",
}


def bot_names(seats: list[SeatRow]) -> list[str | None]:
    """Per seat, its bot's name for people (None for a person or an open seat): the label,
    and the seat's number (from 1) when the table has two bots of that label, so that
    "Greedy 1" and "Greedy 3" can be told apart wherever names are shown. Given once, to the
    seats a table is created with (``new_bot_name`` names a bot that comes later)."""
    labels = [bot_label(s["bot"]) if s["bot"] else None for s in seats]
    return [
        None if label is None else f"{label} {i + 1}" if labels.count(label) > 1 else label
        for i, label in enumerate(labels)
    ]


def played_for(person: str, bot: str) -> Text:
    """A person's seat a bot plays on, as every page names it (as Board Game Arena does)."""
    return _("{person} — played by {bot}", person=person, bot=bot)


class SeatRow(TypedDict):
    """Who holds a seat: a person (``player_id``, their ``name``) or a bot (``bot`` is its
    spec, ``name`` its name for people, given once: "Greedy", "Greedy 3"); all None for an
    open seat. A bot may play a person's seat on (they left, resigned, ran out of time or
    were handed over): ``person`` is their player id and ``person_name`` their name."""

    player_id: str | None
    bot: str | None
    name: str | None
    person: str | None
    person_name: str | None


def person_seat(player_id: str, name: str | None) -> SeatRow:
    return SeatRow(player_id=player_id, bot=None, name=name, person=None, person_name=None)


def bot_seat(
    spec: str, name: str, person: str | None = None, person_name: str | None = None
) -> SeatRow:
    return SeatRow(
        player_id=None,
        bot=spec,
        name=name,
        person=person,
        person_name=person_name if person else None,
    )


def open_seat() -> SeatRow:
    return SeatRow(player_id=None, bot=None, name=None, person=None, person_name=None)


def shown_name(seat: SeatRow) -> str | None:  # a Text for a bot on a person's seat
    """The seat's name wherever a page shows it: the person's, the bot's, or both."""
    if seat["bot"] and seat["person"]:
        return played_for(seat["person_name"] or "player", seat["name"] or bot_label(seat["bot"]))
    return seat["name"]


def seat_label(seat: SeatRow, bot_account: bool = False) -> str:
    """The seat's name as pages show it (docs/server.md, "Seats that go to bots"): the
    person's, a bot's marked as one, a person's seat a bot plays on, or an open seat."""
    if seat["bot"] and seat["person"]:
        return played_for(seat["person_name"] or _("player"), seat["name"] or "")
    if seat["bot"] or bot_account:
        return _("{name} (bot)", name=seat["name"] or "")
    return seat["name"] or _("open seat")


def new_bot_name(
    seats: list[SeatRow],
    seat: int,
    spec: str,
    person: str | None = None,
    person_name: str | None = None,
) -> str:
    """The name of a bot taking ``seat`` now: its label, with the seat's number only if
    another seat is shown by the same name. No other seat is renamed for it."""
    label = bot_label(spec)
    shown = shown_name(bot_seat(spec, label, person, person_name))
    if any(shown_name(s) == shown for i, s in enumerate(seats) if i != seat):
        return f"{label} {seat + 1}"
    return label


class StoredSeat(Protocol):
    """A seat as the store keeps it (``store.Seat``)."""

    seat: int
    player_id: str | None
    bot: str | None
    name: str | None
    person: str | None


def people_in(seats: Iterable[StoredSeat]) -> set[str]:
    """The player ids these seats name: the people in them, and those bots play for."""
    return {p for s in seats for p in (s.player_id, s.person) if p}


def stored_seats(rows: Iterable[StoredSeat], names: Mapping[str, str]) -> list[SeatRow]:
    """A table's stored seats (any order) as ``SeatRow``s, with ``names`` (player id ->
    name). A bot stored before names were kept is named as it was then, among the bots
    that play for nobody."""
    out: list[SeatRow] = []
    for s in sorted(rows, key=lambda s: s.seat):
        if s.player_id:
            out.append(person_seat(s.player_id, names.get(s.player_id)))
        elif s.bot:
            out.append(
                bot_seat(s.bot, s.name or "", s.person, names.get(s.person) if s.person else None)
            )
        else:
            out.append(open_seat())
    older = bot_names([open_seat() if r["person"] else r for r in out])
    for i, r in enumerate(out):
        if r["bot"] and not r["name"]:
            r["name"] = older[i] or bot_label(r["bot"])
    return out


@dataclass(eq=False)
class LiveTable:
    id: str
    game: str
    seed: int
    players: int
    options: dict[str, Any]
    status: str
    created_by: str | None
    state: State
    seats: list[SeatRow]
    version: int = 0
    #: undone actions, most recent last: ``[seat, action]`` each
    redo: list[list[Any]] = field(default_factory=list)
    #: seat -> its bot (a bot object, or a ``RemoteBot`` thinking in a worker)
    bots: dict[int, Any] = field(default_factory=dict)
    conns: set[Conn] = field(default_factory=set)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    #: per seat, the version at which its situation last changed (staleness: ``engine``)
    seat_changed: list[int] = field(default_factory=list)
    last_legal: dict[int, list[str]] = field(default_factory=dict)
    #: "seat:client id" -> the ack, for every stored action with an id (loaded from the log):
    #: a resent action is answered again, never applied twice, even after a restart
    recent: dict[str, dict[str, Any]] = field(default_factory=dict)
    bot_task: asyncio.Task[None] | None = None
    notices: list[str] = field(default_factory=list)
    #: the game's advisor bot watching the player's game, so hints remember what was shown
    advisor: Any = None
    #: seat -> time.monotonic() its last connection closed (a seat never connected since
    #: the table was loaded counts as gone since ``loaded_at``)
    gone_since: dict[int, float] = field(default_factory=dict)
    loaded_at: float = field(default_factory=time.monotonic)
    #: seconds a person must have been gone before their seat may go to a bot (the
    #: engine's ``seat_grace``, ``--seat-grace``)
    seat_grace: float = 60.0
    #: who played each action of ``state.actions``: a player id or ``bot:SPEC`` (None: a row
    #: stored before actors were kept, taken to be the seat's present occupant)
    actors: list[str | None] = field(default_factory=list)
    #: player id -> name, for everyone who played here (a person whose seat went to a bot too)
    actor_names: dict[str, str] = field(default_factory=dict)
    #: when it was last loaded or seen in use (time.monotonic): unloaded when idle too long
    used: float = field(default_factory=time.monotonic)
    #: presence every connection was last told: (seats connected, spectators)
    presence_sent: tuple[frozenset[int], int] = (frozenset(), 0)
    presence_timer: asyncio.TimerHandle | None = None
    #: the table's clock (``clock.py``; stored with every change), None for an untimed table
    clock: dict[str, Any] | None = None
    clock_timer: asyncio.TimerHandle | None = None

    def clocked_seats(
        self,
        state: State | None = None,
        seats: list[SeatRow] | None = None,
        status: str | None = None,
    ) -> list[int]:
        """The seats whose time runs: people's seats in ``to_act`` of a running table."""
        state = self.state if state is None else state
        seats = self.seats if seats is None else seats
        if (status or self.status) != "running" or not self.clock:
            return []
        return [s for s in state.to_act() if seats[s]["player_id"]]

    #: the table's chat settings once read (``chat.Chat.settings``)
    chat: dict[str, bool] | None = None
    #: how an ``over`` table ended (abandoned, resigned, idle or too_long; None: played to its end)
    ended: str | None = None
    #: seats that resigned while the game played on: ``[{"seat", "player_id", "name"}]``, in
    #: order (``"away": true``: the clock gave the seat to a bot; ``lifecycle``)
    resigned: list[dict[str, Any]] = field(default_factory=list)
    #: the seated players that are bot accounts (shown and rated as bots)
    bot_accounts: set[str] = field(default_factory=set)
    #: when the table was created (UTC), for its age in the lobby
    created_at: dt.datetime | None = None
    #: (version, ``history()``) of a finished table: every connection's info carries it,
    #: and a long game's took 7 ms to build (issue #23)
    history_kept: tuple[int, list[list[dict[str, Any]]]] | None = None
    #: a practice table's kind (``practice``, ``tutorial``; ``store.Table.practice``): never
    #: rated nor counted in the statistics; None for an ordinary table
    practice: str | None = None
    #: the tournament whose game this is (``store.Table.tournament``), None for none
    tournament: str | None = None
    #: never rated (an unrated tournament's game), whatever the game says
    unrated: bool = False

    @property
    def offers_undo(self) -> bool:
        """Undo and redo: where the game offers them (``Game.tools_for``: alone)."""
        return games.get(self.game).offers_undo(self.players)

    def tools(self, seat: int | None) -> list[str]:
        """The table tools of the person at ``seat`` now, as their state message lists them
        (``Game.tools_for``; a spectator, None, has none); undo and redo only while the game
        runs (a finished game is history)."""
        if seat is None or self.tournament is not None:  # (a tournament's game: none)
            return []
        running = self.status == "running"
        return [
            t
            for t in games.get(self.game).tools_for(self.players)
            if running or t not in RUNNING_ONLY
        ]

    def tool_seat(self, player_id: str, tool: str) -> int:
        """The player's seat, where the game offers them ``tool`` at this table; else the
        typed refusal ``not_offered`` (403). Whether the tool may be used now (``game_over``)
        is its route's to say."""
        if self.tournament is not None:  # no undo, hint, peek nor a second try in a tournament
            return check_tool(self.game, self.players, None, tool)
        return check_tool(self.game, self.players, self.seat_of(player_id), tool)

    def seat_of(self, player_id: str | None) -> int | None:
        """The first seat of this table that the player holds."""
        for i, s in enumerate(self.seats):
            if player_id and s["player_id"] == player_id:
                return i
        return None

    def connected(self, seat: int) -> bool:
        return any(c.seat == seat for c in self.conns)

    def gone_for(self, seat: int, now: float | None = None) -> float:
        """Seconds since ``seat``'s person last had a connection (or took the seat, or the
        table was loaded)."""
        now = time.monotonic() if now is None else now
        return now - self.gone_since.get(seat, self.loaded_at)

    def hand_over_in(
        self, seat: int, now: float | None = None, present: set[int | None] | None = None
    ) -> float | None:
        """Seconds until ``seat`` may be handed to a bot (0: now), for a person's seat
        without a connection at an unfinished table, but the creator's own; else None. Sent
        to every viewer, so a page shows when, without guessing the grace period.
        ``present``: the seats with a connection, if known (one pass over the connections
        for every seat)."""
        connected = seat in present if present is not None else self.connected(seat)
        person = self.seats[seat]["player_id"]
        # only the creator hands seats over: their own seat (a solitaire's) never goes so
        if self.status == "over" or not person or person == self.created_by or connected:
            return None
        return self.grace_left(seat, now)

    def grace_left(self, seat: int, now: float | None = None) -> float:
        """Seconds until the person gone from ``seat`` has been gone the grace period."""
        return round(max(0.0, self.seat_grace - self.gone_for(seat, now)), 1)

    def actor(self, seat: int) -> str | None:
        """Who plays ``seat`` now, as an action row's ``actor``."""
        s = self.seats[seat]
        if s["player_id"]:
            return s["player_id"]
        return BOT_ACTOR + s["bot"] if s["bot"] else None

    def who(self, actor: str | None, seat: int) -> dict[str, Any]:
        """``{"name", "bot", "person"}`` of an action's actor (None: the seat's present
        occupant); ``person``: for a bot, the person whose seat it played (None: nobody's).
        A seat is a person's from the game's start to its end, so its person now is the one
        any bot played it for."""
        actor = actor or self.actor(seat)
        s = self.seats[seat]
        if actor and actor.startswith(BOT_ACTOR):
            spec = actor[len(BOT_ACTOR) :]
            label = s["name"] if spec == s["bot"] and s["name"] else bot_label(spec)
            person = s["person_name"] if s["bot"] else s["name"]
            return {
                "name": label,
                "bot": spec,
                "person": (person or "player") if s["person"] or s["player_id"] else None,
            }
        name = (self.actor_names.get(actor) if actor else None) or (
            s["name"] if actor == s["player_id"] else None
        )
        return {"name": name or "player", "bot": None, "person": None}

    def history(self) -> list[list[dict[str, Any]]]:
        """Per seat, who played it over time: ``[{"name", "bot", "person", "from"}]``, ``from`` the
        index in the action log of the first action they played (0 for the first of a seat).
        A seat that never acted lists its present occupant."""
        runs: list[list[dict[str, Any]]] = [[] for _seat in range(self.players)]
        last: list[str | None] = [None] * self.players
        for n, (seat, _action) in enumerate(self.state.actions):
            actor = (self.actors[n] if n < len(self.actors) else None) or self.actor(seat)
            if runs[seat] and actor == last[seat]:
                continue
            last[seat] = actor
            runs[seat].append({**self.who(actor, seat), "from": n if runs[seat] else 0})
        for seat, run in enumerate(runs):
            if not run:
                run.append({**self.who(None, seat), "from": 0})
        return runs

    def info_as(self, base: dict[str, Any], viewer: str | None) -> dict[str, Any]:
        """``info(viewer)`` from ``info(None)``: only ``creator`` and ``you`` differ."""
        if not viewer:
            return base
        seats = base["seats"]
        mine = [i for i, s in enumerate(self.seats) if s["player_id"] == viewer]
        if mine:
            seats = [{**s, "you": True} if i in mine else s for i, s in enumerate(seats)]
        away = [
            i
            for i, p in enumerate(self.clock["away"] if self.clock else [])
            if p == viewer and self.seats[i]["bot"]
        ]
        if away:  # the clock gave the viewer's seat to a bot: they may take it back
            seats = [{**s, "you_away": True} if i in away else s for i, s in enumerate(seats)]
        return {
            **base,
            "creator": self.created_by == viewer,
            "seats": seats,
            "your_deadline": your_deadline(self.clock, self.seats, viewer),
        }

    def info(self, viewer: str | None = None) -> dict[str, Any]:
        """Public facts about the table (``table_info``), with what only memory knows: who
        is connected, undo and redo, the last notices, and once over who played each seat."""
        undo = self.offers_undo
        present = {c.seat for c in self.conns}
        info = table_info(
            self.id,
            self.game,
            self.players,
            self.options,
            self.status,
            self.seed,
            self.created_by,
            self.version,
            self.seats,
            present,
            viewer,
            # a finished game is history: no undo after its end (nor after it was closed)
            can_undo=undo and bool(self.state.actions) and self.status == "running",
            can_redo=undo and bool(self.redo) and self.status == "running",
            notices=self.notices[-5:],
            clock=self.clock,
            bot_accounts=self.bot_accounts,
            practice=self.practice,
            tournament=self.tournament,
        )
        if self.ended:
            info["ended"] = self.ended
        if self.created_at is not None:
            info["created_at"] = iso(self.created_at)
        now = time.monotonic()
        for seat in info["seats"]:  # when a person's seat may go to a bot (None: not so)
            seat["hand_over_in"] = self.hand_over_in(seat["seat"], now, present)
        if self.status == "over":  # who played each seat, a person then a bot that took over
            if self.history_kept is None or self.history_kept[0] != self.version:
                self.history_kept = (self.version, self.history())
            for seat, run in zip(info["seats"], self.history_kept[1], strict=True):
                seat["history"] = run
        return info


def check_tool(game: str, players: int, seat: int | None, tool: str) -> int:
    """The one rule of every tool's route: the person's ``seat``, if they hold one at a table
    of ``players`` where ``game`` offers ``tool`` (``Game.tools_for``); else ``not_offered``
    (403)."""
    if seat is None or tool not in games.get(game).tools_for(players):
        raise HubError(
            "not_offered",
            f"{TOOL_WORDS[tool]}: not offered to you at this "
            "table (your state message lists your tools)",
            403,
        )
    return seat


def iso(when: dt.datetime | None) -> str | None:
    """A stored (naive UTC) time as ISO 8601 with its Z."""
    return None if when is None else when.replace(microsecond=0).isoformat() + "Z"


def table_info(
    table_id: str,
    game: str,
    players: int,
    options: dict[str, Any],
    status: str,
    seed: int,
    created_by: str | None,
    version: int,
    seats: list[SeatRow],
    present: set[int | None],
    viewer: str | None,
    *,
    can_undo: bool = False,
    can_redo: bool = False,
    notices: list[str] | None = None,
    clock: dict[str, Any] | None = None,
    bot_accounts: set[str] | frozenset[str] = frozenset(),
    practice: str | None = None,
    tournament: str | None = None,
) -> dict[str, Any]:
    """The public facts of a table, built in this one place for tables in memory and those
    described from their rows (the lobby). ``seats``: ``{"player_id", "bot", "name"}`` each;
    ``present``: the seats with a connection; ``bot_accounts``: the seated players that are
    bot accounts (``bot_account`` in their seat). A bot playing a person's seat on names
    them (``person``).

    The seed only where the game says the deal is public (``Game.deal_is_public``: a
    solitaire's deal number; a shared game's seed would reveal hidden cards until it is
    over), and at a practice table (``practice``: a replayed deal or a tutorial's, known to
    its player anyway); never at a tournament's table (a duplicate challenge deals every
    entry the same cards: its record shows the seed once the challenge is over). As decimal
    text: a shared deal's 128-bit seed is beyond a
    JavaScript number."""
    rules = games.get(game)
    return {
        "id": table_id,
        "game": game,
        "title": rules.title,
        "players": players,
        "options": options,
        "status": status,
        "seed": (
            str(seed)
            if practice or (rules.deal_is_public(players, status == "over") and not tournament)
            else None
        ),
        "creator": created_by == viewer if viewer else False,
        "version": version,
        "can_undo": can_undo,
        "can_redo": can_redo,
        "seats": [
            {
                "seat": i,
                "name": s["name"],
                "person": s["person_name"] if s["bot"] else None,
                "bot": s["bot"],
                "taken": bool(s["player_id"] or s["bot"]),
                "you": bool(viewer and s["player_id"] == viewer),
                "connected": (i in present) if s["player_id"] else None,
                "bot_account": s["player_id"] in bot_accounts,
                "hand_over_in": None,
                "shown": wire(seat_label(s, s["player_id"] in bot_accounts)),
            }  # (a live table's own info counts it down)
            for i, s in enumerate(seats)
        ],
        "notices": notices or [],
        "notices_msg": [wire(n) for n in notices or []],
        "clock": clocks.public(clock, time.time()),
        "your_deadline": your_deadline(clock, seats, viewer),
        "practice": practice,
        "tournament": tournament,
    }


def your_deadline(
    clock: dict[str, Any] | None, seats: list[SeatRow], viewer: str | None
) -> float | None:
    """When the viewer's time to move runs out (seconds since the epoch): only where it is
    their turn at a table with a clock (the "My games" page lists these), else None."""
    if not clock or not viewer:
        return None
    mine = [
        d
        for d, s in zip(clock["deadlines"], seats, strict=True)
        if d is not None and s["player_id"] == viewer
    ]
    return min(mine, default=None)
