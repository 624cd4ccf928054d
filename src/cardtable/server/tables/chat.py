"""Chat at a table: who may write, the limits, storage and what each connection is sent.

Players write; spectators read, and write only if the table's creator lets them. A game whose
rules limit talk (``Game.free_chat_default`` False: The Game, where naming numbers is against
the rules) starts with the fixed ``PHRASES`` only; the creator may switch free text on or off
at any time. Every message is stored with the table (``store.ChatLine``) before it is sent,
and a connection is sent the last ``CHAT_HISTORY`` on (re)connecting (docs/server.md, "Chat").
The text is plain text: clients show it as text, never as HTML.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from cardtable import games
from cardtable.core.protocol import listing
from cardtable.core.words import translatable, wire
from cardtable.server.api.limits import RateLimiter
from cardtable.server.api.messages import HubError, encodable, error
from cardtable.server.api.metrics import note_refusal

_, _n = translatable("cardtable")

if TYPE_CHECKING:
    from cardtable.server.storage import store as db
    from cardtable.server.tables.conn import Conn
    from cardtable.server.tables.live import LiveTable

#: characters in one message (after spaces are tidied)
MAX_CHAT = 300
#: messages a connection is sent when it (re)connects: the table's last ones
CHAT_HISTORY = 50
#: messages one player may write, over every table: a burst of this many, then ...
CHAT_BURST = 5
CHAT_RATE = 0.5  # ... one every 2 seconds
#: messages a table keeps taking; beyond, its chat is full (a bound on what a table stores)
MAX_CHAT_PER_TABLE = 5000
#: what anyone who may write can always say, free chat or not
# TRANSLATORS: the fixed chat phrases (The Game's rules forbid naming numbers)
PHRASES = (_("Ready"), _("Well played"), _("Sorry"), _("Thanks"))
#: each phrase by its English: a stored line that is one reads in every reader's language
_PHRASE = {str(p): p for p in PHRASES}


def tidy(text: str) -> str:
    """The text as it is stored: runs of spaces and line breaks as one space, control and
    format characters (bidirectional overrides, zero-width joiners...) removed."""
    text = " ".join(text.split())
    return "".join(c for c in text if unicodedata.category(c) not in ("Cc", "Cf"))


class Chat:
    """The chat of every table of a hub (``Hub.chat``)."""

    def __init__(self, store: db.Storage) -> None:
        self.store = store
        self.rate = RateLimiter(CHAT_RATE, CHAT_BURST)
        #: refuses a write to a table this process does not hold (the hub's engine's
        #: ``guard``: ``NotHolder``); one process holds every table
        self.guard: Callable[[str, str], None] = lambda _table_id, _what: None

    # -- settings ---------------------------------------------------------------------------
    def settings(self, table: LiveTable) -> dict[str, bool]:
        """``{"free", "spectators"}``: as the creator set them, else the game's default."""
        if table.chat is None:
            row = self.store.chat_settings(table.id)
            table.chat = (
                {"free": row.free, "spectators": row.spectators}
                if row is not None
                else {"free": games.get(table.game).free_chat_default, "spectators": False}
            )
        return table.chat

    def change(
        self, table: LiveTable, player_id: str, free: bool | None, spectators: bool | None
    ) -> dict[str, bool]:
        """The creator changes the table's chat; every connection is told."""
        if table.created_by != player_id:
            raise HubError("forbidden", _("only the table's creator sets its chat"), 403)
        now = dict(self.settings(table))
        if free is not None:
            now["free"] = free
        if spectators is not None:
            now["spectators"] = spectators
        self.guard(table.id, "a change of chat settings")
        self.store.set_chat_settings(table.id, now["free"], now["spectators"])
        table.chat = now
        for conn in list(table.conns):
            conn.push(self.message(table, conn, [], replay=False))
        return now

    def may_write(self, table: LiveTable, conn: Conn) -> str | None:
        """None if the connection may write, else why not (for people)."""
        if conn.player_id is None:
            return _("choose a name to chat")
        if conn.seat is None and not self.settings(table)["spectators"]:
            return _("spectators read the chat; only the players write here")
        return None

    # -- messages ---------------------------------------------------------------------------
    def message(
        self, table: LiveTable, conn: Conn, lines: list[dict[str, Any]], replay: bool
    ) -> dict[str, Any]:
        """A ``chat`` message for one connection (``messages.ChatServerMessage``)."""
        settings = self.settings(table)
        why = self.may_write(table, conn)
        return {
            "type": "chat",
            "replay": replay,
            "messages": lines,
            "settings": {
                **settings,
                "phrases": list(PHRASES),
                "phrases_msg": [wire(p) for p in PHRASES],
                "can_write": why is None,
                "why": why,
                "why_msg": wire(why),
            },
        }

    def history(self, table: LiveTable, conn: Conn) -> dict[str, Any]:
        """The table's last ``CHAT_HISTORY`` messages, for a connection that just opened."""
        return self.message(
            table, conn, [line_of(r) for r in self.store.chat(table.id, CHAT_HISTORY)], replay=True
        )

    def write(
        self, table: LiveTable, conn: Conn, text: str, client_id: str | None = None
    ) -> dict[str, Any] | None:
        """Store and send one message; None, or the typed error for the writer."""
        why = self.may_write(table, conn)
        if why is not None:
            return error("chat_not_allowed", why, client_id)
        text = tidy(text) if encodable(text) else ""
        if not text:
            return error("chat_empty", _("write something first"), client_id)
        if len(text) > MAX_CHAT:
            return error(
                "chat_too_long",
                _(
                    "a chat message is at most {most} characters (this one has {n})",
                    most=MAX_CHAT,
                    n=len(text),
                ),
                client_id,
            )
        if not self.settings(table)["free"] and text not in PHRASES:
            return error(
                "chat_phrases_only",
                _(
                    "free chat is off at this table: say {phrases}",
                    phrases=listing([_('"{phrase}"', phrase=p) for p in PHRASES]),
                ),
                client_id,
            )
        assert conn.player_id is not None  # (may_write)
        wait = self.rate.wait(conn.player_id)
        if wait:
            wait = round(max(wait, 0.01), 2)
            note_refusal("chat_rate_limited")
            return {
                **error(
                    "chat_rate_limited",
                    _("you are chatting fast: wait {wait} s", wait=float(f"{wait:.1f}")),
                    client_id,
                ),
                "retry_after": wait,
            }
        if self.store.chat_count(table.id) >= MAX_CHAT_PER_TABLE:
            return error(
                "chat_full",
                _(
                    "this table's chat has {n} messages: it takes no more",
                    n=MAX_CHAT_PER_TABLE,
                ),
                client_id,
            )
        if conn.seat is not None:
            name = table.seats[conn.seat]["name"] or "player"
        else:
            name = self.store.names([conn.player_id]).get(conn.player_id, "player")
        self.guard(table.id, "a chat line")
        row = self.store.add_chat(table.id, conn.seat, conn.player_id, name[:40], text)
        line = line_of(row)
        for other in list(table.conns):
            other.push(self.message(table, other, [line], replay=False))
        return None


def line_of(row: db.ChatLine) -> dict[str, Any]:
    """A stored message as clients see it (``messages.ChatLine``): no player id."""
    return {
        "n": row.id,
        "seat": row.seat,
        "name": row.name,
        "text": row.text,
        **({"msg": wire(_PHRASE[row.text])} if row.text in _PHRASE else {}),
        "at": row.at.isoformat(timespec="seconds") + "Z",
    }
