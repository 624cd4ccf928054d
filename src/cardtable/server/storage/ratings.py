"""Ratings (openskill, Plackett-Luce) for people and bots from finished competitive games.

Only games the game says are rated (``Game.is_rated``: two players or more against each other)
change ratings: in a cooperative game every seat shares one result and a solitaire is played
alone, so a rating there would measure the deal, not the player. The places come from the
result's ``ranks``, which every game gives. A bot is rated as one subject per bot spec
(``bot:greedy``), so people can see how they stand against each level.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Any

from openskill.models import PlackettLuce

from cardtable import games
from cardtable.server.api.names import bot_label

MODEL = PlackettLuce()


def subject(seat: Mapping[str, Any], bot_accounts: Collection[str] = ()) -> tuple[str, str, bool]:
    """(subject id, display name, is_bot) for a seat: a person or a bot account by its
    player id, a server's bot by its spec."""
    if seat["player_id"]:
        return seat["player_id"], seat["name"] or "player", seat["player_id"] in bot_accounts
    return f"bot:{seat['bot']}", bot_name(seat["bot"]), True


def bot_name(spec: str) -> str:
    """A bot's leaderboard name: one row per spec ("Search (hard) bot")."""
    return f"{bot_label(spec)} bot"


#: the rating people read: openskill's conservative mu - 3 sigma (0 for a new player) scaled
#: and moved like an Elo rating (a new player has 1500; one sigma of a new player is 200)
SCORE_BASE, SCORE_SCALE = 1500, 24


def rating_of(
    game: str,
    seats: Sequence[Mapping[str, Any]],
    result: Mapping[str, Any],
    bot_accounts: Collection[str] = (),
) -> dict[str, Any] | None:
    """What a finished game changes in the ratings: ``{"game", "subjects": [{"subject",
    "name", "is_bot", "rank"}]}``, or None if it is not rated. Plain data, computed before the
    game's last action is stored and applied in the same transaction (``store._rate``)."""
    if not games.get(game).is_rated(len(seats)):
        return None
    ranks = result["ranks"]
    # the same subject in two seats (two greedy bots) counts once, with its best rank
    best: dict[str, tuple[int, str, bool]] = {}
    for (sid, name, is_bot), rank in zip(
        (subject(s, bot_accounts) for s in seats), ranks, strict=True
    ):
        if sid not in best or rank < best[sid][0]:
            best[sid] = (rank, name, is_bot)
    if len(best) < 2:
        return None
    return {
        "game": game,
        "subjects": [
            {"subject": sid, "name": name, "is_bot": is_bot, "rank": rank}
            for sid, (rank, name, is_bot) in best.items()
        ],
    }


def new_ratings(rating: Mapping[str, Any], old: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The new rating rows (``ratings`` columns) of ``rating_of``'s subjects, from their
    current rows ``old`` (subject -> row with ``mu, sigma, games``; missing: unrated)."""
    subjects = rating["subjects"]
    teams = [
        [
            MODEL.rating(mu=old[s["subject"]].mu, sigma=old[s["subject"]].sigma)
            if s["subject"] in old
            else MODEL.rating()
        ]
        for s in subjects
    ]
    new = MODEL.rate(teams, ranks=[s["rank"] for s in subjects])
    return [
        {
            "subject": s["subject"],
            "game": rating["game"],
            "name": s["name"],
            "mu": team[0].mu,
            "sigma": team[0].sigma,
            "is_bot": s["is_bot"],
            "games": (old[s["subject"]].games if s["subject"] in old else 0) + 1,
        }
        for s, team in zip(subjects, new, strict=True)
    ]
