"""Several server processes on one database: the Redis ``bus`` (who holds which table,
leases and failover, messages between processes) and the ``tunnel`` that forwards a table's
requests to the process that holds it, and ``reviews``, the game reviews' job queue shared
by the processes (arq on the same Redis). Imports ``api`` and ``storage``; the web edge wires it
to the hub.
"""
