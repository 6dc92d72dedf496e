"""Seats of a game: join an open seat, leave a waiting game, ask for a rematch."""

from litestar import Controller, Request, Response, post
from litestar.openapi.datastructures import ResponseSpec

from service.games import bodies
from service.games.addressing import checked_game_id, seat_token
from service.games.bodies.common import Created, Joined, SeatToken
from service.games.requests import JoinRequest
from service.games.robots import Robots
from service.games.sessions import Session, Sessions
from service.http.openapi import problems
from service.lobby.seats import Lobby


class LobbyController(Controller):
    path = "/v1/games"
    tags = ["lobby"]

    @post("/{game_id:str}/join", status_code=201,
          responses=problems(400, 403, 404, 409, 413, 429, 503),
          summary="Take an open seat (the given one, or the first); its token, shown once")
    async def join(self, game_id: str, data: JoinRequest, lobby: Lobby,
                   robots: Robots) -> Joined:
        seat, token, session = await lobby.join(checked_game_id(game_id), data)
        if not session.meta.open_seats:
            robots.resume_if_stalled(session)  # the game starts: an AI seat may open it
        return Joined(id=game_id, seat=seat, token=token)

    @post("/{game_id:str}/leave", status_code=200, responses=problems(401, 404, 409, 503),
          summary="Free the token's seat of a game still waiting for players")
    async def leave(self, game_id: str, request: Request, lobby: Lobby,
                    sessions: Sessions) -> bodies.GameBody:
        session = await lobby.leave(checked_game_id(game_id), seat_token(request))
        return bodies.game_body(sessions.view(session, None))

    @post("/{game_id:str}/rematch", status_code=201,
          responses={**problems(401, 404, 409, 503), 200: ResponseSpec(
              Created, generate_examples=False,
              description="A seat already asked: the same next game")},
          summary="The next game with the same seats and names, the first player rotated")
    async def rematch(self, game_id: str, request: Request, lobby: Lobby,
                      robots: Robots) -> Response[Created]:
        created, session = await lobby.rematch(checked_game_id(game_id), seat_token(request))
        robots.resume_if_stalled(session)
        return Response(_created(session), status_code=201 if created else 200)


def _created(session: Session) -> Created:
    """A game's creation body without tokens (every token carried over)."""
    meta = session.meta
    return Created(id=session.game_id, game=meta.game, version=session.record.version,
                   seeded=meta.seeded,
                   seats=[SeatToken(seat=seat, type=meta.seat_type(seat), name=meta.name(seat),
                                    token=None)
                          for seat in range(meta.players)])
