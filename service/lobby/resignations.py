"""Resigning: a seat's player gives the game up, in any game, rated ones included.

The resigned seat ranks last (docs/rules.md, "Resigning"). When one seat is left playing
(two players), or no person among those left (only the AI's seats), the game ends at once;
otherwise
the AI plays the seat on with a stand-in's budget (Meta.robot_budget) so that the others
finish their game, and the seat still ranks last at its end. A resignation is a version
of the game, a compare-and-set like a move.
"""

import msgspec

from service.games.sessions import Next, NotStarted, Session, Sessions, Unauthorized
from service.http.errors import ApiError


class GameOver(ApiError):
    """An action of a game in play (resigning) asked of a finished game."""
    status = 409
    type = "game-over"
    when = ", is over already (`game-over`)"
    when_order = 75
    sentence = "This game is over already."


class Resignations:
    def __init__(self, sessions: Sessions) -> None:
        self.sessions = sessions

    async def resign(self, game_id: str, token: str | None) -> tuple[int, Session]:
        """The token's seat resigns; the seat and the game after it (resigning again
        changes nothing)."""
        async def give_up(session: Session) -> Next | None:
            seat = self.sessions.seat_of(session, token)
            if seat is None:
                raise Unauthorized("resigning needs the seat's token: Authorization: Bearer"
                                   " <token>")
            if session.status == "waiting":
                raise NotStarted("the game has not started: leave it instead (POST .../leave)")
            if session.status == "over":
                raise GameOver("the game is over already: there is nothing to resign")
            meta = session.meta
            if seat in meta.resigned:
                return None
            resigned = sorted([*meta.resigned, seat])
            playing = [other for other in range(meta.players) if other not in resigned]
            ended = len(playing) < 2 or not set(playing) & set(meta.people())
            after = msgspec.structs.replace(meta, resigned=resigned, resign_ended=ended)
            return Next(self.sessions.next_version(session, session.state, None, after),
                        {"seat": seat, "kind": "resign", "ended": ended})

        seen, resigned = await self.sessions.change(game_id, give_up)
        session = seen if resigned is None else resigned.pending
        return self.sessions.seat_of(session, token), session
