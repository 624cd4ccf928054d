"""Fresh seeds, for the adapters that start games (server, terminal, simulations).

A seed is as secret as every card it deals: whoever knows a shared table's seed can deal it
again and read every hand. So a shared (multiplayer) deal comes from 128 bits of secret
randomness, while a solitaire keeps a short deal number people read, type and share (the
player is alone at the table: there is nobody to hide the deal from).

Bots get random seeds that say nothing about the deal: fresh ones on the server and in the
terminal, and in simulations a keyed hash of the run's bot key, the deal and the seat, so a
run repeats exactly with its key and a bot that knows its own seed learns nothing from it.
The rules modules never use this module: they get their seed from outside.
"""

from __future__ import annotations

import secrets

from cardtable.core.rng import random_words

#: bits of secret randomness a shared table's deal comes from
SECRET_BITS = 128
#: a solitaire's random deal number is below this (as PySolFC and AisleRiot number deals)
DEAL_NUMBERS = 1_000_000_000


def new_deal_seed(players: int) -> int:
    """A seed for a new deal: a short deal number for one player, 128 secret bits otherwise."""
    if players == 1:
        return secrets.randbelow(DEAL_NUMBERS)
    return secrets.randbits(SECRET_BITS)


def new_key() -> int:
    """A fresh secret key (a bot's seed, or a simulation run's bot key)."""
    return secrets.randbits(SECRET_BITS)


def bot_seed(key: int, deal_seed: int, seat: int | str) -> int:
    """The random seed of the bot at ``seat`` in the game dealt from ``deal_seed`` of a run
    keyed by ``key``: the same for the same three, and without the key unrelated to the deal."""
    return random_words(f"cardtable/bot/{key}/{deal_seed}/{seat}", 1)[0]
