"""Storage: players, tables, seats and the action log, in SQL (SQLAlchemy 2).

The action log is the truth: a table's state is ``replay(seed, options, actions)``. An action
row is committed before the action is acknowledged or broadcast, so a restarted server
resumes every table exactly where it was. The schema is created and upgraded by Alembic
(``migrations/``).
"""

from __future__ import annotations

import asyncio
import datetime as dt
import hashlib
import os
import re
import secrets
import signal
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any, NamedTuple, Protocol

from sqlalchemy import (
    JSON,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    TypeDecorator,
    bindparam,
    case,
    create_engine,
    delete,
    event,
    func,
    insert,
    literal_column,
    null,
    select,
    text,
    update,
)
from sqlalchemy.engine import Engine, make_url
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, sessionmaker

from cardtable.paths import private_dir, private_sqlite
from cardtable.server.api.metrics import COMMIT_ROWS, COMMIT_SECONDS
from cardtable.server.api.names import FORMER_PLAYER, former_player
from cardtable.server.storage.ratings import new_ratings


def now() -> dt.datetime:
    return dt.datetime.now(dt.UTC).replace(tzinfo=None)


def token_hash(token: str) -> str:
    """Tokens are stored hashed: a leaked database does not give away seats."""
    return hashlib.sha256(token.encode()).hexdigest()


#: the letters of recovery codes: no 0/O or 1/I/L to mistake for each other
CODE_LETTERS = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"


def recovery_code() -> str:
    """A new recovery code: 20 letters (about 99 bits) in groups of five, e.g.
    ``K7QXM-2HVNP-...``, easy to copy by hand."""
    letters = "".join(secrets.choice(CODE_LETTERS) for _ in range(20))
    return "-".join(letters[i : i + 5] for i in range(0, 20, 5))


def normal_code(code: str) -> str:
    """A code as typed (any case, spaces or dashes) in the form its hash is taken of."""
    return "".join(c for c in code.upper() if c.isalnum())


#: what a table id may be: only requests about such an id are routed to a holder
TABLE_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")


def routable(table_id: str) -> bool:
    """Whether requests about ``table_id`` are routed to its holder: only such an id can be
    a table's (another is not found, wherever it is asked for)."""
    return TABLE_ID.fullmatch(table_id) is not None


def next_deadline(clock: dict[str, Any] | None) -> float | None:
    """The first of the clock's deadlines (stored for the store's look-up of due tables)."""
    if not clock:
        return None
    return min((d for d in clock["deadlines"] if d is not None), default=None)


class Base(DeclarativeBase):
    pass


class SeedText(TypeDecorator):
    """A deal seed, stored as its decimal digits: multiplayer seeds have 128 bits, more than
    any SQL integer type holds, and text keeps every seed (old 64-bit ones too) exact."""

    impl = String(80)
    cache_ok = True

    def process_bind_param(self, value: int | None, _dialect: Any) -> str | None:
        return None if value is None else str(int(value))

    def process_result_value(self, value: str | None, _dialect: Any) -> int | None:
        return None if value is None else int(value)


class Player(Base):
    __tablename__ = "players"
    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(40))
    token_hash: Mapped[str] = mapped_column(String(64), unique=True, index=True)
    created_at: Mapped[dt.datetime] = mapped_column(DateTime, default=now)
    #: a bot account's person (who made it and may renew its token); None for a person
    bot_owner: Mapped[str | None] = mapped_column(String(32), index=True)
    #: whom a bot account plays with: ``anyone`` may invite it, or (null) only its owner
    #: (migration 0009)
    plays_with: Mapped[str | None] = mapped_column(String(8))
    #: the language the player chose (``cs``…), null if never (migration 0012)
    language: Mapped[str | None] = mapped_column(String(8))
    #: when the person deleted their identity (migration 0016): a former player, with no
    #: name, token or code of their own any more (``Store.forget``); null: a player
    deleted_at: Mapped[dt.datetime | None] = mapped_column(DateTime)


class Table(Base):
    __tablename__ = "tables"
    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    game: Mapped[str] = mapped_column(String(32))
    seed: Mapped[int] = mapped_column(SeedText)
    players: Mapped[int] = mapped_column(Integer)
    options: Mapped[dict] = mapped_column(JSON, default=dict)
    #: open (waiting for players), running, over
    status: Mapped[str] = mapped_column(String(12), index=True)
    created_by: Mapped[str | None] = mapped_column(ForeignKey("players.id"))
    __table_args__ = (
        Index("ix_tables_created_by_status", "created_by", "status"),
        # the lobby's: multiplayer tables only, newest first (migration 0003)
        Index(
            "ix_tables_lobby",
            "status",
            "created_at",
            sqlite_where=text("players > 1"),
            postgresql_where=text("players > 1"),
        ),
        Index("ix_tables_idle", "status", "active_at"),
    )
    created_at: Mapped[dt.datetime] = mapped_column(DateTime, default=now)
    finished_at: Mapped[dt.datetime | None] = mapped_column(DateTime)
    result: Mapped[dict | None] = mapped_column(JSON)
    #: undone actions (solitaire undo), most recent last, for redo
    redo: Mapped[list] = mapped_column(JSON, default=list)
    #: bumped by every change (action, undo, seat): clients act against a version
    version: Mapped[int] = mapped_column(Integer, default=0)
    #: the table's clock with its deadlines (server/tables/clock.py), null without one (0006)
    clock: Mapped[dict | None] = mapped_column(JSON)
    #: the clock's first deadline (seconds since the epoch): the sweep loads due tables
    deadline: Mapped[float | None] = mapped_column(Float, index=True)
    #: how an ``over`` table ended (migration 0004_lifecycle): null when its game was played
    #: to the end, else ``abandoned``, ``resigned`` or ``idle`` (``lifecycle``)
    ended: Mapped[str | None] = mapped_column(String(12))
    #: its last change (null: ``created_at``); the idle sweep reads it (``ix_tables_idle``)
    active_at: Mapped[dt.datetime | None] = mapped_column(DateTime)
    #: seats that resigned while the game played on: ``[{"seat", "player_id", "name"}]``, in
    #: order; ``"away": true`` marks a seat the clock gave to a bot (rated as resigned unless
    #: its person comes back: ``lifecycle``)
    resigned: Mapped[list | None] = mapped_column(JSON)
    #: the seats to act (the game's ``to_act``), stored with every action (0009): any
    #: process lists whose turn it is from the row (My games); null until its holder loads
    #: a table stored before
    to_act: Mapped[list | None] = mapped_column(JSON)
    #: a practice table (migration 0013): ``practice`` (a finished solitaire's record played
    #: on from a step) or ``tutorial`` (a game's tutorial); never rated nor counted in a
    #: player's deal statistics. Null: an ordinary table
    practice: Mapped[str | None] = mapped_column(String(12))
    #: the tournament the table is a game of (migration 0015), null: none
    tournament: Mapped[str | None] = mapped_column(String(16))
    #: True: never rated (an unrated tournament's game); null: rated as its game says
    unrated: Mapped[bool | None] = mapped_column(Boolean)


