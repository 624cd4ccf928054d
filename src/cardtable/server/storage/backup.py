"""Backups of the server's storage: ``cardtable backup PATH`` and ``cardtable restore PATH``.

SQLite (the default): SQLite's online backup API (``sqlite3.Connection.backup``) copies the
database page by page while the server runs. The server's database is in WAL mode
(``store.make_engine``), so readers never block its writer: the copy is one consistent
moment of the database (the copy is one read transaction, which in WAL mode never blocks
the server's writer), never half an action. The copy is written beside its destination and renamed
into place, in rollback-journal mode (one self-contained file), readable by its owner only.

PostgreSQL: both commands refuse, naming ``pg_dump`` and ``pg_restore`` (docs/server.md,
"Backups"): PostgreSQL's own tools copy a running database consistently and restore it.

A restore checks that the file is a cardtable database (the Alembic revision it holds is
one of this version's), refuses to overwrite a database that holds tables unless forced,
copies the file in, and migrates it forward if it was made by an older version.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
from pathlib import Path

from sqlalchemy.engine import make_url

#: the commands that back up and restore a PostgreSQL database (docs/server.md, "Backups")
PG_DUMP = "pg_dump --format=custom --file=cardtable.dump 'URL'"
PG_RESTORE = "pg_restore --clean --if-exists --no-owner --dbname='URL' cardtable.dump"


class BackupError(Exception):
    """A backup or restore that cannot be done: the message says why, in one line."""


def sqlite_file(url: str) -> Path:
    """The SQLite file of a database URL; ``BackupError`` for PostgreSQL (its own tools)."""
    parsed = make_url(url)
    if parsed.get_backend_name() == "postgresql":
        raise BackupError(
            "PostgreSQL is backed up with its own tools, which copy a running database "
            f"consistently: {PG_DUMP.replace('URL', url)}, and restored with "
            f'{PG_RESTORE.replace("URL", url)} (docs/server.md, "Backups")'
        )
    if parsed.get_backend_name() != "sqlite" or not parsed.database:
        raise BackupError(f"cannot back up {url}: an SQLite file or PostgreSQL only")
    if parsed.database == ":memory:" or parsed.database.startswith("file:"):
        raise BackupError(f"cannot back up {url}: not a database file")
    return Path(parsed.database)


def revision(path: Path) -> str | None:
    """The Alembic revision a database file holds, None if it holds none (not cardtable's,
    or empty); ``BackupError`` if it is not an SQLite database at all."""
    try:
        with contextlib.closing(sqlite3.connect(path)) as conn:
            found = conn.execute(
                "SELECT name FROM sqlite_master WHERE type='table' AND name='alembic_version'"
            ).fetchone()
            if found is None:
                return None
            row = conn.execute("SELECT version_num FROM alembic_version").fetchone()
            return row[0] if row else None
    except sqlite3.DatabaseError as e:
        raise BackupError(f"{path} is not an SQLite database ({e})") from None


def known_revisions() -> list[str]:
    """This version's migrations, oldest first (the last one is the newest)."""
    from alembic.config import Config
    from alembic.script import ScriptDirectory

    config = Config()
    config.set_main_option("script_location", str(Path(__file__).parent / "migrations"))
    script = ScriptDirectory.from_config(config)
    return [r.revision for r in reversed(list(script.walk_revisions()))]


def holds_tables(path: Path) -> bool:
    """Whether a database file exists and holds any table of its own (a fresh server's
    database holds cardtable's schema: it counts too, unless it has no table rows)."""
    if not path.exists() or path.stat().st_size == 0:
        return False
    try:
        with contextlib.closing(sqlite3.connect(path)) as conn:
            names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master")}
            if "tables" in names and "players" in names:
                rows = conn.execute(
                    "SELECT (SELECT count(*) FROM tables) + (SELECT count(*) FROM players)"
                ).fetchone()
                return bool(rows and rows[0])
            return bool(names)
    except sqlite3.DatabaseError:
        return True  # something else is there: never overwritten unasked


def copy(source: Path, dest: Path) -> None:
    """Copy an SQLite database with the online backup API into ``dest`` (written beside it,
    then renamed into place: a reader never sees half a file), 0600, in rollback-journal
    mode so that the copy is one self-contained file."""
    part = dest.with_name(f".{dest.name}.part")
    part.unlink(missing_ok=True)
    os.close(os.open(part, os.O_WRONLY | os.O_CREAT, 0o600))
    try:
        with (
            contextlib.closing(sqlite3.connect(source)) as src,
            contextlib.closing(sqlite3.connect(part)) as out,
        ):
            # in one step: a read transaction on a WAL database, one moment of it, which
            # never blocks the server's writer (a copy in steps restarts at every commit)
            src.backup(out)
            out.execute("PRAGMA journal_mode=DELETE")
        os.replace(part, dest)
    finally:
        part.unlink(missing_ok=True)


def backup(url: str, dest: Path, force: bool = False) -> str:
    """Copy the database of ``url`` to the file ``dest`` while the server may run; the
    revision it holds."""
    source = sqlite_file(url)
    if not source.exists():
        raise BackupError(f"there is no database at {source}")
    rev = revision(source)
    if rev is None:
        raise BackupError(f"{source} is not a cardtable database (no migration version)")
    if dest.is_dir():
        raise BackupError(f"{dest} is a folder: name the file to write")
    if dest.exists() and not force:
        raise BackupError(f"{dest} exists: name another file, or --force to replace it")
    copy(source, dest)
    return rev


def restore(source: Path, url: str, force: bool = False) -> tuple[str, str]:
    """Put the backup ``source`` in place of the database of ``url`` (the server stopped)
    and migrate it forward: (the revision it held, the revision it holds now)."""
    dest = sqlite_file(url)
    if not source.is_file():
        raise BackupError(f"there is no backup at {source}")
    rev = revision(source)
    known = known_revisions()
    if rev is None:
        raise BackupError(f"{source} is not a cardtable database (no migration version)")
    if rev not in known:
        raise BackupError(
            f"{source} was made by a newer cardtable (migration {rev!r}, this one knows up "
            f"to {known[-1]!r}): restore it with that version"
        )
    if holds_tables(dest) and not force:
        raise BackupError(
            f"{dest} holds a database already: stop its server and add --force to replace it"
        )
    from cardtable.paths import private_dir

    private_dir(dest.parent)
    for suffix in ("-wal", "-shm", "-journal"):  # the replaced database's, never the copy's
        Path(f"{dest}{suffix}").unlink(missing_ok=True)
    copy(source, dest)
    from cardtable.server.storage.store import make_engine, migrate

    engine = make_engine(url)
    try:
        migrate(engine)
    finally:
        engine.dispose()
    return rev, revision(dest) or rev
