"""The online adapter: a FastAPI server, SQL storage and the browser client.

Its parts, each a package that imports only those below it (``tests/test_imports.py`` holds
the arrows; docs/architecture.md draws them):

- ``api``: the server's language: every message's model and the limits a client is held to.
  Imports nothing of the server.
- ``storage``: the database: players, tables, seats and the action log (SQLAlchemy, Alembic
  migrations), and the ratings. Imports ``api``.
- ``tables``: the live tables of one process: the hub (the one door to a table), the engine
  (its rules of change), the bots that play, the broadcaster, the game log, clocks, chat and
  how tables end. Imports ``api`` and ``storage``.
- ``cluster``: several processes on one database: the Redis bus (leases, failover) and the
  tunnel that forwards a table's requests to its holder. Imports ``api`` and ``storage``.
- ``web``: the HTTP and websocket edge: the app and its routes, security, the settings,
  and the reads the pages ask for (lobby, My games, replays). Imports everything below.
- ``static/``: the browser client, plain ES modules (one per game in ``static/games/``).
"""
