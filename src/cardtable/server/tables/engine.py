"""The table engine: the rules of a live table's changes, over a ``LiveTable`` and the store.

No sockets and no bots here: an action is checked against the rules, written to the store,
and only then applied to the live table (the caller holds the table's lock and then tells
the connections). Seats, undo and redo are changes of the same kind, each stored in one
transaction with the table's new version. A game played alone that a person can no longer
play on, lost, is held open for undo (``stuck``) until they leave it or deal again.

With several processes, only a table's holder (its lease on the bus) loads or writes it:
``holds`` says whether this process does, and every load and write asks it first
(``NotHolder``), so a copy elsewhere never reaches the database (docs/server.md, "Many
processes").

Versions: every change bumps the table's ``version``. A client acts against the version it
last saw; the action is stale (refused, with a fresh view) only if that seat's view has
changed since — so the simultaneous reveal of Slide never refuses a seat because another
seat chose first.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from cardtable import games
from cardtable.bots import make_bot
from cardtable.core.errors import CardtableError, IllegalAction
from cardtable.core.protocol import State
from cardtable.core.words import translatable
from cardtable.seeds import new_deal_seed
from cardtable.server.api.messages import HubError, NotHolder, error
from cardtable.server.storage import store as db
from cardtable.server.storage.ratings import rating_of
from cardtable.server.storage.store import routable
from cardtable.server.tables import clock as clocks
from cardtable.server.tables import lifecycle
from cardtable.server.tables.live import (
    BOT_ACTOR,
    LiveTable,
    SeatRow,
    bot_names,
    bot_seat,
    new_bot_name,
    open_seat,
    people_in,
    person_seat,
    stored_seats,
)

_, _n = translatable("cardtable")
log = logging.getLogger("cardtable.server")

MAX_ACTIVE_TABLES = 30  # unfinished tables one player may have created
MAX_BOT_TABLES = 3  # ... of them played by bots only (they play unattended, as fast as allowed)
#: the longest game the server plays: the action that reaches it closes the table as
#: ``too_long`` (docs/server.md, "Table lifecycle"). Every game's log is bounded so, its
#: load and its replay's one build too; Slide's longest (target 1000, six seats) plays about
#: 8,000 to 9,400 actions, below it; only endless talk (The Game's signals) meets it
MAX_ACTIONS = 10_000
#: seconds a person must have been gone before the creator may hand their seat to a bot: a
#: page reload or a short network drop must not cost anyone their seat (--seat-grace)
SEAT_GRACE = 60.0


@dataclass(frozen=True)
class PlannedTable:
    """A tournament's game, chosen before it is stored: its id, the entrants (player ids)
    in seat order, and the tournament's game settings."""

    table_id: str
    tournament: str
    game: str
    people: list[str]
    options: dict[str, Any]
    clock: dict[str, Any] | None
    unrated: bool
    #: the deal (a duplicate challenge's, the same for every entry); None: a new secret one
    seed: int | None = None


def new_table_id() -> str:
    """A new table's id: 8 characters of a URL, unguessable."""
    return secrets.token_urlsafe(6).replace("-", "x").replace("_", "y")


