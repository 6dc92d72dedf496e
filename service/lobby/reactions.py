"""Quick reactions: a seat says one of a few fixed phrases to the table ("Good luck",
"Well played", ...), by the phrase's id, never free text, so that nothing said can insult,
spam a link or pass a hand on: each client words the id in its reader's language.

A reaction is heard, not kept: it is shouted on the game's channel (service/store) and
every open event stream of the game, on every replica, sends it as an `event: reaction`
(the players' and the spectators': a phrase reveals nothing of a hand). A page that was
not connected does not see it, and it is no version of the game (not logged, no ETag
changes). While the game is waiting or in play only: a finished game's streams have ended.
Each seat may react once per RATE_SECONDS (429 problem+json with Retry-After).
"""

import time
from typing import Protocol

import msgspec

from service.games.sessions import Sessions, Unauthorized
from service.http.rate_limits import Limit, RateLimited
from service.lobby.bodies import Reaction, ReactionRequest
from service.lobby.resignations import GameOver
from service.store import Budgets, Notices, keys

RATE_SECONDS = 5
LIMIT = Limit("reactions", 1, RATE_SECONDS * 1000, per_token=True)


class ReactionStore(Budgets, Notices, Protocol):
    """What reactions use of the store: a seat's budget, and the table's channel."""


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
        if session.status == "over":
            raise GameOver("the game is over: its table no longer hears reactions")
        allowance = await self.store.spend(keys.seat_budget(game_id, f"reaction:{seat}"),
                                           LIMIT.period_ms, LIMIT.limit)
        if not allowance.allowed:
            raise RateLimited(LIMIT, allowance)
        reaction = Reaction(seat=seat, phrase=request.phrase, at=time.time())
        await self.store.shout(game_id, msgspec.json.encode(reaction))
        return reaction
