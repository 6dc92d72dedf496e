"""Seats of a game: join an open seat, leave a waiting game, resign, offer and answer a
rematch, say who is at the table, react to it."""

from litestar import Controller, Request, Response, post
from litestar.openapi.datastructures import ResponseSpec

from service.games import bodies
from service.games.addressing import checked_game_id, seat_token
from service.games.bodies.common import Created, Joined, SeatToken
from service.games.requests import JoinRequest
from service.games.robots import Robots
from service.games.sessions import Session, Sessions
from service.http.openapi import problems
from service.lobby.bodies import (
    PresenceRequest,
    Reaction,
    ReactionRequest,
    RematchOffered,
    TablePresence,
)
from service.lobby.presence import Presence
from service.lobby.reactions import RATE_SECONDS, Reactions
from service.lobby.rematches import Rematches
from service.lobby.resignations import Resignations
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
              description="The next game was made already: the same next game"),
              202: ResponseSpec(RematchOffered, generate_examples=False,
                                description="Offered (or accepted): other seats must still"
                                            " answer")},
          description="Offers a rematch, or accepts the one offered. The next game (same"
                      " seats, names and tokens, the first player rotated) is made once"
                      " every person's seat wants it: 201 with it; 202 while others must"
                      " still answer (they see `rematch_offer` in the game).",
          summary="Offer or accept a rematch; the next game once every person wants it")
    async def rematch(self, game_id: str, request: Request, rematches: Rematches,
                      robots: Robots) -> Response[Created | RematchOffered]:
        answer = await rematches.want(checked_game_id(game_id), seat_token(request))
        if answer.outcome == "offered":
            session = answer.session
            return Response(RematchOffered(id=session.game_id, version=session.record.version,
                                           rematch_offer=session.meta.rematch_offer),
                            status_code=202)
        robots.resume_if_stalled(answer.session)
        return Response(_created(answer.session),
                        status_code=201 if answer.outcome == "made" else 200)

    @post("/{game_id:str}/rematch/decline", status_code=200,
          responses=problems(401, 404, 409, 503),
          summary="Decline the rematch offered (or withdraw one's own offer)")
    async def decline_rematch(self, game_id: str, request: Request,
                              rematches: Rematches) -> RematchOffered:
        session = await rematches.decline(checked_game_id(game_id), seat_token(request))
        return RematchOffered(id=session.game_id, version=session.record.version,
                              rematch_offer=session.meta.rematch_offer)

    @post("/{game_id:str}/resign", status_code=200, responses=problems(401, 404, 409, 503),
          description="The seat ranks last. With no other person left playing the game ends"
                      " at once; otherwise the AI plays the seat on (docs/rules.md,"
                      " \"Resigning\"). Resigning again changes nothing.",
          summary="Resign the game for the token's seat")
    async def resign(self, game_id: str, request: Request, resignations: Resignations,
                     sessions: Sessions, robots: Robots) -> bodies.GameBody:
        seat, session = await resignations.resign(checked_game_id(game_id),
                                                  seat_token(request))
        if session.meta.has_robots():
            await robots.play_turns(game_id)  # the AI plays the resigned seat on
        return bodies.game_body(sessions.view(session, seat))

    @post("/{game_id:str}/presence", status_code=200,
          responses=problems(400, 401, 404, 413, 503),
          description="A page at the table beats every 10 s or so; a seat or spectator"
                      " that has not beaten for 25 s has left. Not a version of the game."
                      " Once the game is over, the answer also carries the reactions said"
                      " at its table after `reactions_after` (the previous answer's; none"
                      " without one), and the cursor to send next.",
          summary="Say the caller is at the table (or left it); who is there now")
    async def presence(self, game_id: str, data: PresenceRequest, request: Request,
                       presence: Presence) -> TablePresence:
        return await presence.beat(checked_game_id(game_id), seat_token(request), data)

    @post("/{game_id:str}/reactions", status_code=200,
          responses=problems(400, 401, 404, 409, 413, 429, 503),
          description="The seat says a fixed phrase (by its id) to the table: while the"
                      " game waits or is in play, every open event stream of the game, the"
                      " players' and the spectators', sends it as an `event: reaction`;"
                      " once it is over (its streams have ended), the pages still at the"
                      " table hear it with their next presence beat, for as long as someone"
                      " else is there (409 `nobody-at-table` after). No version of the"
                      f" game, not in its history. One per {RATE_SECONDS} s per seat (429"
                      " `rate-limited` with Retry-After).",
          summary="Say a quick reaction to the table (a fixed phrase)")
    async def react(self, game_id: str, data: ReactionRequest, request: Request,
                    reactions: Reactions) -> Reaction:
        return await reactions.react(checked_game_id(game_id), seat_token(request), data)


def _created(session: Session) -> Created:
    """A game's creation body without tokens (every token carried over)."""
    meta = session.meta
    return Created(id=session.game_id, game=meta.game, version=session.record.version,
                   seeded=meta.seeded,
                   seats=[SeatToken(seat=seat, type=meta.seat_type(seat), name=meta.name(seat),
                                    token=None)
                          for seat in range(meta.players)])
