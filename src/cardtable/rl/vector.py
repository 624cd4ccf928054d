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

from collections.abc import Mapping, Sequence
from typing import Any

from gymnasium.vector import VectorEnv

from cardtable import games
from cardtable.core.protocol import Game


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
