"""game reviews: one row per finished table, its progress, and the review once made (#27)

``reviews``: queued, running, done or failed; the decisions judged so far of the total; the
review's JSON; who asked and when (the daily number is counted from it), the processor
seconds it took. The queue's length is counted from ``status`` (``ix_reviews_status``).

Revision ID: 0014_reviews
Revises: 0013_practice_tutorial
Create Date: 2026-12-03 08:00:00
"""

import sqlalchemy as sa
from alembic import op

revision = "0014_reviews"
down_revision = "0013_practice_tutorial"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "reviews",
        sa.Column("table_id", sa.String(length=16), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("status", sa.String(length=8), nullable=False),
        sa.Column("done", sa.Integer(), nullable=False),
        sa.Column("total", sa.Integer(), nullable=False),
        sa.Column("depth", sa.String(length=8), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("review", sa.JSON(), nullable=True),
        sa.Column("error", sa.String(length=500), nullable=True),
        sa.Column("asked_by", sa.String(length=32), sa.ForeignKey("players.id"), nullable=True),
        sa.Column("asked_at", sa.DateTime(), nullable=False),
        sa.Column("started_at", sa.DateTime(), nullable=True),
        sa.Column("beat_at", sa.DateTime(), nullable=True),
        sa.Column("finished_at", sa.DateTime(), nullable=True),
        sa.Column("cpu", sa.Float(), nullable=True),
    )
    op.create_index("ix_reviews_asked_by", "reviews", ["asked_by", "asked_at"])
    op.create_index("ix_reviews_status", "reviews", ["status"])


def downgrade() -> None:
    op.drop_index("ix_reviews_status", table_name="reviews")
    op.drop_index("ix_reviews_asked_by", table_name="reviews")
    op.drop_table("reviews")
