"""Webhook bots (docs/arena.md, "Webhook bots"): each bot's URL and signing secret.

Revision ID: 0007
Revises: 0006
Created: 2026-12-03
"""

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "webhooks",
        sa.Column("player_id", sa.String(32), primary_key=True),
        sa.Column("url", sa.Text, nullable=False),
        sa.Column("secret", sa.String(96), nullable=False),
        sa.Column("previous_secret", sa.String(96), nullable=True),
        sa.Column("previous_until_ms", sa.BigInteger, nullable=True),
        sa.Column("updated_ms", sa.BigInteger, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("webhooks")
