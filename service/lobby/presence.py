"""Who is at a game's table: each seat's page, and each spectator's, beats now and then
(POST .../presence); a seat whose page has not beaten for PRESENT_SECONDS has left.

The beats are kept in the store beside the game (one sorted set by when each presence
lapses, service/store/keys.py), so every replica answers the same; a page leaving says so
at once (here: false). Nothing of it is a version of the game: it is not logged, and the
game's reads and ETags do not change with it.
"""

import time
from typing import Protocol

from service.games.sessions import Sessions
from service.lobby.bodies import PresenceRequest, TablePresence
from service.store import Attendance, keys

PRESENT_SECONDS = 25   # the client beats every 10 s: two beats lost still count as there
KEEP_SECONDS = 3600    # the key outlives its last beat this long, then Redis forgets it
SEAT, VIEWER = "seat:", "viewer:"


class PresenceStore(Attendance, Protocol):
    """What presence keeps: the tables' attendance."""


class Presence:
    def __init__(self, sessions: Sessions, store: PresenceStore) -> None:
        self.sessions = sessions
        self.store = store

    async def beat(self, game_id: str, token: str | None,
                   request: PresenceRequest) -> TablePresence:
        """Marks the token's seat (or the spectator `viewer`) at the table or gone; who
        is there now."""
        session = await self.sessions.load(game_id)  # the game exists, the token opens it
        seat = self.sessions.seat_of(session, token)
        member = f"{SEAT}{seat}" if seat is not None else \
            None if request.viewer is None else f"{VIEWER}{request.viewer}"
        now = time.time()
        until = now + PRESENT_SECONDS if request.here else now
        found = await self.store.attendance_mark(keys.presence(game_id), member, until, now,
                                                 KEEP_SECONDS)
        return TablePresence(
            id=game_id, present=sorted(int(m[len(SEAT):]) for m in found if m.startswith(SEAT)),
            spectators=sum(m.startswith(VIEWER) for m in found))