class Seat(Base):
    __tablename__ = "seats"
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[str | None] = mapped_column(ForeignKey("players.id"), index=True)
    bot: Mapped[str | None] = mapped_column(String(200))
    #: a bot's name, given once when it took the seat ("Greedy 3"; null: a person, an open
    #: seat, or a row stored before names were kept)
    name: Mapped[str | None] = mapped_column(String(80))
    #: the person whose seat the bot plays on (a player id; null: nobody's, or a person's)
    person: Mapped[str | None] = mapped_column(String(32))


class Action(Base):
    __tablename__ = "actions"
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    n: Mapped[int] = mapped_column(Integer, primary_key=True)  # 0-based position in the log
    seat: Mapped[int] = mapped_column(Integer)
    action: Mapped[str] = mapped_column(String(64))
    client_id: Mapped[str | None] = mapped_column(String(64))
    #: the table version this action made (null in rows written before it was kept)
    version: Mapped[int | None] = mapped_column(Integer)
    #: who played it: a player id, or "bot:<spec>" (null in rows written before it was kept)
    actor: Mapped[str | None] = mapped_column(String(220))
    at: Mapped[dt.datetime] = mapped_column(DateTime, default=now)


#: a seat's stored values in a change: (player id, bot spec, bot's name, person)
SeatValues = tuple[str | None, str | None, str | None, str | None]


class LoggedAction(NamedTuple):
    """One row of a table's action log as it is read back (``Storage.actions``)."""

    n: int
    seat: int
    action: str
    client_id: str | None
    version: int | None
    actor: str | None


class Rating(Base):
    __tablename__ = "ratings"
    #: a person's player id, or "bot:<spec>" for a bot
    subject: Mapped[str] = mapped_column(String(220), primary_key=True)
    game: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(220))
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer, default=0)
    is_bot: Mapped[bool] = mapped_column(Boolean, default=False)


class ChatLine(Base):
    """One chat message written at a table (migration 0007)."""

    __tablename__ = "chat"
    __table_args__ = (Index("ix_chat_table", "table_id", "id"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"))
    #: the writer's seat, None for a spectator
    seat: Mapped[int | None] = mapped_column(Integer)
    player_id: Mapped[str | None] = mapped_column(ForeignKey("players.id"))
    #: the writer's name when they wrote it
    name: Mapped[str] = mapped_column(String(40))
    text: Mapped[str] = mapped_column(String(400))
    at: Mapped[dt.datetime] = mapped_column(DateTime, default=now)


class ChatSettings(Base):
    """A table's chat as its creator set it; no row: the game's default."""

    __tablename__ = "chat_settings"
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    #: free text (False: the fixed phrases only)
    free: Mapped[bool] = mapped_column(Boolean)
    #: spectators may write too
    spectators: Mapped[bool] = mapped_column(Boolean, default=False)


class PlayerToken(Base):
    """Another browser's token of a player (a recovery code was used there), hashed."""

    __tablename__ = "player_tokens"
    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), index=True)
    created_at: Mapped[dt.datetime] = mapped_column(DateTime, default=now)


class RecoveryCode(Base):
    """A player's recovery code (one at a time: renewing replaces it), hashed."""

    __tablename__ = "recovery_codes"
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True)
    code_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[dt.datetime] = mapped_column(DateTime, default=now)


#: the SQL tables of the models, for the Core statements of the hot paths
TABLES, SEATS = Base.metadata.tables["tables"], Base.metadata.tables["seats"]
ACTIONS, RATINGS = Base.metadata.tables["actions"], Base.metadata.tables["ratings"]
_INSERT_ACTION = insert(ACTIONS)
#: the keys of an action row (``append_many``) stored in ``actions``: every column but
#: ``at`` (one time for the whole batch); a key a row lacks is stored as null
ACTION_KEYS = tuple(c.name for c in ACTIONS.columns if c.name != "at")
_SET_VERSION = (
    update(TABLES)
    .where(TABLES.c.id == bindparam("tid"))
    .values(
        version=bindparam("version"),
        redo=bindparam("redo"),
        active_at=bindparam("at"),
        to_act=bindparam("to_act"),
    )
)
#: a clocked table's action also stores the clock it leaves (the same transaction)
_SET_CLOCK = (
    update(TABLES)
    .where(TABLES.c.id == bindparam("tid"))
    .values(clock=bindparam("clock"), deadline=bindparam("deadline"))
)


def _finish(
    conn: Any,
    table_id: str,
    result: Mapping[str, Any],
    rating: Mapping[str, Any] | None,
    at: dt.datetime,
    only_if: str | None = None,
    ended: str | None = None,
) -> bool:
    """Mark a table over with its result and rate its game, in the caller's transaction.

    ``only_if``: do it only if the table's status is still this (False if it is not), so a
    reconciliation run twice rates the game once. ``ended``: how it ended before its game
    did (abandoned, resigned, idle or too_long; None: played to its end)."""
    t = TABLES
    q = update(t).where(t.c.id == table_id)
    if only_if is not None:
        q = q.where(t.c.status == only_if)
    values = {"status": "over", "finished_at": at, "result": result, "ended": ended}
    if conn.execute(q.values(**values)).rowcount == 0:
        return False
    if rating:
        _rate(conn, rating)
    return True


