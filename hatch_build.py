"""The build's one extra step: compile each language's catalogs (``.po`` to ``.mo``), so an
installed cardtable reads compiled catalogs (``cardtable.i18n.catalogs``). Hatchling runs it
for a wheel and for an editable install alike."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface


class CompileCatalogs(BuildHookInterface):  # type: ignore[type-arg]
    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        from babel.messages.mofile import write_mo
        from babel.messages.pofile import read_po

        for po in sorted(Path(self.root, "src", "cardtable", "locale").rglob("*.po")):
            lang = po.parent.parent.name
            with po.open("rb") as f:
                catalog = read_po(f, locale=lang)
            with po.with_suffix(".mo").open("wb") as f:
                write_mo(f, catalog)
        # compiled files are not in git (.gitignore): name them so the wheel carries them
        build_data["artifacts"].append("src/cardtable/locale/**/*.mo")
