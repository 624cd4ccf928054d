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
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypedDict

from cardtable import games
from cardtable.core.protocol import State
from cardtable.server import clock as clocks
from cardtable.server.messages import HubError

if TYPE_CHECKING:
    from cardtable.server.broadcast import Conn

#: the ``actor`` of an action a bot played: ``bot:SPEC`` (a person's is their player id)
BOT_ACTOR = "bot:"
#: table tools that end with the game (``LiveTable.tools``)
RUNNING_ONLY = frozenset({"undo", "redo"})
#: each table tool in words, for refusals
TOOL_WORDS = {"undo": "undo", "redo": "redo", "hint": "hints",
              "peek": '"still winnable?" (peeking)', "restart": "restarting the deal",
              "new_deal": "a new deal in place of this game"}


def bot_label(spec: str) -> str:
    """A bot's name for people, from its spec: ``greedy`` -> "Greedy", ``search:hard`` ->
    "Search (hard)", ``ext:NAME`` (an operator's bot) -> "NAME", ``cmd:...`` -> "Program"."""
    kind, _, rest = spec.partition(":")
    if kind == "ext" and rest:
        return rest[:40]
    if kind == "cmd":
        return "Program"
    return f"{kind.capitalize()} ({rest})" if rest else kind.capitalize()


def bot_names(seats: list[SeatRow]) -> list[str | None]:
    """Per seat, its bot's name for people (None for a person or an open seat): the label,
    and the seat's number (from 1) when the table has two bots of that label, so that
    "Greedy 1" and "Greedy 3" can be told apart wherever names are shown."""
    labels = [bot_label(s["bot"]) if s["bot"] else None for s in seats]
    return [None if label is None else f"{label} {i + 1}" if labels.count(label) > 1
            else label for i, label in enumerate(labels)]


class SeatRow(TypedDict):
    """Who holds a seat: a person (``player_id``, their ``name``) or a bot (``bot`` is its
    spec, and its name too); all None for an open seat."""

    player_id: str | None
    bot: str | None
    name: str | None


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

    def clocked_seats(self, state: State | None = None, seats: list[SeatRow] | None = None,
                      status: str | None = None) -> list[int]:
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

    @property
    def offers_undo(self) -> bool:
        """Undo and redo: where the game offers them (``Game.tools_for``: alone)."""
        return games.get(self.game).offers_undo(self.players)

    def tools(self, seat: int | None) -> list[str]:
        """The table tools of the person at ``seat`` now, as their state message lists them
        (``Game.tools_for``; a spectator, None, has none); undo and redo only while the game
        runs (a finished game is history)."""
        if seat is None:
            return []
        running = self.status == "running"
        return [t for t in games.get(self.game).tools_for(self.players)
                if running or t not in RUNNING_ONLY]

    def tool_seat(self, player_id: str, tool: str) -> int:
        """The player's seat, where the game offers them ``tool`` at this table; else the
        typed refusal ``not_offered`` (403). Whether the tool may be used now (``game_over``)
        is its route's to say."""
        return check_tool(self.game, self.players, self.seat_of(player_id), tool)

    def seat_of(self, player_id: str | None) -> int | None:
        """The first seat of this table that the player holds."""
        for i, s in enumerate(self.seats):
            if player_id and s["player_id"] == player_id:
                return i
        return None

    def connected(self, seat: int) -> bool:
        return any(c.seat == seat for c in self.conns)

    def actor(self, seat: int) -> str | None:
        """Who plays ``seat`` now, as an action row's ``actor``."""
        s = self.seats[seat]
        if s["player_id"]:
            return s["player_id"]
        return BOT_ACTOR + s["bot"] if s["bot"] else None

    def who(self, actor: str | None, seat: int) -> dict[str, Any]:
        """``{"name", "bot"}`` of an action's actor (None: the seat's present occupant)."""
        actor = actor or self.actor(seat)
        if actor and actor.startswith(BOT_ACTOR):
            spec = actor[len(BOT_ACTOR):]
            label = bot_label(spec)
            if spec == self.seats[seat]["bot"]:  # the seat's bot now: its numbered name
                label = bot_names(self.seats)[seat] or label
            return {"name": label, "bot": spec}
        s = self.seats[seat]
        name = (self.actor_names.get(actor) if actor else None) or (
            s["name"] if actor == s["player_id"] else None)
        return {"name": name or "player", "bot": None}

    def history(self) -> list[list[dict[str, Any]]]:
        """Per seat, who played it over time: ``[{"name", "bot", "from"}]``, ``from`` the
        index in the action log of the first action they played (0 for the first of a seat).
        A seat that never acted lists its present occupant."""
        runs: list[list[dict[str, Any]]] = [[] for _ in range(self.players)]
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
        away = [i for i, p in enumerate(self.clock["away"] if self.clock else [])
                if p == viewer and self.seats[i]["bot"]]
        if away:  # the clock gave the viewer's seat to a bot: they may take it back
            seats = [{**s, "you_away": True} if i in away else s for i, s in enumerate(seats)]
        return {**base, "creator": self.created_by == viewer, "seats": seats,
                "your_deadline": your_deadline(self.clock, self.seats, viewer)}

    def info(self, viewer: str | None = None) -> dict[str, Any]:
        """Public facts about the table (``table_info``), with what only memory knows: who
        is connected, undo and redo, the last notices, and once over who played each seat."""
        undo = self.offers_undo
        info = table_info(
            self.id, self.game, self.players, self.options, self.status, self.seed,
            self.created_by, self.version, self.seats, {c.seat for c in self.conns}, viewer,
            # a finished game is history: no undo after its end (nor after it was closed)
            can_undo=undo and bool(self.state.actions) and self.status == "running",
            can_redo=undo and bool(self.redo) and self.status == "running",
            notices=self.notices[-5:], clock=self.clock, bot_accounts=self.bot_accounts)
        if self.ended:
            info["ended"] = self.ended
        if self.created_at is not None:
            info["created_at"] = iso(self.created_at)
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
        raise HubError("not_offered", f"{TOOL_WORDS[tool]}: not offered to you at this "
                       "table (your state message lists your tools)", 403)
    return seat