class TableEngine:
    """Changes of live tables, each checked, stored, then applied. ``store``: where tables
    live; ``writer``: the group commit actions are stored through."""

    def __init__(
        self,
        store: db.Storage,
        writer: db.GroupCommit,
        seat_grace: float = SEAT_GRACE,
        min_clock: float | None = None,
    ) -> None:
        self.store = store
        self.writer = writer
        self.seat_grace = seat_grace
        #: the least seconds a clock may give (``--min-clock``; None: ``clock.LIMITS``)
        self.min_clock = min_clock
        #: whether this process holds a table (the hub's ``holds``; one process holds all)
        self.holds: Callable[[str], bool] = lambda _table_id: True

    def guard(self, table_id: str, what: str) -> None:
        """Refuse (``NotHolder``) to load or write a table this process does not hold:
        another process runs it, and a copy here would run stale clocks and bots."""
        if not self.holds(table_id):
            log.warning("table %s: %s refused: this process does not hold it", table_id, what)
            raise NotHolder(table_id, what)

    # -- building a table from the store ----------------------------------------------------
    def load(self, table_id: str) -> LiveTable:
        """The table as its rows say, with its state replayed from the log (no bots yet:
        the seats' bots are the bot runner's). ``HubError`` not_found; ``NotHolder`` where
        another process holds it."""
        if not routable(table_id):  # no process is ever asked to hold it: no table has it
            raise HubError("not_found", _("there is no table {table}", table=repr(table_id)), 404)
        self.guard(table_id, "loading")
        row = self.store.table(table_id)
        if row is None:
            raise HubError("not_found", _("there is no table {table}", table=repr(table_id)), 404)
        advisor = make_advisor(row.game)
        log_rows = self.store.actions(table_id)
        actors: list[str | None] = [a.actor for a in log_rows]
        state = self.replay_log(row.game, row.seed, row.players, row.options, advisor, log_rows)
        seats = self.store.seats(table_id)
        people = {a for a in actors if a and not a.startswith(BOT_ACTOR)}
        names = self.store.names(list(people | people_in(seats)))
        table = LiveTable(
            id=row.id,
            game=row.game,
            seed=row.seed,
            players=row.players,
            options=dict(row.options),
            status=row.status,
            created_by=row.created_by,
            state=state,
            version=row.version,
            redo=list(row.redo or []),
            seats=stored_seats(seats, names),
            seat_grace=self.seat_grace,
            advisor=advisor,
            actors=actors,
            actor_names=names,
            clock=dict(row.clock) if row.clock else None,
            ended=row.ended,
            resigned=list(row.resigned or []),
            created_at=row.created_at,
            practice=row.practice,
            tournament=row.tournament,
            unrated=bool(row.unrated),
            bot_accounts=self.store.bot_accounts(
                [s.player_id for s in seats if s.player_id]
                + [r["player_id"] for r in row.resigned or []]
            ),
        )
        # rows from before actions kept their version are answered with today's
        table.recent = {
            f"{a.seat}:{a.client_id}": {
                "type": "ack",
                "id": a.client_id,
                "version": table.version if a.version is None else a.version,
                "action": a.action,
            }
            for a in log_rows
            if a.client_id
        }
        table.seat_changed = [table.version] * table.players
        self.reconcile(table)
        table.seat_changed = [table.version] * table.players
        running = table.status == "running"
        # what each seat may do now: the baseline its next change is measured against
        table.last_legal = {s: state.legal(s) if running else [] for s in range(table.players)}
        new = table.clock
        if table.clock:  # a new table's first deadlines (a stored one's stay as they were)
            new = clocks.advance(table.clock, table.clocked_seats(), time.time())
        to_act = list(state.to_act())
        if new != table.clock or row.to_act != to_act:  # (a row stored before to_act was)
            self.store.change_table(
                table.id, clock=new if new != table.clock else None, to_act=to_act
            )
            table.clock = new
        return table

    def replay_log(
        self,
        game: str,
        seed: int,
        players: int,
        options: dict[str, Any],
        advisor: Any = None,
        log_rows: list[db.LoggedAction] | None = None,
        table_id: str | None = None,
    ) -> State:
        """The state from a stored log (``log_rows``, or read for ``table_id``); ``advisor``
        watches every step."""
        state = games.get(game).deal(seed, players, options)
        if advisor:
            advisor.observe(state.view(0))
        rows = log_rows if log_rows is not None else self.store.actions(table_id or "")
        for a in rows:
            state.act(a.seat, a.action)  # the log was checked when written
            if advisor:
                advisor.observe(state.view(0))
        return state

    def reconcile(self, table: LiveTable) -> None:
        """Finish a change an older server stored in two commits and was killed between:
        a ``running`` table whose log ends the game becomes ``over`` with its result and
        ratings; an ``open`` table with every seat taken starts; a resignation stored while
        its person kept the seat gives the seat to the fallback bot (or closes the table).
        Each in one transaction, written only if the stored status is still the broken one
        (so it happens once)."""
        if table.status == "running" and not table.state.over:
            self._mend_resignations(table)
        if table.status == "running" and table.state.over and not stuck(table, table.state):
            result = table.state.result()
            self.store.finish(
                table.id, result, self.rating(table, table.seats, result), only_if="running"
            )
            table.status = "over"
            log.info("table %s: its log ends the game; marked over", table.id)
        elif table.status == "open" and all(s["player_id"] or s["bot"] for s in table.seats):
            if self.store.change_table(
                table.id, table.version + 1, status="running", only_if="open"
            ):
                table.version += 1
            table.status = "running"
            log.info("table %s: every seat is taken; started", table.id)

    def _mend_resignations(self, table: LiveTable) -> None:
        """Resignations an older server stored apart from their seat's change (twice, if the
        person resigned again): each stored once, and the seat the fallback bot's."""
        once: list[dict[str, Any]] = []
        for r in table.resigned:
            once = lifecycle.with_resigned(
                once, r["seat"], r["player_id"], r["name"], bool(r.get("away"))
            )
        half = [
            r
            for r in once
            if table.seats[r["seat"]]["player_id"] == r["player_id"] and not r.get("away")
        ]
        if not half and len(once) == len(table.resigned):
            return
        if not half:
            self.store.change_table(table.id, resigned=once, only_if="running")
            table.resigned = once
            return
        for r in half:  # (a table has a few seats: one transaction each, each complete)
            self._to_fallback(table, r["seat"], once)
            if table.status != "running":
                break
        log.info(
            "table %s: resignations of seats %s completed", table.id, [r["seat"] for r in half]
        )

    # -- creating and seating ---------------------------------------------------------------
    def create(
        self,
        creator: db.Player,
        game: str,
        seats: list[str],
        options: dict[str, Any],
        seed: int | None,
        check_bot: Callable[[str, str], None],
        clock: dict[str, Any] | None = None,
        replaces: LiveTable | None = None,
        practice: str | None = None,
        steps: list[tuple[int, str]] | None = None,
    ) -> str:
        """Store a new table; its id. ``seats``: "me", "open" (a free seat for a friend) or
        a bot spec, each checked by ``check_bot(spec, game)`` (``CardtableError``);
        ``clock``: the creator's choice (``clock.check_clock``); ``replaces``: the creator's
        unfinished solitaire this one replaces (a new deal, a restart; the caller holds its
        lock), closed as abandoned in the same transaction. ``practice``: a practice table's
        kind (``practice`` or ``tutorial``: unrated, not in the statistics), ``steps`` the
        actions it starts with (a finished game's record prefix, checked here), played by
        the creator."""
        if not seats:
            seats = ["me"]
        seed, options, to_act = self._checked_start(game, seats, options, seed, steps, check_bot)
        self._check_room(creator, seats, replaces)
        if seats.count("me") > 1:
            raise HubError("bad_request", _("take one seat yourself; leave others open or to bots"))
        table_clock = clocks.check_clock(clock, len(seats), self.min_clock)
        table_id = new_table_id()
        # each bot's name is given here, once: numbered where two share a name
        robots = bot_names([open_seat() if s in ("me", "open") else bot_seat(s, "") for s in seats])
        rows = [
            db.Seat(
                table_id=table_id,
                seat=i,
                player_id=creator.id if s == "me" else None,
                bot=None if s in ("me", "open") else s,
                name=robots[i],
            )
            for i, s in enumerate(seats)
        ]
        full = "open" not in seats
        closes = None
        ended: str | None = "abandoned"
        if replaces is not None:
            self.guard(replaces.id, "closing")
            ended, result = self._close_of(replaces, "abandoned")
            closes = {
                "table_id": replaces.id,
                "version": replaces.version + 1,
                "ended": ended,
                "result": result,
            }
        self.store.new_table(
            db.Table(
                id=table_id,
                game=game,
                seed=seed,
                players=len(seats),
                options=options,
                status="running" if full else "open",
                created_by=creator.id,
                redo=[],
                clock=table_clock,
                to_act=to_act,
                practice=practice,
                version=len(steps or []),
            ),
            rows,
            closes,
            [
                db.Action(
                    table_id=table_id,
                    n=n,
                    seat=seat,
                    action=action,
                    version=n + 1,
                    actor=creator.id,
                )
                for n, (seat, action) in enumerate(steps or [])
            ],
        )
        if replaces is not None:
            self.closed(replaces, ended)
        log.info(
            "table %s: %s created by %s, seats %s", table_id, game, creator.id, ", ".join(seats)
        )
        return table_id

    def create_planned(self, plan: PlannedTable, check_bot: Callable[[str, str], None]) -> str:
        """Store a tournament's game under its chosen id, the entrants already in their
        seats: no creator (nobody has a creator's say at it), no limit of the creator's,
        a secret deal, the tournament's clock."""
        seats = ["open"] * len(plan.people)
        seed, options, to_act = self._checked_start(
            plan.game, seats, plan.options, plan.seed, None, check_bot
        )
        table_clock = clocks.check_clock(plan.clock, len(seats), self.min_clock)
        rows = [
            db.Seat(table_id=plan.table_id, seat=i, player_id=p, bot=None, name=None)
            for i, p in enumerate(plan.people)
        ]
        self.store.new_table(
            db.Table(
                id=plan.table_id,
                game=plan.game,
                seed=seed,
                players=len(seats),
                options=options,
                status="running",
                created_by=None,
                redo=[],
                clock=table_clock,
                to_act=to_act,
                tournament=plan.tournament,
                unrated=True if plan.unrated else None,
                version=0,
            ),
            rows,
        )
        log.info("table %s: %s of tournament %s", plan.table_id, plan.game, plan.tournament)
        return plan.table_id

    @staticmethod
    def _checked_start(
        game: str,
        seats: list[str],
        options: dict[str, Any],
        seed: int | None,
        steps: list[tuple[int, str]] | None,
        check_bot: Callable[[str, str], None],
    ) -> tuple[int, dict[str, Any], list[int]]:
        """A new table's deal checked against the rules: its seed (a new secret one when
        None), its options with their defaults, and the seats to act after ``steps``."""
        try:
            rules = games.get(game)
        except CardtableError as e:
            raise HubError("bad_request", e.reason) from None
        if seed is None:  # a shared deal from 128 secret bits; a solitaire's deal number
            seed = new_deal_seed(len(seats))
        try:
            rules.deal(seed, len(seats), options)  # an option "seed": BadOptions
            _players, options = rules.check_options(len(seats), options)
            start = rules.deal(seed, len(seats), options)
            for seat, action in steps or []:
                start.act(seat, action)
            for s in seats:
                if s not in ("me", "open"):
                    check_bot(s, game)
        except CardtableError as e:
            raise HubError("bad_request", e.reason) from None
        return seed, options, list(start.to_act())

    def _check_room(self, creator: db.Player, seats: list[str], replaces: LiveTable | None) -> None:
        """Refuse a table past the creator's limits of unfinished tables."""
        # one query on the index tables(created_by, status), not a scan of every live table
        unfinished, bots_only = self.store.unfinished_tables(creator.id)
        if replaces is not None and replaces.created_by == creator.id:
            unfinished -= 1  # closed by this very change
        if unfinished >= MAX_ACTIVE_TABLES:
            raise HubError(
                "too_many_tables",
                f"you have {unfinished} unfinished tables; finish "
                f"or leave some first, on My games (/me) (at most "
                f"{MAX_ACTIVE_TABLES})",
                429,
            )
        if all(s not in ("me", "open") for s in seats) and bots_only >= MAX_BOT_TABLES:
            raise HubError(
                "too_many_bot_tables",
                f"you have {bots_only} unfinished tables "
                f"played by bots only; take a seat yourself, or wait for one to end "
                f"(at most {MAX_BOT_TABLES})",
                429,
            )

    def join(self, table: LiveTable, player: db.Player, seat: int | None) -> tuple[int, bool]:
        """Seat a person (the caller holds the table's lock): (their seat, whether the
        table changed: False if they held a seat already)."""
        mine = table.seat_of(player.id)
        if mine is not None:
            return mine, False
        if table.status == "over":
            raise HubError("game_over", _("the game is over: its seats never change"), 409)
        free = [i for i, s in enumerate(table.seats) if not s["player_id"] and not s["bot"]]
        if not free:
            raise HubError("table_full", _("every seat at this table is taken"), 409)
        if seat is None:
            seat = free[0]
        if seat not in free:
            raise HubError(
                "seat_taken", _("seat {seat} is not free", seat=seat + 1), 409
            )  # counted from 1
        others = all(s["player_id"] or s["bot"] for i, s in enumerate(table.seats) if i != seat)
        table.actor_names[player.id] = player.name
        if player.bot_owner:
            table.bot_accounts.add(player.id)
        table.gone_since[seat] = time.monotonic()  # the grace counts from taking the seat
        self.change(
            table,
            all_seats=True,
            fault="join",
            status="running" if others else None,
            seats={seat: person_seat(player.id, player.name)},
        )
        return seat, True

    def check_hand_over(self, table: LiveTable, player: db.Player, seat: int) -> None:
        """Whether ``player`` may give ``seat`` to a bot now (the creator, a seat whose
        person has been gone the grace period); ``HubError`` says why not."""
        if table.created_by != player.id:
            raise HubError("forbidden", _("only the table's creator can hand a seat to a bot"), 403)
        if not 0 <= seat < table.players:
            raise HubError(
                "bad_request",
                _(
                    "there is no seat {seat} (seats 1 to {players})",
                    seat=seat + 1,
                    players=table.players,
                ),
            )
        if table.status == "over":  # who played a finished game is history
            raise HubError("game_over", _("the game is over: its seats never change"), 409)
        if table.seats[seat]["bot"]:
            raise HubError(
                "bad_request", _("seat {seat} is already played by a bot", seat=seat + 1)
            )
        if table.seats[seat]["player_id"] and table.connected(seat):
            raise HubError("seat_taken", _("that player is still at the table"), 409)
        if table.seats[seat]["player_id"]:  # (the rule every page is told: ``hand_over_in``)
            now = time.monotonic()
            gone, left = table.gone_for(seat, now), table.grace_left(seat, now)
            if left > 0:
                raise HubError(
                    "grace_period",
                    f"that player left {gone:.1f} s ago and may be coming "
                    f"back: the seat can go to a bot in {left:.1f} s",
                    409,
                    {"retry_after": round(left + 0.05, 1)},
                )
        if all(s["bot"] for i, s in enumerate(table.seats) if i != seat):
            # the table would become one of bots only: the same cap as creating one
            _tables, bots_only = self.store.unfinished_tables(player.id)
            if bots_only >= MAX_BOT_TABLES:
                raise HubError(
                    "too_many_bot_tables",
                    f"you have {bots_only} unfinished "
                    f"tables of bots only; this hand-over would make another "
                    f"(at most {MAX_BOT_TABLES})",
                    429,
                )

    def hand_over(self, table: LiveTable, seat: int, bot: str) -> None:
        """Give ``seat`` to the bot ``bot`` (checked by ``check_hand_over``), stored."""
        full = table.status == "open" and all(
            s["player_id"] or s["bot"] for i, s in enumerate(table.seats) if i != seat
        )
        self.change(
            table,
            all_seats=True,
            fault="hand-to-bot",
            status="running" if full else None,
            seats={seat: self.bot_for(table, seat, bot)},
        )
        new = table.seats[seat]
        if new["person"]:
            said = _(
                "{person}'s seat {seat} is now played by {bot} (bot)",
                person=new["person_name"] or _("player"),
                seat=seat + 1,
                bot=new["name"],
            )
        else:
            said = _("seat {seat} is now played by {bot} (bot)", seat=seat + 1, bot=new["name"])
        table.notices.append(said)
        log.info("table %s seat %s: handed to the %s bot", table.id, seat, bot)

    def replace_bot(self, table: LiveTable, seat: int, bot: str) -> None:
        """A failed bot's seat goes to ``bot``: one seat row, no version change."""
        self.guard(table.id, "replacing a bot")
        new = self.bot_for(table, seat, bot)
        table.seats[seat] = new
        self.store.set_seat(table.id, seat, None, bot, new["name"], new["person"])

    @staticmethod
    def bot_for(table: LiveTable, seat: int, bot: str) -> SeatRow:
        """``seat`` as the bot ``bot`` takes it: playing on for the seat's person (whoever
        held it, or whom its bot played for), named once (``live.new_bot_name``)."""
        was = table.seats[seat]
        person, person_name = (
            (was["player_id"], was["name"])
            if was["player_id"]
            else (was["person"], was["person_name"])
        )
        return bot_seat(
            bot, new_bot_name(table.seats, seat, bot, person, person_name), person, person_name
        )

    # -- acting -----------------------------------------------------------------------------
    async def act(
        self, table: LiveTable, seat: int, action: str, version: int | None, client_id: str | None
    ) -> dict[str, Any]:
        """One action for ``seat`` (the caller holds the table's lock): the answer for the
        sender, an ack once the action is stored and applied, or an error. ``action`` and
        ``version`` come typed: a client's were parsed at the edge (``ActMessage``)."""
        key = f"{seat}:{client_id}"  # ids are the client's own: one seat's never meet another's
        if client_id and key in table.recent:
            return table.recent[key]  # a resend: answer again, apply once
        if table.status == "open":
            return error("not_started", _("the table is waiting for players"), client_id)
        if table.status == "over":
            return error("game_over", _("the game is over: no action is legal"), client_id)
        if version is not None and version < table.seat_changed[seat]:
            return error(
                "stale", _("the table has changed since you saw it: here it is now"), client_id
            )
        now = time.time()
        deadline = table.clock["deadlines"][seat] if table.clock else None
        if deadline is not None and now > deadline + clocks.LAG:  # the server judges time
            return error("out_of_time", _("your time to move ran out"), client_id)
        candidate = table.state.clone()
        try:
            candidate.act(seat, action)
        except IllegalAction as e:
            return error(e.code, e.reason, client_id)
        row: dict[str, Any] = {
            "table_id": table.id,
            "n": len(candidate.actions) - 1,
            "seat": seat,
            "action": action,
            "version": table.version + 1,
            "client_id": client_id,
            "actor": table.actor(seat),
            "to_act": list(candidate.to_act()),
        }
        if candidate.over and not stuck(table, candidate):
            # the game's end (status, result, ratings) goes with its action
            row["finish"] = self._finish_of(table, candidate)
        elif len(candidate.actions) >= MAX_ACTIONS:  # ... and so does the length limit's
            row["finish"] = self._too_long(table, candidate)
        if table.clock:  # the clock it leaves, stored with the action (talk starts no move)
            talk = games.get(table.game).is_talk(action)
            row["clock"] = clocks.advance(
                table.clock,
                [] if "finish" in row else table.clocked_seats(candidate),
                now,
                acted=None if talk else seat,
            )
        # stored before acknowledged or broadcast: a crash after this line loses nothing.
        # The table's lock is held meanwhile, so its next action waits for this one.
        self.guard(table.id, "an action")
        await commit(self.writer.submit(row))
        table.version += 1
        table.state = candidate
        table.actors.append(row["actor"])
        table.redo = []
        if "clock" in row:
            table.clock = row["clock"]
        if "ended" in row.get("finish", {}):
            table.status, table.ended = "over", row["finish"]["ended"]
            log.info(
                "table %s: closed at the length limit, %d actions", table.id, len(candidate.actions)
            )
        self.after_change(table, actor=seat)
        answer = {"type": "ack", "id": client_id, "version": table.version, "action": action}
        if client_id:  # every id the log holds (load): a table has a few hundred at most
            table.recent[key] = answer
        return answer

    def _finish_of(self, table: LiveTable, state: State) -> dict[str, Any]:
        """What the action ending ``table``'s game stores with it: result and ratings."""
        result: dict[str, Any] = dict(state.result())
        if table.resigned:  # resigned seats rank last, rated as the people who resigned
            result = lifecycle.with_resignations(result, [r["seat"] for r in table.resigned])
            return {
                "result": result,
                "rating": self.rating(
                    table, lifecycle.rating_seats(table.seats, table.resigned), result
                ),
            }
        return {
            "result": result,
            "rating": self.rating(table, table.seats, result),
        }

    @staticmethod
    def rating(
        table: LiveTable, seats: list[Any], result: Mapping[str, Any]
    ) -> dict[str, Any] | None:
        """What a finished game changes in the ratings (``rating_of``): nothing at a
        practice table (a replayed deal, a tutorial) or an unrated tournament's game, whatever
        its seats."""
        if table.practice or table.unrated:
            return None
        return rating_of(table.game, seats, result, table.bot_accounts)

    def _too_long(self, table: LiveTable, state: State) -> dict[str, Any]:
        """What the action reaching ``MAX_ACTIONS`` stores with it: the table closed as
        ``too_long``, the position so far its result, nobody winning, not rated (as idle)."""
        result = lifecycle.closed_result(
            state.result(),
            "too_long",
            games.get(table.game).cooperative or table.players == 1,
            [r["seat"] for r in table.resigned],
        )
        return {"result": result, "rating": None, "ended": "too_long"}

    def after_change(
        self, table: LiveTable, all_seats: bool = False, actor: int | None = None
    ) -> None:
        """Note which seats' situations changed, and finish the game if it just ended.

        A seat's situation changes when it acts itself or when what it may do (its legal
        actions) changes. Another seat's talk or simultaneous choice changes neither, so it
        never makes this seat's action stale.
        """
        if table.advisor:
            table.advisor.observe(table.state.view(0))
        running = table.status == "running"
        for seat in range(table.players):
            legal = table.state.legal(seat) if running else []
            if all_seats or seat == actor or legal != table.last_legal.get(seat):
                table.seat_changed[seat] = table.version
                table.last_legal[seat] = legal
        if table.state.over and table.status != "over" and not stuck(table, table.state):
            table.status = "over"  # stored with the action that ended it (its row's "finish")
            log.info(
                "table %s: %s over after %d actions, winners %s",
                table.id,
                table.game,
                len(table.state.actions),
                table.state.result().get("winners"),
            )

    def change(
        self,
        table: LiveTable,
        all_seats: bool = False,
        *,
        seats: dict[int, SeatRow] | None = None,
        status: str | None = None,
        fault: str | None = None,
        clock: dict[str, Any] | None = None,
        resigned: list[dict[str, Any]] | None = None,
    ) -> None:
        """A change of seats (seat -> {"player_id", "bot", "name"}), status, clock (its
        ``away`` and ``banks``; None: as it is) and resigned seats (None: as they are),
        stored with the table's new version in one transaction, then made to the live table.
        ``fault``: the test fault point right after that commit (``store.fault_point``)."""
        seats = seats or {}
        base = clock if clock is not None else table.clock
        new_clock = None
        if base:  # whose time runs with the new seats and status
            after = [seats.get(i, s) for i, s in enumerate(table.seats)]
            new_clock = clocks.advance(
                base, table.clocked_seats(seats=after, status=status or table.status), time.time()
            )
        self.guard(table.id, "a change of seats")
        self.store.change_table(
            table.id,
            table.version + 1,
            status=status,
            seats={
                i: (s["player_id"], s["bot"], s["name"] if s["bot"] else None, s["person"])
                for i, s in seats.items()
            },
            clock=new_clock,
            resigned=resigned,
        )
        if fault:
            db.fault_point(fault)
        for i, s in seats.items():
            table.seats[i] = s
        if status:
            table.status = status
        if new_clock is not None:
            table.clock = new_clock
        if resigned is not None:
            table.resigned = resigned
        table.version += 1
        self.after_change(table, all_seats)

    # -- solitaire comfort ------------------------------------------------------------------
    def undo(self, table: LiveTable, player: db.Player) -> None:
        """Take back the last action (the caller holds the table's lock). Never after the
        game's end: a win taken back would vanish from the statistics. (A solitaire with no
        move left is not at its end yet: ``stuck``.)"""
        table.tool_seat(player.id, "undo")
        self._check_running(table)
        if not table.state.actions:
            raise HubError("nothing_to_undo", _("there is nothing to undo"))
        # the action out, the redo list, the version, the seats to act and (a finished
        # game) the status in one transaction
        status = "running" if table.status == "over" else None
        before = self._replay(table, table.state.actions[:-1])
        self.guard(table.id, "an undo")
        last = self.store.pop(
            table.id, table.version + 1, status=status, to_act=list(before.to_act())
        )
        if last is None:  # the store has no action the memory has: never without a bug
            raise HubError("nothing_to_undo", _("there is nothing to undo"))
        db.fault_point("undo")
        table.version += 1
        table.redo.append([last.seat, last.action])
        table.recent.pop(f"{last.seat}:{last.client_id}", None)  # its id may come again
        table.state = before
        del table.actors[len(table.state.actions) :]
        if status:
            table.status = status
        self.after_change(table, all_seats=True)

    def redo(self, table: LiveTable, player: db.Player) -> None:
        """Play the last undone action again (the caller holds the table's lock)."""
        table.tool_seat(player.id, "redo")
        self._check_running(table)
        if not table.redo:
            raise HubError("nothing_to_redo", _("there is nothing to redo"))
        seat, action = table.redo[-1]
        candidate = table.state.clone()
        candidate.act(seat, action)
        row: dict[str, Any] = {
            "table_id": table.id,
            "n": len(candidate.actions) - 1,
            "seat": seat,
            "action": action,
            "version": table.version + 1,
            "redo": table.redo[:-1],
            "actor": table.actor(seat),
            "to_act": list(candidate.to_act()),
        }
        if candidate.over and not stuck(table, candidate):
            row["finish"] = self._finish_of(table, candidate)
        self.guard(table.id, "a redo")
        self.store.append_many([row])
        db.fault_point("redo")
        table.version += 1
        table.redo.pop()
        table.state = candidate
        table.actors.append(row["actor"])
        self.after_change(table, all_seats=True)

    def _replay(self, table: LiveTable, actions: list[Any]) -> State:
        """The table's state after these of its actions (``(seat, action)`` each)."""
        state = games.get(table.game).deal(table.seed, table.players, table.options)
        for seat, action in actions:
            state.act(seat, action)
        return state

    def _check_running(self, table: LiveTable) -> None:
        if table.status == "over":
            raise HubError(
                "game_over", _("the game is over: its moves can no longer be taken back"), 409
            )

    # -- the table's end before its game's: leave, resign, abandon (``lifecycle``) ----------
    def close(
        self,
        table: LiveTable,
        ended: str,
        rated: bool = False,
        resigned: list[dict[str, Any]] | None = None,
    ) -> bool:
        """Close an unfinished table as ``ended`` (the caller holds the lock), its result the
        position so far as a loss; ``rated``: a resignation in a competitive game, rated with
        the resigned seats last; ``resigned``: the resigned seats, stored in the same
        transaction (None: as they are). False if it was over already."""
        if table.status == "over":
            return False
        given_up = table.resigned if resigned is None else resigned
        how, result = self._close_of(table, ended, given_up)
        rating = (
            self.rating(table, lifecycle.rating_seats(table.seats, given_up), result)
            if rated and how
            else None
        )
        self.guard(table.id, "closing")
        if not self.store.close_table(table.id, table.version + 1, how, result, rating, resigned):
            return False  # (another process closed it: never while this one holds it)
        self.closed(table, how, given_up)
        return True

    @staticmethod
    def _close_of(
        table: LiveTable, ended: str, given_up: list[dict[str, Any]] | None = None
    ) -> tuple[str | None, dict[str, Any]]:
        """How a table closed as ``ended`` is stored: (its ``ended``, its result). A stuck
        solitaire held open for undo (``stuck``) ends as its game did, lost with its score
        (``ended`` None: played to its end), whoever closes it."""
        if stuck(table, table.state):
            return None, dict(table.state.result())
        rules = games.get(table.game)
        return ended, lifecycle.closed_result(
            table.state.result(),
            ended,
            rules.cooperative or table.players == 1,
            [r["seat"] for r in given_up or []],
        )

    def closed(
        self, table: LiveTable, ended: str | None, resigned: list[dict[str, Any]] | None = None
    ) -> None:
        """Make a close that is stored to the live table too."""
        table.version += 1
        if resigned is not None:
            table.resigned = list(resigned)
        table.status, table.ended = "over", ended
        self.after_change(table, all_seats=True)
        log.info(
            "table %s: closed, %s, after %d actions", table.id, ended, len(table.state.actions)
        )

    def leave(self, table: LiveTable, player: db.Player, resign: bool = False) -> str:
        """The person leaves (or resigns) their seat (the caller holds the lock). What
        happens (docs/server.md, "Table lifecycle"), as one word the caller acts on:

        - ``freed``: an open table's seat is free again (its last person gone: ``closed``);
        - ``closed``: the table ended (a solitaire; a cooperative game resigned; nobody but
          bots left);
        - ``bot``: the game plays on, the seat is the game's fallback bot's (the caller
          gives it its bot). In a competitive game leaving a started game is resigning: the
          seat ranks last whatever the bot does.

        Each outcome is one transaction. Asked again by a person who resigned, it answers
        the same and stores nothing; asked by a person the clock replaced, it makes their
        resignation final (they no longer take the seat back by coming back).
        """
        seat = table.seat_of(player.id)
        if seat is None:
            if not any(r["player_id"] == player.id for r in table.resigned):
                raise HubError("not_seated", _("you have no seat at this table"), 409)
            if table.status != "running":
                return "closed"
            self._stay_away(table, player)  # (a resend of a resignation: nothing to store)
            return "bot"
        if table.status == "over":
            raise HubError("game_over", _("the game is over: its seats never change"), 409)
        self.guard(table.id, "leaving")
        if table.status == "open":
            if not any(s["player_id"] for i, s in enumerate(table.seats) if i != seat):
                self.close(table, "abandoned")
                return "closed"
            self.change(table, all_seats=True, fault="leave", seats={seat: open_seat()})
            return "freed"
        rules = games.get(table.game)
        if table.players == 1 or (resign and rules.cooperative):
            self.close(table, "resigned" if resign else "abandoned")
            return "closed"
        resigned = (
            lifecycle.with_resigned(table.resigned, seat, player.id, player.name)
            if self.competitive(table)
            else None
        )
        outcome = self._to_fallback(table, seat, resigned)
        if outcome == "bot":
            what = "resigned" if resign else "left"
            bot = table.seats[seat]["bot"]
            bot_name, number = table.seats[seat]["name"], seat + 1
            said = (
                _(
                    "{name} resigned; {bot} (bot) plays seat {seat} on",
                    name=player.name,
                    bot=bot_name,
                    seat=number,
                )
                if resign
                else _(
                    "{name} left; {bot} (bot) plays seat {seat} on",
                    name=player.name,
                    bot=bot_name,
                    seat=number,
                )
            )
            table.notices.append(said)
            log.info(
                "table %s seat %s: %s %s, the %s bot plays on", table.id, seat, player.id, what, bot
            )
        return outcome

    @staticmethod
    def competitive(table: LiveTable) -> bool:
        """Whether a seat given up ranks last (rated as resigned): people against each
        other, not a cooperative game."""
        return table.players > 1 and not games.get(table.game).cooperative

    def _to_fallback(
        self, table: LiveTable, seat: int, resigned: list[dict[str, Any]] | None
    ) -> str:
        """A running table's ``seat`` goes to the game's fallback bot with the ``resigned``
        seats (None: a cooperative game's, unchanged), in one transaction: ``bot``; or, with
        nobody else but bots left, the table closes (rated if someone resigned): ``closed``."""
        if not any(s["player_id"] for i, s in enumerate(table.seats) if i != seat):
            # bots only would play on, for nobody: the table ends now
            rated = resigned is not None
            self.close(table, "resigned" if rated else "abandoned", rated=rated, resigned=resigned)
            return "closed"
        fallback = games.get(table.game).fallback_bot
        self.change(
            table,
            all_seats=True,
            fault="leave" if resigned is None else "resign",
            seats={seat: self.bot_for(table, seat, fallback)},
            resigned=resigned,
        )
        return "bot"

    def _stay_away(self, table: LiveTable, player: db.Player) -> None:
        """A person the clock replaced resigns: counted as resigned for good, they no longer
        take the seat back by coming back; one transaction (nothing if they resigned)."""
        seats = [r["seat"] for r in table.resigned if r["player_id"] == player.id and r.get("away")]
        if not seats or table.clock is None:
            return
        away = [None if i in seats else p for i, p in enumerate(table.clock["away"])]
        resigned = [
            {k: v for k, v in r.items() if k != "away"} if r["player_id"] == player.id else dict(r)
            for r in table.resigned
        ]
        self.change(
            table,
            all_seats=True,
            fault="resign",
            clock={**table.clock, "away": away},
            resigned=resigned,
        )

    # -- clocks (clock.py): a seat out of time goes to a bot, its person may take it back --
    def time_out(self, table: LiveTable, seat: int) -> None:
        """The clock gives ``seat`` to the game's fallback bot (the caller holds the lock
        and seats the bot): the person is marked away (they may take it back) and, in a
        competitive game, counted as resigned until they do; one transaction."""
        assert table.clock is not None
        person = table.seats[seat]
        away = list(table.clock["away"])
        away[seat] = person["player_id"]
        resigned = None
        if self.competitive(table) and person["player_id"]:
            resigned = lifecycle.with_resigned(
                table.resigned, seat, person["player_id"], person["name"], away=True
            )
        fallback = games.get(table.game).fallback_bot
        self.change(
            table,
            all_seats=True,
            fault="timeout",
            clock={**table.clock, "away": away},
            resigned=resigned,
            seats={seat: self.bot_for(table, seat, fallback)},
        )

    def take_back(self, table: LiveTable, seat: int, player: db.Player) -> None:
        """The person the clock replaced at ``seat`` is back: the seat is theirs again, their
        time starts afresh and they are no longer counted as resigned; one transaction."""
        clock = table.clock
        assert clock is not None
        away = list(clock["away"])
        away[seat] = None
        banks = clock["banks"]
        if banks is not None:  # a move's worth of time, if theirs is gone
            banks = list(banks)
            banks[seat] = max(banks[seat], min(clocks.RETURN_TIME, clock["seconds"]))
        table.actor_names[player.id] = player.name
        table.gone_since[seat] = time.monotonic()
        self.change(
            table,
            all_seats=True,
            fault="reclaim",
            clock={**clock, "away": away, "banks": banks},
            resigned=lifecycle.back_from_away(table.resigned, seat, player.id),
            seats={seat: person_seat(player.id, player.name)},
        )

    def record(self, table: LiveTable) -> dict[str, Any]:
        """The game's record, public once the game is over."""
        if table.status != "over":
            raise HubError(
                "not_over", _("the record of a game is public once the game is over"), 403
            )
        # who played each seat (names, not player ids): replay() accepts and ignores it
        return {**table.state.record(), "played_by": table.history()}


