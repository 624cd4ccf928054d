"""What the routes ask of a request: the hub, the store, who is asking, the limits; and a
table just created, claimed."""

from __future__ import annotations

from dataclasses import dataclass, field

from fastapi import Request

from cardtable.core.words import translatable
from cardtable.server.api.limits import RateLimiter
from cardtable.server.api.messages import HubError
from cardtable.server.storage import store as db
from cardtable.server.tables.hub import Hub
from cardtable.server.tables.live import LiveTable

_, _n = translatable("cardtable")

#: recovery codes tried per client address: a burst of this many, then one a minute (a code
#: has about 99 bits: guessing is hopeless anyway, and this keeps it so)
RECOVER_BURST = 5
#: bot accounts one person may have
MAX_BOT_ACCOUNTS = 5

COOKIE = "cardtable_token"
#: the tutor's answers per person: 20 at once, then 4 a second
TUTOR = (4.0, 20)


@dataclass
class Limiters:
    """The limits of the people's routes, one set per app (shared between processes with a
    bus): new players per address, recovery codes, bot accounts per owner, the tutor's
    answers per person."""

    new_players: RateLimiter | None
    recoveries: RateLimiter = field(default_factory=lambda: RateLimiter(1 / 60, RECOVER_BURST))
    bot_accounts: RateLimiter = field(default_factory=lambda: RateLimiter(1 / 60, MAX_BOT_ACCOUNTS))
    #: the tutor's words per person (a page asks once per new state: a tutorial's table
    #: replays its game for each answer, so a flood is refused)
    tutor: RateLimiter = field(default_factory=lambda: RateLimiter(*TUTOR))


def limiters(request: Request) -> Limiters:
    return request.app.state.limiters


def hub(request: Request) -> Hub:
    return request.app.state.hub


def store(request: Request) -> db.Storage:
    return request.app.state.store


def viewer(request: Request) -> db.Player | None:
    """The player the request's token names, if any."""
    token = request.cookies.get(COOKIE) or request.headers.get("x-cardtable-token")
    return store(request).player_by_token(token)


def me(request: Request) -> db.Player:
    player = viewer(request)
    if player is None:
        raise HubError("no_player", _("choose a name first (POST /api/me)"), 401)
    return player


def seen_by(request: Request) -> str | None:
    player = viewer(request)
    return player.id if player else None


async def created(h: Hub, table: LiveTable) -> LiveTable:
    """A table just created here, its lease claimed on the bus (a new id: nobody else
    knows it, so it is ours unless this process is coming back from a pause)."""
    if not await h.own(table.id):
        h.drop(table)
        raise HubError("moved", _("the table moved to another server: reload"), 503)
    return table
