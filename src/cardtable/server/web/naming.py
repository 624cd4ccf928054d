"""Which names a person or a bot account may take: not one of this server's bots' names,
nor one that looks like it."""

from __future__ import annotations

import re
import unicodedata

from cardtable import bots, games
from cardtable.server.api.names import FORMER_PLAYER
from cardtable.server.tables.botrunner import EXTERNAL

NAME = re.compile(r"^[^\x00-\x1f<>]{1,24}$")
LEVELS = {"search": ["easy", "normal", "hard"]}
#: words that make a name a bot's: "greedy bot", "Search (bot)", "bots"
BOT_WORD = re.compile(r"(^|[^a-z0-9])bots?$")
#: what a table or the leaderboard calls a program's seat (``names.bot_label``: ``cmd:...``)
PROGRAM_LABEL = "program"


def reserved_name(name: str, external: dict[str, str] | None = None) -> bool:
    """Whether a ``name`` of a person or a bot account is (or looks like) one of this
    server's bots, so that the leaderboard and the tables never show someone as the server's
    bot: any built-in bot's name, with or without " bot", in any case (``Greedy``,
    ``greedy bot``, ``GreedyBot``, ``search:hard``); what a table shows for one (``Search
    (hard)``, ``Greedy 3``, ``Program``); an operator's external bot (``NAME``,
    ``ext:NAME``); a spec (``ext:``, ``cmd:``, ``bot:``); and any name whose last word is
    "bot"."""
    text = unicodedata.normalize("NFKC", name).casefold().strip()
    if re.sub(r"[^a-z]", "", text) == re.sub(r"[^a-z]", "", FORMER_PLAYER):
        return True  # a deleted identity's name (``DELETE /api/me``): nobody's
    if text.startswith((EXTERNAL, bots.EXTERNAL, "cmd(", "bot:")) or BOT_WORD.search(text):
        return True
    reserved = {b for g in games.names() for b in bots.names(g)}
    reserved |= {n.casefold() for n in external or {}}
    base = text.partition(":")[0].strip()  # a bot with a level: "search:hard"
    compact = re.sub(r"[^a-z0-9]", "", base)
    if base in reserved or compact in reserved or compact.removesuffix("bot") in reserved:
        return True
    # the labels tables show: a level in brackets, a seat's number after the label
    shown = re.sub(r"[^a-z0-9]", "", text).rstrip("0123456789")
    return shown in bot_labels(reserved)


def bot_labels(names: set[str]) -> set[str]:
    """The labels of these bots at every level, and a program's, letters and digits only
    (``searchhard``)."""
    levels = {level for known in LEVELS.values() for level in known}
    labels = {PROGRAM_LABEL, *names}
    return labels | {re.sub(r"[^a-z0-9]", "", n) + level for n in names for level in levels}
