"""whose turn: the seats to act, stored with every action

``tables.to_act`` (JSON list of seats, null for a table stored before it) is written in the
transaction of every action, undo and new table, so a process that does not hold a table
lists it on "My games" (whose turn, yours or not) from its row, without loading it: only the
table's holder may load it (docs/server.md, "Many processes"). A table whose row has none
gets it the next time its holder loads it.

Revision ID: 0010_to_act
Revises: 0009_bot_account_credentials
Create Date: 2026-12-02 09:20:00
"""

import sqlalchemy as sa
from alembic import op

revision = "0010_to_act"
down_revision = "0009_bot_account_credentials"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # a nullable column without a constraint: SQLite adds it in place, no table copy
    op.add_column("tables", sa.Column("to_act", sa.JSON(), nullable=True))


def downgrade() -> None:
    op.drop_column("tables", "to_act")
