"""Tournaments: their entrants, tables and games, and their final standings (docs/arena.md).

Revision ID: 0006
Revises: 0005
Created: 2026-12-03
"""

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "tournaments",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("owner", sa.String(32), nullable=False),
        sa.Column("game", sa.String(40), nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("format", sa.String(12), nullable=False),
        sa.Column("spec", sa.Text, nullable=False),
        sa.Column("secret", sa.String(64), nullable=False),
        sa.Column("status", sa.String(12), nullable=False),
        sa.Column("round", sa.Integer, nullable=False),
        sa.Column("rounds", sa.Integer, nullable=True),
        sa.Column("revision", sa.Integer, nullable=False),
        sa.Column("created_ms", sa.BigInteger, nullable=False),
        sa.Column("starts_ms", sa.BigInteger, nullable=False),
        sa.Column("finished_ms", sa.BigInteger, nullable=True),
        sa.Column("standings", sa.Text, nullable=True),
    )
    op.create_index("tournaments_by_status", "tournaments", ["status", "starts_ms"])
    op.create_table(
        "tournament_entrants",
        sa.Column("tournament_id", sa.String(32), primary_key=True),
        sa.Column("entrant_id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("entered_ms", sa.BigInteger, nullable=False),
    )
    op.create_table(
        "tournament_tables",
        sa.Column("tournament_id", sa.String(32), primary_key=True),
        sa.Column("round", sa.Integer, primary_key=True),
        sa.Column("table_index", sa.Integer, primary_key=True),
        sa.Column("entrants", sa.Text, nullable=False),
        sa.Column("bye", sa.Boolean, nullable=False),
        sa.Column("ended_ms", sa.BigInteger, nullable=True),
        sa.Column("results", sa.Text, nullable=True),
    )
    op.create_table(
        "tournament_games",
        sa.Column("tournament_id", sa.String(32), primary_key=True),
        sa.Column("round", sa.Integer, primary_key=True),
        sa.Column("table_index", sa.Integer, primary_key=True),
        sa.Column("game_index", sa.Integer, primary_key=True),
        sa.Column("game_id", sa.String(64), nullable=False, unique=True),
        sa.Column("deal", sa.Integer, nullable=False),
        sa.Column("rotation", sa.Integer, nullable=False),
        sa.Column("started_ms", sa.BigInteger, nullable=False),
        sa.Column("ended_ms", sa.BigInteger, nullable=True),
        sa.Column("ranks", sa.Text, nullable=True),
    )


def downgrade() -> None:
    op.drop_table("tournament_games")
    op.drop_table("tournament_tables")
    op.drop_table("tournament_entrants")
    op.drop_index("tournaments_by_status", "tournaments")
    op.drop_table("tournaments")
