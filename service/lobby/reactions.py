"""Quick reactions: a seat says one of a few fixed phrases to the table ("Good luck",
"Well played", ...), by the phrase's id, never free text, so that nothing said can insult,
spam a link or pass a hand on: each client words the id in its reader's language.

While the game waits or is in play, a reaction is heard, not kept: it is shouted on the
game's channel (service/store) and every open event stream of the game, on every replica,
sends it as an `event: reaction` (the players' and the spectators': a phrase reveals
nothing of a hand). A page that was not connected does not see it, and it is no version of
the game (not logged, no ETag changes).

Once the game is over its streams have ended, yet "Good game" is said then most of all: a
reaction to a finished game is kept a while beside it (service/lobby/after_game_talk.py) and
each page still at the table hears it with its next presence beat. It is heard for as long
as someone else is at the table (a seat's or a spectator's page beat within the last
PRESENT_SECONDS): the after-game lasts as long as the people in it, not a fixed time, and a
word said to an empty table is refused (409 `nobody-at-table`) rather than kept for no one.
Each seat may react once per RATE_SECONDS (429 problem+json with Retry-After).
"""

import time
from typing import Protocol

import msgspec

from service.games.sessions import Sessions, Unauthorized
from service.http.errors import ApiError
from service.http.rate_limits import Limit, RateLimited
from service.lobby import after_game_talk
from service.lobby.bodies import Reaction, ReactionRequest
from service.lobby.presence import SEAT, present
from service.store import Attendance, Budgets, Notices, keys

RATE_SECONDS = 5
LIMIT = Limit("reactions", 1, RATE_SECONDS * 1000, per_token=True)


class NobodyAtTable(ApiError):
    """A reaction to a finished game whose table nobody else is at any more."""
    status = 409
    type = "nobody-at-table"
    when = ", is over with nobody else at its table to hear a reaction (`nobody-at-table`)"
    when_order = 76
    sentence = "Nobody else is at the table any more: the reaction was not sent."


class ReactionStore(Budgets, Notices, Attendance, after_game_talk.TalkStore, Protocol):
    """What reactions use of the store: a seat's budget, the table's channel, who is at the
    table, and the finished game's talk."""


class Reactions:
    def __init__(self, sessions: Sessions, store: ReactionStore) -> None:
        self.sessions = sessions
        self.store = store

    async def react(self, game_id: str, token: str | None, request: ReactionRequest) -> Reaction:
        """The token's seat says request's phrase to the table; what was said."""
        session = await self.sessions.load(game_id)
        seat = self.sessions.seat_of(session, token)
        if seat is None:
            raise Unauthorized("a reaction is a seat's: Authorization: Bearer <token>")
        over = session.status == "over"
        if over and not [m for m in await present(self.store, game_id) if m != f"{SEAT}{seat}"]:
            raise NobodyAtTable("the game is over and nobody else is at its table to hear it")
        allowance = await self.store.spend(keys.seat_budget(game_id, f"reaction:{seat}"),
                                           LIMIT.period_ms, LIMIT.limit)
        if not allowance.allowed:
            raise RateLimited(LIMIT, allowance)
        reaction = Reaction(seat=seat, phrase=request.phrase, at=time.time())
        if over:
            await after_game_talk.keep(self.store, game_id, reaction)
        else:
            await self.store.shout(game_id, msgspec.json.encode(reaction))
        return reaction
