"""/v1/tournaments: round robins and Swiss tournaments (docs/arena.md, "Tournaments")."""

import re
from typing import Any

import msgspec
from litestar import (
    Controller,
    HttpMethod,
    Request,
    Response,
    delete,
    get,
    post,
    put,
    route,
)
from litestar.params import Parameter
from litestar.response import ServerSentEvent

from service.arena.seating import Contestant, contestants
from service.events.log_stream import EVENT_ID, RESUME_HEADER, log_stream
from service.games.limits import GameLimits
from service.games.sessions import PlayerNotFound
from service.http.conditional import cache_headers, is_current, not_modified
from service.http.instants import iso_ms
from service.http.openapi import EVENT_STREAM, NOT_MODIFIED, problems
from service.players.storage import Player, Players
from service.tournaments.bodies import (
    TOURNAMENT_TURN_SECONDS,
    TournamentBody,
    TournamentGameBody,
    TournamentGames,
    TournamentGameSeat,
    TournamentRequest,
)
from service.tournaments.events import TournamentEvents
from service.tournaments.runner import Spec, TournamentRunner, seats_of, spec_of
from service.tournaments.standings import TIE_BREAKS
from service.tournaments.storage import TournamentRow

GAMES_PAGE = 100
GAME_CURSOR = r"^[0-9]{1,4}\.[0-9]{1,4}\.[0-9]{1,4}$"   # round.table.index of a game
ENTRANT = re.compile(r"^(p_[A-Za-z0-9_-]{16}|ai-[1-5])$")


class TournamentsController(Controller):
    path = "/v1/tournaments"
    tags = ["tournaments"]

    @post("/", status_code=201, responses=problems(400, 401, 403, 404, 413, 422, 429, 503),
          summary="Make a tournament (Authorization: Bearer <player key>): round robin or"
                  " Swiss, open for entries until its entry window closes")
    async def create(self, data: TournamentRequest, me: Player, players: Players,
                     limits: GameLimits, tournaments: TournamentRunner) -> TournamentBody:
        spec = Spec(rounds=data.rounds, deals=data.deals, duplicate=data.duplicate,
                    turn_seconds=limits.clock(data.turn_seconds, TOURNAMENT_TURN_SECONDS),
                    options=None if data.options is None else data.options.for_core(),
                    estimates=data.estimates)
        entrants = await contestants(players, data.entrants)
        row = await tournaments.create(Contestant.of(me), data.game, data.players,
                                       data.format, spec, data.entry_seconds, entrants)
        return await tournament_body(tournaments, row)

    @get("/{tournament_id:str}", responses={**problems(404, 503), **NOT_MODIFIED},
         summary="A tournament: its entrants, the round's tables, the standings with"
                 " tie-breaks (ETag: If-None-Match answers 304 while nothing changed)")
    async def read(self, tournament_id: str, request: Request,
                   tournaments: TournamentRunner) -> Response[TournamentBody]:
        row = await tournaments.get(tournament_id)
        tag = f'"t{row.revision}"'
        if is_current(request, tag):
            return not_modified(tag)
        return Response(await tournament_body(tournaments, row), headers=cache_headers(tag))

    @route("/{tournament_id:str}", http_method=HttpMethod.OPTIONS, include_in_schema=False,
           sync_to_thread=False)
    def allowed(self, tournament_id: str) -> Response[None]:
        """Both methods of a tournament (Litestar's own answer lists the first only)."""
        return Response(None, status_code=204, headers={"Allow": "DELETE, GET, HEAD, OPTIONS"})

    @delete("/{tournament_id:str}", status_code=200, responses=problems(401, 403, 404, 409, 503),
            summary="Cancel a tournament (its owner): no game starts after this")
    async def cancel(self, tournament_id: str, me: Player,
                     tournaments: TournamentRunner) -> TournamentBody:
        row = await tournaments.cancel(Contestant.of(me), tournament_id)
        return await tournament_body(tournaments, row)

    @post("/{tournament_id:str}/start", status_code=200,
          responses=problems(401, 403, 404, 409, 503),
          summary="Close the entry window now and pair the first round (its owner)")
    async def start(self, tournament_id: str, me: Player,
                    tournaments: TournamentRunner) -> TournamentBody:
        row = await tournaments.start_now(Contestant.of(me), tournament_id)
        return await tournament_body(tournaments, row)

    @route("/{tournament_id:str}/entrants/{entrant_id:str}", http_method=HttpMethod.OPTIONS,
           include_in_schema=False, sync_to_thread=False)
    def allowed_to_entrants(self, tournament_id: str, entrant_id: str) -> Response[None]:
        """Both methods of an entry (named to come before them: Litestar registers a
        controller's handlers in the order of their names, and answers OPTIONS itself for a
        path whose first handler is not this one)."""
        return Response(None, status_code=204, headers={"Allow": "DELETE, OPTIONS, PUT"})

    @put("/{tournament_id:str}/entrants/{entrant_id:str}", status_code=200,
         responses=problems(400, 401, 403, 404, 409, 503),
         summary="Enter the key's own player (or, its owner, an AI level) while entries"
                 " are open; entering again changes nothing")
    async def enter(self, tournament_id: str, entrant_id: str, me: Player, players: Players,
                    tournaments: TournamentRunner) -> TournamentBody:
        _entrant_id(entrant_id)
        (entrant,) = await contestants(players, [entrant_id])
        row = await tournaments.enter(Contestant.of(me), tournament_id, entrant)
        return await tournament_body(tournaments, row)

    @delete("/{tournament_id:str}/entrants/{entrant_id:str}", status_code=200,
            responses=problems(400, 401, 403, 404, 409, 503),
            summary="Withdraw before the start: the key's own player (its owner: anyone)")
    async def withdraw(self, tournament_id: str, entrant_id: str, me: Player,
                       tournaments: TournamentRunner) -> TournamentBody:
        _entrant_id(entrant_id)
        row = await tournaments.withdraw(Contestant.of(me), tournament_id, entrant_id)
        return await tournament_body(tournaments, row)

    @get("/{tournament_id:str}/games", responses=problems(400, 404, 503),
         summary="A tournament's games by round and table, each with its seats, ranks and"
                 " replay")
    async def games(self, tournament_id: str, tournaments: TournamentRunner,
                    after: str | None = Parameter(
                        default=None, pattern=GAME_CURSOR,
                        description="the last game of the page before, as"
                                    " `<round>.<table>.<index>`")) -> TournamentGames:
        row = await tournaments.get(tournament_id)
        cursor = None if after is None else tuple(int(part) for part in after.split("."))
        rows = await tournaments.book.games(row.id, after=cursor,  # type: ignore[arg-type]
                                            limit=GAMES_PAGE + 1)
        page = rows[:GAMES_PAGE]
        tables = {(t.round, t.index): t.entrants for t in await tournaments.book.tables(row.id)}
        return TournamentGames(games=[TournamentGameBody(
            round=game.round, table=game.table, index=game.index, game_id=game.game_id,
            deal=game.deal, rotation=game.rotation,
            seats=[TournamentGameSeat(seat=seat, entrant=entrant,
                                      rank=None if game.ranks is None else game.ranks[entrant],
                                      points=None if game.scores is None
                                      else game.scores[entrant])
                   for seat, entrant in enumerate(
                       seats_of(tables[(game.round, game.table)], game.rotation))],
            started_at=iso_ms(game.started_ms) or "", ended_at=iso_ms(game.ended_ms),
            replay=f"/v1/games/{game.game_id}/replay") for game in page],
            next=f"/v1/tournaments/{row.id}/games?after={page[-1].round}.{page[-1].table}."
                 f"{page[-1].index}" if len(rows) > GAMES_PAGE else None)

    @get("/{tournament_id:str}/events", responses=problems(400, 404, 503),
         media_type=EVENT_STREAM,
         summary="The tournament's events as Server-Sent Events: entrants, each round's"
                 " tables, each table's results, the standings after each round")
    async def events(self, tournament_id: str, tournaments: TournamentRunner,
                     tournament_events: TournamentEvents,
                     last_event_id: str | None = Parameter(
                         header="Last-Event-ID", default=None, pattern=RESUME_HEADER,
                         description="resume after this event (its `id` as sent);"
                                     " empty: from the oldest event kept"),
                     after: str | None = Parameter(
                         query="after", default=None, pattern=EVENT_ID.pattern,
                         description="resume after this event (as Last-Event-ID, for a"
                                     " client that cannot set headers)")) -> ServerSentEvent:
        row = await tournaments.get(tournament_id)
        return log_stream(lambda since: tournament_events.read(row.id, since),
                          last_event_id or after or None)


