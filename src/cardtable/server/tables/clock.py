"""Clocks: real-time (a time per move, or per game) and turn-based tables.

A table's clock is a plain dict stored with the table (``tables.clock``, JSON) so that it
survives a restart: ``{"mode", "seconds", "deadlines", "banks", "away"}``, the last three per
seat. A person's time runs only while their seat is in ``to_act`` (a seat that has made its
choice in a simultaneous round waits like everyone else); bots have no clock. Deadlines are
wall-clock times (seconds since the epoch), the same on every client, and the server is the
only judge of them (docs/server.md, "Clocks").

Nothing here knows of sockets or of the store: the engine computes each change's new clock
with ``advance`` and stores it with the change; the hub arms a timer at ``next_deadline``
(``storage.store``: the store keeps the first deadline to find the tables that are due).
"""

from __future__ import annotations

import copy
from collections.abc import Iterable
from typing import Any

from cardtable.core.words import translatable
from cardtable.server.api.messages import HubError

_, _n = translatable("cardtable")

#: "move": every move within ``seconds``; "game": ``seconds`` in all for each player's moves
#: (what a move does not use is kept); "turn": turn-based, a move within ``seconds`` (hours
#: or days), nobody needs to be connected
MODES = ("move", "game", "turn")
#: the seconds each mode allows (the least can be lowered by ``cardtable serve --min-clock``)
LIMITS = {"move": (30, 600), "game": (300, 3600), "turn": (3600, 7 * 86400)}
DEFAULTS = {"move": 120, "game": 900, "turn": 86400}
#: seconds after a deadline that an action is still taken (it was on its way) and before the
#: seat goes to the fallback bot
LAG = 1.0
#: seconds a player gets when they take their seat back after running out of time on a
#: per-game clock (their own time is gone; a move's worth lets them play on)
RETURN_TIME = 60.0


def real_time(clock: dict[str, Any] | None) -> bool:
    return bool(clock) and clock["mode"] in ("move", "game")  # type: ignore[index]


def check_clock(
    choice: dict[str, Any] | None, players: int, min_clock: float | None = None
) -> dict[str, Any] | None:
    """The new table's clock from the creator's choice (``{"mode", "seconds"}``; None or
    mode "none": no clock). ``HubError`` ``bad_clock`` for a choice out of the limits."""
    if choice is None or choice.get("mode") in (None, "none"):
        return None
    mode = choice.get("mode")
    if mode not in MODES:
        raise HubError(
            "bad_clock", f"the clock is one of none, {', '.join(MODES)}; not {str(mode)[:20]!r}"
        )
    if players < 2:
        raise HubError("bad_clock", _("a game played alone has no clock"))
    seconds = choice.get("seconds")
    if seconds is None:
        seconds = DEFAULTS[mode]
    if isinstance(seconds, bool) or not isinstance(seconds, int):
        raise HubError("bad_clock", _("the clock's seconds are a whole number"))
    low, high = LIMITS[mode]
    if min_clock is not None:
        low = min(low, int(min_clock))
    if not low <= seconds <= high:
        raise HubError(
            "bad_clock",
            f"a {mode} clock gives {describe(low)} to {describe(high)}, not {describe(seconds)}",
        )
    return {
        "mode": mode,
        "seconds": seconds,
        "deadlines": [None] * players,
        "banks": [float(seconds)] * players if mode == "game" else None,
        "away": [None] * players,
    }


def describe(seconds: float) -> str:
    """``90 s``, ``10 min``, ``3 h``, ``7 days``: a time as the form shows it."""
    s = int(seconds)
    if s >= 86400 and s % 86400 == 0:
        return "1 day" if s == 86400 else f"{s // 86400} days"
    if s >= 3600 and s % 3600 == 0:
        return f"{s // 3600} h"
    if s >= 60 and s % 60 == 0:
        return f"{s // 60} min"
    return f"{s} s"


def advance(
    clock: dict[str, Any], running: Iterable[int], now: float, acted: int | None = None
) -> dict[str, Any]:
    """The clock after a change: ``running`` are the person seats whose time now runs (in
    ``to_act``), ``acted`` the seat that just made a move (not talk), if any.

    A seat whose time stops keeps what it had left (per-game clocks); a seat whose time
    starts gets a deadline; a seat that moved and must move again (move or turn clocks)
    starts afresh."""
    new = copy.deepcopy(clock)
    running = set(running)
    deadlines, banks = new["deadlines"], new["banks"]
    for seat, deadline in enumerate(deadlines):
        if deadline is None:
            continue
        if seat not in running or seat == acted:
            if banks is not None:
                banks[seat] = max(0.0, round(deadline - now, 3))
            deadlines[seat] = None
    for seat in running:
        if deadlines[seat] is None:
            left = banks[seat] if banks is not None else float(new["seconds"])
            deadlines[seat] = round(now + left, 3)
    return new


def public(clock: dict[str, Any] | None, now: float) -> dict[str, Any] | None:
    """What every client sees of a clock (``ClockInfo``): no player ids."""
    if not clock:
        return None
    banks = clock["banks"]
    return {
        "mode": clock["mode"],
        "seconds": clock["seconds"],
        "now": round(now, 3),
        "seats": [
            {"deadline": d, "left": None if d is not None or banks is None else banks[i]}
            for i, d in enumerate(clock["deadlines"])
        ],
    }
