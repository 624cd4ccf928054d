"""Vector environments: N games of one game stepped at once on arrays (Gymnasium's vector API).

A game offers one as a companion (``Game.vector_env``, entry-point group
``cardtable.vector_envs``): a ``gymnasium.vector.VectorEnv`` class (or a function picking one
by the player count) built as ``(num_envs, players, options, **keywords)`` that plays the same
games as ``num_envs`` ``CardtableGym`` (one player), or as ``num_envs`` all-learner
``CardtableAEC`` stepped in order (several seats: self-play, ``cardtable.rl.seats_vector``),
for the same seeds and actions. Nothing here names a game (docs/rl.md, "Vector
environment").
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np
from gymnasium.utils import seeding
from gymnasium.vector import VectorEnv

from cardtable import games
from cardtable.core.protocol import Game
from cardtable.core.rng import deal_key


def make_vector_env(
    game: str | Game,
    num_envs: int,
    players: int | None = None,
    options: Mapping[str, Any] | None = None,
    **kwargs: Any,
) -> VectorEnv:
    """``num_envs`` games of ``game`` in the vector environment it offers (``max_steps``,
    ``illegal_reward`` and the like as keywords, as the single environments take them);
    ``ValueError`` for a game without one."""
    rules = games.get(game) if isinstance(game, str) else game
    build = rules.vector_env
    if build is None:
        raise ValueError(f"{rules.title} offers no vector environment")
    env: VectorEnv = build(num_envs, players, options, **kwargs)
    return env


def reset_seeds(seed: int | Sequence[int | None] | None, n: int) -> list[int | None]:
    """The seed of each of ``n`` games for ``reset(seed=...)``: ``seed + i`` for game ``i``
    (Gymnasium's convention for vector seeds), a list of one seed per game as it is, or None
    for each (each game draws its own)."""
    if seed is None or isinstance(seed, int):
        return [None if seed is None else seed + i for i in range(n)]
    seeds = list(seed)
    if len(seeds) != n:
        raise ValueError(f"give one seed per game ({n}), not {len(seeds)}")
    return seeds


#: seeds drawn for a reset without one, as ``cardtable.rl.env`` draws them
SEED_SPAN = 2**63
#: seeds drawn at once from a game's generator
AHEAD = 64


def next_seeds(
    rows: np.ndarray | list[int],
    gens: list[np.random.Generator | None],
    ahead: list[list[int]],
    seeds: list[int] | None = None,
) -> list[int]:
    """The next seed of the generator of each game of ``rows`` (a game dealt again without a
    seed), also written to ``seeds`` if given; a game without a generator gets a fresh one.
    Drawn ``AHEAD`` at a time into ``ahead`` (next last): a generator gives the same 64-bit
    numbers in one call of ``integers(span, size=k)`` as in k calls. One plain loop over the
    rows (a step deals a few dozen games: a method call each cost more than the rest)."""
    out = []
    for i in rows.tolist() if isinstance(rows, np.ndarray) else rows:
        left = ahead[i]
        if not left:
            gen = gens[i]
            if gen is None:
                gen = gens[i] = np.random.default_rng()
            left += gen.integers(SEED_SPAN, size=AHEAD).tolist()[::-1]
        seed = left.pop()
        if seeds is not None:
            seeds[i] = seed
        out.append(seed)
    return out


def deal_seeds(
    rows: list[int],
    seeds: Sequence[int | None],
    gens: list[np.random.Generator | None],
    ahead: list[list[int]],
    out: list[int] | None = None,
    reseed: Callable[[int], np.random.Generator] = np.random.default_rng,
) -> list[int]:
    """The deal seed of each game of ``rows``: a given seed is dealt and re-seeds the game's
    generator with ``reseed`` (as the single environment's ``reset(seed)`` does: its
    refusal of a bad seed too), None deals the next draw of it (``next_seeds``); each also
    written to ``out`` if given."""
    dealt = []
    for i, s in zip(rows, seeds, strict=True):
        if s is None:
            s = next_seeds([i], gens, ahead, out)[0]
        else:
            gens[i], ahead[i] = reseed(s), []
            if out is not None:
                out[i] = s
        dealt.append(s)
    return dealt


def deal_prefix(game: str) -> str:
    """``deal_key(game, seed)`` is this prefix and ``str(seed)`` (built once, not per deal)."""
    key = deal_key(game, 0)
    if not key.endswith("/0"):
        raise AssertionError(f"deal_key no longer ends with the seed: {key!r}")
    return key[:-1]


def gym_generator(seed: int) -> np.random.Generator:
    """The generator ``gymnasium.Env.reset(seed)`` makes (the same numbers as
    ``np.random.default_rng(seed)``; a bad seed refused with gymnasium's error)."""
    return seeding.np_random(seed)[0]