def _entrant_id(entrant_id: str) -> None:
    """A path that can name no player names none (404, as an unknown id)."""
    if not ENTRANT.match(entrant_id):
        raise PlayerNotFound(f"no player has the id {entrant_id[:40]} (a player's id, or"
                             " ai-1 to ai-5 for an AI level)")


async def tournament_body(tournaments: TournamentRunner, row: TournamentRow) -> TournamentBody:
    spec = spec_of(row)
    entrants = await tournaments.book.entrants(row.id)
    tables = await tournaments.book.tables(row.id, row.round) if row.round else []
    games = await tournaments.book.games(row.id, row.round) if row.round else []
    board = await tournaments.board(row)
    body: dict[str, Any] = {
        "id": row.id, "owner": row.owner, "game": row.game, "players": row.players,
        "format": row.format, "rounds": row.rounds, "deals": spec.deals,
        "duplicate": spec.duplicate, "turn_seconds": spec.turn_seconds,
        "options": spec.options, "status": row.status, "round": row.round,
        "created_at": iso_ms(row.created_ms), "entry_closes_at": iso_ms(row.starts_ms),
        "finished_at": iso_ms(row.finished_ms),
        "entrants": [{"id": e.id, "name": e.name, "kind": e.kind} for e in entrants],
        "tie_breaks": TIE_BREAKS[row.format],
        "tables": [{"table": t.index, "entrants": t.entrants, "bye": t.bye,
                    "over": t.ended_ms is not None,
                    "games": [g.game_id for g in games if g.table == t.index]} for t in tables],
        "standings": board.standings, "estimates": spec.estimates, "judge": spec.judge,
        "pairings": board.pairings,
        "games": f"/v1/tournaments/{row.id}/games",
        "events": f"/v1/tournaments/{row.id}/events"}
    return msgspec.convert(body, TournamentBody)
