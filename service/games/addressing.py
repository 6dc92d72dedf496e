"""How a request names a game and a seat: the game's id in its path, the seat's token in
`Authorization: Bearer <seat token>`. Every handler that acts on a game (games, lobby,
events, archive, reviews) reads them here.

The token is read from the request the handler already has rather than taken as a
dependency: views and moves read it on every request, and a dependency would add a level
to Litestar's resolution of their dependencies (service/parts.py), 6 to 13 us a view
(docs/benchmarks.md, "The house by domain")."""

import re

from litestar import Request

from service.games.sessions import GameNotFound, Session, Sessions, Unauthorized
from service.http.credentials import NotBearer, bearer
from service.http.rate_limits import SeatBudget

GAME_ID = re.compile(r"^[A-Za-z0-9_-]{1,64}$")  # any other string names no game


def checked_game_id(game_id: str) -> str:
    """game_id, if it could name a game (GameNotFound if it cannot)."""
    if not GAME_ID.match(game_id):
        raise GameNotFound(game_id)
    return game_id


async def load(sessions: Sessions, game_id: str, budget: SeatBudget | None = None) -> Session:
    """The game the path names (GameNotFound for an id no game can have)."""
    return await sessions.load(checked_game_id(game_id), budget)


def seat_token(request: Request) -> str | None:
    """The token of an `Authorization: Bearer <token>` header; None when there is none."""
    try:
        return bearer(request.scope)
    except NotBearer:
        raise Unauthorized("the Authorization header must be 'Bearer <seat token>'") from None
