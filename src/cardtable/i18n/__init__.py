"""Every reader in their own language: the languages, their catalogs, the words put into them.

The core and the games mark their words as ``Text`` (``core/words.py``) and never translate;
this package is where a language meets them, for the adapters above (the terminal, the
server's pages and catalogs for the browser):

- ``languages``: the five languages (and the tests' pseudo-language), and how a reader's is
  chosen (a saved choice, a cookie, ``Accept-Language``, a terminal's ``LANG``);
- ``catalogs``: the gettext catalogs, per domain and language, and the browser's JSON;
- ``reader``: a ``Reader`` puts a ``Text``, a number or a date into one language;
- ``tool``: extract, update, compile and check the catalogs (``python -m cardtable.i18n``).

It may import the core and the games (to find a game's catalog), nothing above them.
"""
