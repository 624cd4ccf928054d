"""Fixtures for every test folder."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from helpers import GAME_SEATS


@pytest.fixture(params=GAME_SEATS, ids=[f"{g}-{n}" for g, n in GAME_SEATS])
def game_seats(request: pytest.FixtureRequest) -> tuple[str, int]:
    """Every game with every player count it allows."""
    return request.param


#: a folder holding an installed distribution (its dist-info) that adds the game "fifteen"
#: through the ``cardtable.games`` entry point, as a third-party package would
PLUGIN_SITE = Path(__file__).parent / "plugins" / "site"


@pytest.fixture
def plugin_game(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """The fourth game, installed for this test (and the processes it starts, through
    ``PYTHONPATH``); its name."""
    from cardtable import games

    monkeypatch.syspath_prepend(str(PLUGIN_SITE))
    path = os.environ.get("PYTHONPATH")
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [str(PLUGIN_SITE), path])))
    games.refresh()
    yield "fifteen"
    monkeypatch.undo()
    games.refresh()
