"""The Game's vector environments keep each hand twice, as 0/1 over the cards and as slots
(card indexes, then PAD): the two always hold the same cards."""

from __future__ import annotations

import numpy as np
import pytest

from cardtable.rl import make_vector_env
from cardtable.rl.the_game_vector import PAD


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
