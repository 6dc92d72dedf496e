"""Players in the archive's database: made with a secret key (only its hash is kept),
found by it, shown with their standings, their games paged, and the leaderboards.

The five AI levels are players too (id `ai-<level>`, kind `ai`, no key), written once
with their calibrated skills when the schema is prepared, so that leaderboards and
profiles show everyone on one scale.
"""

import json
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import and_, case, func, or_, select, tuple_
from sqlalchemy.ext.asyncio import AsyncConnection

from service.http.credentials import new_secret, secret_hash
from service.players import ratings
from service.players.standings import bucket, fresh, recount
from service.players.standings import lock as standings_lock
from service.sql.database import Database, insert
from service.sql.schema import (
    game_players,
    games,
    players,
    rank_counts,
    rating_changes,
    standings,
    webhooks,
)

KEY_PREFIX = "crab_pk_"   # so a key is told from a seat token at a glance (and by scanners)
LEVELS = (1, 2, 3, 4, 5)


def new_player_id() -> str:
    return "p_" + secrets.token_urlsafe(12)


@dataclass(frozen=True)
class Player:
    id: str
    name: str
    kind: str
    created_ms: int
    last_seen_ms: int | None


@dataclass(frozen=True)
class Ranked:
    """A leaderboard's line."""
    rank: int
    player: Player
    standing: dict[str, Any]


class Players:
    def __init__(self, database: Database) -> None:
        self.database = database

    async def prepare(self, games: list[str]) -> None:
        """The AI levels as players, each with its fixed skill in every rating pool."""
        now = int(time.time() * 1000)

        async def run(conn: AsyncConnection) -> None:
            async with conn.begin():
                await conn.execute(insert(conn.dialect.name, players).on_conflict_do_nothing(), [
                    {"id": ratings.ai_player(level), "name": f"AI level {level}", "kind": "ai",
                     "key_hash": None, "created_ms": now, "last_seen_ms": None}
                    for level in LEVELS])
                await standings_lock(conn)
                await conn.execute(insert(conn.dialect.name, standings).on_conflict_do_nothing(), [
                    fresh(ratings.ai_player(level), pool).row()
                    for level in LEVELS for pool in ratings.pool_names(games)])
                await recount(conn, {(pool, bucket(fresh(ratings.ai_player(level), pool)
                                                   .skill.conservative))
                                     for level in LEVELS for pool in ratings.pool_names(games)})

        await self.database.run(run)

    async def create(self, name: str, kind: str,
                     with_player: Callable[[str], dict[str, Any]] | None = None
                     ) -> tuple[Player, str]:
        """A new player and its key (shown once: only its hash is kept). with_player
        makes, from the new id, the row of its webhook, kept in the same transaction."""
        key = KEY_PREFIX + new_secret()
        player = Player(new_player_id(), name, kind, int(time.time() * 1000), None)

        async def run(conn: AsyncConnection) -> None:
            async with conn.begin():
                await conn.execute(players.insert().values(
                    **player.__dict__, key_hash=secret_hash(key)))
                if with_player is not None:
                    await conn.execute(webhooks.insert().values(**with_player(player.id)))

        await self.database.run(run)
        return player, key

    async def rename(self, player_id: str, name: str) -> None:
        """The player's new name: leaderboards and profiles show it at once; games
        already played keep the seat names they were played under."""
        async def run(conn: AsyncConnection) -> None:
            async with conn.begin():
                await conn.execute(players.update().where(players.c.id == player_id)
                                   .values(name=name))

        await self.database.run(run)

    async def by_key(self, key: str) -> Player | None:
        async def run(conn: AsyncConnection) -> Any:
            return (await conn.execute(select(players).where(
                players.c.key_hash == secret_hash(key)))).first()

        row = await self.database.run(run)
        return None if row is None else _player(row)

    async def by_ids(self, player_ids: list[str]) -> dict[str, Player]:
        """The players of these ids that exist (AI levels included), by id."""
        async def run(conn: AsyncConnection) -> Any:
            return (await conn.execute(select(players).where(
                players.c.id.in_(player_ids)))).all()

        return {row.id: _player(row) for row in await self.database.run(run)} if player_ids else {}

    async def skill(self, player_id: str, pool: str) -> ratings.Skill:
        """The player's skill in pool (the model's default before any rated game)."""
        async def run(conn: AsyncConnection) -> Any:
            return (await conn.execute(select(standings.c.mu, standings.c.sigma).where(
                standings.c.player_id == player_id, standings.c.pool == pool))).first()

        row = await self.database.run(run)
        return fresh(player_id, pool).skill if row is None else ratings.Skill(row.mu, row.sigma)

    async def profile(self, player_id: str, history: int = 0
                      ) -> tuple[Player, list[dict[str, Any]]] | None:
        """The player and its standing in each pool it has played in (AI levels: all),
        each with its rank and, with history, its last rated games' ratings (oldest
        first): one query, however many pools."""
        async def run(conn: AsyncConnection) -> Any:
            rows = list((await conn.execute(
                select(players, *[column.label(f"s_{column.name}") for column in standings.c],
                       _rank_of_row().label("s_rank"))
                .outerjoin(standings, standings.c.player_id == players.c.id)
                .where(players.c.id == player_id).order_by(standings.c.pool))).mappings())
            if not rows:
                return None
            found = [{column.name: row[f"s_{column.name}"] for column in standings.c}
                     | {"rank": row["s_rank"]} for row in rows if row["s_pool"] is not None]
            for standing in found:
                standing["history"] = [
                    {"game_id": game_id, "ended_ms": ended_ms, "mu": mu, "sigma": sigma}
                    for game_id, ended_ms, mu, sigma in json.loads(standing["recent"])[-history:]
                ] if history else []
            first = rows[0]
            return Player(first["id"], first["name"], first["kind"], first["created_ms"],
                          first["last_seen_ms"]), found

        return await self.database.run(run)

    async def games(self, player_id: str, before: tuple[int, str] | None,
                    limit: int) -> list[dict[str, Any]]:
        """The player's archived games, the latest first: game id, game, seat, rank, ended,
        and each game's table (_with_tables)."""
        async def run(conn: AsyncConnection) -> Any:
            query = select(game_players).where(game_players.c.player_id == player_id)
            if before is not None:
                ended_ms, game_id = before
                query = query.where(or_(game_players.c.ended_ms < ended_ms, and_(
                    game_players.c.ended_ms == ended_ms, game_players.c.game_id < game_id)))
            rows = await conn.execute(query.order_by(
                game_players.c.ended_ms.desc(), game_players.c.game_id.desc()).limit(limit))
            found = [dict(row) for row in rows.mappings()]
            await _with_tables(conn, player_id, found)
            return found

        return await self.database.run(run)

    async def leaderboard(self, pool: str, after: tuple[float, str, int] | None,
                          limit: int) -> list[Ranked]:
        """Ranked standings of a pool, the best first (mu - 3 sigma), after a cursor:
        the last line's value, player and rank (so no page counts what is above it)."""
        async def run(conn: AsyncConnection) -> Any:
            query = (select(standings, players).join(players, players.c.id == standings.c.player_id)
                     .where(standings.c.pool == pool, standings.c.ranked == True))  # noqa: E712
            if after is not None:  # a row comparison: one range of the index, any depth
                value, player_id, _ = after
                query = query.where(tuple_(standings.c.conservative, standings.c.player_id)
                                    < tuple_(value, player_id))
            rows = list((await conn.execute(query.order_by(
                standings.c.conservative.desc(), standings.c.player_id.desc()).limit(limit)
            )).mappings())
            first = 1 if after is None else after[2] + 1
            return [Ranked(first + index, _player(row), dict(row))
                    for index, row in enumerate(rows)]

        return await self.database.run(run)


