"""bot accounts: a player made by a person, played by a program with its token

Revision ID: 0008_bot_accounts
Revises: 0007_chat_identity
Create Date: 2026-12-01 18:10:00
"""

import sqlalchemy as sa
from alembic import op

revision = "0008_bot_accounts"
down_revision = "0007_chat_identity"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # a nullable column without a constraint: SQLite adds it in place, no table copy
    op.add_column("players", sa.Column("bot_owner", sa.String(length=32), nullable=True))
    op.create_index(op.f("ix_players_bot_owner"), "players", ["bot_owner"], unique=False)


def downgrade() -> None:
    op.drop_index(op.f("ix_players_bot_owner"), table_name="players")
    op.drop_column("players", "bot_owner")
