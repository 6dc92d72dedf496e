"""Series of the arena (docs/arena.md): each series and each of its games.

Revision ID: 0004
Revises: 0003
Created: 2026-12-01
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "series",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("owner", sa.String(32), nullable=False),
        sa.Column("game", sa.String(40), nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("spec", sa.Text, nullable=False),
        sa.Column("secret", sa.String(64), nullable=False),
        sa.Column("status", sa.String(12), nullable=False),
        sa.Column("games_total", sa.Integer, nullable=False),
        sa.Column("games_done", sa.Integer, nullable=False),
        sa.Column("created_ms", sa.BigInteger, nullable=False),
        sa.Column("finished_ms", sa.BigInteger, nullable=True),
    )
    op.create_index("series_by_status", "series", ["status", "created_ms"])
    op.create_index("series_by_owner", "series", ["owner", "created_ms"])
    op.create_table(
        "series_games",
        sa.Column("series_id", sa.String(32), primary_key=True),
        sa.Column("game_index", sa.Integer, primary_key=True),
        sa.Column("deal", sa.Integer, nullable=False),
        sa.Column("rotation", sa.Integer, nullable=False),
        sa.Column("game_id", sa.String(64), nullable=False, unique=True),
        sa.Column("started_ms", sa.BigInteger, nullable=False),
        sa.Column("ended_ms", sa.BigInteger, nullable=True),
        sa.Column("outcome", sa.Text, nullable=True),
    )


def downgrade() -> None:
    op.drop_table("series_games")
    op.drop_index("series_by_owner", "series")
    op.drop_index("series_by_status", "series")
    op.drop_table("series")
