"""Seeds: a shared deal is unguessable, a view never names its deal, bots' seeds say nothing
about the deal (simulations and the terminal; the server in tests/server/test_deals.py)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from cardtable import games
from cardtable.seeds import DEAL_NUMBERS, SECRET_BITS, bot_seed, new_deal_seed, new_key
from cardtable.sim import make_tasks, play_task

GAMES = [("slide", 3), ("doublets", 1), ("the-game", 1), ("the-game", 4)]


def test_a_shared_deal_has_128_secret_bits_and_a_solitaire_a_deal_number() -> None:
    shared = [new_deal_seed(players) for players in (2, 3, 6) for _ in range(20)]
    assert len(set(shared)) == len(shared)
    assert max(s.bit_length() for s in shared) > SECRET_BITS - 8  # not a 30-bit number
    assert all(0 <= new_deal_seed(1) < DEAL_NUMBERS for _ in range(50))


def test_old_seeds_deal_as_before_and_big_seeds_replay() -> None:
    # the stream is named by the seed's digits: a 64-bit seed deals what it always dealt
    golden = json.loads((Path(__file__).parent / "golden" / "slide-2p-seed7.json").read_text())
    assert games.get("slide").deal(7, 2).snapshot() == golden["deal"]
    seed = new_deal_seed(4)
    state = games.get("the-game").deal(seed, 4)
    state.playout(["greedy"] * 4, random.Random(1))
    assert games.replay(json.loads(json.dumps(state.record()))) == state


@pytest.mark.parametrize(("game", "players"), GAMES)
def test_no_view_names_its_deal(game: str, players: int) -> None:
    """The seed (which deals every hidden card again) is in no view, Doublets' included."""
    seed = new_deal_seed(2)  # 128 bits: its digits cannot appear by chance
    state = games.get(game).deal(seed, players)
    rng = random.Random(3)
    for _ in range(400):
        for seat in [*range(players), None]:
            assert str(seed) not in json.dumps(state.view(seat)), (game, seat)
        if state.over:
            break
        seat = state.to_act()[0]
        state.act(seat, rng.choice(state.legal(seat)))


def test_bot_seeds_come_from_the_runs_key_not_the_deal() -> None:
    assert bot_seed(1, 42, 0) == bot_seed(1, 42, 0)
    assert (
        len({bot_seed(1, 42, 0), bot_seed(2, 42, 0), bot_seed(1, 42, 1), bot_seed(1, 43, 0)}) == 4
    )
    assert new_key() != new_key() and new_key().bit_length() > 64


def test_simulated_bots_get_seeds_unrelated_to_the_deal(monkeypatch) -> None:
    from cardtable.bots import lifecycle

    given: list[tuple[int, int]] = []
    real = lifecycle.make_bot

    def spy(spec: str, game: str, seed: int = 0, **kwargs):
        given.append(seed)
        return real(spec, game, seed, **kwargs)

    monkeypatch.setattr(lifecycle, "make_bot", spy)
    tasks = make_tasks("slide", 2, ["greedy", "random"], 3, seed=10, fast=False)
    again = make_tasks("slide", 2, ["greedy", "random"], 3, seed=10, fast=False)
    assert tasks[0].bot_key != again[0].bot_key  # each run a fresh secret key
    given.clear()
    for task in tasks:
        play_task(task)
    first = list(given)
    assert len(first) == 6
    # not the old (deal seed * 16 + seat): a bot could have rebuilt its deal from that
    assert not any(s == t.seed * 16 + seat for t in tasks for seat, s in enumerate(first))
    assert first == [bot_seed(t.bot_key, t.seed, s) for t in tasks for s in range(2)]
    given.clear()
    for task in again:
        play_task(task)
    assert given != first  # the same deals, other keys: other bot seeds
