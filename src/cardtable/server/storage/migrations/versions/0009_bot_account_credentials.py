"""bot accounts: whom each plays with, and no recovery codes or browser tokens of their own

Revision ID: 0009_bot_account_credentials
Revises: 0008_bot_accounts
Create Date: 2026-12-02 09:10:00
"""

import sqlalchemy as sa
from alembic import op

revision = "0009_bot_account_credentials"
down_revision = "0008_bot_accounts"
branch_labels = None
depends_on = None

#: the ids of the bot accounts (players with an owner)
BOTS = "SELECT id FROM players WHERE bot_owner IS NOT NULL"


def upgrade() -> None:
    # whom a bot account plays with: "anyone", or null for its owner only (the default);
    # a nullable column without a constraint: SQLite adds it in place, no table copy
    op.add_column("players", sa.Column("plays_with", sa.String(length=8), nullable=True))
    # a bot account's recovery code (or a browser token made from one) outlived the renewal
    # of its token: a leaked token could keep the account for ever. Bot accounts get none now.
    op.execute(f"DELETE FROM recovery_codes WHERE player_id IN ({BOTS})")
    op.execute(f"DELETE FROM player_tokens WHERE player_id IN ({BOTS})")


def downgrade() -> None:
    op.drop_column("players", "plays_with")
