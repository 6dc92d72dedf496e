"""Players' standings, updated inside the archive's transaction as games are written.

For every archived game, each seat bound to a player (a person, a bot or an AI level)
counts a game and, at rank 1, a win; a rated game also updates the ratings of its
players, in the order the games are given a `rated_order`: the lock taken before it
(PostgreSQL's advisory lock; SQLite's single writer) makes that order the order the
updates happened in, so `rebuild()` replays the rated games by it and reaches every
rating exactly. AI levels keep their calibrated skill (service.players.ratings).
"""

import json
import math
from dataclasses import dataclass, replace
from typing import Any

import msgspec
from sqlalchemy import bindparam, delete, func, or_, select, text, tuple_, update
from sqlalchemy.ext.asyncio import AsyncConnection

from service.players import ratings
from service.sql.database import insert
from service.sql.schema import (
    game_players,
    games,
    players,
    rank_counts,
    rating_changes,
    standings,
)

RATINGS_LOCK = 0x63726162  # pg_advisory_xact_lock's key: "crab"
RANKED_AFTER = 5           # rated games before a player is on a leaderboard
RECENT = 50                # rated games a standing keeps the ratings after (a profile's chart)


class _Seat(msgspec.Struct):
    player: str | None = None


class _Place(msgspec.Struct):
    seat: int
    rank: int


class _Result(msgspec.Struct):
    ranking: list[_Place]


class _Document(msgspec.Struct):
    """The fields of an archived game's document (service.archive.writer.document) this reads
    (a record written before players existed has no player in its seats)."""
    game: str = ""
    players: int = 0
    seats: list[_Seat] = []
    result: _Result | None = None
    rated: bool = False


@dataclass(frozen=True)
class Outcome:
    """Who sat where in a finished game and how they ranked."""
    game_id: str
    game: str
    players: int
    ended_ms: int
    rated: bool
    seats: list[str | None]   # each seat's player id
    ranks: list[int]          # each seat's rank, 1 the best

    @staticmethod
    def of(game_id: str, ended_ms: int, document: str) -> "Outcome":
        found = msgspec.json.decode(document, type=_Document)
        ranks = [0] * len(found.seats)
        for place in found.result.ranking if found.result else ():
            ranks[place.seat] = place.rank
        return Outcome(game_id, found.game, found.players, ended_ms,
                       found.rated and all(seat.player for seat in found.seats),
                       [seat.player for seat in found.seats], ranks)


@dataclass(frozen=True)
class Standing:
    player_id: str
    pool: str                 # the rating's pool (service.players.ratings.pool)
    mu: float
    sigma: float
    rated_games: int = 0
    games: int = 0
    wins: int = 0
    # The last RECENT rated games' ratings, oldest first: (game id, ended ms, mu, sigma).
    # Kept in the row so that a profile's chart costs no read of rating_changes.
    recent: tuple[tuple[str, int, float, float], ...] = ()

    @property
    def skill(self) -> ratings.Skill:
        return ratings.Skill(self.mu, self.sigma)

    def row(self) -> dict[str, Any]:
        skill = self.skill
        return {"player_id": self.player_id, "pool": self.pool, "mu": self.mu,
                "sigma": self.sigma, "conservative": skill.conservative,
                "rated_games": self.rated_games, "games": self.games, "wins": self.wins,
                "ranked": self.ranked, "bucket": bucket(skill.conservative),
                "recent": json.dumps(self.recent)}

    @property
    def ranked(self) -> bool:
        """On the leaderboard: enough rated games, or an AI level (the scale's landmarks)."""
        return self.rated_games >= RANKED_AFTER or ratings.level_of(self.player_id) is not None


def bucket(conservative: float) -> int:
    """The tenth of a point a value falls in (rank_counts)."""
    return math.floor(conservative * 10)


def fresh(player_id: str, pool: str) -> Standing:
    """A standing before any game: the model's default skill, or an AI level's anchor."""
    level = ratings.level_of(player_id)
    skill = (ratings.anchor(pool, level) if level is not None else None) or ratings.DEFAULT
    return Standing(player_id, pool, skill.mu, skill.sigma)


