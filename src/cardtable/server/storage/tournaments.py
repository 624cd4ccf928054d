"""Tournaments in the database (migration 0015): their settings, entrants, rounds and the
tables of each round, the truth the tournament's runner works from.

A round is stored before its games' tables exist: its tables' ids are chosen first and
written with the round in one transaction, then each game table is created under its chosen
id. A runner killed in between finds the round's rows without their tables and creates the
missing ones (``tournaments/runner.py``), so a round is never paired twice. Every change bumps
the tournament's ``version``, which its page follows.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    and_,
    func,
    insert,
    select,
    update,
)
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, mapped_column

from cardtable.core.words import translatable
from cardtable.server.api.messages import HubError
from cardtable.server.storage.store import SEATS, TABLES, Base, now

_, _n = translatable("cardtable")

#: a tournament's statuses: taking entries, playing its rounds, over (``ended`` says how
#: if it did not play to its end: ``cancelled`` for too few entrants)
STATUSES = ("open", "running", "over")


class TournamentRow(Base):
    """One tournament's settings and where it is."""

    __tablename__ = "tournaments"
    __table_args__ = (
        Index("ix_tournaments_status", "status", "starts_at"),
        Index("ix_tournaments_created_by", "created_by", "status"),
    )
    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    name: Mapped[str] = mapped_column(String(80))
    game: Mapped[str] = mapped_column(String(32))
    #: swiss, arena or duplicate (``cardtable.tournaments.swiss``, ``.arena``, ``.duplicate``)
    format: Mapped[str] = mapped_column(String(12))
    status: Mapped[str] = mapped_column(String(12))
    created_by: Mapped[str | None] = mapped_column(ForeignKey("players.id"))
    created_at: Mapped[dt.datetime] = mapped_column(DateTime, default=now)
    starts_at: Mapped[dt.datetime] = mapped_column(DateTime)
    finished_at: Mapped[dt.datetime | None] = mapped_column(DateTime)
    #: a Swiss tournament's rounds (an arena's: 0)
    rounds: Mapped[int] = mapped_column(Integer)
    #: an arena's length in minutes from its start (null: a Swiss tournament)
    minutes: Mapped[int | None] = mapped_column(Integer)
    #: an arena's streaks: two first places in a row and the next games count double
    streaks: Mapped[bool | None] = mapped_column(Boolean)
    #: a duplicate challenge's number of deals, and their seeds: as secret as the cards they
    #: deal, never shown before the challenge is over (null: another format)
    deals: Mapped[int | None] = mapped_column(Integer)
    seeds: Mapped[list | None] = mapped_column(JSON)
    #: a deal of the day's day (``2026-12-04``, UTC), opened by the server itself
    daily: Mapped[str | None] = mapped_column(String(10))
    #: the largest table; a round's tables are as even as can be below it
    table_size: Mapped[int] = mapped_column(Integer)
    #: every game's clock (``tables/clock.py``), null for none
    clock: Mapped[dict | None] = mapped_column(JSON)
    #: the game's options, for every game of the tournament
    options: Mapped[dict] = mapped_column(JSON, default=dict)
    rated: Mapped[bool] = mapped_column(Boolean)
    #: the invite code an entrant must bring; null: open to everyone
    invite: Mapped[str | None] = mapped_column(String(32))
    #: the finished games an entrant must have played on this server to enter
    min_games: Mapped[int] = mapped_column(Integer, default=0)
    #: whether bot accounts may enter
    bots: Mapped[bool] = mapped_column(Boolean)
    #: the round being played (0: none yet)
    round: Mapped[int] = mapped_column(Integer, default=0)
    version: Mapped[int] = mapped_column(Integer, default=0)
    ended: Mapped[str | None] = mapped_column(String(12))


class EntrantRow(Base):
    """One entrant of a tournament, in entry order (``n``)."""

    __tablename__ = "tournament_entrants"
    __table_args__ = (Index("ix_tournament_entrants_player", "player_id"),)
    tournament_id: Mapped[str] = mapped_column(ForeignKey("tournaments.id"), primary_key=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True)
    n: Mapped[int] = mapped_column(Integer)
    joined_at: Mapped[dt.datetime] = mapped_column(DateTime, default=now)
    withdrawn_at: Mapped[dt.datetime | None] = mapped_column(DateTime)


