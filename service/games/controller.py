"""/v1/games: create and list games, read views, legal moves and history, post moves."""

import re
from typing import Literal

from litestar import Controller, HttpMethod, Request, Response, get, post, route
from litestar.exceptions import ValidationException
from litestar.params import Parameter

import core
from service.games import bodies
from service.games.addressing import checked_game_id, load, seat_token
from service.games.bodies.common import Created, SeatToken, WaitingList
from service.games.requests import Budget, CreateGame, MoveRequest
from service.games.robots import HintsOff, Robots
from service.games.sessions import Sessions, Unauthorized
from service.http.conditional import cache_headers, etag, is_current, not_modified
from service.http.openapi import NOT_MODIFIED, problems
from service.http.rate_limits import seat_budget
from service.lobby.clocks import Clocks
from service.lobby.seats import CURSOR, MAX_PAGE, Lobby
from service.replica import tracing

IDEMPOTENCY_KEY = re.compile(r"^[\x21-\x7e]{1,200}$")
READ_ERRORS = {**NOT_MODIFIED, **problems(401, 404, 503)}


class GamesController(Controller):
    path = "/v1/games"
    tags = ["games"]

    @post("/", status_code=201, responses=problems(400, 403, 413, 422, 429, 503),
          summary="Create a game; returns a secret token per human seat, once")
    async def create(self, data: CreateGame, sessions: Sessions, robots: Robots,
                     lobby: Lobby) -> Created:
        game_id, session, tokens = await sessions.create(data, robots.seats_of(data))
        await lobby.list_if_waiting(session)
        if robots.robot_to_move(session) is not None:
            if all(token is None for token in tokens) or session.meta.webhooks:
                robots.play_in_background(game_id)  # no bot's webhook is waited for
            else:
                await robots.play_turns(game_id)
        meta = session.meta
        return Created(id=game_id, game=meta.game, version=0, seeded=meta.seeded, seats=[
            SeatToken(seat=seat, type=meta.seat_type(seat), name=meta.name(seat), token=token)
            for seat, token in enumerate(tokens)])

    @route("/", http_method=HttpMethod.OPTIONS, include_in_schema=False,
           sync_to_thread=False)
    def allowed(self) -> Response[None]:
        """What /v1/games allows. Litestar's own OPTIONS answer is made with the route's
        first handler and lists only its method (POST), though GET is served too."""
        return Response(None, status_code=204, headers={"Allow": "GET, HEAD, OPTIONS, POST"})

    @get("/", responses=problems(400, 503),
         summary="Listed games waiting for players, or in play to watch; newest first"
                 " (cursor pagination)",
         description="`status=waiting` (the default): games listed by their creator whose"
                     " seats are still open. `status=active`: games in play that anyone"
                     " may watch (open GET /v1/games/{id} without a token): those created"
                     " listed with open seats, the rated queue's, and their rematches."
                     " A game against the AI alone, or one shared by link only, is never"
                     " listed.")
    async def waiting(self, lobby: Lobby,
                      status: Literal["waiting", "active"] = Parameter(
                          query="status", default="waiting",
                          description="waiting: open seats to take; active: games in play"
                                      " to watch"),
                      game: str | None = Parameter(
                          query="game", default=None, schema_extra={"enum": list(core.GAMES)},
                          description="only this game's"),
                      limit: int = Parameter(query="limit", default=20, ge=1, le=MAX_PAGE),
                      cursor: str | None = Parameter(
                          query="cursor", default=None, pattern=CURSOR.pattern,
                          description="next_cursor of the page before")) -> WaitingList:
        if game is not None and game not in core.GAMES:
            raise ValidationException(extra=[{"message": f"game is one of {', '.join(core.GAMES)}",
                                              "key": "game", "source": "query"}])
        page = await lobby.waiting(game, cursor, limit, status)
        return WaitingList(games=page["games"], next_cursor=page["next_cursor"])

    @get("/{game_id:str}", responses=READ_ERRORS,
         summary="The game as the caller's seat (or a spectator) sees it")
    async def read(self, game_id: str, request: Request, sessions: Sessions,
                   clocks: Clocks) -> Response[bodies.GameBody]:
        with tracing.span("game.view", game_id):
            session = await load(sessions, game_id)
            seat = sessions.seat_of(session, seat_token(request))
            await clocks.heal(session)
            tag = etag(session.record.version, seat)
            if is_current(request, tag):
                return not_modified(tag)
            return Response(bodies.game_body(sessions.view(session, seat)),
                            headers=cache_headers(tag))

    @get("/{game_id:str}/legal-moves", responses=READ_ERRORS,
         summary="The caller's legal moves, as POST .../moves takes them")
    async def legal_moves(self, game_id: str, request: Request,
                          sessions: Sessions) -> Response[bodies.LegalMovesBody]:
        session = await load(sessions, game_id)
        seat = sessions.seat_of(session, seat_token(request))
        tag = etag(session.record.version, seat)
        if is_current(request, tag):
            return not_modified(tag)
        moves = [] if seat is None else session.state.legal_moves(seat)
        return Response(bodies.legal_moves_body({
            "id": game_id, "game": session.meta.game, "version": session.record.version,
            "you": seat, "legal_moves": moves}), headers=cache_headers(tag))

    @post("/{game_id:str}/moves", status_code=200,
          responses=problems(400, 401, 404, 409, 413, 422, 429, 503),
          description="409 `game-waiting` while seats are open; 409 `version-conflict`"
                      " for a stale expected_version.",
          summary="Apply one move for the token's seat")
    async def move(self, game_id: str, data: MoveRequest, request: Request, sessions: Sessions,
                   robots: Robots, idempotency_key: str | None = Parameter(
                       header="Idempotency-Key", default=None,
                       schema_extra={"pattern": IDEMPOTENCY_KEY.pattern},
                       description="1 to 200 printable ASCII characters; a retry with the"
                                   " same key returns the first response")
                   ) -> bodies.GameBody:
        if idempotency_key is not None and not IDEMPOTENCY_KEY.match(idempotency_key):
            raise ValidationException(extra=[{
                "message": "Idempotency-Key must be 1 to 200 printable ASCII characters",
                "key": "Idempotency-Key", "source": "header"}])
        response, meta = await sessions.play(checked_game_id(game_id), seat_token(request), data,
                                             idempotency_key, seat_budget(request.scope))
        if meta.webhooks:
            robots.play_soon(game_id)  # a bot's webhook is not waited for
        elif meta.has_robots():
            await robots.play_turns(game_id)  # a GET after this shows a human to move
        return bodies.game_body(response)

    @post("/{game_id:str}/suggest", status_code=200,
          responses=problems(400, 401, 404, 409, 413, 422, 429, 503),
          summary="The AI's suggested move for the token's seat, with its statistics")
    async def suggest(self, game_id: str, data: Budget, request: Request, sessions: Sessions,
                      robots: Robots) -> bodies.SuggestionBody:
        session = await load(sessions, game_id, seat_budget(request.scope))
        seat = sessions.seat_of(session, seat_token(request))
        if seat is None:
            raise Unauthorized("suggestions need the seat's token: Authorization: Bearer <token>")
        if not session.meta.hints:
            raise HintsOff(session.meta.hints_off_reason())
        found = await robots.suggest_for_client(session, seat, data)
        return bodies.suggestion_body({
            "id": game_id, "game": session.meta.game, "version": session.record.version,
            "you": seat, "move": found["move"], "algorithm": found["algorithm"],
            "iterations": found["iterations"], "stats": found["stats"]})

    @get("/{game_id:str}/history", responses=READ_ERRORS,
         summary="The move log as the caller may see it")
    async def history(self, game_id: str, request: Request,
                      sessions: Sessions) -> Response[bodies.HistoryBody]:
        session = await load(sessions, game_id)
        seat = sessions.seat_of(session, seat_token(request))
        tag = etag(session.record.version, seat)
        if is_current(request, tag):
            return not_modified(tag)
        return Response(bodies.history_body(await sessions.history(session, seat)),
                        headers=cache_headers(tag))
