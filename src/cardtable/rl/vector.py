"""Vector environments: N games of one game stepped at once on arrays (Gymnasium's vector API).

A game offers one as a companion (``Game.vector_env``, entry-point group
``cardtable.vector_envs``): a ``gymnasium.vector.VectorEnv`` class built as
``(num_envs, players, options, **keywords)`` that plays the same games as ``num_envs``
``CardtableGym`` for the same seeds and actions. Nothing here names a game (docs/rl.md,
"Vector environment").
"""

from __future__ import annotations

from collections.abc import Mapping
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
    ``illegal_reward`` as keywords, as ``CardtableGym`` takes them); ``ValueError`` for a game
    without one."""
    rules = games.get(game) if isinstance(game, str) else game
    cls = rules.vector_env
    if cls is None:
        raise ValueError(f"{rules.title} offers no vector environment")
    env: VectorEnv = cls(num_envs, players, options, **kwargs)
    return env
