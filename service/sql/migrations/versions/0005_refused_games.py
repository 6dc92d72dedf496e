"""Finished games the archive's database refused, set aside for an operator (docs/archive.md).

Revision ID: 0005
Revises: 0004
Created: 2026-12-02
"""

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "refused_games",
        sa.Column("id", sa.Text, primary_key=True),
        sa.Column("ended_ms", sa.BigInteger, nullable=False),
        sa.Column("refused_ms", sa.BigInteger, nullable=False),
        sa.Column("attempts", sa.Integer, nullable=False),
        sa.Column("error", sa.Text, nullable=False),
        sa.Column("record", sa.LargeBinary, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("refused_games")
