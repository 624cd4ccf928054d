"""former players: a person who deleted their identity

``players.deleted_at`` (``DELETE /api/me``): the row stays, so that the seats, actions and
ratings of their finished games still name a player, but it has no name of its own any more
("a former player" wherever it showed), no token, no recovery code and no other browser's
token. Null: a player as before.

Revision ID: 0016_former_players
Revises: 0015_tournaments
Create Date: 2026-12-04 18:40:00
"""

import sqlalchemy as sa
from alembic import op

revision = "0016_former_players"
down_revision = "0015_tournaments"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("players", sa.Column("deleted_at", sa.DateTime, nullable=True))


def downgrade() -> None:
    op.drop_column("players", "deleted_at")