class RoundRow(Base):
    """One round: when it started and who had a bye."""

    __tablename__ = "tournament_rounds"
    tournament_id: Mapped[str] = mapped_column(ForeignKey("tournaments.id"), primary_key=True)
    round: Mapped[int] = mapped_column(Integer, primary_key=True)
    byes: Mapped[list] = mapped_column(JSON, default=list)
    started_at: Mapped[dt.datetime] = mapped_column(DateTime, default=now)


class RoundTableRow(Base):
    """One game of a round (an arena's: of a batch of tables seated together): its table
    (created after this row), the entrants in seat order, and their places once the game
    is over (no-shows last: ``tournaments.absent_last``)."""

    __tablename__ = "tournament_tables"
    __table_args__ = (Index("ix_tournament_tables_round", "tournament_id", "round"),)
    table_id: Mapped[str] = mapped_column(String(16), primary_key=True)
    tournament_id: Mapped[str] = mapped_column(ForeignKey("tournaments.id"))
    round: Mapped[int] = mapped_column(Integer)
    players: Mapped[list] = mapped_column(JSON)
    ranks: Mapped[list | None] = mapped_column(JSON)
    #: a duplicate challenge's deal: the game's own score (cards left, cards on the
    #: foundation) and the seconds it took, once over
    score: Mapped[int | None] = mapped_column(Integer)
    seconds: Mapped[float | None] = mapped_column(Float)


def ends_at(row: TournamentRow) -> dt.datetime:
    """An arena's end: its start and its length."""
    return row.starts_at + dt.timedelta(minutes=row.minutes or 0)


TOURNAMENTS = Base.metadata.tables["tournaments"]
ENTRANTS = Base.metadata.tables["tournament_entrants"]
ROUNDS = Base.metadata.tables["tournament_rounds"]
ROUND_TABLES = Base.metadata.tables["tournament_tables"]


def secret_refusal() -> HubError:
    """The refusal of anything that would show a running duplicate challenge's deal."""
    return HubError(
        "challenge_secret",
        _("this deal is a challenge's: it stays secret until the challenge is over"),
        403,
    )


def challenge_secret(engine: Engine, table_id: str) -> bool:
    """Whether ``table_id`` is a game of a duplicate challenge not over yet (one query)."""
    with engine.connect() as conn:
        status = conn.execute(
            select(TOURNAMENTS.c.status)
            .select_from(TABLES.join(TOURNAMENTS, TOURNAMENTS.c.id == TABLES.c.tournament))
            .where(TABLES.c.id == table_id, TOURNAMENTS.c.format == "duplicate")
        ).scalar()
    return status is not None and status != "over"


class EntryRefused(Exception):
    """An entry not taken: ``code`` and a reason for people."""

    def __init__(self, code: str, reason: str) -> None:
        super().__init__(reason)
        self.code, self.reason = code, reason


def _bump(conn: Connection, tournament_id: str, **values: Any) -> None:
    conn.execute(
        update(TOURNAMENTS)
        .where(TOURNAMENTS.c.id == tournament_id)
        .values(version=TOURNAMENTS.c.version + 1, **values)
    )