class Ledger:
    """Standings being updated in memory, game by game, then saved at once."""

    def __init__(self, known: dict[tuple[str, str], Standing]) -> None:
        self.before = dict(known)
        self.standings = known
        self.changes: list[dict[str, Any]] = []

    def get(self, player_id: str, pool: str) -> Standing:
        return self.standings.get((player_id, pool)) or fresh(player_id, pool)

    def count(self, outcome: Outcome) -> None:
        """A game played, and a win at rank 1, for each bound seat."""
        pool = ratings.pool(outcome.game, outcome.players)
        for player_id, rank in zip(outcome.seats, outcome.ranks):
            if player_id is not None:
                standing = self.get(player_id, pool)
                self.standings[player_id, pool] = replace(
                    standing, games=standing.games + 1, wins=standing.wins + (rank == 1))

    def rate(self, outcome: Outcome, order: int) -> None:
        """The rating update of one rated game."""
        pool = ratings.pool(outcome.game, outcome.players)
        before = [self.get(player_id, pool) for player_id in outcome.seats]  # type: ignore[arg-type]
        fixed = [ratings.level_of(standing.player_id) is not None for standing in before]
        after = ratings.rated([standing.skill for standing in before], outcome.ranks, fixed)
        for standing, skill, keep in zip(before, after, fixed):
            recent = standing.recent if keep else (
                *standing.recent, (outcome.game_id, outcome.ended_ms, skill.mu, skill.sigma)
            )[-RECENT:]
            self.standings[standing.player_id, pool] = replace(
                standing, mu=skill.mu, sigma=skill.sigma,
                rated_games=standing.rated_games + 1, recent=recent)
            if not keep:
                self.changes.append({"game_id": outcome.game_id, "player_id": standing.player_id,
                                     "pool": pool, "rated_order": order,
                                     "ended_ms": outcome.ended_ms, "mu": skill.mu,
                                     "sigma": skill.sigma})


async def record(conn: AsyncConnection, written: list[Outcome]) -> None:
    """Inside the transaction that archived `written`: their seats, counts and ratings."""
    bound = [outcome for outcome in written if any(outcome.seats)]
    if not bound:
        return
    bound.sort(key=lambda outcome: (outcome.ended_ms, outcome.game_id))
    await conn.execute(game_players.insert(), [
        {"game_id": outcome.game_id, "seat": seat, "player_id": player_id,
         "game": outcome.game, "ended_ms": outcome.ended_ms, "rank": outcome.ranks[seat]}
        for outcome in bound for seat, player_id in enumerate(outcome.seats) if player_id])
    ledger = Ledger(await _known(conn, bound))
    for outcome in bound:
        ledger.count(outcome)
    rated = [outcome for outcome in bound if outcome.rated]
    if rated:
        last = (await conn.execute(select(func.max(games.c.rated_order)))).scalar() or 0
        orders = [(outcome, last + index) for index, outcome in enumerate(rated, 1)]
        for outcome, order in orders:
            ledger.rate(outcome, order)
        await conn.execute(update(games).where(games.c.id == bindparam("rated_id"))
                           .values(rated_order=bindparam("order")),
                           [{"rated_id": outcome.game_id, "order": order}
                            for outcome, order in orders])
        if ledger.changes:  # none when every seat is an AI level (their ratings are fixed):
            # an executemany of no rows would insert one row of NULLs
            await conn.execute(rating_changes.insert(), ledger.changes)
    await _save(conn, ledger)
    seen = max(outcome.ended_ms for outcome in bound)
    await conn.execute(update(players).where(
        players.c.id.in_({player for outcome in bound for player in outcome.seats if player}),
        or_(players.c.last_seen_ms.is_(None), players.c.last_seen_ms < seen))
        .values(last_seen_ms=seen))


async def lock(conn: AsyncConnection) -> None:
    """Standings change one transaction at a time (SQLite has one writer anyway): each
    reads them, and writes them back with its games counted and ratings updated."""
    if conn.dialect.name == "postgresql":
        await conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": RATINGS_LOCK})


async def _known(conn: AsyncConnection, outcomes: list[Outcome]) -> dict[tuple[str, str], Standing]:
    wanted = {(player, ratings.pool(o.game, o.players))
              for o in outcomes for player in o.seats if player}
    rows = await conn.execute(select(standings).where(
        standings.c.player_id.in_({player for player, _ in wanted}),
        standings.c.pool.in_({pool for _, pool in wanted})))
    found = {}
    for row in rows.mappings():
        if (row["player_id"], row["pool"]) in wanted:
            found[row["player_id"], row["pool"]] = _standing(row)
    return found


