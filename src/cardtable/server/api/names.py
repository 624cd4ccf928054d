"""How the server names a bot for people, the same on a table, in a log and on the
leaderboard."""

from __future__ import annotations

from cardtable.core.words import translatable

_, _n = translatable("cardtable")


def bot_label(spec: str) -> str:
    """A bot's name for people, from its spec: ``greedy`` -> "Greedy", ``search:hard`` ->
    "Search (hard)", ``ext:NAME`` (an operator's bot) -> "NAME", ``cmd:...`` -> "Program"."""
    kind, _, rest = spec.partition(":")
    if kind == "ext" and rest:
        return rest[:40]
    if kind == "cmd":
        return "Program"
    return f"{kind.capitalize()} ({rest})" if rest else kind.capitalize()


def former_player() -> str:
    """The name of a person who deleted their identity (``DELETE /api/me``), wherever their
    name showed: a ``Text``, so that each reader reads it in their own language (a page
    that receives it as a plain name says it through ``personName`` of ``static/i18n.js``)."""
    return _("a former player")


#: the English of ``former_player``: people may not take it as their name
FORMER_PLAYER = "a former player"
