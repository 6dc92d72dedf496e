"""Players, their standings and rating changes, and who sat in each archived game.

Revision ID: 0002
Revises: 0001
Created: 2026-12-01
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("archived_games") as table:  # (batch: SQLite too)
        table.add_column(sa.Column("rated_order", sa.BigInteger, nullable=True))
        table.create_unique_constraint("archived_games_rated_order", ["rated_order"])
    op.create_table(
        "players",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("key_hash", sa.String(64), nullable=True, unique=True),
        sa.Column("created_ms", sa.BigInteger, nullable=False),
        sa.Column("last_seen_ms", sa.BigInteger, nullable=True),
    )
    op.create_table(
        "standings",
        sa.Column("player_id", sa.String(32), primary_key=True),
        sa.Column("pool", sa.String(40), primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("conservative", sa.Float, nullable=False),
        sa.Column("rated_games", sa.Integer, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("wins", sa.Integer, nullable=False),
        sa.Column("ranked", sa.Boolean, nullable=False),
        sa.Column("bucket", sa.Integer, nullable=False),
        sa.Column("recent", sa.Text, nullable=False),
    )
    op.create_index("standings_leaderboard", "standings",
                    ["pool", "ranked", "conservative", "player_id"])
    op.create_index("standings_by_bucket", "standings",
                    ["pool", "ranked", "bucket", "conservative", "player_id"])
    op.create_table(
        "rank_counts",
        sa.Column("pool", sa.String(40), primary_key=True),
        sa.Column("bucket", sa.Integer, primary_key=True),
        sa.Column("ranked", sa.Integer, nullable=False),
    )
    op.create_table(
        "game_players",
        sa.Column("game_id", sa.String(64), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("player_id", sa.String(32), nullable=False),
        sa.Column("game", sa.String(40), nullable=False),
        sa.Column("ended_ms", sa.BigInteger, nullable=False),
        sa.Column("rank", sa.Integer, nullable=False),
    )
    op.create_index("game_players_by_player", "game_players",
                    ["player_id", "ended_ms", "game_id"])
    op.create_table(
        "rating_changes",
        sa.Column("game_id", sa.String(64), primary_key=True),
        sa.Column("player_id", sa.String(32), primary_key=True),
        sa.Column("pool", sa.String(40), nullable=False),
        sa.Column("rated_order", sa.BigInteger, nullable=False),
        sa.Column("ended_ms", sa.BigInteger, nullable=False),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
    )
    op.create_index("rating_changes_by_player", "rating_changes",
                    ["player_id", "pool", "rated_order"])


def downgrade() -> None:
    for table in ("rating_changes", "game_players", "rank_counts", "standings", "players"):
        op.drop_table(table)
    with op.batch_alter_table("archived_games") as table:
        table.drop_constraint("archived_games_rated_order", type_="unique")
        table.drop_column("rated_order")
