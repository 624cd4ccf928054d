"""The deal of a shared table cannot be known: no chosen seeds, 128 secret bits, bots seeded
apart from the deal; a solitaire keeps its deal number (issue #9)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from cardtable.server.storage import store as db
from cardtable.server.tables import botrunner
from cardtable.server.tables.hub import Hub


async def test_a_chosen_seed_is_refused_for_a_shared_table(people):
    ann = people("Ann")
    for seats in (["me", "open"], ["me", "greedy"], ["greedy", "greedy", "me"]):
        for game in ("slide", "the-game"):
            answer = ann.http.post("/api/tables", json={"game": game, "seats": seats, "seed": 7})
            assert answer.status_code == 400, answer.text
            assert answer.json()["error"] == "seed_not_allowed"
    # alone, a deal number is a feature: Doublets and The Game
    for game in ("doublets", "the-game"):
        table = ann.post("/api/tables", {"game": game, "seats": ["me"], "seed": 7})
        assert table["seed"] == "7"


async def test_shared_deals_have_128_bits_and_stay_secret_until_the_end(people):
    ann, bob = people("Ann"), people("Bob")
    table = ann.new_table("slide", ["me", "open"])
    assert table["seed"] is None
    bob.post(f"/api/tables/{table['id']}/join", {})
    assert ann.http.get(f"/api/tables/{table['id']}").json()["seed"] is None
    assert ann.http.get(f"/api/tables/{table['id']}/record").status_code == 403


async def test_the_hub_deals_128_bits_and_seeds_bots_apart_from_the_deal(
    tmp_path: Path, monkeypatch
):
    seeds: list[int] = []
    real = botrunner.make_bot

    def spy(spec: str, game: str, seed: int = 0, **kwargs):
        seeds.append(seed)
        return real(spec, game, seed, **kwargs)

    monkeypatch.setattr(botrunner, "make_bot", spy)
    store = db.Store(f"sqlite:///{tmp_path / 'hub.sqlite'}")
    hub = Hub(store, bot_delay=3600)
    hub.loop = asyncio.get_running_loop()
    try:
        player, _ = store.new_player("Ann")
        deals = [
            hub.create(player, "the-game", ["me", "greedy", "greedy"], {}).seed for _ in range(12)
        ]
        assert len(set(deals)) == 12 and max(d.bit_length() for d in deals) > 120
        assert (
            store.table(hub.create(player, "slide", ["me", "greedy"], {}).id).seed.bit_length() > 64
        )  # stored whole, beyond a 64-bit column
        solo = hub.create(player, "doublets", ["me"], {})
        assert solo.seed < 10**9 and solo.info()["seed"] == str(solo.seed)
        seeds.clear()
        a = hub.create(player, "slide", ["me", "greedy", "greedy"], {}, seed=5)
        hub.create(player, "slide", ["me", "greedy", "greedy"], {}, seed=5)
        assert a.info()["seed"] is None
        made = [s for s in seeds if s]  # (seed 0: create checking that the spec is a bot)
        assert len(made) == 4 and len(set(made)) == 4  # the same deal, unrelated bot seeds
        assert not set(made) & {5 * 16 + 1, 5 * 16 + 2}
    finally:
        await hub.close()
        store.close()
