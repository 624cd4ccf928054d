"""Words put into one reader's language, in Python: the terminal game and the server's pages.

A ``Reader`` renders a ``Text`` (``core/words.py``) through its domain's catalog, its
arguments first (a ``Text`` argument in the same language, a number in the language's
digits), and formats numbers and dates by the language's CLDR data (Babel). Words with no
translation read in English, never fail.
"""

from __future__ import annotations

import datetime as dt
import functools
from typing import Any

from babel import Locale
from babel.dates import format_datetime
from babel.numbers import format_decimal

from cardtable.core.words import Text, fill
from cardtable.i18n.catalogs import translations
from cardtable.i18n.languages import DEFAULT, PSEUDO, known


class Reader:
    """One language's reader (see the module)."""

    def __init__(self, lang: str = DEFAULT) -> None:
        self.lang = known(lang) or DEFAULT
        self.locale = Locale.parse("en" if self.lang == PSEUDO else self.lang)

    def __call__(self, value: Any) -> str:
        """``value`` in words: a ``Text`` translated, a number formatted, anything else as
        ``str`` gives it."""
        if isinstance(value, Text):
            return fill(self.template(value), value.args, self)
        if isinstance(value, bool):
            return str(value)
        if isinstance(value, int | float):
            return self.number(value)
        return str(value)

    def template(self, text: Text) -> str:
        """``text``'s source words in this language, placeholders still open."""
        catalog = translations(self.lang, text.domain)
        if text.plural is not None:
            return catalog.ngettext(text.msgid, text.plural, text.n or 0)
        return catalog.gettext(text.msgid)

    def gettext(self, domain: str, msgid: str) -> str:
        """A fixed message (no arguments) of ``domain`` in this language."""
        return translations(self.lang, domain).gettext(msgid)

    def ngettext(self, domain: str, singular: str, plural: str, n: int) -> str:
        """A count's words of ``domain`` in this language, placeholders still open."""
        return translations(self.lang, domain).ngettext(singular, plural, n)

    def number(self, value: float) -> str:
        # a card's number reads as printed: no grouping below 10,000
        if isinstance(value, int) and abs(value) < 10000:
            return str(value)
        return format_decimal(value, locale=self.locale)

    def date(self, moment: dt.datetime, width: str = "medium") -> str:
        return format_datetime(moment, width, locale=self.locale)


@functools.cache
def reader(lang: str) -> Reader:
    """The shared ``Reader`` of ``lang``."""
    return Reader(lang)