class TournamentStore:
    """The tournaments' rows, on the server's engine."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    # -- reading ------------------------------------------------------------------------
    def get(self, tournament_id: str) -> TournamentRow | None:
        with self.engine.connect() as conn:
            row = conn.execute(select(TOURNAMENTS).where(TOURNAMENTS.c.id == tournament_id)).first()
        return TournamentRow(**row._mapping) if row is not None else None

    def listed(self, limit: int = 50) -> list[TournamentRow]:
        """The tournaments still to come or under way (soonest first), then the latest over."""
        with self.engine.connect() as conn:
            live = conn.execute(
                select(TOURNAMENTS)
                .where(TOURNAMENTS.c.status != "over", TOURNAMENTS.c.invite.is_(None))
                .order_by(TOURNAMENTS.c.starts_at)
                .limit(limit)
            ).all()
            over = conn.execute(
                select(TOURNAMENTS)
                .where(TOURNAMENTS.c.status == "over", TOURNAMENTS.c.invite.is_(None))
                .order_by(TOURNAMENTS.c.finished_at.desc())
                .limit(limit)
            ).all()
        return [TournamentRow(**r._mapping) for r in [*live, *over]]

    def not_over(self) -> list[TournamentRow]:
        """Every tournament a runner has work in: open or running."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(TOURNAMENTS).where(TOURNAMENTS.c.status != "over")).all()
        return [TournamentRow(**r._mapping) for r in rows]

    def unfinished_by(self, player_id: str) -> int:
        """How many tournaments the player created that are not over."""
        with self.engine.connect() as conn:
            return int(
                conn.execute(
                    select(func.count())
                    .select_from(TOURNAMENTS)
                    .where(TOURNAMENTS.c.created_by == player_id, TOURNAMENTS.c.status != "over")
                ).scalar_one()
            )

    def entrant_counts(self, ids: Sequence[str]) -> dict[str, int]:
        """Tournament id -> its entrants (not withdrawn), for those of ``ids`` with any."""
        if not ids:
            return {}
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(ENTRANTS.c.tournament_id, func.count())
                .where(ENTRANTS.c.tournament_id.in_(list(ids)), ENTRANTS.c.withdrawn_at.is_(None))
                .group_by(ENTRANTS.c.tournament_id)
            ).all()
        return {r[0]: int(r[1]) for r in rows}

    def entrants(self, tournament_id: str) -> list[EntrantRow]:
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(ENTRANTS)
                .where(ENTRANTS.c.tournament_id == tournament_id)
                .order_by(ENTRANTS.c.n)
            ).all()
        return [EntrantRow(**r._mapping) for r in rows]

    def rounds(self, tournament_id: str) -> tuple[list[RoundRow], list[RoundTableRow]]:
        """The tournament's rounds, first first, and their tables."""
        with self.engine.connect() as conn:
            rounds = conn.execute(
                select(ROUNDS)
                .where(ROUNDS.c.tournament_id == tournament_id)
                .order_by(ROUNDS.c.round)
            ).all()
            tables = conn.execute(
                select(ROUND_TABLES)
                .where(ROUND_TABLES.c.tournament_id == tournament_id)
                .order_by(ROUND_TABLES.c.round, ROUND_TABLES.c.table_id)
            ).all()
        return [RoundRow(**r._mapping) for r in rounds], [
            RoundTableRow(**t._mapping) for t in tables
        ]

    def entered_by(self, player_id: str, limit: int = 50) -> list[TournamentRow]:
        """The tournaments the player entered, newest first (My games)."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(TOURNAMENTS)
                .join(ENTRANTS, ENTRANTS.c.tournament_id == TOURNAMENTS.c.id)
                .where(ENTRANTS.c.player_id == player_id)
                .order_by(TOURNAMENTS.c.starts_at.desc())
                .limit(limit)
            ).all()
        return [TournamentRow(**r._mapping) for r in rows]

    def finished_games(self, player_id: str) -> int:
        """How many finished games the player held a seat in (a tournament's entry rule)."""
        with self.engine.connect() as conn:
            return int(
                conn.execute(
                    select(func.count())
                    .select_from(SEATS.join(TABLES, TABLES.c.id == SEATS.c.table_id))
                    .where(SEATS.c.player_id == player_id, TABLES.c.status == "over")
                ).scalar_one()
            )

    def _game_tables(self, table_ids: Sequence[str], *columns: Any, ended: bool) -> list[Any]:
        """The rows (``id`` and ``columns``) of those of ``table_ids`` that exist, or with
        ``ended`` of those whose game has ended."""
        if not table_ids:
            return []
        where = [TABLES.c.id.in_(list(table_ids))]
        if ended:
            where.append(TABLES.c.finished_at.is_not(None))
        with self.engine.connect() as conn:
            return list(conn.execute(select(TABLES.c.id, *columns).where(*where)).all())

    def table_times(self, table_ids: Sequence[str]) -> dict[str, float]:
        """Table id -> the seconds from its creation to its game's end, for those over."""
        rows = self._game_tables(table_ids, TABLES.c.created_at, TABLES.c.finished_at, ended=True)
        return {r.id: (r.finished_at - r.created_at).total_seconds() for r in rows}

    def tables_status(self, table_ids: Sequence[str]) -> dict[str, tuple[str, dict | None]]:
        """Table id -> (status, result) for those of ``table_ids`` that exist."""
        rows = self._game_tables(table_ids, TABLES.c.status, TABLES.c.result, ended=False)
        return {r.id: (r.status, r.result) for r in rows}

    def finished_times(self, table_ids: Sequence[str]) -> dict[str, dt.datetime]:
        """Table id -> when its game ended, for those of ``table_ids`` that are over."""
        rows = self._game_tables(table_ids, TABLES.c.finished_at, ended=True)
        return {r.id: r.finished_at for r in rows}

    # -- changing -------------------------------------------------------------------------
    def create(self, row: TournamentRow) -> bool:
        """Store a new tournament: False if one has its id already (a deal of the day's id
        is its game's and day's, so two processes opening it store it once)."""
        values = {c.name: getattr(row, c.name) for c in TOURNAMENTS.columns}
        values["created_at"] = values["created_at"] or now()
        values["version"] = values["version"] or 0
        values["round"] = values["round"] or 0
        try:
            with self.engine.begin() as conn:
                conn.execute(insert(TOURNAMENTS).values(**values))
        except IntegrityError:
            return False
        return True

    def daily_streaks(self, game: str, day: dt.date, player_ids: Sequence[str]) -> dict[str, int]:
        """Player id -> how many days in a row, up to ``day``, they entered ``game``'s deal
        of the day (0 for one who did not enter it that day)."""
        if not player_ids:
            return {}
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(ENTRANTS.c.player_id, TOURNAMENTS.c.daily)
                .join(TOURNAMENTS, TOURNAMENTS.c.id == ENTRANTS.c.tournament_id)
                .where(
                    TOURNAMENTS.c.game == game,
                    TOURNAMENTS.c.daily.is_not(None),
                    ENTRANTS.c.player_id.in_(list(player_ids)),
                )
            ).all()
        days: dict[str, set[str]] = {}
        for r in rows:
            days.setdefault(r.player_id, set()).add(r.daily)
        streaks = {}
        for p in player_ids:
            n = 0
            while (day - dt.timedelta(days=n)).isoformat() in days.get(p, set()):
                n += 1
            streaks[p] = n
        return streaks

    def enter(self, tournament_id: str, player_id: str, most: int) -> bool:
        """Enter the player (again, after a withdrawal): False if already in. Refused
        (``EntryRefused``) once the tournament is over or has ``most`` entrants."""
        with self.engine.begin() as conn:
            status = conn.execute(
                select(TOURNAMENTS.c.status).where(TOURNAMENTS.c.id == tournament_id)
            ).scalar_one()
            if status == "over":
                raise EntryRefused("tournament_over", "the tournament is over")
            mine = conn.execute(
                select(ENTRANTS.c.withdrawn_at).where(
                    ENTRANTS.c.tournament_id == tournament_id, ENTRANTS.c.player_id == player_id
                )
            ).first()
            if mine is not None and mine.withdrawn_at is None:
                return False
            count = conn.execute(
                select(func.count()).where(
                    ENTRANTS.c.tournament_id == tournament_id, ENTRANTS.c.withdrawn_at.is_(None)
                )
            ).scalar_one()
            if count >= most:
                raise EntryRefused("tournament_full", f"the tournament has {most} entrants")
            if mine is not None:
                conn.execute(
                    update(ENTRANTS)
                    .where(
                        ENTRANTS.c.tournament_id == tournament_id,
                        ENTRANTS.c.player_id == player_id,
                    )
                    .values(withdrawn_at=None)
                )
            else:
                top = conn.execute(
                    select(func.max(ENTRANTS.c.n)).where(ENTRANTS.c.tournament_id == tournament_id)
                ).scalar_one()
                conn.execute(
                    insert(ENTRANTS).values(
                        tournament_id=tournament_id,
                        player_id=player_id,
                        n=(top or 0) + 1,
                        joined_at=now(),
                    )
                )
            _bump(conn, tournament_id)
        return True

    def withdraw(self, tournament_id: str, player_id: str) -> bool:
        """The player leaves the tournament's next rounds: False if not in it."""
        with self.engine.begin() as conn:
            done = conn.execute(
                update(ENTRANTS)
                .where(
                    ENTRANTS.c.tournament_id == tournament_id,
                    ENTRANTS.c.player_id == player_id,
                    ENTRANTS.c.withdrawn_at.is_(None),
                )
                .values(withdrawn_at=now())
            ).rowcount
            if done:
                _bump(conn, tournament_id)
        return bool(done)

    def start_round(
        self,
        tournament_id: str,
        number: int,
        byes: Sequence[str],
        tables: Sequence[tuple[str, Sequence[str]]],
    ) -> bool:
        """Store round ``number`` (its byes, and its tables' chosen ids with their entrants)
        and make it the current one, in one transaction. False if that round is stored
        already (another runner, or this one before a restart, got there first)."""
        with self.engine.begin() as conn:
            moved = conn.execute(
                update(TOURNAMENTS)
                .where(and_(TOURNAMENTS.c.id == tournament_id, TOURNAMENTS.c.round == number - 1))
                .values(round=number, status="running", version=TOURNAMENTS.c.version + 1)
            ).rowcount
            if not moved:
                return False
            conn.execute(
                insert(ROUNDS).values(
                    tournament_id=tournament_id, round=number, byes=list(byes), started_at=now()
                )
            )
            for table_id, players in tables:
                conn.execute(
                    insert(ROUND_TABLES).values(
                        table_id=table_id,
                        tournament_id=tournament_id,
                        round=number,
                        players=list(players),
                    )  # (ranks: SQL NULL until recorded, not JSON null)
                )
        return True

    def record(
        self,
        tournament_id: str,
        table_id: str,
        ranks: Sequence[int],
        score: int | None = None,
        seconds: float | None = None,
    ) -> None:
        """A round's game is over: its entrants' places (a challenge's deal: its score and
        time too)."""
        with self.engine.begin() as conn:
            done = conn.execute(
                update(ROUND_TABLES)
                .where(ROUND_TABLES.c.table_id == table_id, ROUND_TABLES.c.ranks.is_(None))
                .values(ranks=list(ranks), score=score, seconds=seconds)
            ).rowcount
            if done:
                _bump(conn, tournament_id)

    def start_now(self, tournament_id: str) -> bool:
        """Bring an open tournament's start to now (its runner begins it at its next
        tick): False if it is not open any more."""
        with self.engine.begin() as conn:
            done = conn.execute(
                update(TOURNAMENTS)
                .where(TOURNAMENTS.c.id == tournament_id, TOURNAMENTS.c.status == "open")
                .values(starts_at=now(), version=TOURNAMENTS.c.version + 1)
            ).rowcount
        return bool(done)

    def add_tables(
        self, tournament_id: str, number: int, tables: Sequence[tuple[str, Sequence[str]]]
    ) -> None:
        """A duplicate challenge's next deal for some entries (each entry plays its deals
        one after another, at its own pace): their tables' chosen ids, under deal
        ``number``."""
        with self.engine.begin() as conn:
            for table_id, players in tables:
                conn.execute(
                    insert(ROUND_TABLES).values(
                        table_id=table_id,
                        tournament_id=tournament_id,
                        round=number,
                        players=list(players),
                    )
                )
            _bump(conn, tournament_id)

    def secret(self, table_id: str) -> bool:
        """Whether the table is a game of a duplicate challenge that is not over: its deal,
        record, replay and review reach nobody until the challenge ends."""
        return challenge_secret(self.engine, table_id)

    def finish(self, tournament_id: str, ended: str | None = None) -> None:
        with self.engine.begin() as conn:
            _bump(conn, tournament_id, status="over", finished_at=now(), ended=ended)
