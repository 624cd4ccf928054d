"""The database: players, tables, seats and the action log, the truth a table is replayed
from (``store``, SQLAlchemy 2; SQLite by default, PostgreSQL by URL), its Alembic
``migrations``, the ``ratings`` of finished competitive games and the stored game
``reviews``. Imports ``api`` only.
"""
