"""Fixtures for every test folder."""

from __future__ import annotations

import pytest

from helpers import GAME_SEATS


@pytest.fixture(params=GAME_SEATS, ids=[f"{g}-{n}" for g, n in GAME_SEATS])
def game_seats(request: pytest.FixtureRequest) -> tuple[str, int]:
    """Every game with every player count it allows."""
    return request.param
