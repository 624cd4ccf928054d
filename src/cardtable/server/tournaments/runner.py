"""The runner: every tick, for each tournament not over that this process holds, one step on
(and today's deals of the day opened, if no process has opened them yet).

A step reads the tournament from the database and does what is due: at its start time a
tournament with too few entrants is cancelled, else it begins; tables that do not exist yet
are created (a runner killed between storing a round and creating its tables finishes the
job), and the games that ended have their places recorded (a seat whose person left or never
came ranks last: ``tournaments.absent_last``). Then, by format: a Swiss round over, the next
one is paired, or the tournament ends; an arena seats whoever waits until its end; a
duplicate challenge gives each entry its next deal. Every step works from the stored rows
only, so any process can take a tournament over at any moment.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import logging
import random
import re
import secrets
from collections.abc import Sequence
from typing import Any

from cardtable import games
from cardtable.seeds import SECRET_BITS
from cardtable.server.storage.store import now
from cardtable.server.storage.tournaments import (
    EntrantRow,
    RoundRow,
    RoundTableRow,
    TournamentRow,
    TournamentStore,
    ends_at,
)
from cardtable.server.tables.engine import PlannedTable, new_table_id
from cardtable.server.tables.hub import Hub
from cardtable.tournaments import (
    Round,
    Table,
    absent_last,
    arena_standings,
    pair_round,
    seat_waiting,
    standings,
)

log = logging.getLogger("cardtable.server")

#: seconds between two steps of the runner
TICK = 1.0
#: seconds an arena entrant waits for a full table before a smaller one is formed
ARENA_WAIT = 10.0
#: the lease key prefix of a tournament on the bus (a table's id never has a colon)
LEASE = "tournament:"


def core_rounds(rounds: Sequence[RoundRow], tables: Sequence[RoundTableRow]) -> list[Round]:
    """The stored rounds as the tournaments' rules read them (a game not recorded yet has
    no places)."""
    out = []
    for rnd in rounds:
        mine = [t for t in tables if t.round == rnd.round]
        out.append(
            Round(
                tuple(
                    Table(tuple(t.players), tuple(t.ranks) if t.ranks is not None else None)
                    for t in mine
                ),
                tuple(rnd.byes),
            )
        )
    return out


def standings_order(entrants: Sequence[EntrantRow], rounds: Sequence[Round]) -> list[str]:
    """Every entrant (withdrawn ones too) in standings order."""
    return [s.entrant for s in standings([e.player_id for e in entrants], rounds)]


def daily_id(game: str, day: dt.date) -> str:
    """A deal of the day's id: its day and its game (16 characters at most, as an id)."""
    return f"d{day:%y%m%d}{re.sub('[^a-z0-9]', '', game)}"[:16]


def draw_teams(entrants: Sequence[str], size: int, seeds: Sequence[int]) -> list[list[str]]:
    """A duplicate challenge's entries: alone (``size`` 1), or teams of ``size`` drawn by lot
    from the challenge's own secret seed (the last team the rest, if smaller)."""
    order = list(entrants)
    if size > 1:
        random.Random(seeds[0] ^ 0x7EA5).shuffle(order)
    return [order[i : i + size] for i in range(0, len(order), size)]


def entries_of(tables: Sequence[RoundTableRow]) -> dict[tuple[str, ...], list[RoundTableRow]]:
    """A duplicate challenge's entries (each its team, as seated at its first deal) and
    their deals' tables, in deal order."""
    entries: dict[tuple[str, ...], list[RoundTableRow]] = {}
    for t in sorted(tables, key=lambda t: t.round):
        entries.setdefault(tuple(t.players), []).append(t)
    return entries


