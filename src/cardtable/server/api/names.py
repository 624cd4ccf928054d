"""How the server names a bot for people, the same on a table, in a log and on the
leaderboard."""

from __future__ import annotations


def bot_label(spec: str) -> str:
    """A bot's name for people, from its spec: ``greedy`` -> "Greedy", ``search:hard`` ->
    "Search (hard)", ``ext:NAME`` (an operator's bot) -> "NAME", ``cmd:...`` -> "Program"."""
    kind, _, rest = spec.partition(":")
    if kind == "ext" and rest:
        return rest[:40]
    if kind == "cmd":
        return "Program"
    return f"{kind.capitalize()} ({rest})" if rest else kind.capitalize()
