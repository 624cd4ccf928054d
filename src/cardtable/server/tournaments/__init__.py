"""Tournaments on the server: the runner that plays them by itself (``runner``: starts each
at its time, pairs its rounds with ``cardtable.tournaments``, creates their tables through the
hub, records each game's places, ends it) and what its page and the API show of one
(``info``: settings, entrants, rounds and standings, each viewer's next table).

Above the live tables and the storage (it imports ``tables``, ``storage``, ``api``), below the
web edge that serves it. With several processes one runner at a time runs a tournament: it
holds the tournament's lease on the bus, as a table's holder does; a killed runner's
tournament is taken at the next tick by another (``runner``).
"""
