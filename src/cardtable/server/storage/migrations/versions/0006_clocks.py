"""clocks: a table's clock and its first deadline

``tables.clock`` (JSON, null for a table without a clock) holds the clock's mode, time and
each seat's deadline, so a restarted server keeps counting where it was;
``tables.deadline`` (indexed) is the first of them, so the server finds the tables whose time
ran out without loading every table (docs/server.md, "Clocks").

Revision ID: 0006_clocks
Revises: 0003
Create Date: 2026-12-01 13:20:00
"""

import sqlalchemy as sa
from alembic import op

revision = "0006_clocks"
down_revision = "0004_lifecycle"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("tables", sa.Column("clock", sa.JSON(), nullable=True))
    op.add_column("tables", sa.Column("deadline", sa.Float(), nullable=True))
    op.create_index("ix_tables_deadline", "tables", ["deadline"], unique=False)


def downgrade() -> None:
    op.drop_index("ix_tables_deadline", table_name="tables")
    op.drop_column("tables", "deadline")
    op.drop_column("tables", "clock")
