"""Bodies of the matchmaking queue."""

from typing import Annotated, Literal

import msgspec

from service.games.requests import GameName


class QueueRequest(msgspec.Struct, forbid_unknown_fields=True):
    """POST /v1/queue: a rated game of `game` for `players`, with players of close
    ratings; with fill_with_ai_after, AI levels near the ticket's rating take the seats
    nobody took after that many seconds."""
    game: GameName
    players: Annotated[int, msgspec.Meta(ge=2, le=5)]
    fill_with_ai_after: Annotated[float, msgspec.Meta(ge=0, le=600)] | None = None


class TicketBody(msgspec.Struct, kw_only=True):
    """A ticket: `waiting` (since `since`, in the window of ratings its wait has
    widened to), then `seated` with the game's id, the seat and its token (shown only to
    the ticket's player), or `cancelled` or `expired`. `seating`: the game is being made."""
    id: str
    game: GameName
    players: int
    status: Literal["waiting", "seating", "seated", "cancelled", "expired"]
    since: str
    expires: str
    waited_seconds: float
    rating: float                # the player's mu the queue pairs by
    window: float                # ratings within this of it are paired now
    fill_with_ai_after: float | None
    game_id: str | None          # once seated: GET /v1/games/{game_id}
    seat: int | None
    token: str | None            # the seat's token: Authorization: Bearer <token>
    seated_at: str | None        # when its game was made
