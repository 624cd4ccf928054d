"""A review in words: the lines the terminal prints and shows beside a replay.

Each function gives a ``Text`` (``core/words.py``) that a reader puts into its language; the
numbers stay numbers, so each language writes them its own way. Actions read as the game's
move buttons label them (``Game.move_label``: the notation of RULES.md with the card it
plays), where the review has the labels.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cardtable.core.protocol import listing
from cardtable.core.words import Arg, Text, translatable, unwire

_, _n = translatable("cardtable")


def mark_name(mark: str) -> Text:
    """The name of a mark: lichess's words, which players of these games know from chess."""
    if mark == "blunder":
        # TRANSLATORS: a game review's worst mark (as in chess: "??")
        return _("blunder")
    if mark == "mistake":
        # TRANSLATORS: a game review's middle mark (as in chess: "?")
        return _("mistake")
    # TRANSLATORS: a game review's mildest mark (as in chess: "?!")
    return _("inaccuracy")


def chance(value: float) -> Text:
    """A winning chance in points: "42 %"."""
    # TRANSLATORS: a chance of winning, in per cent ("42 %"; the space as your language writes it)
    return _("{n} %", n=round(value))


def summary_line(entry: Mapping[str, Any], who: Arg) -> Text:
    """One seat's line: "Ann: accuracy 88 %, 1 blunder, 2 inaccuracies (31 decisions)"."""
    counts: list[Arg] = []
    if entry["blunder"]:
        counts.append(_n("{n} blunder", "{n} blunders", entry["blunder"], n=entry["blunder"]))
    if entry["mistake"]:
        counts.append(_n("{n} mistake", "{n} mistakes", entry["mistake"], n=entry["mistake"]))
    if entry["inaccuracy"]:
        n = entry["inaccuracy"]
        counts.append(_n("{n} inaccuracy", "{n} inaccuracies", n, n=n))
    decisions = entry["decisions"]
    if entry["accuracy"] is None:
        return _("{who}: no decision to review", who=who)
    if not counts:
        return _n(
            "{who}: accuracy {accuracy}, no mark ({n} decision)",
            "{who}: accuracy {accuracy}, no mark ({n} decisions)",
            decisions,
            who=who,
            accuracy=chance(entry["accuracy"]),
            n=decisions,
        )
    return _n(
        "{who}: accuracy {accuracy}, {marks} ({n} decision)",
        "{who}: accuracy {accuracy}, {marks} ({n} decisions)",
        decisions,
        who=who,
        accuracy=chance(entry["accuracy"]),
        marks=listing(counts),
        n=decisions,
    )


def label(move: Mapping[str, Any], which: str) -> Arg:
    """A move of a review's decision or verdict (``played``, ``best``, ``alternative``) as
    its button reads."""
    labels = move.get("labels") or {}
    return unwire(labels[which]) if labels.get(which) else move[which]


def move_line(move: Mapping[str, Any], who: Arg) -> Text:
    """One decision: "Move 23, Ann: play r3 · 8♥ (62 % → 31 %), blunder; better: flip"."""
    args = {
        "number": move["step"] + 1,
        "who": who,
        "played": label(move, "played"),
        "before": chance(move["before"]),
        "after": chance(move["after"]),
    }
    if move["mark"] is None:
        if args["before"] == args["after"]:
            return _("Move {number}, {who}: {played} ({before})", **args)
        return _("Move {number}, {who}: {played} ({before} → {after})", **args)
    return _(
        "Move {number}, {who}: {played} ({before} → {after}), {mark}; better: {best}",
        mark=mark_name(move["mark"]),
        best=label(move, "best"),
        **args,
    )


def verdict_line(verdict: Mapping[str, Any], names: list[Arg]) -> Text:
    """The peeking verdict, labelled as such, with why the deal was lost where it says."""
    line = _verdict_sentence(verdict, names)
    if verdict.get("reason"):
        # TRANSLATORS: the verdict of a review, then why the move it names lost the deal
        return _("{verdict} Why: {reason}.", verdict=line, reason=unwire(verdict["reason"]))
    return line


def _verdict_sentence(verdict: Mapping[str, Any], names: list[Arg]) -> Text:
    status = verdict["status"]
    if status == "won":
        return _("With every card known: the deal was won.")
    if status == "never":
        return _("With every card known: the deal could not be won from the start.")
    if status == "undecided":
        return _("With every card known: the solver could not decide the deal in its budget.")
    args = {
        "number": verdict["step"] + 1,
        "who": names[verdict["seat"]],
        "played": label(verdict, "played"),
    }
    if verdict.get("alternative"):
        return _(
            "With every card known: the deal was winnable until move {number} ({who}: "
            "{played}); {alternative} would have kept it winnable.",
            alternative=label(verdict, "alternative"),
            **args,
        )
    return _(
        "With every card known: the deal was winnable until move {number} ({who}: {played}).",
        **args,
    )
