"""The database: players, tables, seats and the action log, the truth a table is replayed
from (``store``, SQLAlchemy 2; SQLite by default, PostgreSQL by URL), its Alembic
``migrations``, and the ``ratings`` of finished competitive games. Imports ``api`` only.
"""
