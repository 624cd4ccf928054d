"""chat at each table, and one identity across browsers (#11)

``chat``: the messages written at a table, in order (``id``); ``chat_settings``: a table's
chat as its creator set it (no row: the game's default, ``Game.free_chat_default``);
``player_tokens``: more browsers' tokens of a player (a recovery code used elsewhere), hashed
like ``players.token_hash``; ``recovery_codes``: each player's recovery code, hashed.

Revision ID: 0007_chat_identity
Revises: 0003
Create Date: 2026-12-01 13:20:00
"""

import sqlalchemy as sa
from alembic import op

revision = "0007_chat_identity"
down_revision = "0006_clocks"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "chat",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("table_id", sa.String(16), sa.ForeignKey("tables.id"), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), nullable=True),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("text", sa.String(400), nullable=False),
        sa.Column("at", sa.DateTime(), nullable=False),
    )
    op.create_index("ix_chat_table", "chat", ["table_id", "id"])
    op.create_table(
        "chat_settings",
        sa.Column("table_id", sa.String(16), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("free", sa.Boolean(), nullable=False),
        sa.Column("spectators", sa.Boolean(), nullable=False, server_default=sa.false()),
    )
    op.create_table(
        "player_tokens",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column(
            "player_id", sa.String(32), sa.ForeignKey("players.id"), nullable=False, index=True
        ),
        sa.Column("created_at", sa.DateTime(), nullable=False),
    )
    op.create_table(
        "recovery_codes",
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("code_hash", sa.String(64), nullable=False, unique=True),
        sa.Column("created_at", sa.DateTime(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("recovery_codes")
    op.drop_table("player_tokens")
    op.drop_table("chat_settings")
    op.drop_index("ix_chat_table", table_name="chat")
    op.drop_table("chat")
