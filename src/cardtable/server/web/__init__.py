"""The HTTP and websocket edge: ``app`` (``create_app``: the routers of
``routes`` put together), ``socket`` (the table's websocket loop), ``deps`` (who is asking),
``language`` (the reader's language), ``security`` (which
pages may talk to the server, headers, private files), ``settings`` (the one configuration),
``pages`` (rules pages, not-found), and the reads the pages ask for without loading tables
(``lobby``, ``mygames``, ``replays``, ``leaderboard``). Imports every part below it.
"""
