"""tournaments: their settings, entrants, rounds and tables (#28)

``tournaments``: a tournament's settings (game, format, rounds or an arena's minutes and
streaks or a duplicate challenge's deals and their secret seeds, the day of a deal of the
day, table size, clock, rated, open
or by invite, the least number of finished games to enter, bot accounts allowed), its status
and current round, and a version bumped by every change (its page follows it). Its entrants
in entry order, each round's byes and each round's tables (the entrants in seat order, their
places once recorded). ``tables.tournament`` names a table's tournament; ``tables.unrated``
keeps an unrated tournament's games out of the ratings.

Revision ID: 0015_tournaments
Revises: 0014_reviews
Create Date: 2026-12-04 03:00:00
"""

import sqlalchemy as sa
from alembic import op

revision = "0015_tournaments"
down_revision = "0014_reviews"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "tournaments",
        sa.Column("id", sa.String(length=16), primary_key=True),
        sa.Column("name", sa.String(length=80), nullable=False),
        sa.Column("game", sa.String(length=32), nullable=False),
        sa.Column("format", sa.String(length=12), nullable=False),
        sa.Column("status", sa.String(length=12), nullable=False),
        sa.Column("created_by", sa.String(length=32), sa.ForeignKey("players.id")),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("starts_at", sa.DateTime(), nullable=False),
        sa.Column("finished_at", sa.DateTime(), nullable=True),
        sa.Column("rounds", sa.Integer(), nullable=False),
        sa.Column("minutes", sa.Integer(), nullable=True),
        sa.Column("streaks", sa.Boolean(), nullable=True),
        sa.Column("deals", sa.Integer(), nullable=True),
        sa.Column("seeds", sa.JSON(), nullable=True),
        sa.Column("daily", sa.String(length=10), nullable=True),
        sa.Column("table_size", sa.Integer(), nullable=False),
        sa.Column("clock", sa.JSON(), nullable=True),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("invite", sa.String(length=32), nullable=True),
        sa.Column("min_games", sa.Integer(), nullable=False),
        sa.Column("bots", sa.Boolean(), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("ended", sa.String(length=12), nullable=True),
    )
    op.create_index("ix_tournaments_status", "tournaments", ["status", "starts_at"])
    op.create_index("ix_tournaments_created_by", "tournaments", ["created_by", "status"])
    op.create_table(
        "tournament_entrants",
        sa.Column(
            "tournament_id",
            sa.String(length=16),
            sa.ForeignKey("tournaments.id"),
            primary_key=True,
        ),
        sa.Column("player_id", sa.String(length=32), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("n", sa.Integer(), nullable=False),
        sa.Column("joined_at", sa.DateTime(), nullable=False),
        sa.Column("withdrawn_at", sa.DateTime(), nullable=True),
    )
    op.create_index("ix_tournament_entrants_player", "tournament_entrants", ["player_id"])
    op.create_table(
        "tournament_rounds",
        sa.Column(
            "tournament_id",
            sa.String(length=16),
            sa.ForeignKey("tournaments.id"),
            primary_key=True,
        ),
        sa.Column("round", sa.Integer(), primary_key=True),
        sa.Column("byes", sa.JSON(), nullable=False),
        sa.Column("started_at", sa.DateTime(), nullable=False),
    )
    op.create_table(
        "tournament_tables",
        # no foreign key: the row is written before its table (storage/tournaments.py)
        sa.Column("table_id", sa.String(length=16), primary_key=True),
        sa.Column(
            "tournament_id", sa.String(length=16), sa.ForeignKey("tournaments.id"), nullable=False
        ),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("players", sa.JSON(), nullable=False),
        sa.Column("ranks", sa.JSON(), nullable=True),
        sa.Column("score", sa.Integer(), nullable=True),
        sa.Column("seconds", sa.Float(), nullable=True),
    )
    op.create_index("ix_tournament_tables_round", "tournament_tables", ["tournament_id", "round"])
    # nullable columns without constraints: SQLite adds them in place, no table copy
    op.add_column("tables", sa.Column("tournament", sa.String(16), nullable=True))
    op.add_column("tables", sa.Column("unrated", sa.Boolean(), nullable=True))


def downgrade() -> None:
    op.drop_column("tables", "unrated")
    op.drop_column("tables", "tournament")
    op.drop_index("ix_tournament_tables_round", table_name="tournament_tables")
    op.drop_table("tournament_tables")
    op.drop_table("tournament_rounds")
    op.drop_index("ix_tournament_entrants_player", table_name="tournament_entrants")
    op.drop_table("tournament_entrants")
    op.drop_index("ix_tournaments_created_by", table_name="tournaments")
    op.drop_index("ix_tournaments_status", table_name="tournaments")
    op.drop_table("tournaments")