async def commit(task: asyncio.Future[None]) -> None:
    """Await a store write that, once begun, must finish: if the waiting task is cancelled
    meanwhile, the write (and the caller's bookkeeping after it) still completes, and the
    cancellation comes at the caller's next await."""
    cancelled = False
    while True:
        try:
            await asyncio.shield(task)
            break
        except asyncio.CancelledError:
            if task.done() and not task.cancelled():
                break
            cancelled = True
    if cancelled:  # re-arm the cancellation for the caller's next await
        current = asyncio.current_task()
        if current is not None:
            current.cancel()
    task.result()


def stuck(table: LiveTable, state: State) -> bool:
    """Whether ``state`` is a lost end that the table holds open (docs/server.md, "Table
    lifecycle"): a game played alone by a person (not a bot, nor a bot account), with undo
    offered (``Game.tools``), where no move is left and the game is not won. As in
    AisleRiot, the player may still undo, ask a hint or restart; the table is finished
    (lost, with its score) only when they leave, give up, deal anew or restart, or when it
    is closed for being idle."""
    person = table.seats[0]["player_id"]
    if not state.over or table.players != 1 or not person or person in table.bot_accounts:
        return False  # (a bot account's program, like a bot, would never undo)
    return games.get(table.game).offers_undo(1) and not state.result().get("won")


def make_advisor(game: str) -> Any:
    """The game's advisor bot (``Game.advisor``), watching a player's game to give hints so
    they remember what was shown (Doublets' flipped cards); None for a game without one."""
    spec = games.get(game).advisor
    return None if spec is None else make_bot(spec, game)
