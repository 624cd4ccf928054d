"""A person's own data (issue #30): their finished games' records in one file (``GET
/api/me/records``), and deleting their identity (``DELETE /api/me``; docs/server.md,
"Your own data").

The records are read from the store, a table at a time, in the thread a streamed answer's
iterator runs in: never loaded, never on the event loop. Only finished games (an unfinished
shared game's deal is secret), and not a running duplicate challenge's (its deals are).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from cardtable import games
from cardtable.server.api.messages import HubError
from cardtable.server.api.names import FORMER_PLAYER, former_player
from cardtable.server.storage import store as db
from cardtable.server.tables.live import iso

if TYPE_CHECKING:
    from cardtable.server.tables.hub import Hub

#: finished games one download holds at most, newest first (a person's file stays bounded:
#: about 2 KB a game played alone, so a few megabytes at most)
RECORDS_MAX = 2000


def your_seat(row: db.Table, seats: list[db.Seat], player_id: str) -> int | None:
    """The seat that was the person's: theirs at the end, or one they resigned."""
    mine = next((s.seat for s in seats if s.player_id == player_id), None)
    if mine is None:
        mine = next((r["seat"] for r in row.resigned or [] if r["player_id"] == player_id), None)
    return mine


def records(store: db.Storage, player_id: str, secret: Callable[[str], bool]) -> Iterator[bytes]:
    """The person's finished games as one JSON list, newest first, a game at a time:
    ``{table, finished_at, ended, seat, record}``, ``seat`` theirs (from 0), ``record`` the
    game's record as ``cardtable replay`` reads it (``game, version, seed, players,
    options, actions``). ``secret``: whether a table's deal is still secret."""
    rows = store.my_tables(player_id, finished=True, limit=RECORDS_MAX)
    yield b"["
    first = True
    for row in rows:
        if row.game not in games.names() or (row.tournament is not None and secret(row.id)):
            continue
        record = {
            "table": row.id,
            "finished_at": iso(row.finished_at),
            "ended": row.ended,
            "seat": your_seat(row, store.seats(row.id), player_id),
            "record": {
                "game": row.game,
                "version": games.get(row.game).version,
                "seed": row.seed,
                "players": row.players,
                "options": dict(row.options),
                "actions": [[a.seat, a.action] for a in store.actions(row.id)],
            },
        }
        # the standard library's encoder: a seed has 128 bits
        yield (b"" if first else b",\n") + json.dumps(record, ensure_ascii=False).encode()
        first = False
    yield b"]\n"


async def leave_everything(hub: Hub, player: db.Player) -> int:
    """The person leaves every unfinished table they sit at, as ``POST .../leave`` does:
    the seat freed, its fallback bot playing on, or the table closed. A table another
    process holds is left to its clock and grace period (its seat waits, then goes to a
    bot). How many were left."""
    left = 0
    for row in hub.store.my_tables(player.id, finished=False, limit=10_000):
        if not await hub.own(row.id):
            continue
        try:
            table = hub.load(row.id)
            if table.seat_of(player.id) is None:
                continue  # a seat they resigned: a bot plays it on already
            await hub.leave(table, player)
            left += 1
        except HubError:  # closed meanwhile, or moved: nothing of theirs to leave
            continue
    return left


def forget_in_memory(hub: Hub, ids: list[str]) -> None:
    """The names the tables in memory keep of the forgotten people (seats, the seats bots
    play on for them, who played each action) become a former player's."""
    gone = set(ids)
    for table in hub.tables.values():
        for seat in table.seats:
            if seat["player_id"] in gone:
                seat["name"] = former_player()
            if seat["person"] in gone:
                seat["person_name"] = former_player()
        for pid in gone & set(table.actor_names):
            table.actor_names[pid] = former_player()
        table.resigned = [
            {**r, "name": FORMER_PLAYER} if r.get("player_id") in gone else r
            for r in table.resigned
        ]


async def delete_identity(hub: Hub, player: db.Player) -> dict[str, Any]:
    """``DELETE /api/me``: forget the person (and their bot accounts) in one transaction,
    the names kept in memory with it, then leave their unfinished tables under their new
    name (what is stored and told of the leaving names nobody)."""
    bots = hub.store.bot_accounts_of(player.id)
    ids = hub.store.forget(player.id)
    forget_in_memory(hub, ids)
    for who in (player, *bots):
        who.name = FORMER_PLAYER  # (a detached row: nothing written by this)
    left = await leave_everything(hub, player)
    for bot in bots:
        await leave_everything(hub, bot)
    return {"deleted": True, "left": left}
