"""The review asks the game, never names it: a game from another package is reviewed as is."""

from __future__ import annotations

import random

from cardtable import games
from cardtable.review import review_record


def test_a_plugin_game_is_reviewed_with_the_generic_judge(plugin_game):
    game = games.get(plugin_game)
    assert game.review_bot is None and game.review_judge == "playout"
    state = game.deal(3, 3)
    state.playout(["random"] * 3, random.Random(3))
    review = review_record(state.record(), depth="quick")
    assert review["judge"] == "playout" and review["bot"] == game.fallback_bot
    assert review["moves"] and all(0 <= m["after"] <= m["before"] <= 100 for m in review["moves"])
    assert [s["seat"] for s in review["summary"]] == [0, 1, 2]
