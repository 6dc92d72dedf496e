"""Rematches, offered and answered: after the end, a seat offers the same table again,
each other person's seat accepts or declines, and the next game is made once every
person's seat wants it (the AI's seats always do).

Every answer is a version of the finished game (`rematch-offer`, `rematch-decline`, and
`rematch` when the next game is made), so every seat learns it from the game or its
stream, on any replica; each is a compare-and-set on the version, so of two seats
accepting at once one makes the next game and the other finds it made.
"""

import time
from dataclasses import dataclass
from typing import Literal

import msgspec

from service.games.meta import RematchOffer
from service.games.sessions import GameNotOver, Next, Session, Sessions, Unauthorized
from service.http.errors import ApiError

Outcome = Literal["made", "made-before", "offered"]


class NoRematchOffer(ApiError):
    """A decline with no rematch offered (none yet, declined already, or made)."""
    status = 409
    type = "no-rematch-offer"
    when = ", has no rematch offered to decline (`no-rematch-offer`)"
    when_order = 85
    sentence = "No rematch is offered now."


@dataclass(frozen=True)
class Answer:
    """What a seat's answer led to, and the game it is about: the next game when made
    (now or before), else the finished game with its offer."""
    outcome: Outcome
    session: Session


class Rematches:
    def __init__(self, sessions: Sessions) -> None:
        self.sessions = sessions

    async def want(self, game_id: str, token: str | None) -> Answer:
        """The token's seat offers a rematch, or accepts the one offered; the next game is
        made when every person's seat wants it. Asking again changes nothing."""
        made: dict[str, Session] = {}

        async def ask(session: Session) -> Next | None:
            seat = self._seat(session, token, "a rematch")
            meta = session.meta
            if meta.rematch is not None:
                return None  # made already: the same next game
            if session.status != "over":
                raise GameNotOver("a rematch is offered once the game is over")
            offer = meta.rematch_offer
            open_offer = offer is not None and not offer.declined
            if open_offer and seat in offer.accepted:
                return None  # asked already: still waiting for the others
            wanted = RematchOffer([*offer.accepted, seat] if open_offer else [seat], [])
            if set(meta.people()) <= set(wanted.accepted):
                new_id, made[new_id] = await self._next_game(session)
                asked = msgspec.structs.replace(meta, rematch=new_id, rematch_offer=wanted)
                entry = {"seat": seat, "kind": "rematch", "next_game": new_id}
            else:
                asked = msgspec.structs.replace(meta, rematch_offer=wanted)
                entry = {"seat": seat, "kind": "rematch-offer"}
            return Next(self.sessions.next_version(session, session.state, None, asked), entry)

        finished, answered = await self.sessions.change(game_id, ask)
        if answered is None:
            if finished.meta.rematch is not None:
                return Answer("made-before", await self.sessions.load(finished.meta.rematch))
            return Answer("offered", finished)
        if answered.entry["kind"] == "rematch":
            return Answer("made", made[answered.entry["next_game"]])
        return Answer("offered", answered.pending)

    async def decline(self, game_id: str, token: str | None) -> Session:
        """The token's seat declines the rematch offered (its own: withdraws it); the offer
        is closed, and any seat may offer again."""
        async def refuse(session: Session) -> Next:
            seat = self._seat(session, token, "declining a rematch")
            meta, offer = session.meta, session.meta.rematch_offer
            if session.status != "over":
                raise GameNotOver("a rematch is offered once the game is over")
            if meta.rematch is not None:
                raise NoRematchOffer(f"the rematch is made already: game {meta.rematch}")
            if offer is None or offer.declined:
                raise NoRematchOffer("no rematch is offered now: POST .../rematch offers one")
            closed = RematchOffer([s for s in offer.accepted if s != seat], [seat])
            declined = msgspec.structs.replace(meta, rematch_offer=closed)
            return Next(self.sessions.next_version(session, session.state, None, declined),
                        {"seat": seat, "kind": "rematch-decline"})

        _, declined = await self.sessions.change(game_id, refuse)
        assert declined is not None  # refuse always builds a version
        return declined.pending

    def _seat(self, session: Session, token: str | None, what: str) -> int:
        seat = self.sessions.seat_of(session, token)
        if seat is None:
            raise Unauthorized(f"{what} needs a seat's token: Authorization: Bearer <token>")
        return seat

    async def _next_game(self, finished: Session) -> tuple[str, Session]:
        """The same table again (seats, names, tokens, options, clock), unlisted, the first
        player rotated by one."""
        meta = finished.meta
        first = (finished.state.view(None)["first_player"] + 1) % meta.players
        options = {**(meta.options or {}), "first_player": first}
        state = self.sessions.new_state(meta.game, meta.players, None, options, meta.clock,
                                        meta.ai)
        following = msgspec.structs.replace(
            meta, seeded=False, created=time.time(), listed=False, options=options,
            deadlines=None, forfeited=[], resigned=[], resign_ended=False, rematch=None,
            rematch_offer=None)
        return await self.sessions.create_from(
            following.with_deadlines(state.to_move, None), state)
