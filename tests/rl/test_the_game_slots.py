"""The Game's vector environments keep each hand twice, as 0/1 over the cards and as slots
(card indexes, then PAD): the two always hold the same cards."""

from __future__ import annotations

from helpers import need_rl, random_tops

need_rl()

import numpy as np  # noqa: E402
import pytest  # noqa: E402

from cardtable.games.the_game import can_play_run  # noqa: E402
from cardtable.rl import make_vector_env  # noqa: E402
from cardtable.rl.the_game_seats_vector import TheGameSeatsVectorEnv  # noqa: E402
from cardtable.rl.the_game_vector import PAD, TheGameVectorEnv, key_order, slot_can_run  # noqa: E402


@pytest.mark.parametrize("players", [1, 2, 5])
def test_slots_hold_the_hand(players: int) -> None:
    env = make_vector_env("the-game", 16, players)
    _, infos = env.reset(seed=11)
    rng = np.random.default_rng(11)
    hand = env.hand.reshape(16, -1, env.hand.shape[-1])
    for _ in range(300):
        mask = infos["action_mask"]
        _, _, _, _, infos = env.step((rng.random(mask.shape) * mask).argmax(axis=1))
        hand = env.hand.reshape(16, -1, env.hand.shape[-1])
        slots = env.slots.reshape(16, hand.shape[1], -1)
        for i in range(16):
            for s in range(hand.shape[1]):
                held = slots[i, s][slots[i, s] != PAD]
                assert sorted(held.tolist()) == np.flatnonzero(hand[i, s]).tolist()
                assert (slots[i, s][len(held) :] == PAD).all()


def test_slot_can_run_is_the_rules_can_play_run() -> None:
    """``slot_can_run`` (hands as slots) against the rules' own search, on random hands
    (slots in random order), tops and counts, most of them short of fitting cards."""
    rng = np.random.default_rng(4)
    m, width = 4000, 8
    slots = np.full((m, width), PAD, dtype=np.int64)
    for i in range(m):
        cards = rng.choice(98, rng.integers(1, width + 1), replace=False)
        slots[i, : len(cards)] = cards
    tops = random_tops(rng, m)
    count = rng.integers(0, 4, m)
    want = [
        can_play_run(sorted((s[s != PAD] + 2).tolist()), tops[i].tolist(), int(count[i]))
        for i, s in enumerate(slots)
    ]
    assert slot_can_run(slots, tops, count).tolist() == want
    assert 0.2 < np.mean(want) < 0.95  # both answers well represented


def test_key_order_is_the_stable_argsort() -> None:
    """``key_order`` (a sort of keys carrying their index in their low bits) against the
    stable argsort, on random keys and on keys made to tie, wholly or in all but the low
    bits (the rows it hands to the stable argsort)."""
    rng = np.random.default_rng(6)
    words = rng.integers(0, 2**64, (200, 98), dtype=np.uint64)
    words[1, 5] = words[1, 60]  # a whole tie
    words[2, 7] = words[2, 3] ^ np.uint64(1)  # equal but for the low bits, either order
    words[3, 9] = words[3, 40] | np.uint64(127)
    words[4, :] = words[4, 0] & ~np.uint64(127)  # all tie in their high bits
    words[4, ::2] |= np.uint64(5)
    assert np.array_equal(key_order(words), np.argsort(words, axis=1, kind="stable"))


def test_seats_hand_set_remakes_the_slots() -> None:
    """The seats environment keeps its hands as slots only: ``hand`` is worked out from
    them, and setting it (as a test may, to redeal) remakes the slots, sizes and counts the
    mask and the observation read: they stay the same for the same hands."""
    env = make_vector_env("the-game", 8, 3)
    _, infos = env.reset(seed=12)
    rng = np.random.default_rng(12)
    for _ in range(60):
        mask = infos["action_mask"]
        _, _, _, _, infos = env.step((rng.random(mask.shape) * mask).argmax(axis=1))
    seat = infos["seat"]
    hand, held = env.hand, env.held.copy()
    before = env._legal(seat), env._observe(seat)
    env.hand = hand[:, ::-1][:, ::-1]  # (the same hands, a new array)
    assert np.array_equal(env.hand, hand) and np.array_equal(env.held, held)
    after = env._legal(seat), env._observe(seat)
    assert np.array_equal(before[0], after[0]) and np.array_equal(before[1], after[1])
    with pytest.raises(ValueError):
        env.hand = np.ones_like(hand)


def test_a_hand_read_from_the_slots_refuses_a_write():
    """``hand`` is worked out from the slots each time: a write into it would change
    nothing, so it fails (the seats env takes new hands whole, by assignment)."""
    for env in (TheGameVectorEnv(2, 1), TheGameSeatsVectorEnv(2, players=3)):
        env.reset(seed=1)
        with pytest.raises(ValueError, match="read-only"):
            env.hand[0, ..., 0] = True
