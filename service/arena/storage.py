"""The arena's series in the database: each series, and each of its games once started.

What a series needs to go on after any replica dies is here: its spec and secret, which
games were started (a row written before the game is made), and which ended with what
outcome (written once: `ended_ms IS NULL` guards the update, and the count of games done
moves in the same transaction).
"""

import json
from dataclasses import dataclass
from typing import Any

from sqlalchemy import func, select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from service.sql.database import Database, insert
from service.sql.schema import series, series_games


@dataclass(frozen=True)
class SeriesRow:
    id: str
    owner: str
    game: str
    players: int
    spec: dict[str, Any]
    secret: str
    status: str
    games_total: int
    games_done: int
    created_ms: int
    finished_ms: int | None


@dataclass(frozen=True)
class SeriesGame:
    index: int
    deal: int
    rotation: int
    game_id: str
    started_ms: int
    ended_ms: int | None
    outcome: dict[str, Any] | None


class SeriesBook:
    def __init__(self, database: Database) -> None:
        self.database = database

    async def create(self, row: SeriesRow) -> None:
        async def run(conn: AsyncConnection) -> None:
            async with conn.begin():
                await conn.execute(series.insert().values(
                    id=row.id, owner=row.owner, game=row.game, players=row.players,
                    spec=json.dumps(row.spec), secret=row.secret, status=row.status,
                    games_total=row.games_total, games_done=0, created_ms=row.created_ms))

        await self.database.run(run)

    async def get(self, series_id: str) -> SeriesRow | None:
        async def run(conn: AsyncConnection) -> Any:
            return (await conn.execute(select(series).where(series.c.id == series_id))).first()

        row = await self.database.run(run)
        return None if row is None else _series(row)

    async def running(self, limit: int) -> list[SeriesRow]:
        """The oldest series still being played."""
        async def run(conn: AsyncConnection) -> Any:
            return (await conn.execute(select(series).where(series.c.status == "running")
                                       .order_by(series.c.created_ms).limit(limit))).all()

        return [_series(row) for row in await self.database.run(run)]

    async def running_of(self, owner: str) -> int:
        """How many series the owner has running."""
        async def run(conn: AsyncConnection) -> Any:
            return (await conn.execute(select(func.count()).select_from(series).where(
                series.c.owner == owner, series.c.status == "running"))).scalar_one()

        return await self.database.run(run)

    async def games(self, series_id: str, unfinished_only: bool = False) -> list[SeriesGame]:
        async def run(conn: AsyncConnection) -> Any:
            query = select(series_games).where(series_games.c.series_id == series_id)
            if unfinished_only:
                query = query.where(series_games.c.ended_ms.is_(None))
            return (await conn.execute(query.order_by(series_games.c.game_index))).all()

        return [_game(row) for row in await self.database.run(run)]

    async def started(self, series_id: str) -> int:
        """How many of the series' games were started (their indexes are 0 to that - 1)."""
        async def run(conn: AsyncConnection) -> Any:
            return (await conn.execute(select(func.count()).select_from(series_games).where(
                series_games.c.series_id == series_id))).scalar_one()

        return await self.database.run(run)

    async def start(self, series_id: str, game: SeriesGame) -> bool:
        """Writes that game is started; False if it was before (by another replica)."""
        async def run(conn: AsyncConnection) -> bool:
            async with conn.begin():
                done = await conn.execute(insert(conn.dialect.name, series_games).values(
                    series_id=series_id, game_index=game.index, deal=game.deal,
                    rotation=game.rotation, game_id=game.game_id, started_ms=game.started_ms,
                ).on_conflict_do_nothing())
                return done.rowcount == 1

        return await self.database.run(run)

    async def end(self, series_id: str, index: int, ended_ms: int,
                  outcome: dict[str, Any]) -> bool:
        """Writes a game's outcome, once; False if it was written before."""
        async def run(conn: AsyncConnection) -> bool:
            async with conn.begin():
                done = await conn.execute(update(series_games).where(
                    series_games.c.series_id == series_id, series_games.c.game_index == index,
                    series_games.c.ended_ms.is_(None)).values(ended_ms=ended_ms,
                                                              outcome=json.dumps(outcome)))
                if done.rowcount != 1:
                    return False
                await conn.execute(update(series).where(series.c.id == series_id).values(
                    games_done=series.c.games_done + 1))
                return True

        return await self.database.run(run)

    async def finish(self, series_id: str, finished_ms: int) -> bool:
        """The series finished, once, and only once every game's outcome is written: a
        replica that saw no game in play may have looked just before another replica
        started the last ones. False if it was not running or a game is unrecorded."""
        return await self._close(series_id, "finished", finished_ms,
                                 series.c.games_done == series.c.games_total)

    async def cancel(self, series_id: str, finished_ms: int) -> bool:
        """The series cancelled, once; False if it was not running."""
        return await self._close(series_id, "cancelled", finished_ms)

    async def _close(self, series_id: str, status: str, finished_ms: int, *also: Any) -> bool:
        async def run(conn: AsyncConnection) -> bool:
            async with conn.begin():
                done = await conn.execute(update(series).where(
                    series.c.id == series_id, series.c.status == "running", *also).values(
                    status=status, finished_ms=finished_ms))
                return done.rowcount == 1

        return await self.database.run(run)


def _series(row: Any) -> SeriesRow:
    return SeriesRow(row.id, row.owner, row.game, row.players, json.loads(row.spec),
                     row.secret, row.status, row.games_total, row.games_done,
                     row.created_ms, row.finished_ms)


def _game(row: Any) -> SeriesGame:
    return SeriesGame(row.game_index, row.deal, row.rotation, row.game_id, row.started_ms,
                      row.ended_ms, None if row.outcome is None else json.loads(row.outcome))
