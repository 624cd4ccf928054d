"""The lobby's list of multiplayer tables, without loading any table into memory.

A table the hub has in memory gives its own info (who is connected, its notices); any other
is described from its stored row and seats, as ``LiveTable.info`` would describe it. The lobby
used to load (replay) each of the 100 newest tables on every request, and kept them all.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cardtable.server.storage import store as db
from cardtable.server.tables.live import LiveTable, iso, people_in, stored_seats, table_info

#: tables the lobby lists at most (the newest first)
LOBBY_TABLES = 100
STATUSES = ("open", "running", "over")


def lobby_tables(
    tables: Mapping[str, LiveTable], store: db.Storage, statuses: list[str], viewer: str | None
) -> list[dict[str, Any]]:
    """Infos of the newest multiplayer tables in these statuses, as ``viewer`` sees them;
    ``tables``: those in memory (the hub's). A tournament's tables are on its page, not
    here (a duplicate challenge's deal is secret until it is over)."""
    wanted = [s for s in dict.fromkeys(statuses) if s in STATUSES]
    if not wanted:
        return []
    rows = [
        r for r in store.tables(wanted, limit=LOBBY_TABLES, multiplayer=True) if not r.tournament
    ]
    live = {r.id: tables.get(r.id) for r in rows}
    stored = store.seats_of([r.id for r in rows if live[r.id] is None])
    names = store.names(list({p for seats in stored.values() for p in people_in(seats)}))
    robots = store.bot_accounts(list(names))
    infos = []
    for r in rows:
        table = live[r.id]
        infos.append(
            table.info(viewer)
            if table is not None
            else stored_info(r, stored[r.id], names, viewer, robots)
        )
    return infos


def stored_info(
    row: db.Table,
    seats: list[db.Seat],
    names: dict[str, str],
    viewer: str | None,
    bot_accounts: set[str] | None = None,
) -> dict[str, Any]:
    """``LiveTable.info`` of a table not in memory: nobody is connected, it has no notices,
    and (a multiplayer table) no undo."""
    # (a finished table's seat history is left to its own info, GET /api/tables/{id})
    info = table_info(
        row.id,
        row.game,
        row.players,
        row.options,
        row.status,
        row.seed,
        row.created_by,
        row.version,
        stored_seats(seats, names),
        set(),
        viewer,
        clock=row.clock,
        bot_accounts=bot_accounts or set(),
        practice=row.practice,
        tournament=row.tournament,
    )
    if row.ended:
        info["ended"] = row.ended
    info["created_at"] = iso(row.created_at)  # the lobby shows its age ("3 min ago")
    return info
