"""The archive's schema, once for PostgreSQL and SQLite (migrations/ makes it in a database).

One row per finished game. What queries filter and order on (the game, when it ended,
who played it) are columns; the rest of the record is one JSON document, written once at
ingest exactly as the export and the API give it, so that reading a game back is a read
of one row and no re-encoding. Times are epoch milliseconds: exact, portable, and the
cursor of every page.

Portable on purpose: no column type, index or constraint that PostgreSQL-compatible
distributed engines (CockroachDB, YugabyteDB, Citus) lack (docs/archive.md says how the
table is partitioned at that scale).
"""

from sqlalchemy import (BigInteger, Boolean, Column, Index, Integer, LargeBinary, MetaData,
                        String, Table, Text)

metadata = MetaData()

games = Table(
    "archived_games", metadata,
    Column("id", String(64), primary_key=True),
    Column("game", String(40), nullable=False),
    Column("players", Integer, nullable=False),
    Column("seeded", Boolean, nullable=False),    # a creator chose the deal's seed
    Column("reason", String(16), nullable=False),  # finished (played out) or forfeit
    Column("created_ms", BigInteger, nullable=False),
    Column("ended_ms", BigInteger, nullable=False),
    Column("archived_ms", BigInteger, nullable=False),
    Column("version", Integer, nullable=False),    # the live game's last version
    Column("document", Text, nullable=False),      # the public record (JSON), as exported
    # What the service needs to answer for the game as it did live, and what the core
    # needs to play it again: the final state and metadata, and the state it began in.
    Column("state", LargeBinary, nullable=False),
    Column("meta", LargeBinary, nullable=False),
    Column("initial", LargeBinary, nullable=False),
    Index("archived_games_by_end", "ended_ms", "id"),
    Index("archived_games_by_game", "game", "ended_ms", "id"),
)
