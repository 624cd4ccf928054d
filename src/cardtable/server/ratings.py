"""Ratings (openskill, Plackett-Luce) for people and bots from finished competitive games.

Only competitive games are rated: in The Game every seat shares one result and Doublets is
played alone, so a rating there would measure the deal, not the player. A bot is rated as one
subject per bot spec (``bot:greedy``), so people can see how they stand against each level.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from openskill.models import PlackettLuce

from cardtable import games
from cardtable.server import store as db

if TYPE_CHECKING:
    from cardtable.server.hub import LiveTable

MODEL = PlackettLuce()


def subject(seat: dict) -> tuple[str, str, bool]:
    """(subject id, display name, is_bot) for a seat."""
    if seat["player_id"]:
        return seat["player_id"], seat["name"] or "player", False
    return f"bot:{seat['bot']}", f"{seat['bot']} bot", True


def rate_table(store: db.Store, table: LiveTable) -> None:
    """Update the ratings of everyone at a table that has just finished."""
    if games.get(table.game).cooperative or table.players < 2:
        return
    result = table.state.result()
    ranks = result.get("ranks") or [1] * table.players
    subjects = [subject(s) for s in table.seats]
    # the same subject in two seats (two greedy bots) counts once, with its best rank
    best: dict[str, tuple[int, str, bool]] = {}
    for (sid, name, is_bot), rank in zip(subjects, ranks, strict=True):
        if sid not in best or rank < best[sid][0]:
            best[sid] = (rank, name, is_bot)
    if len(best) < 2:
        return
    ids = list(best)
    old = {sid: store.rating(sid, table.game) for sid in ids}
    teams = [[MODEL.rating(mu=old[s].mu, sigma=old[s].sigma) if old[s] else MODEL.rating()]
             for s in ids]
    new = MODEL.rate(teams, ranks=[best[s][0] for s in ids])
    store.save_ratings([
        db.Rating(subject=sid, game=table.game, name=best[sid][1], mu=team[0].mu,
                  sigma=team[0].sigma, games=(old[sid].games if old[sid] else 0) + 1,
                  is_bot=best[sid][2])
        for sid, team in zip(ids, new, strict=True)
    ])


def leaderboard(store: db.Store, game: str | None = None) -> list[dict]:
    """Ratings, best first by the conservative estimate mu - 3 sigma."""
    return [
        {"name": r.name, "game": r.game, "rating": round(r.mu - 3 * r.sigma, 2),
         "mu": round(r.mu, 2), "sigma": round(r.sigma, 2), "games": r.games, "bot": r.is_bot}
        for r in store.ratings(game)
    ]
