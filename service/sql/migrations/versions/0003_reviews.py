"""Reviews of finished games, one per game and seat, with the lease that claims one.

Revision ID: 0003
Revises: 0002
Created: 2026-12-01
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "reviews",
        sa.Column("game_id", sa.String(64), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("status", sa.String(8), nullable=False),
        sa.Column("done", sa.Integer, nullable=False),
        sa.Column("total", sa.Integer, nullable=True),
        sa.Column("level", sa.Integer, nullable=False),
        sa.Column("requested_ms", sa.BigInteger, nullable=False),
        sa.Column("holder", sa.String(32), nullable=True),
        sa.Column("lease_until_ms", sa.BigInteger, nullable=False),
        sa.Column("document", sa.Text, nullable=False),
    )
    op.create_index("reviews_waiting", "reviews", ["status", "requested_ms"])


def downgrade() -> None:
    op.drop_table("reviews")