def _close(
    conn: Any,
    table_id: str,
    version: int,
    ended: str | None,
    result: Mapping[str, Any],
    rating: Mapping[str, Any] | None = None,
    resigned: list[dict[str, Any]] | None = None,
) -> bool:
    """Close an open or running table (``Store.close_table``) in the caller's transaction;
    False (nothing written) if it is over already."""
    t, at = TABLES, now()
    values: dict[str, Any] = {
        "status": "over",
        "ended": ended,
        "finished_at": at,
        "active_at": at,
        "result": result,
        "version": version,
    }
    if resigned is not None:
        values["resigned"] = resigned
    q = update(t).where(t.c.id == table_id, t.c.status.in_(["open", "running"]))
    if conn.execute(q.values(**values)).rowcount == 0:
        return False
    if rating:
        _rate(conn, rating)
    return True


def _rate(conn: Any, rating: Mapping[str, Any]) -> None:
    """New ratings of a finished game's subjects from their stored ones, read and written in
    the caller's transaction (after its first write, so no other writer is in between)."""
    r = RATINGS
    ids = [s["subject"] for s in rating["subjects"]]
    old = {
        row.subject: row
        for row in conn.execute(
            select(r).where(r.c.game == rating["game"], r.c.subject.in_(ids)).with_for_update()
        )
    }
    rows = new_ratings(rating, old)
    conn.execute(delete(r).where(r.c.game == rating["game"], r.c.subject.in_(ids)))
    conn.execute(insert(r), rows)


#: a fault injected by tests: ``CARDTABLE_FAULT=<point>`` (read once, at start) makes the
#: process SIGKILL itself right after the commit named by ``<point>`` (docs/reliability.md,
#: "One change, one transaction"). Never set in production.
FAULT = os.environ.get("CARDTABLE_FAULT")


def fault_point(point: str) -> None:
    """Die here, as a killed server would, if the tests asked for a fault at ``point``."""
    if point == FAULT:
        os.kill(os.getpid(), signal.SIGKILL)


def default_url(data: Path) -> str:
    private_dir(data)  # 0700 if new: the database holds the seeds of games under way
    return f"sqlite:///{data / 'cardtable.sqlite'}"


def make_engine(url: str) -> Engine:
    if url.startswith("postgresql://"):
        url = "postgresql+psycopg://" + url[len("postgresql://") :]
    if url.startswith("sqlite"):
        private_sqlite(make_url(url).database)  # 0600, and so its -wal and -shm files
        engine = create_engine(url, connect_args={"check_same_thread": False})

        @event.listens_for(engine, "connect")
        def _pragmas(conn: Any, _record: Any) -> None:
            cur = conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")  # readers never block the writer
            # WAL + NORMAL: a committed action survives the server being killed (SIGKILL);
            # only a crash of the whole machine could lose the last moments. FULL would
            # fsync every action and cap a server at a few dozen actions a second.
            cur.execute("PRAGMA synchronous=NORMAL")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.close()

        return engine
    return create_engine(url, pool_pre_ping=True)


def migrate(engine: Engine) -> None:
    """Create or upgrade the schema to the newest Alembic revision."""
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(Path(__file__).parent / "migrations"))
    sqlite = engine.dialect.name == "sqlite"
    with engine.connect() as conn:
        if sqlite:  # SQLite changes a column by copying its table: foreign keys off meanwhile
            conn.exec_driver_sql("PRAGMA foreign_keys=OFF")
            conn.commit()
        with conn.begin():
            config.attributes["connection"] = conn
            command.upgrade(config, "head")
        if sqlite:
            conn.exec_driver_sql("PRAGMA foreign_keys=ON")
            conn.commit()