def iso(when: dt.datetime | None) -> str | None:
    """A stored (naive UTC) time as ISO 8601 with its Z."""
    return None if when is None else when.replace(microsecond=0).isoformat() + "Z"


def table_info(table_id: str, game: str, players: int, options: dict[str, Any], status: str,
               seed: int, created_by: str | None, version: int,
               seats: list[SeatRow], present: set[int | None], viewer: str | None, *,
               can_undo: bool = False, can_redo: bool = False,
               notices: list[str] | None = None,
               clock: dict[str, Any] | None = None,
               bot_accounts: set[str] | frozenset[str] = frozenset()) -> dict[str, Any]:
    """The public facts of a table, built in this one place for tables in memory and those
    described from their rows (the lobby). ``seats``: ``{"player_id", "bot", "name"}`` each;
    ``present``: the seats with a connection; ``bot_accounts``: the seated players that are
    bot accounts (``bot_account`` in their seat).

    The seed only where the game says the deal is public (``Game.deal_is_public``: a
    solitaire's deal number; a shared game's seed would reveal hidden cards until it is
    over). As decimal text: a shared deal's 128-bit seed is beyond a JavaScript number."""
    rules = games.get(game)
    robots = bot_names(seats)
    return {
        "id": table_id,
        "game": game,
        "title": rules.title,
        "players": players,
        "options": options,
        "status": status,
        "seed": str(seed) if rules.deal_is_public(players, status == "over") else None,
        "creator": created_by == viewer if viewer else False,
        "version": version,
        "can_undo": can_undo,
        "can_redo": can_redo,
        "seats": [
            {"seat": i, "name": robots[i] or s["name"], "bot": s["bot"], "taken": bool(
                s["player_id"] or s["bot"]), "you": bool(viewer and s["player_id"] == viewer),
             "connected": (i in present) if s["player_id"] else None,
             "bot_account": s["player_id"] in bot_accounts}
            for i, s in enumerate(seats)
        ],
        "notices": notices or [],
        "clock": clocks.public(clock, time.time()),
        "your_deadline": your_deadline(clock, seats, viewer),
    }


def your_deadline(clock: dict[str, Any] | None, seats: list[SeatRow],
                  viewer: str | None) -> float | None:
    """When the viewer's time to move runs out (seconds since the epoch): only where it is
    their turn at a table with a clock (the "My games" page lists these), else None."""
    if not clock or not viewer:
        return None
    mine = [d for d, s in zip(clock["deadlines"], seats, strict=True)
            if d is not None and s["player_id"] == viewer]
    return min(mine, default=None)
