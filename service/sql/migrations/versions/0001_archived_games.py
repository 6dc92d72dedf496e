"""The archive of finished games: one row per game.

Revision ID: 0001
Revises:
Created: 2026-12-01
"""

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "archived_games",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("game", sa.String(40), nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("seeded", sa.Boolean, nullable=False),
        sa.Column("reason", sa.String(16), nullable=False),
        sa.Column("created_ms", sa.BigInteger, nullable=False),
        sa.Column("ended_ms", sa.BigInteger, nullable=False),
        sa.Column("archived_ms", sa.BigInteger, nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("document", sa.Text, nullable=False),
        sa.Column("state", sa.LargeBinary, nullable=False),
        sa.Column("meta", sa.LargeBinary, nullable=False),
        sa.Column("initial", sa.LargeBinary, nullable=False),
    )
    op.create_index("archived_games_by_end", "archived_games", ["ended_ms", "id"])
    op.create_index("archived_games_by_game", "archived_games", ["game", "ended_ms", "id"])


def downgrade() -> None:
    op.drop_table("archived_games")