class TournamentRunner:
    """Runs this process's tournaments (all of them, without a bus) on the hub's loop."""

    def __init__(self, hub: Hub, store: TournamentStore, tick: float = TICK) -> None:
        self.hub = hub
        self.store = store
        self.tick = tick
        self._task: asyncio.Task[None] | None = None
        #: the (game, day) whose deal of the day this process has opened or found
        self._opened: set[tuple[str, dt.date]] = set()

    def start(self) -> None:
        self._task = asyncio.create_task(self._loop())

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def _loop(self) -> None:
        while True:
            try:
                await self.step()
            except asyncio.CancelledError:
                raise
            except Exception:  # a broken step must not stop every tournament
                log.exception("running the tournaments")
            await asyncio.sleep(self.tick)

    async def step(self, at: dt.datetime | None = None) -> None:
        """One step of every tournament this process runs (and today's deals of the day
        opened, if no process has yet)."""
        self.open_daily(at or now())
        for row in self.store.not_over():
            if not await self._holds(row.id):
                continue
            try:
                self.advance(row, at or now())
            except Exception:
                log.exception("tournament %s", row.id)

    def open_daily(self, at: dt.datetime) -> None:
        """Today's deal of the day of every game played alone (and cooperatively: its own
        scores rank it), once: a challenge of one secret deal from midnight to midnight
        (UTC), open to all, its id its game's and day's so that every process opens the
        same one."""
        day = at.date()
        for name in games.names():
            rules = games.get(name)
            if (name, day) in self._opened or not (rules.cooperative and rules.min_players == 1):
                continue
            row = TournamentRow(
                id=daily_id(name, day),
                name=rules.title,
                game=name,
                format="duplicate",
                status="open",
                created_by=None,
                created_at=at,
                starts_at=dt.datetime.combine(day, dt.time()),
                rounds=0,
                minutes=24 * 60,
                deals=1,
                seeds=[secrets.randbits(SECRET_BITS)],
                daily=day.isoformat(),
                table_size=1,
                clock=None,
                options={},
                rated=False,
                invite=None,
                min_games=0,
                bots=False,
                round=0,
                version=0,
            )
            if self.store.create(row):
                log.info("tournament %s: %s's deal of the day %s", row.id, name, day)
            self._opened.add((name, day))

    async def _holds(self, tournament_id: str) -> bool:
        bus = self.hub.bus
        if bus is None:
            return True
        return await bus.claim(LEASE + tournament_id) == bus.id

    # -- one step of one tournament ----------------------------------------------------
    def advance(self, row: TournamentRow, at: dt.datetime) -> None:
        if row.status == "open":
            if at >= row.starts_at:
                self._begin(row)
            return
        rounds, tables = self.store.rounds(row.id)
        if row.format == "arena":
            self._arena_step(row, at, rounds, tables)
            return
        if row.format == "duplicate":
            self._duplicate_step(row, at, tables)
            return
        if not self._settle(row, [t for t in tables if t.round == row.round]):
            return
        if row.round >= row.rounds:
            self.store.finish(row.id)
            log.info("tournament %s: over after %d rounds", row.id, row.round)
        else:
            self._pair(row, row.round + 1, rounds, tables)

    def _begin(self, row: TournamentRow) -> None:
        entrants = [e for e in self.store.entrants(row.id) if e.withdrawn_at is None]
        # (a challenge may begin with nobody: entries come until its end)
        least = 0 if row.format == "duplicate" else max(2, games.get(row.game).min_players)
        if len(entrants) < least:
            self.store.finish(row.id, ended="cancelled")
            log.info("tournament %s: cancelled, %d entrants", row.id, len(entrants))
        elif row.format == "arena":
            self._seat_arena(row, row.starts_at, [], [])
        elif row.format == "duplicate":
            teams = draw_teams([e.player_id for e in entrants], row.table_size, row.seeds or [0])
            planned = [(new_table_id(), team) for team in teams]
            if self.store.start_round(row.id, 1, [], planned):
                self._create_planned(row, 1, planned)
        else:
            self._pair(row, 1, [], [])

    def _pair(
        self,
        row: TournamentRow,
        number: int,
        rounds: Sequence[RoundRow],
        tables: Sequence[RoundTableRow],
    ) -> None:
        entrants = self.store.entrants(row.id)
        played = core_rounds(rounds, tables)
        active = {e.player_id for e in entrants if e.withdrawn_at is None}
        order = [e for e in standings_order(entrants, played) if e in active]
        met: dict[str, set[str]] = {e: set() for e in order}
        for rnd in played:
            for t in rnd.tables:
                for p in t.players:
                    met.setdefault(p, set()).update(q for q in t.players if q != p)
        had_bye = {b for rnd in played for b in rnd.byes}
        rules = games.get(row.game)
        size = min(row.table_size, rules.max_players)
        pairing = pair_round(order, met, had_bye, size, max(2, rules.min_players))
        planned = [(new_table_id(), list(t.players)) for t in pairing.round.tables]
        if not self.store.start_round(row.id, number, pairing.round.byes, planned):
            return  # paired already (another runner got there first)
        log.info(
            "tournament %s: round %d, %d tables, %d byes, %d rematches",
            row.id,
            number,
            len(planned),
            len(pairing.round.byes),
            pairing.rematches,
        )
        self._create_planned(row, number, planned)

    # -- an arena: whoever is free is seated again at once, until its end ---------------
    def _arena_step(
        self,
        row: TournamentRow,
        at: dt.datetime,
        rounds: Sequence[RoundRow],
        tables: Sequence[RoundTableRow],
    ) -> None:
        all_over = self._settle(row, [t for t in tables if t.ranks is None])
        if at < ends_at(row):
            rounds, tables = self.store.rounds(row.id)  # (with the places just recorded)
            self._seat_arena(row, at, rounds, tables)
        elif all_over:  # (games seated before the end count when they end)
            self.store.finish(row.id)
            log.info("tournament %s: the arena is over after %d batches", row.id, row.round)

    def _seat_arena(
        self,
        row: TournamentRow,
        at: dt.datetime,
        rounds: Sequence[RoundRow],
        tables: Sequence[RoundTableRow],
    ) -> None:
        """Seat the entrants waiting now (``arena.seat_waiting``): those at no game under way,
        near in points, away from their last game's players; fewer than a full table sit at
        a smaller one once one of them has waited ``ARENA_WAIT`` seconds."""
        entrants = self.store.entrants(row.id)
        # (``tables`` were read after their places were recorded: a game without them runs)
        busy = {p for t in tables if t.ranks is None for p in t.players}
        since = self._waiting_since(row, tables)
        waiting = sorted(
            (e.player_id for e in entrants if e.withdrawn_at is None and e.player_id not in busy),
            key=lambda p: since.get(p, row.starts_at),
        )
        rules = games.get(row.game)
        least = max(2, rules.min_players)
        if len(waiting) < least:
            return
        played = core_rounds(rounds, tables)
        everyone = [e.player_id for e in entrants]
        points = {s.entrant: s.points for s in arena_standings(everyone, played)}
        last: dict[str, set[str]] = {}
        for t in tables:  # (in the order seated: the last one stays)
            for p in t.players:
                last[p] = set(t.players) - {p}
        longest = max((at - since.get(p, row.starts_at)).total_seconds() for p in waiting)
        seated, _waits = seat_waiting(
            waiting,
            points,
            last,
            min(row.table_size, rules.max_players),
            least,
            flush=longest >= ARENA_WAIT,
        )
        if not seated:
            return
        planned = [(new_table_id(), list(group)) for group in seated]
        if self.store.start_round(row.id, row.round + 1, [], planned):
            self._create_planned(row, row.round + 1, planned)

    # -- a duplicate challenge: each entry its deals in turn, the same for every entry ----
    def _duplicate_step(
        self, row: TournamentRow, at: dt.datetime, tables: Sequence[RoundTableRow]
    ) -> None:
        self._settle(row, [t for t in tables if t.ranks is None])
        tables = self.store.rounds(row.id)[1]  # (with the deals just recorded)
        entries = entries_of(tables)
        seated = {p for team in entries for p in team}
        late = [
            e.player_id
            for e in self.store.entrants(row.id)
            if e.withdrawn_at is None and e.player_id not in seated
        ]
        deals = row.deals or 1
        done = not late and all(
            len(mine) >= deals and mine[-1].ranks is not None for mine in entries.values()
        )
        # it ends at its end; before, once every entry has played every deal (a deal of the
        # day waits for the day's end: anyone may still come to play it)
        if at >= ends_at(row) or (done and entries and not row.daily):
            self.store.finish(row.id)
            log.info("tournament %s: the challenge is over", row.id)
            return
        # a late entry plays alone, from the first deal
        due: dict[int, list[tuple[str, list[str]]]] = {1: [(new_table_id(), [p]) for p in late]}
        for team, mine in entries.items():
            if mine[-1].ranks is not None and len(mine) < deals:
                due.setdefault(len(mine) + 1, []).append((new_table_id(), list(team)))
        for number, planned in due.items():
            if not planned:
                continue
            self.store.add_tables(row.id, number, planned)
            self._create_planned(row, number, planned)

    def _waiting_since(
        self, row: TournamentRow, tables: Sequence[RoundTableRow]
    ) -> dict[str, dt.datetime]:
        """Since when each entrant who has played waits: the end of their last game."""
        ended = self.store.finished_times([t.table_id for t in tables])
        since: dict[str, dt.datetime] = {}
        for t in tables:
            when = ended.get(t.table_id)
            for p in t.players:
                if when is not None and when >= since.get(p, when):
                    since[p] = when
        return since

    def _settle(self, row: TournamentRow, games_: Sequence[RoundTableRow]) -> bool:
        """Create those of ``games_`` whose tables are missing and record the places of
        those over; whether every one is over."""
        self._create_missing(row, games_)
        return self._record_finished(row, games_)

    def _create_planned(
        self, row: TournamentRow, number: int, planned: Sequence[tuple[str, list[str]]]
    ) -> None:
        """Create the game tables just stored for round (or deal) ``number``."""
        self._create_missing(
            row, [RoundTableRow(table_id=t, players=p, round=number) for t, p in planned]
        )

    def _create_missing(self, row: TournamentRow, current: Sequence[RoundTableRow]) -> None:
        found = self.store.tables_status([t.table_id for t in current])
        for t in current:
            if t.table_id in found:
                continue
            plan = PlannedTable(
                table_id=t.table_id,
                tournament=row.id,
                game=row.game,
                people=list(t.players),
                options=dict(row.options or {}),
                clock=dict(row.clock) if row.clock else None,
                unrated=not row.rated,
                # a duplicate challenge: every entry the same deal, its seed drawn at creation
                seed=row.seeds[t.round - 1] if row.seeds else None,
            )
            self.hub.create_planned(plan)

    def _record_finished(self, row: TournamentRow, current: Sequence[RoundTableRow]) -> bool:
        """Record the places of the round's games that are over; whether all are."""
        waiting = [t for t in current if t.ranks is None]
        found = self.store.tables_status([t.table_id for t in waiting])
        over = True
        for t in waiting:
            status, result = found.get(t.table_id, ("missing", None))
            if status != "over":
                over = False
                continue
            score = seconds = None
            if row.format == "duplicate":  # the deal's own score, and the time it took
                score = int(((result or {}).get("scores") or [0])[0])
                seconds = self.store.table_times([t.table_id]).get(t.table_id)
            self.store.record(row.id, t.table_id, self._places(t, result), score, seconds)
        return over

    def _places(self, t: RoundTableRow, result: dict[str, Any] | None) -> list[int]:
        """The entrants' places at a finished game: its ranks, every seat a bot played on for
        its person (who left, resigned, ran out of time and never came back) last."""
        seats = self.hub.store.seats(t.table_id)
        ranks = list((result or {}).get("ranks") or [1] * len(seats))
        absent = [s.bot is not None for s in seats]
        return absent_last(ranks, absent)