async def _save(conn: AsyncConnection, ledger: Ledger, recount_moved: bool = True) -> None:
    """The ledger's standings written, and (recount_moved) the rank counts of every
    bucket a ranked standing left or entered counted again."""
    values = insert(conn.dialect.name, standings)
    statement = values.on_conflict_do_update(
        index_elements=["player_id", "pool"],
        set_={column: values.excluded[column] for column in
              ("mu", "sigma", "conservative", "rated_games", "games", "wins", "ranked",
               "bucket", "recent")})
    if ledger.standings:  # (a rebuild of an archive nobody played in has none)
        await conn.execute(statement, [standing.row() for standing in ledger.standings.values()])
    if not recount_moved:
        return
    touched = set()
    for key, after in ledger.standings.items():
        before = ledger.before.get(key)
        moved = before is None or (before.mu, before.sigma, before.ranked) != \
            (after.mu, after.sigma, after.ranked)
        for standing in (before, after) if moved else ():
            if standing is not None and standing.ranked:
                touched.add((standing.pool, bucket(standing.skill.conservative)))
    await recount(conn, touched)


async def recount(conn: AsyncConnection, buckets: set[tuple[str, int]] | None) -> None:
    """rank_counts of these (pool, bucket)s (None: all) counted again from standings."""
    if buckets is not None and not buckets:
        return
    which = [] if buckets is None else [tuple_(rank_counts.c.pool, rank_counts.c.bucket)
                                        .in_(sorted(buckets))]
    await conn.execute(delete(rank_counts).where(*which))
    counted = select(standings.c.pool, standings.c.bucket, func.count()).where(
        standings.c.ranked == True,  # noqa: E712 - SQL, where `is` is no comparison
        *([] if buckets is None else [tuple_(standings.c.pool, standings.c.bucket)
                                      .in_(sorted(buckets))])
    ).group_by(standings.c.pool, standings.c.bucket)
    await conn.execute(rank_counts.insert().from_select(["pool", "bucket", "ranked"], counted))


async def rebuild(conn: AsyncConnection, write: bool = False) -> tuple[int, int]:
    """Every rating computed again from the archive's rated games, in their order:
    (rated games replayed, standings that differed from the live ones). With write, the
    rebuilt ratings, their changes and the rank counts replace the live ones (the counts
    of games and wins are kept); without, nothing is written."""
    await lock(conn)
    live: dict[tuple[str, str], Standing] = {}
    for row in (await conn.execute(select(standings))).mappings():
        live[row["player_id"], row["pool"]] = _standing(row)
    # Each standing from its first skill, with the games and wins it has counted.
    start = {key: replace(fresh(*key), games=known.games, wins=known.wins)
             for key, known in live.items()}
    rows = await conn.stream(
        select(games.c.rated_order, games.c.id, games.c.game, games.c.players,
               games.c.ended_ms, game_players.c.seat, game_players.c.player_id,
               game_players.c.rank)
        .join(game_players, game_players.c.game_id == games.c.id)
        .where(games.c.rated_order.is_not(None))
        .order_by(games.c.rated_order, game_players.c.seat)
        .execution_options(yield_per=5000))
    ledger, replayed = Ledger(start), 0
    current: list[Any] = []

    def replay() -> None:
        nonlocal replayed
        first = current[0]
        ledger.rate(Outcome(first.id, first.game, first.players, first.ended_ms, True,
                            [row.player_id for row in current],
                            [row.rank for row in current]), first.rated_order)
        replayed += 1

    async for row in rows:
        if current and row.rated_order != current[0].rated_order:
            replay()
            current = []
        current.append(row)
    if current:
        replay()
    differed = sum(ledger.get(*key) != known for key, known in live.items())
    if not write:
        return replayed, differed
    await conn.execute(delete(rating_changes))
    if ledger.changes:
        await conn.execute(rating_changes.insert(), ledger.changes)
    await _save(conn, ledger, recount_moved=False)
    await recount(conn, None)  # every bucket
    return replayed, differed


def _standing(row: Any) -> Standing:
    return Standing(row["player_id"], row["pool"], row["mu"], row["sigma"], row["rated_games"],
                    row["games"], row["wins"],
                    tuple(tuple(point) for point in json.loads(row["recent"])))  # type: ignore[misc]
