"""Reviews in the archive's database: asked for once per game and seat, claimed by one
replica at a time under a lease, their progress and decisions written as they come.

A claim is a compare-and-set of the row's holder and lease: whoever changes the row from
the lease it read wins, everyone else reads again. A holder writes progress only while
the row is still its own, so a replica that lost its lease (it stalled past it, another
took over) stops instead of overwriting the newcomer.
"""

import secrets
from dataclasses import dataclass

from sqlalchemy import and_, func, select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from service.sql.database import Database, insert
from service.sql.schema import reviews

CANDIDATES = 4  # rows a claim tries before giving up until the next pass


@dataclass(frozen=True)
class Review:
    """A row of tables.reviews."""
    game_id: str
    seat: int
    status: str          # queued, running or done
    done: int
    total: int | None
    level: int
    requested_ms: int
    holder: str | None
    lease_until_ms: int
    document: str        # {"decisions": [...]} so far, JSON


@dataclass(frozen=True)
class Lease:
    """A replica's hold on one review, until `until_ms`."""
    game_id: str
    seat: int
    holder: str
    until_ms: int


class Reviews:
    def __init__(self, database: Database) -> None:
        self.database = database

    async def request(self, game_id: str, seat: int, level: int, now_ms: int) -> Review:
        """The review of (game_id, seat), asked for now unless it was before."""
        statement = insert(self.database.dialect, reviews).values(
            game_id=game_id, seat=seat, status="queued", done=0, total=None, level=level,
            requested_ms=now_ms, holder=None, lease_until_ms=0,
            document='{"decisions":[]}').on_conflict_do_nothing()

        async def run(conn: AsyncConnection) -> None:
            async with conn.begin():
                await conn.execute(statement)

        await self.database.run(run)
        found = await self.get(game_id, seat)
        assert found is not None, "a review just asked for is in its table"
        return found

    async def get(self, game_id: str, seat: int) -> Review | None:
        async def run(conn: AsyncConnection) -> Review | None:
            row = (await conn.execute(select(reviews).where(
                reviews.c.game_id == game_id, reviews.c.seat == seat))).first()
            return None if row is None else Review(**row._mapping)

        return await self.database.run(run)

    async def next_lapse(self) -> int | None:
        """When the next review not done may be claimed (epoch ms; in the past: now),
        None if every review is done."""
        async def run(conn: AsyncConnection) -> int | None:
            return (await conn.execute(select(func.min(reviews.c.lease_until_ms)).where(
                reviews.c.status != "done"))).scalar()

        return await self.database.run(run)

    async def claim(self, now_ms: int, lease_ms: int) -> tuple[Lease, Review] | None:
        """The oldest review not done whose lease has lapsed, now held by this caller."""
        holder = secrets.token_hex(8)

        async def run(conn: AsyncConnection) -> tuple[Lease, Review] | None:
            async with conn.begin():
                waiting = (await conn.execute(
                    select(reviews).where(reviews.c.status != "done",
                                          reviews.c.lease_until_ms < now_ms)
                    .order_by(reviews.c.requested_ms, reviews.c.game_id, reviews.c.seat)
                    .limit(CANDIDATES))).all()
            for row in waiting:
                lease = Lease(row.game_id, row.seat, holder, now_ms + lease_ms)
                async with conn.begin():
                    taken = await conn.execute(
                        update(reviews).where(
                            reviews.c.game_id == row.game_id, reviews.c.seat == row.seat,
                            reviews.c.lease_until_ms == row.lease_until_ms,
                            reviews.c.status != "done")
                        .values(status="running", holder=holder,
                                lease_until_ms=lease.until_ms))
                if taken.rowcount == 1:
                    claimed = Review(**{**row._mapping, "status": "running",
                                        "holder": holder, "lease_until_ms": lease.until_ms})
                    return lease, claimed
            return None

        return await self.database.run(run)

    async def progress(self, lease: Lease, until_ms: int, done: int, total: int,
                       document: str, finished: bool) -> Lease | None:
        """Writes a held review's progress and extends its lease to until_ms; the new
        lease, or None when the review is no longer this holder's (nothing written)."""
        async def run(conn: AsyncConnection) -> bool:
            async with conn.begin():
                written = await conn.execute(
                    update(reviews).where(and_(
                        reviews.c.game_id == lease.game_id, reviews.c.seat == lease.seat,
                        reviews.c.holder == lease.holder,
                        reviews.c.lease_until_ms == lease.until_ms))
                    .values(done=done, total=total, document=document,
                            status="done" if finished else "running",
                            holder=None if finished else lease.holder,
                            lease_until_ms=0 if finished else until_ms))
                return written.rowcount == 1

        if not await self.database.run(run):
            return None
        return Lease(lease.game_id, lease.seat, lease.holder, until_ms)
