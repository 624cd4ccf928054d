"""Each game's view and result match their TypedDicts (and so the JSON Schemas in
docs/schemas/, which are built from them and kept current here)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from pydantic import TypeAdapter

from cardtable import games
from cardtable.core.schema import game_schemas
from helpers import GAME_SEATS, random_game

SCHEMAS = Path(__file__).parents[2] / "docs" / "schemas"


def keys_of(kind: type) -> tuple[frozenset[str], frozenset[str]]:
    return kind.__required_keys__, kind.__required_keys__ | kind.__optional_keys__


@pytest.mark.parametrize(("name", "players"), GAME_SEATS)
def test_views_and_results_match_their_types(name, players):
    game = games.get(name)
    views, results = TypeAdapter(game.view_type), TypeAdapter(game.result_type)
    required, every = keys_of(game.view_type)
    r_required, r_every = keys_of(game.result_type)
    for step, (state, _seat, _action) in enumerate(
        random_game(name, players, 11, random.Random(players))
    ):
        if step % 5:
            continue
        for seat in [None, *range(players)]:
            view = json.loads(json.dumps(state.view(seat)))
            assert required <= set(view) <= every, set(view) ^ every
            views.validate_python(view, strict=True)
        result = json.loads(json.dumps(state.result()))
        assert r_required <= set(result) <= r_every
        results.validate_python(result, strict=True)


@pytest.mark.parametrize("name", games.names())
def test_the_published_schemas_are_current(name):
    """docs/schemas/ is what ``cardtable schemas docs/schemas`` writes."""
    for part, schema in game_schemas(games.get(name)).items():
        published = json.loads((SCHEMAS / f"{name}.{part}.json").read_text())
        assert published == schema, f"run: cardtable schemas docs/schemas ({name})"