class Storage(Protocol):
    """What the server needs of storage: players, tables and their seats, the action log and
    ratings. ``Store`` (SQL, SQLAlchemy) is the one implementation; every method commits
    what it changes before it returns."""

    # -- players
    def new_player(self, name: str) -> tuple[Player, str]:
        """A new player and the secret token that owns their seats (stored hashed)."""
        ...

    def player_by_token(self, token: str | None) -> Player | None: ...

    def rename(self, player_id: str, name: str) -> None: ...

    def set_language(self, player_id: str, language: str) -> None: ...

    def new_bot_account(self, owner_id: str, name: str) -> tuple[Player, str]: ...

    def bot_accounts_of(self, owner_id: str) -> list[Player]: ...

    def bot_account_named(self, name: str) -> Player | None: ...

    def new_bot_token(self, owner_id: str, bot_id: str) -> str | None: ...

    def set_plays_with(self, owner_id: str, bot_id: str, anyone: bool) -> Player | None: ...

    def bot_accounts(self, ids: list[str]) -> set[str]: ...

    def names(self, ids: list[str]) -> dict[str, str]:
        """Player id -> name, for those of ``ids`` that exist (a former player's:
        ``former_player()``, in each reader's language)."""
        ...

    def forget(self, player_id: str) -> list[str]:
        """The person (and their bot accounts) become former players: no name, no
        credential, no chat lines; their games stay. The ids forgotten."""
        ...

    # -- tables
    def new_table(
        self,
        table: Table,
        seats: list[Seat],
        closes: Mapping[str, Any] | None = None,
        actions: list[Action] | None = None,
    ) -> None:
        """A new table and its seats; ``closes``: the unfinished table it replaces (a new
        deal, a restart), closed in the same transaction (``close_table``'s arguments);
        ``actions``: its log's first actions (a practice table's replayed steps), stored in
        the same transaction too."""
        ...

    def tutorials_done(self, player_id: str) -> list[str]:
        """The games whose tutorial the player has played to its end."""
        ...

    def table(self, table_id: str) -> Table | None: ...

    def seats(self, table_id: str) -> list[Seat]:
        """A table's seats, in seat order."""
        ...

    def set_seat(
        self,
        table_id: str,
        seat: int,
        player_id: str | None,
        bot: str | None,
        name: str | None = None,
        person: str | None = None,
    ) -> None: ...

    def change_table(
        self,
        table_id: str,
        version: int | None = None,
        status: str | None = None,
        seats: dict[int, SeatValues] | None = None,
        only_if: str | None = None,
        clock: dict[str, Any] | None = None,
        to_act: list[int] | None = None,
        resigned: list[dict[str, Any]] | None = None,
    ) -> bool:
        """Seats, status, version, clock, seats to act and resigned seats in one transaction
        (``only_if``: the status it must still have; False and nothing written if it has
        not)."""
        ...

    def due_tables(self, before: float, limit: int = 500) -> list[str]:
        """Ids of running tables whose clock has a deadline before ``before``."""
        ...

    def finish(
        self,
        table_id: str,
        result: Mapping[str, Any],
        rating: Mapping[str, Any] | None,
        only_if: str | None = None,
    ) -> bool:
        """Mark a table over with its result and rate its game, in one transaction."""
        ...

    def tables(
        self, statuses: list[str], limit: int = 100, multiplayer: bool = False
    ) -> list[Table]:
        """The newest tables in these statuses."""
        ...

    def seats_of(self, table_ids: list[str]) -> dict[str, list[Seat]]: ...

    def open_full_tables(self) -> list[str]:
        """Ids of ``open`` tables whose every seat is taken (left so by an older server)."""
        ...

    def running_with_bots(self) -> list[str]:
        """Ids of the running tables with a bot in some seat (a restart resumes them)."""
        ...

    def unfinished_tables(self, player_id: str) -> tuple[int, int]:
        """(open or running tables the player created, those of them of bots only)."""
        ...

    def player_tables(self, player_id: str, game: str | None = None) -> list[Table]: ...

    def close_table(
        self,
        table_id: str,
        version: int,
        ended: str | None,
        result: Mapping[str, Any],
        rating: Mapping[str, Any] | None,
        resigned: list[dict[str, Any]] | None = None,
    ) -> bool:
        """Close an unfinished table (``lifecycle``): over, with how it ``ended`` (None: a
        stuck solitaire held open for undo, ended as its game did), its result, ratings and
        resigned seats (None: unchanged), in one transaction; False if it was not open or
        running any more."""
        ...

    def idle_tables(self, before: dt.datetime, limit: int = 100) -> list[str]:
        """Ids of open or running tables with no change since ``before``, oldest first."""
        ...

    def my_tables(self, player_id: str, finished: bool, limit: int, offset: int = 0) -> list[Table]:
        """Tables where the player holds (or held, to its end) a seat: unfinished ones, or
        finished ones newest first."""
        ...

    # -- the action log
    def actions(
        self, table_id: str, start: int = 0, limit: int | None = None
    ) -> list[LoggedAction]:
        """A table's action log, in order: all of it, or ``limit`` actions from ``start``."""
        ...

    def append_many(self, rows: list[dict[str, Any]]) -> None:
        """Commit actions of several tables (with each table's version, redo list, seats to
        act and, for an action ending its game, its result and ratings) in one
        transaction."""
        ...

    def pop(
        self,
        table_id: str,
        version: int,
        status: str | None = None,
        to_act: list[int] | None = None,
    ) -> Action | None:
        """Undo: remove the last action and keep it for redo, with the new version."""
        ...

    # -- ratings
    def ratings(self, game: str | None = None, limit: int = 100) -> list[Rating]: ...

    # -- identity across browsers (recovery codes) and chat
    def new_recovery_code(self, player_id: str) -> str: ...

    def has_recovery_code(self, player_id: str) -> bool: ...

    def recover(self, code: str) -> tuple[Player, str] | None: ...

    def whose_code(self, code: str) -> Player | None:
        """The person whose recovery code this is, without using it."""
        ...

    def add_chat(
        self, table_id: str, seat: int | None, player_id: str | None, name: str, text: str
    ) -> ChatLine: ...

    def chat(self, table_id: str, last: int) -> list[ChatLine]: ...

    def chat_count(self, table_id: str) -> int: ...

    def chat_settings(self, table_id: str) -> ChatSettings | None: ...

    def set_chat_settings(self, table_id: str, free: bool, spectators: bool) -> None: ...

    def ping(self) -> None: ...

    def close(self) -> None: ...


