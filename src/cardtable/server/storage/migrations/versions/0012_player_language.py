"""a player's language: the one they chose in the pages' switcher

``players.language`` (``cs``, ``de``…) wins over the browser's cookie and
``Accept-Language`` on every page (``cardtable.i18n.languages.choose``). Null: never chosen.

Revision ID: 0012_player_language
Revises: 0011_seat_names
Create Date: 2026-12-02 15:40:00
"""

import sqlalchemy as sa
from alembic import op

revision = "0012_player_language"
down_revision = "0011_seat_names"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("players", sa.Column("language", sa.String(8), nullable=True))


def downgrade() -> None:
    op.drop_column("players", "language")
