"""The leaderboard page's data (GET /api/leaderboard): the stored ratings under the names
their people have now."""

from __future__ import annotations

from typing import Any

from cardtable.server.storage import store as db
from cardtable.server.storage.ratings import SCORE_BASE, SCORE_SCALE, bot_name


def leaderboard(store: db.Storage, game: str | None = None) -> list[dict[str, Any]]:
    """Ratings, best first by the conservative estimate mu - 3 sigma, with ``score``, the
    same scaled like Elo (``SCORE_BASE``). One row per person (their player id, however many
    browsers they use: a recovery code) and per bot account, under the name they have now;
    ``bot`` marks the server's bots and the bot accounts."""
    rows = store.ratings(game)
    # people and bot accounts under the names they have now
    people = store.names([r.subject for r in rows if not r.subject.startswith("bot:")])
    return [
        {
            "name": bot_name(r.subject[4:])
            if r.is_bot and r.subject.startswith("bot:")
            else people.get(r.subject, r.name),
            "game": r.game,
            "score": round(SCORE_BASE + SCORE_SCALE * (r.mu - 3 * r.sigma)),
            "rating": round(r.mu - 3 * r.sigma, 2),
            "mu": round(r.mu, 2),
            "sigma": round(r.sigma, 2),
            "games": r.games,
            "bot": r.is_bot,
        }
        for r in rows
    ]
