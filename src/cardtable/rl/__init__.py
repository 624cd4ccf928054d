"""Environments for learning agents (the ``rl`` extra): PettingZoo AEC and Parallel, and
Gymnasium, for every game that offers an encoding (``Game.encoding``). docs/rl.md.

```python
from cardtable.rl import make_env
env = make_env("slide", players=3)
env.reset(seed=7)
```
"""

from __future__ import annotations

try:
    from cardtable.rl.encoding import Encoding, load_encoding
    from cardtable.rl.env import (
        CardtableAEC,
        CardtableGym,
        CardtableParallel,
        make_env,
        make_gym_env,
        make_parallel_env,
    )
except ModuleNotFoundError as e:  # say which extra brings what is missing
    raise ModuleNotFoundError(
        f"cardtable.rl needs the rl extra ({e.name} is missing): pip install 'cardtable[rl]'",
        name=e.name) from e

__all__ = ["CardtableAEC", "CardtableGym", "CardtableParallel", "Encoding", "load_encoding",
           "make_env", "make_gym_env", "make_parallel_env"]
