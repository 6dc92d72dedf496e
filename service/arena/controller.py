"""/v1/challenges, /v1/series and /v1/players/me/events: the arena (docs/arena.md)."""

import msgspec
from litestar import Controller, HttpMethod, Response, delete, get, post, route
from litestar.params import Parameter
from litestar.response import ServerSentEvent

from service.arena.bodies import (
    CHALLENGE_TURN_SECONDS,
    SERIES_TURN_SECONDS,
    ChallengeBody,
    ChallengeRequest,
    SeriesBody,
    SeriesGameBody,
    SeriesGames,
    SeriesGameSeat,
    SeriesRequest,
)
from service.arena.challenges import Challenges
from service.arena.seating import Contestant, contestants
from service.arena.series import ForbiddenContestant, SeriesRunner, seating, spec_of
from service.arena.storage import SeriesGame, SeriesRow
from service.events.log_stream import EVENT_ID, RESUME_HEADER, log_stream
from service.games.limits import GameLimits
from service.games.sessions import InvalidGame
from service.http.instants import iso_ms
from service.http.openapi import EVENT_STREAM, problems
from service.players.events import PlayerEvents
from service.players.storage import Player, Players

SERIES_PAGE = 100


def challenge_body(challenges: Challenges, challenge, player_id: str) -> ChallengeBody:
    return msgspec.convert(challenges.shown(challenge, player_id), ChallengeBody)


class ChallengesController(Controller):
    path = "/v1/challenges"
    tags = ["arena"]

    @post("/", status_code=201, responses=problems(400, 401, 404, 413, 422, 429, 503),
          summary="Challenge players or AI levels to a game (Authorization: Bearer <player key>)")
    async def offer(self, data: ChallengeRequest, me: Player, players: Players,
                    limits: GameLimits,
                    challenges: Challenges) -> ChallengeBody:
        if data.seat is not None and data.seat > len(data.opponents):
            raise InvalidGame(f"seat is 0 to {len(data.opponents)} at a table of"
                              f" {len(data.opponents) + 1}, got {data.seat}")
        opponents = await contestants(players, data.opponents)
        found = await challenges.offer(
            Contestant.of(me), opponents, data.game,
            None if data.options is None else msgspec.to_builtins(data.options),
            limits.clock(data.turn_seconds, CHALLENGE_TURN_SECONDS), data.rated,
            data.seat, data.expires_in)
        return challenge_body(challenges, found, me.id)

    @get("/{challenge_id:str}", responses=problems(401, 404, 503),
         summary="A challenge the key's player is a party to")
    async def read(self, challenge_id: str, me: Player,
                   challenges: Challenges) -> ChallengeBody:
        return challenge_body(challenges, await challenges.get(me.id, challenge_id),
                              me.id)

    @route("/{challenge_id:str}", http_method=HttpMethod.OPTIONS, include_in_schema=False,
           sync_to_thread=False)
    def allowed(self, challenge_id: str) -> Response[None]:
        """Both methods of a challenge (Litestar's own answer lists the first only)."""
        return Response(None, status_code=204, headers={"Allow": "DELETE, GET, HEAD, OPTIONS"})

    @delete("/{challenge_id:str}", status_code=200, responses=problems(401, 404, 409, 503),
            summary="Cancel a pending challenge (its challenger)")
    async def cancel(self, challenge_id: str, me: Player,
                     challenges: Challenges) -> ChallengeBody:
        return challenge_body(challenges, await challenges.cancel(me.id, challenge_id),
                              me.id)

    @post("/{challenge_id:str}/accept", status_code=200,
          responses=problems(401, 404, 409, 503),
          summary="Accept a challenge; once all have, its game starts on every party's stream")
    async def accept(self, challenge_id: str, me: Player,
                     challenges: Challenges) -> ChallengeBody:
        return challenge_body(challenges, await challenges.accept(me.id, challenge_id),
                              me.id)

    @post("/{challenge_id:str}/decline", status_code=200,
          responses=problems(401, 404, 409, 503), summary="Decline a challenge")
    async def decline(self, challenge_id: str, me: Player,
                      challenges: Challenges) -> ChallengeBody:
        return challenge_body(challenges, await challenges.decline(me.id, challenge_id),
                              me.id)


