"""a seat's names, given once: its bot's name, and the person a bot plays the seat for

``seats.name`` is the name a bot got when it took the seat ("Greedy", or "Greedy 3" beside
another Greedy), so no seat is renamed when another changes; ``seats.person`` the player id
of the person whose seat a bot plays on (they left, resigned, ran out of time or were handed
over), so every page says "Ann — played by Greedy" (docs/server.md, "Seats that go to bots").
Both null in rows stored before: their names are computed as before.

Revision ID: 0011_seat_names
Revises: 0010_to_act
Create Date: 2026-12-02 11:45:00
"""

import sqlalchemy as sa
from alembic import op

revision = "0011_seat_names"
down_revision = "0010_to_act"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # nullable columns without constraints: SQLite adds them in place, no table copy
    op.add_column("seats", sa.Column("name", sa.String(80), nullable=True))
    op.add_column("seats", sa.Column("person", sa.String(32), nullable=True))


def downgrade() -> None:
    op.drop_column("seats", "person")
    op.drop_column("seats", "name")
