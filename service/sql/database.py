"""The SQL database that everything outliving a live game shares: one engine per process.

PostgreSQL (asyncpg) when DATABASE_URL names one, else a SQLite file (aiosqlite), through
SQLAlchemy Core: one schema (`schema`), versioned migrations (`migrate`) and the same
statements for both. Each domain keeps its own statements beside its logic (the archive's
games, players and standings, series, reviews) and runs them through `Database.run`,
which turns the database's failures into the two errors every caller handles.
"""

from collections.abc import AsyncIterator, Callable
from typing import Any

import sqlalchemy.ext.asyncio
from sqlalchemy import Table, event, text
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import DataError, DBAPIError, IntegrityError, OperationalError, SQLAlchemyError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from service.sql import migrate


class DatabaseUnavailable(Exception):
    """The database cannot be reached or refused the statement; nothing was changed."""


class DatabaseRefused(DatabaseUnavailable):
    """The database refused what it was given (an integrity or data error): trying again
    as it is fails again. For the archive's writer, a record to set aside; for any other
    caller, like any failed statement, nothing was changed."""


class SchemaMismatch(Exception):
    """The database's schema is not the one this service was written for."""


def engine_url(url: str) -> str:
    """DATABASE_URL as SQLAlchemy's async drivers name it (postgresql:// -> asyncpg,
    sqlite:/// -> aiosqlite); a URL that already names its driver is kept."""
    scheme, sep, rest = url.partition("://")
    if not sep:
        raise ValueError(f"a database URL looks like postgresql://user@host/db or"
                         f" sqlite:///path, got {url!r}")
    driver = {"postgresql": "postgresql+asyncpg", "postgres": "postgresql+asyncpg",
              "sqlite": "sqlite+aiosqlite"}.get(scheme, scheme)
    return f"{driver}://{rest}"


def insert(dialect: str, table: Table) -> Any:
    """The dialect's INSERT of table, which knows ON CONFLICT (PostgreSQL's and SQLite's)."""
    return (postgresql.insert if dialect == "postgresql" else sqlite.insert)(table)


def _faults(error: Exception) -> bool:
    return isinstance(error, (OperationalError, DBAPIError, OSError, ConnectionError))


class Database:
    def __init__(self, url: str, command_timeout: float | None = 30) -> None:
        """command_timeout: the longest a statement may run (None: no limit, for the
        commands of service.archive's CLI; the service's own statements are short)."""
        self.url = engine_url(url)
        self.dialect = self.url.partition("+")[0]
        options: dict[str, Any] = {"pool_pre_ping": True}
        if self.dialect == "postgresql":
            # A database that is down answers within seconds: the writer retries later.
            options["connect_args"] = {"timeout": 5, "command_timeout": command_timeout}
        # (looked up now, not at import: with tracing on, its instrumentation wraps it)
        self._engine: AsyncEngine = sqlalchemy.ext.asyncio.create_async_engine(self.url,
                                                                               **options)
        if self.dialect == "sqlite":
            event.listen(self._engine.sync_engine, "connect", _sqlite_pragmas)

    async def prepare(self, migrate_schema: bool) -> None:
        """Brings the schema to this service's version (migrate_schema) or checks that it
        is there; SchemaMismatch says what to run when it is not."""
        def revision() -> Any:
            return self.run(lambda conn: conn.run_sync(migrate.revision_of))

        found, wanted = await revision(), migrate.head()
        if found != wanted and migrate_schema:  # (Alembic's run costs a second: only if due)
            await migrate.upgrade(self.url)
            found = await revision()
        if found != wanted:
            raise SchemaMismatch(
                f"the archive's schema is at revision {found or 'none'} but this service needs"
                f" {wanted}: run `python -m service.archive upgrade` (docs/archive.md)")

    async def run(self, work: Callable[[AsyncConnection], Any]) -> Any:
        """work(connection)'s answer; DatabaseUnavailable when the database fails."""
        try:
            async with self._engine.connect() as conn:
                return await work(conn)
        except (IntegrityError, DataError) as error:
            raise DatabaseRefused(str(error.__cause__ or error)) from error
        except SQLAlchemyError as error:
            if _faults(error):
                raise DatabaseUnavailable(str(error.__cause__ or error)) from error
            raise
        except (OSError, ConnectionError) as error:
            raise DatabaseUnavailable(str(error)) from error

    async def stream(self, query: Any, batch: int) -> AsyncIterator[Any]:
        """query's rows, read batch rows at a time (a server-side cursor on PostgreSQL)."""
        try:
            async with self._engine.connect() as conn:
                async for row in await conn.stream(query.execution_options(yield_per=batch)):
                    yield row
        except SQLAlchemyError as error:
            if _faults(error):
                raise DatabaseUnavailable(str(error.__cause__ or error)) from error
            raise

    async def ping(self) -> None:
        await self.run(lambda conn: conn.execute(text("SELECT 1")))

    async def close(self) -> None:
        await self._engine.dispose()


def _sqlite_pragmas(connection: Any, _record: Any) -> None:
    """WAL lets readers go on while the writer writes; busy_timeout makes two processes on
    one file wait for each other instead of failing."""
    cursor = connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA busy_timeout=5000")
    cursor.close()
