"""Who a request comes from: the player whose key its `Authorization: Bearer <player key>`
header carries. Handlers take it as the dependency `me` (service.players.parts)."""

from litestar import Request

from service.games.sessions import Unauthorized
from service.http.credentials import NotBearer, bearer
from service.players.storage import Player, Players


async def key_holder(request: Request, players: Players) -> Player:
    """The player the request's key opens; Unauthorized without a key or with one that
    opens no player."""
    try:
        key = bearer(request.scope)
    except NotBearer:
        raise Unauthorized("the Authorization header must be 'Bearer <player key>'") from None
    if key is None:
        raise Unauthorized("this needs a player's key: Authorization: Bearer <player key>")
    player = await players.by_key(key)
    if player is None:
        raise Unauthorized("this key opens no player (POST /v1/players makes one)")
    return player
