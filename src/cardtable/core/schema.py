"""JSON Schemas of each game's view and result, for browser code and external bots.

The schemas are built from the games' TypedDicts (``Game.view_type``, ``Game.result_type``)
with pydantic, which comes with the server (``pip install 'cardtable[server]'``); the rules
core itself needs nothing. ``cardtable schemas FOLDER`` writes ``<game>.view.json`` and
``<game>.result.json`` there (``docs/schemas/`` holds them for the built-in games; a test keeps
them current).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from cardtable.core.protocol import Game


def json_schema(kind: type) -> dict[str, Any]:
    """The JSON Schema of a TypedDict (a view or a result type)."""
    from pydantic import TypeAdapter  # imported here: only this needs pydantic

    return TypeAdapter(kind).json_schema()


def game_schemas(game: Game) -> dict[str, dict[str, Any]]:
    """``{"view": schema, "result": schema}`` for ``game``."""
    return {"view": json_schema(game.view_type), "result": json_schema(game.result_type)}


def write(folder: Path, chosen: Iterable[Game]) -> list[Path]:
    """Write the schemas of the ``chosen`` games into ``folder``; the files written."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for game in chosen:
        for part, schema in game_schemas(game).items():
            path = folder / f"{game.name}.{part}.json"
            path.write_text(json.dumps(schema, indent=1, sort_keys=True) + "\n")
            written.append(path)
    return written
