"""Turn clocks: whichever replica sees a deadline due applies the timeout, exactly once.

The same index hands AI turns over between replicas: a stopping replica arms, for each
game its AI was playing, an entry due at once, and whichever replica claims it plays on.

Every replica runs one timer task. It sleeps until the earliest deadline of the index
(service.lobby.deadlines), or until a deadline armed earlier than that rings the clocks' bell
(on every replica, through the store; and at the latest after LONGEST_SECONDS, should
rings be lost). Then it reads the due entries of every bucket of the index, claims each
with a removal that only one replica wins, and applies the timeout through the normal
compare-and-set commit at the version the deadline was set: if the seat moved in time,
the version moved on and the stale entry is dropped. So a timeout happens at most once, and at least once while any replica runs,
also when no request ever reaches the game.
"""

import logging
import time

import msgspec

from service.games.meta import STAND_IN
from service.games.robots import Robots
from service.games.sessions import GameNotFound, Session, Sessions
from service.lobby.deadlines import Deadlines
from service.replica.background import Background
from service.replica.wakeups import LONGEST_SECONDS
from service.store import StoreUnavailable

log = logging.getLogger("service.lobby.clocks")

RETRY_SECONDS = 1.0     # after a pass that failed
# A deadline this long past, still armed at the game's version, was claimed by a replica
# that died before applying it (any read of the game heals that: rearm_if_overdue).
OVERDUE_SECONDS = 1.0
TIMEOUT_BUDGET = STAND_IN  # the AI's move for an absent seat: quick and sound


class Clocks(Background):
    def __init__(self, sessions: Sessions, robots: Robots, deadlines: Deadlines) -> None:
        self.sessions = sessions
        self.robots = robots
        self.deadlines = deadlines

    async def _run(self) -> None:
        deadlines = self.deadlines
        while True:
            try:
                await self.tick(time.time())
                due = await deadlines.next_due()
            except StoreUnavailable as error:
                log.warning("turn clocks paused: %s", error)
                due = time.time() + RETRY_SECONDS
            except Exception:  # one bad game must not stop every clock: log and go on
                log.exception("turn clock tick failed")
                due = time.time() + RETRY_SECONDS
            await deadlines.bell.sleep_until(due, LONGEST_SECONDS)

    async def tick(self, now: float) -> None:
        deadlines = self.deadlines
        for index, game_id, version in await deadlines.due(now):
            if await deadlines.claim(index, game_id, version):
                await self.expire(game_id, version, now)

    async def expire(self, game_id: str, version: int, now: float) -> None:
        """Applies the timeout of game_id's deadline set at version, if still due."""
        try:
            session = await self.sessions.load(game_id)
        except GameNotFound:
            return
        meta = session.meta
        if session.record.version != version or session.status != "active":
            return  # stale: the seat moved in time (a newer entry is armed if needed)
        if self.robots.robot_to_move(session) is not None:
            # An AI seat is late only if the replica thinking for it died or handed its
            # games over while stopping: think again here.
            await self.robots.play_turns(game_id)
            return
        overdue = [seat for seat in session.state.to_move
                   if (deadline := meta.deadline(seat)) is not None and deadline <= now]
        if overdue and meta.clock.on_timeout == "forfeit":
            await self.forfeit(session, overdue)
        elif overdue:
            await self.robots.play_for(session, overdue[0], TIMEOUT_BUDGET, kind="timeout",
                                       policy="ai")
            await self.robots.play_turns(game_id)
        elif (deadline := meta.earliest_deadline()) is not None:
            # Woken early by the entry of a commit that lost a race for this version.
            await self.deadlines.arm(game_id, version, deadline)

    async def forfeit(self, session: Session, overdue: list[int]) -> None:
        ended = msgspec.structs.replace(session.meta, forfeited=overdue)
        pending = self.sessions.next_version(session, session.state, None, ended)
        await self.sessions.commit(pending, {"seat": overdue[0], "kind": "forfeit",
                                             "forfeited": overdue})

    async def heal(self, session: Session) -> None:
        """What any read of the game repairs that a replica dying left undone: an AI's
        turn never played, a deadline claimed and never applied."""
        self.robots.resume_if_stalled(session)
        await self.rearm_if_overdue(session)

    async def rearm_if_overdue(self, session: Session) -> None:
        """Arms the earliest deadline again if it is long past: its entry was claimed by a
        replica that died before applying it (any read of the game heals that)."""
        deadline = session.meta.earliest_deadline()
        if deadline is not None and deadline < time.time() - OVERDUE_SECONDS and \
                session.status == "active":
            await self.deadlines.arm(session.game_id, session.record.version,
                                              deadline)