def _rank_of_row() -> Any:
    """The rank of the standings row of its query (null if not ranked): 1 + the ranked
    standings above it (a higher value, or an equal one and a higher id: the
    leaderboards' order), summed from the buckets above and counted within its own."""
    other = standings.alias("other")
    higher = select(func.coalesce(func.sum(rank_counts.c.ranked), 0)).where(
        rank_counts.c.pool == standings.c.pool, rank_counts.c.bucket > standings.c.bucket
    ).scalar_subquery()
    beside = select(func.count()).select_from(other).where(
        other.c.pool == standings.c.pool, other.c.ranked == True,  # noqa: E712
        other.c.bucket == standings.c.bucket,
        tuple_(other.c.conservative, other.c.player_id)
        > tuple_(standings.c.conservative, standings.c.player_id)).scalar_subquery()
    return case((standings.c.ranked == True, 1 + higher + beside), else_=None)  # noqa: E712


async def _with_tables(conn: AsyncConnection, player_id: str,
                       found: list[dict[str, Any]]) -> None:
    """Adds to each of the player's games its table size and how it ended (`players`,
    `reason`), the other bound seats with their names and ranks (`opponents`), and the
    rating the game left the player with beside the one before (`change`: (mu, sigma)
    before and after; None when the game was not rated): a few indexed reads a page."""
    ids = [row["game_id"] for row in found]
    if not ids:
        return
    tables = {row.id: row for row in await conn.execute(
        select(games.c.id, games.c.players, games.c.reason).where(games.c.id.in_(ids)))}
    seated = await conn.execute(
        select(game_players.c.game_id, game_players.c.seat, game_players.c.player_id,
               game_players.c.rank, players.c.name, players.c.kind)
        .join(players, players.c.id == game_players.c.player_id)
        .where(game_players.c.game_id.in_(ids), game_players.c.player_id != player_id)
        .order_by(game_players.c.game_id, game_players.c.seat))
    others: dict[str, list[dict[str, Any]]] = {}
    for row in seated.mappings():
        others.setdefault(row["game_id"], []).append(dict(row))
    changes = {row.game_id: row for row in await conn.execute(
        select(rating_changes).where(rating_changes.c.player_id == player_id,
                                     rating_changes.c.game_id.in_(ids)))}
    for row in found:
        table = tables.get(row["game_id"])
        row["players"] = table.players if table else None
        row["reason"] = table.reason if table else None
        row["opponents"] = others.get(row["game_id"], [])
        change = changes.get(row["game_id"])
        row["change"] = None if change is None else (await _before(conn, change), change)


async def _before(conn: AsyncConnection, change: Any) -> tuple[float, float]:
    """The player's (mu, sigma) in change's pool before that rated game."""
    earlier = (await conn.execute(
        select(rating_changes.c.mu, rating_changes.c.sigma).where(
            rating_changes.c.player_id == change.player_id,
            rating_changes.c.pool == change.pool,
            rating_changes.c.rated_order < change.rated_order)
        .order_by(rating_changes.c.rated_order.desc()).limit(1))).first()
    return (earlier.mu, earlier.sigma) if earlier else (ratings.DEFAULT.mu, ratings.DEFAULT.sigma)


def _player(row: Any) -> Player:
    return Player(row.id, row.name, row.kind, row.created_ms, row.last_seen_ms)
