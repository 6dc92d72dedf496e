"""What a webhook bot is sent at each decision, and what it answers (docs/arena.md): the
document's `WebhookDecision` and `WebhookAnswer`, the shapes of the server's call out."""

from typing import Any, Literal

import msgspec

from service.games.bodies import GameBody


class WebhookDecision(msgspec.Struct, kw_only=True):
    """POSTed to a webhook bot, signed (Crab-Signature), for a decision of its seat:
    `game` is the game as GET /v1/games/{id} shows that seat, `deadline` when the answer
    must have arrived (ISO 8601, UTC), `delivery` the call's id (its Crab-Delivery)."""
    type: Literal["decision"]
    delivery: str
    game_id: str
    version: int
    seat: int
    deadline: str
    game: GameBody


class WebhookAnswer(msgspec.Struct, kw_only=True):
    """What a webhook bot answers (any 2xx): one of the game's legal_moves, exactly as
    POST /v1/games/{id}/moves takes it; other fields are ignored."""
    move: dict[str, Any]
