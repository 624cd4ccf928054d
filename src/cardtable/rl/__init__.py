"""Environments for learning agents (the ``rl`` extra): PettingZoo AEC and Parallel, and
Gymnasium, for every game that offers an encoding (``Game.encoding``). docs/rl.md.

```python
from cardtable.rl import make_env
env = make_env("slide", players=3)
env.reset(seed=7)
```

Names are imported on first use, so a program that needs only the encodings
(``cardtable.rl.encoding``, numpy alone) does not load PettingZoo and Gymnasium.
"""

from __future__ import annotations

import importlib
from typing import Any

#: name -> the module that defines it
_WHERE = {
    "Encoding": "cardtable.rl.encoding",
    "load_encoding": "cardtable.rl.encoding",
    "CardtableAEC": "cardtable.rl.env",
    "CardtableGym": "cardtable.rl.env",
    "CardtableParallel": "cardtable.rl.env",
    "make_env": "cardtable.rl.env",
    "make_gym_env": "cardtable.rl.env",
    "make_parallel_env": "cardtable.rl.env",
    "make_vector_env": "cardtable.rl.env",
    "register": "cardtable.rl.env",
}

__all__ = sorted(_WHERE)


def __getattr__(name: str) -> Any:
    if name not in _WHERE:
        raise AttributeError(f"module 'cardtable.rl' has no attribute {name!r}")
    try:
        module = importlib.import_module(_WHERE[name])
    except ModuleNotFoundError as e:  # say which extra brings what is missing
        if e.name is None or e.name.startswith("cardtable"):
            raise
        raise ModuleNotFoundError(
            f"cardtable.rl needs the rl extra ({e.name} is missing): pip install 'cardtable[rl]'",
            name=e.name,
        ) from e
    return getattr(module, name)
