"""The terminal adapter (Textual): play and replay."""

from __future__ import annotations

from pathlib import Path
from typing import Any


def run_play(game: str, seats: list[str], seed: int, options: dict[str, Any]) -> Path | None:
    raise NotImplementedError


def run_replay(record: dict[str, Any]) -> None:
    raise NotImplementedError
