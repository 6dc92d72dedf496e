"""What outlives a live game: the archive of every finished game, in a SQL database.

PostgreSQL when DATABASE_URL names one, else a SQLite file, through one schema
(`tables`), versioned migrations (`migrate`, `migrations/`) and one class that reads and
writes it (`database.Archive`). How games reach it exactly once is service.archiver's.
"""

from service.archive.database import (Archive, ArchivedGame, ArchiveRefused, ArchiveUnavailable,
                                      ExportFilter, Refused, SchemaMismatch)

__all__ = ["Archive", "ArchiveRefused", "ArchiveUnavailable", "ArchivedGame", "ExportFilter",
           "Refused", "SchemaMismatch"]
