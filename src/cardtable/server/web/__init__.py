"""The HTTP and websocket edge: ``app`` (the routes and the socket loop), ``security`` (which
pages may talk to the server, headers, private files), ``settings`` (the one configuration),
``pages`` (rules pages, not-found), and the reads the pages ask for without loading tables
(``lobby``, ``mygames``, ``replays``, ``leaderboard``). Imports every part below it.
"""
