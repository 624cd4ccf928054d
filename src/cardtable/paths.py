"""Where cardtable keeps files: the data folder (records, later the database), and where it
finds the games' rules pages (in each language).

``CARDTABLE_DATA`` sets it; otherwise ``$XDG_DATA_HOME/cardtable`` or ``~/.local/share/cardtable``.
"""

from __future__ import annotations

import contextlib
import json
import os
import time
from pathlib import Path
from typing import Any


def data_dir() -> Path:
    explicit = os.environ.get("CARDTABLE_DATA")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
    return Path(base) / "cardtable"


def private_dir(path: Path) -> Path:
    """Create ``path`` readable by its owner only (0700); a folder that exists is left as it is
    (it may be one the operator chose and shares on purpose, such as /tmp)."""
    if not path.exists():
        path.mkdir(mode=0o700, parents=True, exist_ok=True)
    return path


def private_sqlite(database: str | None) -> None:
    """Create the SQLite file 0600 before SQLite does (SQLite gives its -wal and -shm files the
    mode of the database file), and tighten the files of an existing database."""
    if not database or database == ":memory:" or database.startswith("file:"):
        return
    path = Path(database)
    try:
        if not path.exists():
            os.close(os.open(path, os.O_WRONLY | os.O_CREAT, 0o600))
    except OSError:  # no such folder, say: SQLite reports it in its own words
        return
    for suffix in ("", "-wal", "-shm", "-journal"):
        with contextlib.suppress(OSError):  # not there, or not ours to change
            os.chmod(f"{path}{suffix}", 0o600)


def save_record(record: dict[str, Any], folder: Path | None = None) -> Path:
    """Write a record as JSON under ``folder`` (default: the data folder's ``records``)."""
    if folder is None:
        folder = private_dir(data_dir()) / "records"
    folder.mkdir(parents=True, exist_ok=True)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    path = folder / f"{record['game']}-{record['seed']}-{stamp}.json"
    n = 1
    while path.exists():
        n += 1
        path = folder / f"{record['game']}-{record['seed']}-{stamp}-{n}.json"
    path.write_text(json.dumps(record, indent=1) + "\n")
    return path


def load_record(path: Path) -> dict[str, Any]:
    """Read a record file; the caller replays it (``games.replay``), which checks it."""
    from cardtable.core.errors import BadRecord

    try:
        data = json.loads(Path(path).read_text())
    except json.JSONDecodeError as e:
        raise BadRecord(f"{path} is not JSON: {e}") from None
    if not isinstance(data, dict):
        raise BadRecord(f"{path} does not hold a record (a JSON object)")
    return data


def rules_page(game: str, language: str = "en") -> tuple[str, str]:
    """A game's rules page and its language: ``docs/rules/GAME.md`` in English, or
    ``docs/rules/LANG/GAME.md``; English when there is no page in ``language`` (OSError when
    there is none at all)."""
    base = Path(__file__).parent / "_docs" / "rules"  # where an installed wheel has them
    if not base.exists():
        base = Path(__file__).resolve().parents[2] / "docs" / "rules"
    if language != "en" and language.isalpha():  # a language code, never a path
        translated = base / language / f"{game}.md"
        if translated.exists():
            return translated.read_text(encoding="utf-8"), language
    return (base / f"{game}.md").read_text(encoding="utf-8"), "en"
