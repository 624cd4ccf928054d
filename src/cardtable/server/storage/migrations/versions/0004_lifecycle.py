"""table lifecycle: how a table ended, when it was last active, who resigned (#11)

``ended``: null for a game played to its end (and every table from before), else
``abandoned`` (a new deal or restart replaced it, or its last person left), ``resigned`` or
``idle`` (closed by the server's sweep). ``active_at``: the time of its last change (null:
its ``created_at``), which the idle sweep reads through ``ix_tables_idle``. ``resigned``: the
seats that resigned while the game played on, with who held them
(``[{"seat", "player_id", "name"}]``).

Revision ID: 0004_lifecycle
Revises: 0003
Create Date: 2026-12-01 13:10:00
"""

import sqlalchemy as sa
from alembic import op

revision = "0004_lifecycle"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("ended", sa.String(12), nullable=True))
        batch.add_column(sa.Column("active_at", sa.DateTime(), nullable=True))
        batch.add_column(sa.Column("resigned", sa.JSON(), nullable=True))
    op.create_index("ix_tables_idle", "tables", ["status", "active_at"], unique=False)


def downgrade() -> None:
    op.drop_index("ix_tables_idle", table_name="tables")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("resigned")
        batch.drop_column("active_at")
        batch.drop_column("ended")
