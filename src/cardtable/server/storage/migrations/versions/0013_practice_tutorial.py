"""practice tables: a table started from a finished game's record, or a tutorial

``tables.practice`` is ``practice`` (a finished solitaire's record prefix played on: "Try
again from here") or ``tutorial`` (a game's tutorial), null for every other table. A practice
table is never rated and never counted in a player's deal statistics. A finished tutorial is
a ``tutorial`` table its player played to its end (``ended`` null): the lobby's check mark
(docs/server.md, "Practice tables and tutorials").

Revision ID: 0013_practice_tutorial
Revises: 0012_player_language
Create Date: 2026-12-03 08:10:00
"""

import sqlalchemy as sa
from alembic import op

revision = "0013_practice_tutorial"
down_revision = "0012_player_language"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # a nullable column without constraints: SQLite adds it in place, no table copy
    op.add_column("tables", sa.Column("practice", sa.String(12), nullable=True))


def downgrade() -> None:
    op.drop_column("tables", "practice")
