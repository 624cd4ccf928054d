"""The languages cardtable speaks, and which of them a terminal asks for.

``LANGUAGES`` are the codes of the written languages (English first, the fallback). A
terminal's choice comes from the environment as gettext reads it (``LANGUAGE``, ``LC_ALL``,
``LC_MESSAGES``, ``LANG``: the first one set decides), so ``LANG=cs_CZ.UTF-8`` gives Czech.
Norwegian in any spelling (``no``, ``nb``, ``nn``) gives Bokmål, the one Norwegian written here.
"""

from __future__ import annotations

import os
from collections.abc import Mapping

#: English, Czech, Slovak, German, Norwegian Bokmål; English is the fallback
LANGUAGES = ("en", "cs", "sk", "de", "nb")
FALLBACK = "en"

#: a locale's language that stands for one of ours
_ALIASES = {"no": "nb", "nn": "nb"}


def from_locale(name: str) -> str | None:
    """Our language for a locale name (``cs_CZ.UTF-8``, ``de-AT``, ``nb_NO@x``, ``nn``), or
    None when it is none of ours (``C``, ``fr_FR``, ``""``)."""
    language = name.split(".")[0].split("@")[0].replace("-", "_").split("_")[0].lower()
    language = _ALIASES.get(language, language)
    return language if language in LANGUAGES else None


def terminal_language(environ: Mapping[str, str] | None = None) -> str:
    """The language a terminal asks for through its locale variables, else English."""
    env = os.environ if environ is None else environ
    for variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(variable, "")
        if not value:
            continue
        # LANGUAGE is a list in order of preference ("nb:no:en"); "C" means no translation
        for name in value.split(":"):
            if name in ("C", "POSIX") or name.startswith("C."):
                return FALLBACK
            found = from_locale(name)
            if found:
                return found
        return FALLBACK
    return FALLBACK
