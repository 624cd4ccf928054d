"""Solitaire comfort on the server: hints and per-player statistics."""

from __future__ import annotations

from typing import Any

from cardtable.server import store as db


def doublets_hint(advisor: Any, view: dict, legal: list[str]) -> dict[str, Any]:
    """The fair bot's move for this view with a one-line reason. ``advisor`` is the fair bot
    that has watched the game (it remembers every card the player has seen flipped)."""
    if not legal:
        return {"action": None, "reason": "the game is over"}
    action, reason = advisor.hint(view, legal)
    return {"action": action, "reason": reason}


def solitaire_stats(store: db.Store, player_id: str, game: str) -> dict[str, Any]:
    """Played, won, win streaks and best score of one player's finished games."""
    finished = [t for t in store.player_tables(player_id, game)
                if t.status == "over" and t.players == 1 and t.result]
    finished.sort(key=lambda t: t.finished_at)
    won = [bool(t.result.get("won")) for t in finished]
    best_streak = streak = 0
    for w in won:
        streak = streak + 1 if w else 0
        best_streak = max(best_streak, streak)
    return {
        "game": game,
        "played": len(finished),
        "won": sum(won),
        "current_streak": streak,
        "best_streak": best_streak,
        "best_score": max((t.result["scores"][0] for t in finished), default=None),
    }
