"""The archive's games in the SQL database: finished games written once, read back,
exported in order, and those the database refused set aside."""

from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import msgspec
from sqlalchemy import and_, delete, func, or_, select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from service.players import standings
from service.players.standings import Outcome
from service.sql.database import Database, DatabaseRefused, insert
from service.sql.schema import game_players, games, refused_games

EXPORT_BATCH = 500  # rows fetched at a time by an export: its memory whatever its size


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

    def packed(self) -> bytes:
        return msgspec.msgpack.encode(self.__dict__)

    @staticmethod
    def unpacked(record: bytes) -> "ArchivedGame":
        return ArchivedGame(**msgspec.msgpack.decode(record))


@dataclass(frozen=True)
class Refused:
    """A finished game set aside because the database refused its record."""
    id: str
    ended_ms: int
    refused_ms: int
    attempts: int
    error: str


@dataclass(frozen=True)
class ExportFilter:
    game: str | None = None
    since_ms: int | None = None     # ended at or after
    until_ms: int | None = None     # ended before
    after: tuple[int, str] | None = None  # resume after this (ended_ms, id)
    player: str | None = None       # only games this player sat in
    id: str | None = None           # only this game


class Archive:
    """The archive's games over the shared database."""

    def __init__(self, database: Database) -> None:
        self.database = database

    async def write(self, batch: list[ArchivedGame]) -> list[str]:
        """Inserts each game not archived yet, with its players' standings and ratings
        (service.players.standings), in one transaction; the ids inserted (a game archived
        before is left as it was, and counted once)."""
        if not batch:
            return []
        statement = insert(self.database.dialect, games).on_conflict_do_nothing(
            index_elements=["id"]).returning(games.c.id)
        rows = [game.__dict__ for game in batch]
        try:
            outcomes = {game.id: Outcome.of(game.id, game.ended_ms, game.document)
                        for game in batch}
        except msgspec.MsgspecError as error:  # a document the standings cannot read
            raise DatabaseRefused(f"unreadable document: {error}") from error

        async def run(conn: AsyncConnection) -> list[str]:
            async with conn.begin():
                if any(any(outcome.seats) for outcome in outcomes.values()):
                    await standings.lock(conn)  # standings change: one writer at a time
                inserted = [row[0] for row in await conn.execute(statement, rows)]
                await standings.record(conn, [outcomes[game_id] for game_id in inserted])
                return inserted

        return await self.database.run(run)

    async def set_aside(self, game: ArchivedGame, error: str, now_ms: int) -> None:
        """Keeps a game whose record the database refused in refused_games, with why
        (a game set aside before counts one more attempt)."""
        values = insert(self.database.dialect, refused_games).values(
            id=game.id, ended_ms=game.ended_ms, refused_ms=now_ms, attempts=1, error=error,
            record=game.packed())
        statement = values.on_conflict_do_update(index_elements=["id"], set_={
            "refused_ms": now_ms, "error": error,
            "attempts": refused_games.c.attempts + 1})

        async def run(conn: AsyncConnection) -> None:
            async with conn.begin():
                await conn.execute(statement)

        await self.database.run(run)

    async def refused(self) -> list[Refused]:
        """The games set aside, the earliest ended first."""
        query = select(refused_games.c.id, refused_games.c.ended_ms, refused_games.c.refused_ms,
                       refused_games.c.attempts, refused_games.c.error
                       ).order_by(refused_games.c.ended_ms, refused_games.c.id)
        return [Refused(*row) for row in await self.database.run(
            lambda conn: _rows(conn, query))]

    async def refused_count(self) -> int:
        return await self.database.run(lambda conn: _scalar(
            conn, select(func.count()).select_from(refused_games)))

    async def retry_refused(self, ids: list[str] | None, now_ms: int) -> dict[str, str | None]:
        """Writes the games set aside (those of ids; all if None) again: each game's
        error, None if it is archived now (and no longer set aside)."""
        query = select(refused_games.c.id, refused_games.c.record)
        if ids is not None:
            query = query.where(refused_games.c.id.in_(ids))
        outcome: dict[str, str | None] = {}
        for game_id, record in await self.database.run(lambda conn: _rows(conn, query)):
            try:
                await self.write([ArchivedGame.unpacked(record)])
            except DatabaseRefused as error:
                outcome[game_id] = str(error)
                await self._refused_again(game_id, str(error), now_ms)
                continue
            # Written (or archived before): a crash before this delete retries a game
            # the archive already keeps, which writes nothing and then deletes it.
            await self.database.run(lambda conn, game_id=game_id: _in_transaction(
                conn, delete(refused_games).where(refused_games.c.id == game_id)))
            outcome[game_id] = None
        return outcome

    async def _refused_again(self, game_id: str, error: str, now_ms: int) -> None:
        await self.database.run(lambda conn: _in_transaction(conn, update(refused_games).where(
            refused_games.c.id == game_id).values(
            error=error, refused_ms=now_ms, attempts=refused_games.c.attempts + 1)))

    async def get(self, game_id: str) -> ArchivedGame | None:
        """The archived game; or the one set aside under its id, so that a game the
        database refused still answers at its URL once the live store forgot it."""
        async def run(conn: AsyncConnection) -> Any:
            found = (await conn.execute(select(games).where(games.c.id == game_id))).first()
            return found or (await conn.execute(select(refused_games.c.record).where(
                refused_games.c.id == game_id))).first()

        row = await self.database.run(run)
        if row is None:
            return None
        return ArchivedGame(**row._mapping) if len(row) > 1 else ArchivedGame.unpacked(row[0])

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
        async for ended_ms, game_id, document, rated_order in self.database.stream(
                query, EXPORT_BATCH):
            yield ended_ms, game_id, document, rated_order

    async def rebuild_ratings(self, write: bool = False) -> tuple[int, int]:
        """standings.rebuild in one transaction: (rated games replayed, standings that
        differed from the live ones); with write, the rebuilt ones replace them."""
        async def run(conn: AsyncConnection) -> tuple[int, int]:
            async with conn.begin():
                return await standings.rebuild(conn, write)

        return await self.database.run(run)

    async def count(self) -> int:
        return await self.database.run(
            lambda conn: _scalar(conn, select(func.count()).select_from(games)))

    async def forget_ended_before(self, ended_ms: int) -> int:
        """Deletes the games that ended before ended_ms (the retention setting); how many."""
        async def run(conn: AsyncConnection) -> int:
            async with conn.begin():
                return (await conn.execute(delete(games).where(games.c.ended_ms < ended_ms))
                        ).rowcount

        return await self.database.run(run)


async def _scalar(conn: AsyncConnection, query: Any) -> Any:
    return (await conn.execute(query)).scalar_one()


async def _rows(conn: AsyncConnection, query: Any) -> list[Any]:
    return list(await conn.execute(query))


async def _in_transaction(conn: AsyncConnection, statement: Any) -> None:
    async with conn.begin():
        await conn.execute(statement)


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
