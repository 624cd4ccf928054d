"""secret seeds, who played each action, the indexes of the per-player checks

- ``tables.seed`` becomes decimal text: multiplayer deals come from 128 bits of secret
  randomness, beyond a 64-bit ``BIGINT``; old seeds keep their digits (and so their deals).
- ``actions.version`` (the table version the action made, for answering a resent client id
  after a restart) and ``actions.actor`` (who played it: a player id or ``bot:SPEC``, so a seat
  handed to a bot keeps its person's moves under the person's name).
- ``tables (created_by, status)``: the unfinished tables a player created are counted by an
  index, not by reading every live table.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01 10:05:00
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tables", schema=None) as batch_op:
        batch_op.alter_column(
            "seed",
            existing_type=sa.BigInteger(),
            type_=sa.String(length=80),
            existing_nullable=False,
            postgresql_using="seed::text",
        )
        batch_op.create_index("ix_tables_created_by_status", ["created_by", "status"], unique=False)
    with op.batch_alter_table("actions", schema=None) as batch_op:
        batch_op.add_column(sa.Column("version", sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column("actor", sa.String(length=220), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("actions", schema=None) as batch_op:
        batch_op.drop_column("actor")
        batch_op.drop_column("version")
    with op.batch_alter_table("tables", schema=None) as batch_op:
        batch_op.drop_index("ix_tables_created_by_status")
        batch_op.alter_column(
            "seed",
            existing_type=sa.String(length=80),
            type_=sa.BigInteger(),
            existing_nullable=False,
            postgresql_using="seed::bigint",
        )
