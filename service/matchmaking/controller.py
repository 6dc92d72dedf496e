"""/v1/queue: a player's ticket for a rated game with players of close ratings."""

import asyncio
import time
from collections.abc import AsyncIterator

import msgspec
from litestar import Controller, HttpMethod, Response, delete, get, post, route
from litestar.response import ServerSentEvent, ServerSentEventMessage

import core
from service.games.sessions import InvalidGame
from service.http.instants import iso_time
from service.http.openapi import EVENT_STREAM, problems
from service.matchmaking.bodies import QueueRequest, TicketBody
from service.matchmaking.queue import BASE_WINDOW, WIDEN_PER_SECOND, Matchmaker, Ticket
from service.players.storage import Player

WATCH_SECONDS = 0.25   # how often a ticket's event stream looks at it
DONE = ("seated", "cancelled", "expired")


def ticket_body(ticket: Ticket) -> TicketBody:
    waited = max(0.0, time.time() - ticket.since) if ticket.status == "waiting" else 0.0
    return TicketBody(
        id=ticket.id, game=ticket.game, players=ticket.players,  # type: ignore[arg-type]
        status=ticket.status, since=iso_time(ticket.since), expires=iso_time(ticket.expires),
        waited_seconds=round(waited, 3), rating=ticket.rating,
        window=BASE_WINDOW + WIDEN_PER_SECOND * waited,
        fill_with_ai_after=None if ticket.fill_after < 0 else ticket.fill_after,
        game_id=ticket.game_id if ticket.status == "seated" else None,
        seat=ticket.seat if ticket.status == "seated" else None,
        token=ticket.token if ticket.status == "seated" else None,
        seated_at=None if ticket.seated_at is None else iso_time(ticket.seated_at))


class QueueController(Controller):
    path = "/v1/queue"
    tags = ["players"]

    @post("/", status_code=201, responses=problems(400, 401, 413, 422, 429, 503),
          summary="Join the queue for a rated game (Authorization: Bearer <player key>)")
    async def join(self, data: QueueRequest, me: Player,
                   matchmaker: Matchmaker) -> TicketBody:
        if data.players not in core.PLAYERS[data.game]:
            raise InvalidGame(f"{data.game} is played by {', '.join(map(str, core.PLAYERS[data.game]))}"
                              f" players, not {data.players}")
        return ticket_body(await matchmaker.join(me, data.game, data.players,
                                                 data.fill_with_ai_after))

    @get("/{ticket_id:str}", responses=problems(401, 404, 503),
         summary="A ticket of the key's player: waiting, or seated with its game and seat token")
    async def ticket(self, ticket_id: str, me: Player,
                     matchmaker: Matchmaker) -> TicketBody:
        return ticket_body(await matchmaker.get(me, ticket_id))

    @route("/{ticket_id:str}", http_method=HttpMethod.OPTIONS, include_in_schema=False,
           sync_to_thread=False)
    def allowed(self, ticket_id: str) -> Response[None]:
        """What a ticket allows. Litestar's own OPTIONS answer is made with the route's
        first handler and lists only its method (DELETE), though GET is served too."""
        return Response(None, status_code=204, headers={"Allow": "DELETE, GET, HEAD, OPTIONS"})

    @delete("/{ticket_id:str}", status_code=200, responses=problems(401, 404, 503),
            summary="Cancel a waiting ticket (a seated one stays seated)")
    async def cancel(self, ticket_id: str, me: Player,
                     matchmaker: Matchmaker) -> TicketBody:
        return ticket_body(await matchmaker.cancel(me, ticket_id))

    @get("/{ticket_id:str}/events", responses=problems(401, 404, 503), media_type=EVENT_STREAM,
         summary="A ticket's changes as Server-Sent Events (`event: ticket`), to its end")
    async def events(self, ticket_id: str, me: Player,
                     matchmaker: Matchmaker) -> ServerSentEvent:
        first = await matchmaker.get(me, ticket_id)

        async def changes() -> AsyncIterator[ServerSentEventMessage]:
            ticket, last = first, None
            while True:
                body = ticket_body(ticket)
                if (body.status, body.game_id) != last:
                    last = (body.status, body.game_id)
                    yield ServerSentEventMessage(event="ticket",
                                                 data=msgspec.json.encode(body).decode())
                if ticket.status in DONE:
                    return
                await asyncio.sleep(WATCH_SECONDS)
                ticket = await matchmaker.get(me, ticket_id)

        return ServerSentEvent(changes())