class SeriesController(Controller):
    path = "/v1/series"
    tags = ["arena"]

    @post("/", status_code=201, responses=problems(400, 401, 403, 404, 409, 413, 422, 429, 503),
          summary="Start a series of deals between contestants (Authorization: Bearer <player key>)")
    async def create(self, data: SeriesRequest, me: Player, players: Players,
                     limits: GameLimits,
                     runner: SeriesRunner) -> SeriesBody:
        found = await contestants(players, data.contestants)
        others = [c.id for c in found if c.kind == "human" and c.id != me.id]
        if others:
            raise ForbiddenContestant(f"{others[0]} is a person's player: a series seats AI"
                                      " levels, bots and the key's own player, never another"
                                      " person")
        row = await runner.create(me.id, data.game, data.players, found, data.deals,
                                  data.duplicate,
                                  limits.clock(data.turn_seconds, SERIES_TURN_SECONDS),
                                  None if data.options is None else data.options.for_core(),
                                  data.at_once)
        return await series_body(runner, row)

    @get("/{series_id:str}", responses=problems(404, 503),
         summary="A series: progress, the crosstable with 95% intervals, moves' latencies")
    async def read(self, series_id: str, runner: SeriesRunner) -> SeriesBody:
        return await series_body(runner, await runner.get(series_id))

    @route("/{series_id:str}", http_method=HttpMethod.OPTIONS, include_in_schema=False,
           sync_to_thread=False)
    def allowed(self, series_id: str) -> Response[None]:
        """Both methods of a series (Litestar's own answer lists the first only)."""
        return Response(None, status_code=204, headers={"Allow": "DELETE, GET, HEAD, OPTIONS"})

    @delete("/{series_id:str}", status_code=200, responses=problems(401, 403, 404, 503),
            summary="Stop a running series (its owner): no game starts after this")
    async def cancel(self, series_id: str, me: Player,
                     runner: SeriesRunner) -> SeriesBody:
        return await series_body(runner, await runner.cancel(me.id, series_id))

    @get("/{series_id:str}/games", responses=problems(400, 404, 503),
         summary="A series' games in order, each with its seats, ranks and replay")
    async def games(self, series_id: str, runner: SeriesRunner,
                    after: int | None = Parameter(default=None, ge=-1, le=100_000,
                                                  description="the last index of the page before")
                    ) -> SeriesGames:
        row = await runner.get(series_id)
        rows = [game for game in await runner.book.games(row.id)
                if after is None or game.index > after][:SERIES_PAGE + 1]
        page = rows[:SERIES_PAGE]
        return SeriesGames(games=[SeriesGameBody(
            index=game.index, deal=game.deal, rotation=game.rotation, game_id=game.game_id,
            seats=game_seats(row.players, game), started_at=iso_ms(game.started_ms) or "",
            ended_at=iso_ms(game.ended_ms), replay=f"/v1/games/{game.game_id}/replay")
            for game in page],
            next=f"/v1/series/{row.id}/games?after={page[-1].index}"
            if len(rows) > SERIES_PAGE else None)


def game_seats(players: int, game: SeriesGame) -> list[SeriesGameSeat]:
    """A series' game seat by seat; its outcome keeps ranks and points by contestant."""
    outcome = game.outcome or {}
    ranks, points = outcome.get("ranks") or {}, outcome.get("scores") or {}
    return [SeriesGameSeat(seat=seat, contestant=contestant,
                           rank=ranks.get(str(contestant)), points=points.get(str(contestant)))
            for seat, contestant in enumerate(seating(players, game.rotation))]


async def series_body(runner: SeriesRunner, row: SeriesRow) -> SeriesBody:
    spec = spec_of(row)
    results = await runner.results(row)
    return msgspec.convert({
        "id": row.id, "owner": row.owner, "game": row.game, "players": row.players,
        "deals": spec.deals, "duplicate": spec.duplicate, "turn_seconds": spec.turn_seconds,
        "at_once": spec.at_once, "status": row.status, "games_total": row.games_total,
        "games_done": row.games_done, "created_at": iso_ms(row.created_ms),
        "finished_at": iso_ms(row.finished_ms),
        "contestants": [{"index": i, "id": c.id, "name": c.name, "kind": c.kind,
                         "latency": results["latency"][i]}
                        for i, c in enumerate(spec.contestants)],
        "judge": spec.judge, "crosstable": results["crosstable"], "games": f"/v1/series/{row.id}/games"},
        SeriesBody)


class PlayerEventsController(Controller):
    path = "/v1/players/me/events"
    tags = ["arena"]

    @get("/", responses=problems(400, 401, 503), media_type=EVENT_STREAM,
         summary="The key's player's events as Server-Sent Events: challenges, its games"
                 " starting (with the seat token) and ending, its series' progress")
    async def events(self, me: Player, player_events: PlayerEvents,
                     last_event_id: str | None = Parameter(
                         header="Last-Event-ID", default=None, pattern=RESUME_HEADER,
                         description="resume after this event (its `id` as sent);"
                                     " empty: from the oldest event kept"),
                     after: str | None = Parameter(
                         query="after", default=None, pattern=EVENT_ID.pattern,
                         description="resume after this event (as Last-Event-ID, for a"
                                     " client that cannot set headers)")) -> ServerSentEvent:
        return log_stream(lambda since: player_events.read(me.id, since),
                          last_event_id or after or None)
