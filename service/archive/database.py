"""The archive's database: finished games written once, read back, exported in order.

PostgreSQL (asyncpg) when DATABASE_URL names one, else a SQLite file (aiosqlite), through
SQLAlchemy Core: one schema (tables.py) and the same statements for both.
"""

from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

from sqlalchemy import and_, delete, event, func, or_, select, text
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import DBAPIError, OperationalError, SQLAlchemyError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine

from service.archive import migrate, standings
from service.archive.standings import Outcome
from service.archive.tables import game_players, games

EXPORT_BATCH = 500  # rows fetched at a time by an export: its memory whatever its size


class ArchiveUnavailable(Exception):
    """The database cannot be reached or refused the statement; nothing was changed."""


class SchemaMismatch(Exception):
    """The database's schema is not the one this service was written for."""


@dataclass(frozen=True)
class ArchivedGame:
    """One finished game as the archive keeps it (a row of tables.games)."""
    id: str
    game: str
    players: int
    seeded: bool
    reason: str
    created_ms: int
    ended_ms: int
    archived_ms: int
    version: int
    document: str     # the public record, JSON
    state: bytes
    meta: bytes
    initial: bytes
    rated_order: int | None = None  # a rated game's place in the ratings' order


@dataclass(frozen=True)
class ExportFilter:
    game: str | None = None
    since_ms: int | None = None     # ended at or after
    until_ms: int | None = None     # ended before
    after: tuple[int, str] | None = None  # resume after this (ended_ms, id)
    player: str | None = None       # only games this player sat in
    id: str | None = None           # only this game


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


def _faults(error: Exception) -> bool:
    return isinstance(error, (OperationalError, DBAPIError, OSError, ConnectionError))


class Archive:
    def __init__(self, url: str, command_timeout: float | None = 30) -> None:
        """command_timeout: the longest a statement may run (None: no limit, for the
        commands of service.archive's CLI; the service's own statements are short)."""
        self.url = engine_url(url)
        self.dialect = self.url.partition("+")[0]
        options: dict[str, Any] = {"pool_pre_ping": True}
        if self.dialect == "postgresql":
            # A database that is down answers within seconds: the drain retries later.
            options["connect_args"] = {"timeout": 5, "command_timeout": command_timeout}
        self._engine: AsyncEngine = create_async_engine(self.url, **options)
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

    async def write(self, batch: list[ArchivedGame]) -> list[str]:
        """Inserts each game not archived yet, with its players' standings and ratings
        (service.archive.standings), in one transaction; the ids inserted (a game archived
        before is left as it was, and counted once)."""
        if not batch:
            return []
        insert = (postgresql.insert if self.dialect == "postgresql" else sqlite.insert)(games)
        statement = insert.on_conflict_do_nothing(index_elements=["id"]).returning(games.c.id)
        rows = [game.__dict__ for game in batch]
        outcomes = {game.id: Outcome.of(game.id, game.ended_ms, game.document) for game in batch}

        async def run(conn: AsyncConnection) -> list[str]:
            async with conn.begin():
                if any(any(outcome.seats) for outcome in outcomes.values()):
                    await standings.lock(conn)  # standings change: one writer at a time
                inserted = [row[0] for row in await conn.execute(statement, rows)]
                await standings.record(conn, [outcomes[game_id] for game_id in inserted])
                return inserted

        return await self.run(run)

    async def get(self, game_id: str) -> ArchivedGame | None:
        async def run(conn: AsyncConnection) -> Any:
            return (await conn.execute(select(games).where(games.c.id == game_id))).first()

        row = await self.run(run)
        return None if row is None else ArchivedGame(**row._mapping)

    async def export(self, where: ExportFilter
                     ) -> AsyncIterator[tuple[int, str, str, int | None]]:
        """(ended_ms, id, document, rated_order) of every game matching where, in the order
        they ended, read EXPORT_BATCH rows at a time (a server-side cursor on PostgreSQL)."""
        query = select(games.c.ended_ms, games.c.id, games.c.document,
                       games.c.rated_order).where(
            *_conditions(where)).order_by(games.c.ended_ms, games.c.id)
        if where.player is not None:  # read in the order of the player's own index
            query = query.where(games.c.id.in_(select(game_players.c.game_id).where(
                game_players.c.player_id == where.player)))
        try:
            async with self._engine.connect() as conn:
                rows = await conn.stream(query.execution_options(yield_per=EXPORT_BATCH))
                async for ended_ms, game_id, document, rated_order in rows:
                    yield ended_ms, game_id, document, rated_order
        except SQLAlchemyError as error:
            if _faults(error):
                raise ArchiveUnavailable(str(error.__cause__ or error)) from error
            raise

    async def rebuild_ratings(self, write: bool = False) -> tuple[int, int]:
        """standings.rebuild in one transaction: (rated games replayed, standings that
        differed from the live ones); with write, the rebuilt ones replace them."""
        async def run(conn: AsyncConnection) -> tuple[int, int]:
            async with conn.begin():
                return await standings.rebuild(conn, write)

        return await self.run(run)

    async def count(self) -> int:
        return await self.run(lambda conn: _scalar(conn, select(func.count()).select_from(games)))

    async def forget_ended_before(self, ended_ms: int) -> int:
        """Deletes the games that ended before ended_ms (the retention setting); how many."""
        async def run(conn: AsyncConnection) -> int:
            async with conn.begin():
                return (await conn.execute(delete(games).where(games.c.ended_ms < ended_ms))
                        ).rowcount

        return await self.run(run)

    async def ping(self) -> None:
        await self.run(lambda conn: conn.execute(text("SELECT 1")))

    async def close(self) -> None:
        await self._engine.dispose()

    async def run(self, work: Any) -> Any:
        """work(connection)'s answer; ArchiveUnavailable when the database fails."""
        try:
            async with self._engine.connect() as conn:
                return await work(conn)
        except SQLAlchemyError as error:
            if _faults(error):
                raise ArchiveUnavailable(str(error.__cause__ or error)) from error
            raise
        except (OSError, ConnectionError) as error:
            raise ArchiveUnavailable(str(error)) from error


async def _scalar(conn: AsyncConnection, query: Any) -> Any:
    return (await conn.execute(query)).scalar_one()


def _conditions(where: ExportFilter) -> list[Any]:
    found = []
    if where.id is not None:
        found.append(games.c.id == where.id)
    if where.game is not None:
        found.append(games.c.game == where.game)
    if where.since_ms is not None:
        found.append(games.c.ended_ms >= where.since_ms)
    if where.until_ms is not None:
        found.append(games.c.ended_ms < where.until_ms)
    if where.after is not None:
        ended_ms, game_id = where.after
        # Written out rather than as a row comparison: SQLite and every engine plan it.
        found.append(or_(games.c.ended_ms > ended_ms,
                         and_(games.c.ended_ms == ended_ms, games.c.id > game_id)))
    return found


def _sqlite_pragmas(connection: Any, _record: Any) -> None:
    """WAL lets readers go on while the drain writes; busy_timeout makes two processes on
    one file wait for each other instead of failing."""
    cursor = connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA busy_timeout=5000")
    cursor.close()
