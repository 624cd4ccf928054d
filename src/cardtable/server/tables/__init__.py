"""The live tables of one server process. ``hub`` is the one door to a table: every change
runs under the table's lock through the ``engine`` (its rules of change, written to the store
first), then goes out through the ``broadcaster`` (``broadcast``, one ``conn`` per socket) in
each viewer's ``gamelog`` words; ``botrunner`` and ``botpool`` play the bot seats, ``clock``
keeps time, ``chat`` the talk, ``lifecycle`` how tables end, ``advice`` the hints, ``reviews``
the game reviews' worker pool (one process), ``live`` what memory holds of one
table. Imports ``api`` and ``storage``, never the web edge.
"""
