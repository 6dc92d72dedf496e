"""Reviews computed in the background: one at a time per worker process, claimed once
across replicas through the archive (service.reviews.storage), kept there once done.

The search runs in a thread of the reviewer's own (one: the CPU a replica gives reviews is
one core at most, whatever is asked for), and the core's search releases the GIL, so the
event loop goes on serving requests. Progress is written after every decision, which also
renews the lease; a replica that dies leaves a lease that lapses, and another replica
carries on from the last decision written. An idle reviewer sleeps until a review is
asked for (the reviews' bell, on every replica) or the next lease lapses
(service.replica.wakeups).
"""

import asyncio
import json
import logging
import math
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import core.ai
from service.config import Settings
from service.games.sessions import (
    GameNotFound,
    GameNotOver,
    InvalidGame,
    Session,
    Sessions,
)
from service.http.errors import ApiError
from service.replica.background import Background
from service.replica.wakeups import LONGEST_SECONDS, Bell
from service.reviews.review import decisions, marked, reviewed
from service.reviews.storage import Lease, Review, Reviews
from service.sql.database import DatabaseUnavailable
from service.store import Bells, StoreUnavailable

log = logging.getLogger("service.reviews.review")

RETRY_SECONDS = 2.0  # after the archive failed


class SeatOutOfRange(ApiError):
    """A review of a seat the game does not have."""
    status = 422
    type = "invalid-seat"
    when = ", a review of a seat the game does not have (`invalid-seat`)"
    when_order = 40
    sentence = "This game has no such seat."


class ReviewNotFound(ApiError):
    """No review of this seat was asked for."""
    status = 404
    type = "review-not-found"
    when = ", nobody asked for this review (`review-not-found`)"
    when_order = 40
    sentence = "No review of this seat was asked for yet."


def now_ms() -> int:
    return int(time.time() * 1000)


class Reviewer(Background):
    def __init__(self, sessions: Sessions, reviews: Reviews, store: Bells,
                 settings: Settings) -> None:
        self.sessions = sessions
        self.reviews = reviews
        self.level = settings.review_level
        self.lease_ms = settings.review_lease_seconds * 1000
        self.bell = Bell(store, "reviews")
        self._search = ThreadPoolExecutor(1, thread_name_prefix="review")

    @staticmethod
    def check(session: Session, seat: int) -> None:
        """A review needs the game over (it shows every card and what the AI would have
        done) and one of its seats."""
        if session.status != "over":
            raise GameNotOver("a review shows every card and the AI's view of each"
                              " decision, so it opens once the game is over")
        if not 0 <= seat < session.state.players:
            raise SeatOutOfRange(f"this game has seats 0 to {session.state.players - 1},"
                                 f" not seat {seat}")
        if not core.ai.supports(session.meta.game):
            raise InvalidGame(f"no AI reviews {session.meta.game!r} yet")

    async def request(self, session: Session, seat: int) -> Review:
        """The review of seat, queued unless it was asked for before."""
        self.check(session, seat)
        review = await self.reviews.request(session.game_id, seat, self.level, now_ms())
        if review.status != "done":
            await self.bell.ring()  # whichever replica is idle takes it
        return review

    async def get(self, session: Session, seat: int) -> Review:
        if not 0 <= seat < session.state.players:  # a path that names no seat: not found
            raise ReviewNotFound(f"this game has seats 0 to {session.state.players - 1},"
                                 f" not seat {seat}")
        self.check(session, seat)
        review = await self.reviews.get(session.game_id, seat)
        if review is None:
            raise ReviewNotFound(f"no review of seat {seat} was asked for: POST"
                                 f" /v1/games/{session.game_id}/reviews {{\"seat\": {seat}}}")
        return review

    async def stop(self) -> None:
        await super().stop()
        self._search.shutdown(wait=False, cancel_futures=True)

    async def _run(self) -> None:
        while True:
            due = time.time() + RETRY_SECONDS
            try:
                claimed = await self.reviews.claim(now_ms(), self.lease_ms)
                if claimed is None:
                    lapse = await self.reviews.next_lapse()
                    due = math.inf if lapse is None else lapse / 1000
            except DatabaseUnavailable as error:
                log.warning("reviews: the archive is unavailable: %s", error)
                claimed = None
            except Exception:  # the reviewer goes on: a request's fault stays that request's
                log.exception("reviews: a claim failed")
                claimed = None
            if claimed is None:
                await self.bell.sleep_until(due, LONGEST_SECONDS)
                continue
            try:
                await self._compute(*claimed)
            except (DatabaseUnavailable, StoreUnavailable, GameNotFound) as error:
                # The lease lapses and this or another replica takes the review up again.
                log.warning("review of %s seat %s paused: %s", claimed[1].game_id,
                            claimed[1].seat, error)
            except Exception:
                log.exception("review of %s seat %s failed", claimed[1].game_id, claimed[1].seat)

    async def _compute(self, lease: Lease, review: Review) -> None:
        session = await self.sessions.load(review.game_id)
        initial, entries = await self.sessions.beginning(session)
        loop = asyncio.get_running_loop()
        todo = await loop.run_in_executor(  # the game played again: off the event loop too
            self._search, lambda: list(decisions(initial, entries, review.seat)))
        found: list[dict[str, Any]] = json.loads(review.document)["decisions"]
        held = await self._write(lease, found, len(todo), finished=False)  # the count, at once
        for decision in todo[len(found):]:
            if held is None:
                return  # the lease lapsed and another replica holds the review now
            found.append(await loop.run_in_executor(self._search, reviewed, decision,
                                                    review.seat, review.level))
            held = await self._write(held, found, len(todo), finished=False)
        if held is not None:
            await self._write(held, marked(found), len(todo), finished=True)

    async def _write(self, lease: Lease, found: list[dict[str, Any]], total: int,
                     finished: bool) -> Lease | None:
        document = json.dumps({"decisions": found}, separators=(",", ":"))
        return await self.reviews.progress(lease, now_ms() + self.lease_ms, len(found), total,
                                           document, finished)