class Store:
    """The SQL store (SQLAlchemy 2; SQLite or PostgreSQL): the ``Storage`` of the server."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.engine = make_engine(url)
        migrate(self.engine)
        self.session = sessionmaker(self.engine, expire_on_commit=False)

    def close(self) -> None:
        self.engine.dispose()

    def ping(self) -> None:
        """Reach the database (a new connection if the pooled ones are gone); raises if it
        cannot (``/readyz``)."""
        with self.engine.connect() as conn:
            conn.execute(text("SELECT 1"))

    # -- players ----------------------------------------------------------------------------
    def new_player(self, name: str) -> tuple[Player, str]:
        token = secrets.token_urlsafe(24)
        player = Player(id=secrets.token_hex(8), name=name, token_hash=token_hash(token))
        with self.session.begin() as s:
            s.add(player)
        return player, token

    def player_by_token(self, token: str | None) -> Player | None:
        if not token:
            return None
        with self.session() as s:
            digest = token_hash(token)
            player = s.scalar(select(Player).where(Player.token_hash == digest))
            if player is None:  # another browser's token (a recovery code was used there)
                player = s.scalar(
                    select(Player)
                    .join(PlayerToken, PlayerToken.player_id == Player.id)
                    .where(PlayerToken.token_hash == digest)
                )
            return player

    def new_recovery_code(self, player_id: str) -> str:
        """A new recovery code for the player, replacing any older one; only its hash is
        kept, so it is shown once."""
        code = recovery_code()
        with self.session.begin() as s:
            s.execute(delete(RecoveryCode).where(RecoveryCode.player_id == player_id))
            s.add(RecoveryCode(player_id=player_id, code_hash=token_hash(normal_code(code))))
        return code

    def has_recovery_code(self, player_id: str) -> bool:
        with self.session() as s:
            return s.get(RecoveryCode, player_id) is not None

    def recover(self, code: str) -> tuple[Player, str] | None:
        """The player whose recovery code this is, and a new token for this browser (the
        other browsers keep theirs); None for an unknown code."""
        with self.session.begin() as s:
            player = self._code_owner(s, code)
            if player is None:
                return None
            token = secrets.token_urlsafe(24)
            s.add(PlayerToken(token_hash=token_hash(token), player_id=player.id))
        return player, token

    def whose_code(self, code: str) -> Player | None:
        with self.session() as s:
            return self._code_owner(s, code)

    @staticmethod
    def _code_owner(s: Any, code: str) -> Player | None:
        """The person a recovery code belongs to (a bot account's code, left from before
        migration 0009, is no one's: bot accounts have only their token)."""
        row = s.scalar(
            select(RecoveryCode).where(RecoveryCode.code_hash == token_hash(normal_code(code)))
        )
        player = s.get(Player, row.player_id) if row is not None else None
        return player if player is not None and player.bot_owner is None else None

    def rename(self, player_id: str, name: str) -> None:
        with self.session.begin() as s:
            player = s.get(Player, player_id)
            if player is not None:
                player.name = name

    def set_language(self, player_id: str, language: str) -> None:
        with self.session.begin() as s:
            player = s.get(Player, player_id)
            if player is not None:
                player.language = language

    # -- bot accounts: players a program plays through the API with their token ----------
    def new_bot_account(self, owner_id: str, name: str) -> tuple[Player, str]:
        token = secrets.token_urlsafe(24)
        bot = Player(
            id=secrets.token_hex(8), name=name, token_hash=token_hash(token), bot_owner=owner_id
        )
        with self.session.begin() as s:
            s.add(bot)
        return bot, token

    def bot_accounts_of(self, owner_id: str) -> list[Player]:
        with self.session() as s:
            return list(
                s.scalars(
                    select(Player).where(Player.bot_owner == owner_id).order_by(Player.created_at)
                )
            )

    def bot_account_named(self, name: str) -> Player | None:
        """The bot account of this name (names of bot accounts are unique, whatever the
        case)."""
        with self.session() as s:
            return s.scalar(
                select(Player).where(
                    Player.bot_owner.is_not(None), func.lower(Player.name) == name.lower()
                )
            )

    def new_bot_token(self, owner_id: str, bot_id: str) -> str | None:
        """A new token for the owner's bot account, or None if it is not theirs. Every
        other credential of the account ends with it, in one transaction: the old token,
        browser tokens and any recovery code (whoever held the old token made them)."""
        token = secrets.token_urlsafe(24)
        with self.session.begin() as s:
            bot = s.get(Player, bot_id)
            if bot is None or bot.bot_owner != owner_id:
                return None
            bot.token_hash = token_hash(token)
            s.execute(delete(PlayerToken).where(PlayerToken.player_id == bot_id))
            s.execute(delete(RecoveryCode).where(RecoveryCode.player_id == bot_id))
        return token

    def set_plays_with(self, owner_id: str, bot_id: str, anyone: bool) -> Player | None:
        """Whom the owner's bot account plays with: anyone, or its owner only; the account,
        or None if it is not theirs."""
        with self.session.begin() as s:
            bot = s.get(Player, bot_id)
            if bot is None or bot.bot_owner != owner_id:
                return None
            bot.plays_with = "anyone" if anyone else None
        return bot

    def bot_accounts(self, ids: list[str]) -> set[str]:
        """Which of these players are bot accounts."""
        if not ids:
            return set()
        with self.session() as s:
            return set(
                s.scalars(
                    select(Player.id).where(Player.id.in_(ids), Player.bot_owner.is_not(None))
                )
            )

    def names(self, ids: list[str]) -> dict[str, str]:
        with self.session() as s:
            q = select(Player.id, Player.name, Player.deleted_at).where(Player.id.in_(ids))
            return {i: former_player() if gone else n for i, n, gone in s.execute(q)}

    def forget(self, player_id: str) -> list[str]:
        """A person deletes their identity (``DELETE /api/me``), and their bot accounts go
        with it, in one transaction: each becomes a former player (no name: "a former
        player" wherever it showed, on ratings and resigned seats too), every credential
        ends (the token, other browsers' tokens, the recovery code) and the chat lines they
        wrote are deleted. Their seats, actions and ratings stay (the games are the other
        players' too, and replay). The ids forgotten (the person first)."""
        with self.session.begin() as s:
            ids = [player_id, *s.scalars(select(Player.id).where(Player.bot_owner == player_id))]
            for pid in ids:
                s.execute(
                    update(Player)
                    .where(Player.id == pid)
                    .values(
                        name=FORMER_PLAYER,
                        token_hash="forgotten:" + secrets.token_hex(16),  # no token's hash
                        language=None,
                        deleted_at=now(),
                    )
                )
            s.execute(delete(PlayerToken).where(PlayerToken.player_id.in_(ids)))
            s.execute(delete(RecoveryCode).where(RecoveryCode.player_id.in_(ids)))
            s.execute(delete(ChatLine).where(ChatLine.player_id.in_(ids)))
            s.execute(update(Rating).where(Rating.subject.in_(ids)).values(name=FORMER_PLAYER))
            for pid in ids:  # the names kept with resigned seats (few tables have any)
                like = func.cast(Table.resigned, String).like(f'%"{pid}"%')
                for row in s.scalars(select(Table).where(Table.resigned.is_not(None), like)):
                    row.resigned = [
                        {**r, "name": FORMER_PLAYER} if r.get("player_id") == pid else r
                        for r in row.resigned or []
                    ]
        return ids

    # -- tables -----------------------------------------------------------------------------
    def new_table(
        self,
        table: Table,
        seats: list[Seat],
        closes: Mapping[str, Any] | None = None,
        actions: list[Action] | None = None,
    ) -> None:
        with self.session.begin() as s:
            if closes is not None:
                _close(s.connection(), **closes)
            s.add(table)
            s.flush()
            s.add_all(seats)
            if actions:
                s.flush()
                s.add_all(actions)
        if closes is not None:
            fault_point("replace")

    def table(self, table_id: str) -> Table | None:
        with self.session() as s:
            return s.get(Table, table_id)

    def seats(self, table_id: str) -> list[Seat]:
        with self.session() as s:
            q = select(Seat).where(Seat.table_id == table_id).order_by(Seat.seat)
            return list(s.scalars(q))

    def set_seat(
        self,
        table_id: str,
        seat: int,
        player_id: str | None,
        bot: str | None,
        name: str | None = None,
        person: str | None = None,
    ) -> None:
        with self.session.begin() as s:
            row = s.get(Seat, (table_id, seat))
            if row is not None:
                row.player_id, row.bot, row.name, row.person = player_id, bot, name, person

    def change_table(
        self,
        table_id: str,
        version: int | None = None,
        status: str | None = None,
        seats: dict[int, SeatValues] | None = None,
        only_if: str | None = None,
        clock: dict[str, Any] | None = None,
        to_act: list[int] | None = None,
        resigned: list[dict[str, Any]] | None = None,
    ) -> bool:
        """One change of a table in one transaction: ``seats`` (seat -> (player id, bot,
        bot's name, person)),
        the new ``status``, ``version``, ``clock``, ``to_act`` and ``resigned`` seats (None:
        unchanged). ``only_if``: only if the table's status is still this; False (and nothing
        written) if it is not."""
        t, st = TABLES, SEATS
        values: dict[str, Any] = {}
        if version is not None:
            values["version"] = version
            values["active_at"] = now()  # a change: the idle sweep counts from here
        if status is not None:
            values["status"] = status
        if clock is not None:
            values["clock"], values["deadline"] = clock, next_deadline(clock)
        if to_act is not None:
            values["to_act"] = to_act
        if resigned is not None:
            values["resigned"] = resigned
        with self.engine.begin() as conn:
            if values or only_if is not None:
                q = update(t).where(t.c.id == table_id)
                if only_if is not None:
                    q = q.where(t.c.status == only_if)
                if conn.execute(q.values(**values or {"status": t.c.status})).rowcount == 0:
                    return False
            for seat, (player_id, bot, name, person) in (seats or {}).items():
                conn.execute(
                    update(st)
                    .where(st.c.table_id == table_id, st.c.seat == seat)
                    .values(player_id=player_id, bot=bot, name=name, person=person)
                )
        return True

    def finish(
        self,
        table_id: str,
        result: Mapping[str, Any],
        rating: Mapping[str, Any] | None,
        only_if: str | None = None,
    ) -> bool:
        """Mark a table over, with its result and ratings (see ``ratings.rating_of``), in
        one transaction; False if ``only_if`` is given and the status is not that."""
        with self.engine.begin() as conn:
            return _finish(conn, table_id, result, rating, now(), only_if)

    def open_full_tables(self) -> list[str]:
        """Ids of ``open`` tables whose every seat is taken (left so by an older server)."""
        with self.session() as s:
            free = select(Seat.table_id).where(
                Seat.table_id == Table.id, Seat.player_id.is_(None), Seat.bot.is_(None)
            )
            return list(s.scalars(select(Table.id).where(Table.status == "open", ~free.exists())))

    def set_status(self, table_id: str, status: str, result: dict[str, Any] | None = None) -> None:
        with self.session.begin() as s:
            row = s.get(Table, table_id)
            if row is None:
                return
            row.status = status
            if status == "over":
                row.finished_at = now()
                row.result = result

    def tables(
        self, statuses: list[str], limit: int = 100, multiplayer: bool = False
    ) -> list[Table]:
        """The newest tables in these statuses; ``multiplayer``: tables of two players or
        more only, filtered in the query so that solitaires never push them out of ``limit``.
        """
        with self.session() as s:
            if not multiplayer:
                q = (
                    select(Table)
                    .where(Table.status.in_(statuses))
                    .order_by(Table.created_at.desc())
                    .limit(limit)
                )
                return list(s.scalars(q))
            # one walk down the lobby's partial index per status, newest first, merged: the
            # literal 1 lets the database see the query is within the index's "players > 1"
            found: list[Table] = []
            for status in dict.fromkeys(statuses):
                q = (
                    select(Table)
                    .where(Table.status == status, Table.players > literal_column("1"))
                    .order_by(Table.created_at.desc())
                    .limit(limit)
                )
                found += s.scalars(q)
            found.sort(key=lambda t: t.created_at, reverse=True)
            return found[:limit]

    def seats_of(self, table_ids: list[str]) -> dict[str, list[Seat]]:
        """The seats of several tables, in seat order, in one query."""
        found: dict[str, list[Seat]] = {t: [] for t in table_ids}
        with self.session() as s:
            q = select(Seat).where(Seat.table_id.in_(table_ids)).order_by(Seat.table_id, Seat.seat)
            for seat in s.scalars(q):
                found[seat.table_id].append(seat)
        return found

    def unfinished_tables(self, player_id: str) -> tuple[int, int]:
        """How many open or running tables the player created, and how many of them have a
        bot in every seat: one query, on the index ``tables(created_by, status)``."""
        not_a_bot = (
            select(Seat.table_id)
            .where(Seat.table_id == Table.id, (Seat.player_id.is_not(None)) | (Seat.bot.is_(None)))
            .exists()
        )
        q = select(func.count(), func.coalesce(func.sum(case((~not_a_bot, 1), else_=0)), 0)).where(
            Table.created_by == player_id, Table.status.in_(["open", "running"])
        )
        with self.session() as s:
            unfinished, bots_only = s.execute(q).one()
            return int(unfinished), int(bots_only)

    def due_tables(self, before: float, limit: int = 500) -> list[str]:
        """Ids of running tables whose clock has a deadline before ``before`` (the index on
        ``tables.deadline``): those the hub loads so that their timers fire."""
        q = (
            select(Table.id)
            .where(Table.deadline < before, Table.status == "running")
            .order_by(Table.deadline)
            .limit(limit)
        )
        with self.session() as s:
            return list(s.scalars(q))

    def running_with_bots(self) -> list[str]:
        """The ids of the running tables with a bot in some seat: those a restart resumes."""
        q = (
            select(Table.id)
            .where(
                Table.status == "running",
                select(Seat.table_id)
                .where(Seat.table_id == Table.id, Seat.bot.is_not(None))
                .exists(),
            )
            .order_by(Table.created_at)
        )
        with self.session() as s:
            return list(s.scalars(q))

    def tutorials_done(self, player_id: str) -> list[str]:
        with self.session() as s:
            q = (
                select(Table.game)
                .where(
                    Table.created_by == player_id,
                    Table.status == "over",
                    Table.practice == "tutorial",
                    Table.ended.is_(None),
                )
                .distinct()
            )
            return sorted(s.scalars(q))

    def player_tables(self, player_id: str, game: str | None = None) -> list[Table]:
        with self.session() as s:
            q = (
                select(Table)
                .join(Seat, Seat.table_id == Table.id)
                .where(Seat.player_id == player_id)
            )
            if game:
                q = q.where(Table.game == game)
            return list(s.scalars(q.order_by(Table.created_at)))

    def close_table(
        self,
        table_id: str,
        version: int,
        ended: str | None,
        result: Mapping[str, Any],
        rating: Mapping[str, Any] | None,
        resigned: list[dict[str, Any]] | None = None,
    ) -> bool:
        with self.engine.begin() as conn:
            if not _close(conn, table_id, version, ended, result, rating, resigned):
                return False
        fault_point("close")
        return True

    def idle_tables(self, before: dt.datetime, limit: int = 100) -> list[str]:
        # two walks down ix_tables_idle (status, active_at), then the rows never changed
        # since they were created (active_at null: from before migration 0004, or untouched)
        t = Table
        q = (
            select(t.id)
            .where(
                t.status.in_(["open", "running"]), func.coalesce(t.active_at, t.created_at) < before
            )
            .order_by(func.coalesce(t.active_at, t.created_at))
            .limit(limit)
        )
        with self.session() as s:
            return list(s.scalars(q))

    def my_tables(self, player_id: str, finished: bool, limit: int, offset: int = 0) -> list[Table]:
        mine = select(Seat.table_id).where(Seat.player_id == player_id)
        # a seat its person resigned is the bot's now: the table is still theirs (player ids
        # are hex, so the JSON text holds the id quoted; tables with resignations are few)
        resigned = Table.resigned.is_not(None) & func.cast(Table.resigned, String).like(
            f'%"{player_id}"%'
        )
        q = select(Table).where(Table.id.in_(mine) | resigned)
        if finished:
            q = q.where(Table.status == "over").order_by(Table.finished_at.desc(), Table.id)
        else:
            q = q.where(Table.status.in_(["open", "running"])).order_by(
                func.coalesce(Table.active_at, Table.created_at).desc(), Table.id
            )
        with self.session() as s:
            return list(s.scalars(q.limit(limit).offset(offset)))

    # -- the action log ---------------------------------------------------------------------
    def actions(
        self, table_id: str, start: int = 0, limit: int | None = None
    ) -> list[LoggedAction]:
        # plain rows, not ORM objects: a 10,000-action log loaded in 236 ms that way, the
        # event loop held all along (issue #23)
        q = (
            select(
                ACTIONS.c.n,
                ACTIONS.c.seat,
                ACTIONS.c.action,
                ACTIONS.c.client_id,
                ACTIONS.c.version,
                ACTIONS.c.actor,
            )
            .where(ACTIONS.c.table_id == table_id, ACTIONS.c.n >= start)
            .order_by(ACTIONS.c.n)
            .limit(limit)
        )
        with self.engine.connect() as conn:
            return [LoggedAction(*row) for row in conn.execute(q)]

    def append(
        self,
        table_id: str,
        n: int,
        seat: int,
        action: str,
        version: int,
        client_id: str | None = None,
        redo: list | None = None,
        actor: str | None = None,
    ) -> None:
        """Commit one action at position ``n`` and the table's new version, together.

        The primary key (table, n) refuses a second writer of the same position. ``redo``
        replaces the table's redo list (None: an ordinary action clears it).
        """
        self.append_many(
            [
                {
                    "table_id": table_id,
                    "n": n,
                    "seat": seat,
                    "action": action,
                    "version": version,
                    "client_id": client_id,
                    "redo": redo,
                    "actor": actor,
                }
            ]
        )

    def append_many(self, rows: list[dict[str, Any]]) -> None:
        """Commit the actions of several tables (and each table's new version) in one
        transaction: all of them or none. Each row: ``table_id, n, seat, action, version,
        client_id``, optionally ``redo`` and ``actor``, and, for the action that ends its
        game, ``finish``: ``{"result": ..., "rating": ...}`` (the table becomes over with that
        result and its game is rated in the same transaction; with ``"ended"``, closed so
        before its game's end: the length limit). See :class:`GroupCommit`."""
        at = now()
        # prepared Core statements, not the ORM: this is the one write on every action's path
        with self.engine.begin() as conn:
            conn.execute(
                _INSERT_ACTION, [{**{k: r.get(k) for k in ACTION_KEYS}, "at": at} for r in rows]
            )
            conn.execute(
                _SET_VERSION,
                [
                    {
                        "tid": r["table_id"],
                        "version": r["version"],
                        "redo": r.get("redo") or [],
                        "at": at,
                        "to_act": r.get("to_act"),
                    }
                    for r in rows
                ],
            )
            clocked = [
                {"tid": r["table_id"], "clock": r["clock"], "deadline": next_deadline(r["clock"])}
                for r in rows
                if r.get("clock")
            ]
            if clocked:
                conn.execute(_SET_CLOCK, clocked)
            for r in rows:
                if r.get("finish"):
                    _finish(
                        conn,
                        r["table_id"],
                        r["finish"]["result"],
                        r["finish"].get("rating"),
                        at,
                        ended=r["finish"].get("ended"),
                    )
        if any(r.get("finish") for r in rows):
            fault_point("finish")

    def pop(
        self,
        table_id: str,
        version: int,
        status: str | None = None,
        to_act: list[int] | None = None,
    ) -> Action | None:
        """Undo: remove the last action and keep it for redo, with the table's new version,
        ``status`` (a finished solitaire runs again) and ``to_act`` (the seats to act after
        it) in the same transaction."""
        with self.session.begin() as s:
            last = s.scalar(
                select(Action).where(Action.table_id == table_id).order_by(Action.n.desc()).limit(1)
            )
            if last is None:
                return None
            row = s.get(Table, table_id)
            if row is None:  # (an action's table always exists: a foreign key)
                return None
            row.redo = [*row.redo, [last.seat, last.action]]
            row.version = version
            if to_act is not None:
                row.to_act = to_act
            if status is not None:
                row.status = status
                if status != "over":  # SQL NULL (a JSON column's None is JSON null)
                    row.finished_at, row.result = None, null()
            s.execute(delete(Action).where(Action.table_id == table_id, Action.n == last.n))
        return last

    # -- chat -------------------------------------------------------------------------------
    def add_chat(
        self, table_id: str, seat: int | None, player_id: str | None, name: str, text: str
    ) -> ChatLine:
        with self.session.begin() as s:
            line = ChatLine(
                table_id=table_id, seat=seat, player_id=player_id, name=name, text=text, at=now()
            )
            s.add(line)
        return line

    def chat(self, table_id: str, last: int) -> list[ChatLine]:
        """The table's ``last`` chat messages, oldest first."""
        with self.session() as s:
            q = (
                select(ChatLine)
                .where(ChatLine.table_id == table_id)
                .order_by(ChatLine.id.desc())
                .limit(last)
            )
            return list(reversed(list(s.scalars(q))))

    def chat_count(self, table_id: str) -> int:
        with self.session() as s:
            q = select(func.count()).select_from(ChatLine).where(ChatLine.table_id == table_id)
            return s.scalar(q) or 0

    def chat_settings(self, table_id: str) -> ChatSettings | None:
        with self.session() as s:
            return s.get(ChatSettings, table_id)

    def set_chat_settings(self, table_id: str, free: bool, spectators: bool) -> None:
        with self.session.begin() as s:
            s.merge(ChatSettings(table_id=table_id, free=free, spectators=spectators))
        fault_point("chat")

    # -- ratings ----------------------------------------------------------------------------
    def ratings(self, game: str | None = None, limit: int = 100) -> list[Rating]:
        with self.session() as s:
            q = select(Rating)
            if game:
                q = q.where(Rating.game == game)
            return list(s.scalars(q.order_by((Rating.mu - 3 * Rating.sigma).desc()).limit(limit)))

    def rating(self, subject: str, game: str) -> Rating | None:
        with self.session() as s:
            return s.get(Rating, (subject, game))

    def save_ratings(self, rows: list[Rating]) -> None:
        with self.session.begin() as s:
            for row in rows:
                s.merge(row)

    def count_actions(self) -> int:
        with self.session() as s:
            return s.scalar(select(func.count()).select_from(Action)) or 0


class GroupCommit:
    """Group commit of actions, off the event loop.

    ``await append(row)`` returns once the row is committed (durable against a killed server;
    see ``make_engine``) and raises if it could not be stored. Rows that arrive while a commit
    is running wait and go together in the next one, so under load one transaction (one WAL
    sync) carries the actions of many tables, and the event loop never waits for SQLite: the
    commit runs in a worker thread. A failing batch is retried row by row, so one bad row
    (e.g. a position another writer took) fails only its own action.
    """

    MAX_BATCH = 1000

    def __init__(self, store: Storage) -> None:
        self.store = store
        self.pending: list[tuple[dict[str, Any], asyncio.Future]] = []
        self.task: asyncio.Task | None = None
        self.commits = 0  # transactions
        self.rows = 0  # rows committed

    def submit(self, row: dict[str, Any]) -> asyncio.Future:
        """Queue ``row``; the future is done once it is committed (or has its error)."""
        loop = asyncio.get_running_loop()
        done = loop.create_future()
        self.pending.append((row, done))
        if self.task is None or self.task.done():
            self.task = loop.create_task(self._run())
        return done

    async def _run(self) -> None:
        while self.pending:
            batch = self.pending[: self.MAX_BATCH]
            del self.pending[: self.MAX_BATCH]
            try:
                started = time.perf_counter()
                await asyncio.to_thread(self.store.append_many, [r for r, _ in batch])
                COMMIT_SECONDS.observe(time.perf_counter() - started)
                COMMIT_ROWS.inc(len(batch))
                self.commits += 1
                results: list[BaseException | None] = [None] * len(batch)
            except Exception:  # noqa: BLE001 - find the bad row: the others are stored
                results = []
                for row, _ in batch:
                    try:
                        await asyncio.to_thread(self.store.append_many, [row])
                        self.commits += 1
                        results.append(None)
                    except Exception as e:  # noqa: BLE001 - handed to that action
                        results.append(e)
            for (_, done), error in zip(batch, results, strict=True):
                if error is None:
                    self.rows += 1
                if not done.done():
                    done.set_result(None) if error is None else done.set_exception(error)
