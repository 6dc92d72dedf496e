"""Who is at a game's table: each seat's page, and each spectator's, beats now and then
(POST .../presence); a seat whose page has not beaten for PRESENT_SECONDS has left.

The beats are kept in the store beside the game (one sorted set by when each presence
lapses, service/store/keys.py), so every replica answers the same; a page leaving says so
at once (here: false). Nothing of it is a version of the game: it is not logged, and the
game's reads and ETags do not change with it. Once the game is over, a beat also hands the
page what was said at the table since its last one (service/lobby/after_game_talk.py).
"""

import time
from typing import Protocol

from service.games.sessions import Session, Sessions
from service.lobby.after_game_talk import START, TalkStore, said_after
from service.lobby.bodies import PresenceRequest, Reaction, TablePresence
from service.store import Attendance, keys

PRESENT_SECONDS = 25   # the client beats every 10 s: two beats lost still count as there
KEEP_SECONDS = 3600    # the key outlives its last beat this long, then Redis forgets it
SEAT, VIEWER = "seat:", "viewer:"


class PresenceStore(Attendance, TalkStore, Protocol):
    """What presence keeps: the tables' attendance; and what it reads: the after-game talk."""


class Presence:
    def __init__(self, sessions: Sessions, store: PresenceStore) -> None:
        self.sessions = sessions
        self.store = store

    async def beat(self, game_id: str, token: str | None,
                   request: PresenceRequest) -> TablePresence:
        """Marks the token's seat (or the spectator `viewer`) at the table or gone; who
        is there now, and what was said since the request's cursor."""
        session = await self.sessions.load(game_id)  # the game exists, the token opens it
        seat = self.sessions.seat_of(session, token)
        member = f"{SEAT}{seat}" if seat is not None else \
            None if request.viewer is None else f"{VIEWER}{request.viewer}"
        now = time.time()
        until = now + PRESENT_SECONDS if request.here else now
        found = await self.store.attendance_mark(keys.presence(game_id), member, until, now,
                                                 KEEP_SECONDS)
        said, cursor = await self._said(session, request.reactions_after)
        return TablePresence(
            id=game_id, present=sorted(int(m[len(SEAT):]) for m in found if m.startswith(SEAT)),
            spectators=sum(m.startswith(VIEWER) for m in found),
            reactions=said, reactions_after=cursor)

    async def _said(self, session: Session, after: str | None) -> tuple[list[Reaction], str]:
        """Nothing is kept before the end (the event stream carries what is said in play),
        so a game in play costs no read."""
        if session.status != "over":
            return [], after or START
        return await said_after(self.store, session.game_id, after)


async def present(store: Attendance, game_id: str) -> list[str]:
    """The members at a game's table now ("seat:<n>", "viewer:<id>"), marking nobody."""
    [found] = await store.attendance_many([keys.presence(game_id)], time.time())
    return found


async def spectators_at(store: Attendance, game_ids: list[str]) -> list[int]:
    """How many spectators watch each game, in one round trip for them all."""
    tables = await store.attendance_many([keys.presence(game_id) for game_id in game_ids],
                                         time.time())
    return [sum(member.startswith(VIEWER) for member in found) for found in tables]
