"""How a table ends when its game does not: abandoned, resigned, or closed for being idle.

A table that is left, replaced by a new deal or a restart, resigned or idle for too long is
closed: status ``over`` (so nothing more is played, its record and replay are public, and it
no longer counts against the creator's limit of unfinished tables) with ``ended`` saying how
(docs/server.md, "Table lifecycle"). Its result is the position so far
(``State.result()``), marked as a loss:

- ``abandoned``, ``idle`` and ``too_long`` (the game reached ``engine.MAX_ACTIONS``, the
  length the server accepts): nobody won (``winners`` empty, ``won`` false); not rated;
- ``resigned`` in a competitive game: the resigned seats rank last, below every seat that
  played on (whoever or whatever played it; the first to resign lowest), and the game is
  rated with the person who resigned in their seat, so leaving never saves a rating. If
  the game ends with nobody but bots playing on, the seats that played on share first
  place. A seat the clock gave to a bot (out of time, or away past the grace) whose person
  does not come back before the end counts as resigned, at the time the clock took it;
- ``resigned`` in a cooperative game or a solitaire: the table lost.

A solitaire with no move left, held open for undo (``engine.stuck``), is not closed so: it
ends as its game did (``ended`` null), lost with its score, whoever closes it.

Pure functions: the engine stores what they compute.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from cardtable.core.protocol import ordinal
from cardtable.core.words import Text, translatable
from cardtable.server.tables.live import SeatRow, person_seat

_, _n = translatable("cardtable")

#: how a table closed before its game's end, in words: the first line of its ``ending`` (as a
#: finished game's first line is its headline), and My games' verdict
ENDED_LABELS: dict[str, Text] = {
    "abandoned": _("Abandoned (counted as lost)"),
    "resigned": _("Resigned"),
    "idle": _("Closed after being idle (counted as lost)"),
    "too_long": _("Closed at the length limit of 10,000 moves (counted as lost)"),
}
#: seconds without a change (and without anyone connected) before the sweep closes a table
#: (``cardtable serve --idle-close``; docs/server.md, "Table lifecycle")
IDLE_CLOSE = 24 * 3600.0
#: tables closed for being idle by one sweep at most (the next sweep takes the rest)
IDLE_BATCH = 100


def with_resigned(
    resigned: Sequence[Mapping[str, Any]],
    seat: int,
    player_id: str,
    name: str | None,
    away: bool = False,
) -> list[dict[str, Any]]:
    """The resigned seats (``tables.resigned``) with ``seat`` given up by its person, last;
    unchanged if it is there already (a resignation is stored once). ``away``: the clock
    gave the seat to a bot; its person may still take it back (``back_from_away``)."""
    out = [dict(r) for r in resigned]
    if any(r["seat"] == seat and r["player_id"] == player_id for r in out):
        return out
    entry: dict[str, Any] = {"seat": seat, "player_id": player_id, "name": name or "player"}
    if away:
        entry["away"] = True
    return [*out, entry]


def back_from_away(
    resigned: Sequence[Mapping[str, Any]], seat: int, player_id: str
) -> list[dict[str, Any]]:
    """The resigned seats once the person the clock replaced at ``seat`` is back: rated by
    the game's result again."""
    return [
        dict(r)
        for r in resigned
        if not (r.get("away") and r["seat"] == seat and r["player_id"] == player_id)
    ]


def resigned_ranks(ranks: Sequence[int], resigned: Sequence[int]) -> list[int]:
    """Places with the ``resigned`` seats (in the order they resigned) last: the seats that
    played on keep their order among themselves, then the resigners, the first to resign
    last. ``[2, 1, 3]`` with seat 1 resigned -> ``[1, 3, 2]``."""
    playing = [s for s in range(len(ranks)) if s not in resigned]
    out = [0] * len(ranks)
    for s in playing:
        out[s] = 1 + sum(1 for t in playing if ranks[t] < ranks[s])
    for k, s in enumerate(reversed(list(dict.fromkeys(resigned)))):
        out[s] = 1 + len(playing) + k
    return out


def with_resignations(result: Mapping[str, Any], resigned: Sequence[int]) -> dict[str, Any]:
    """A competitive game's result once some seats resigned (in that order): they rank last
    and never win."""
    if not resigned:
        return dict(result)
    ranks = resigned_ranks(result["ranks"], resigned)
    return {
        **result,
        "ranks": ranks,
        "resigned": list(resigned),
        "winners": [s for s in result.get("winners", []) if s not in resigned],
    }


def closed_result(
    position: Mapping[str, Any], ended: str, cooperative: bool, resigned: Sequence[int]
) -> dict[str, Any]:
    """The stored result of a table closed before its game's end (``ended``), from the
    position so far. ``resigned``: the seats that resigned (a competitive game)."""
    result: dict[str, Any] = {**position, "over": False, "ended": ended}
    if cooperative or ended != "resigned" or not resigned:
        result.update(winners=[], won=False)
        return result
    # the seats that played on share first place: nobody else can win now
    n = len(result["ranks"])
    playing = [s for s in range(n) if s not in resigned]
    return {
        **result,
        "ranks": resigned_ranks([1] * n, resigned),
        "winners": playing,
        "resigned": list(resigned),
    }


def resigned_verdict(result: Mapping[str, Any], seat: int) -> str:
    """A competitive game's place for ``seat`` once it ended with resignations (My games and
    the table's page say the same)."""
    ranks = result["ranks"]
    return _("You came {place} of {players}.", place=ordinal(ranks[seat]), players=len(ranks))


def closed_lines(result: Mapping[str, Any], names: Sequence[str]) -> list[str]:
    """A table closed as ``resigned`` with nobody but bots left to play, in words: why, then
    every seat's place (the resigned ones last, marked). Other closes: nothing more to say
    than their ``ended``."""
    resigned = result.get("resigned") or []
    if result.get("ended") != "resigned" or not resigned or not result.get("ranks"):
        return []
    ranks = result["ranks"]
    lines: list[str] = [
        _(
            "Nobody but bots played on: the game ended there. The seats still played "
            "share first place; who resigned ranks below them (who resigned first, lowest)."
        )
    ]
    for s in sorted(range(len(ranks)), key=lambda s: (ranks[s], s)):
        if s in resigned:
            lines.append(_("#{rank} {name} (resigned)", rank=ranks[s], name=names[s]))
        else:
            # TRANSLATORS: a seat's place at the end: "#1 Ann"
            lines.append(_("#{rank} {name}", rank=ranks[s], name=names[s]))
    return lines


def rating_seats(seats: Sequence[SeatRow], resigned: Sequence[Mapping[str, Any]]) -> list[SeatRow]:
    """The seats as the ratings see them: a resigned seat is its person's, not the bot's
    that played on."""
    out = [SeatRow(**s) for s in seats]
    for r in resigned:
        out[r["seat"]] = person_seat(r["player_id"], r["name"])
    return out
