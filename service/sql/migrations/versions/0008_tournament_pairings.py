"""Tournaments' pairings as series (docs/arena.md, "Tournaments"): each game's points and
the judge's luck beside its ranks, and each table's crosstable beside its results.

Revision ID: 0008
Revises: 0007
Created: 2026-12-03
"""

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("tournament_games", sa.Column("scores", sa.Text, nullable=True))
    op.add_column("tournament_games", sa.Column("luck", sa.Text, nullable=True))
    op.add_column("tournament_tables", sa.Column("pairings", sa.Text, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("tournament_tables") as tables:
        tables.drop_column("pairings")
    with op.batch_alter_table("tournament_games") as games:
        games.drop_column("luck")
        games.drop_column("scores")
