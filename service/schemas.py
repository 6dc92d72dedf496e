"""Request bodies of the API as msgspec structs (they are also the OpenAPI schema)."""

from typing import Annotated, Any

import msgspec

Seat = Annotated[int, msgspec.Meta(ge=0, le=15)]


class CreateGame(msgspec.Struct, forbid_unknown_fields=True):
    """POST /v1/games."""
    game: Annotated[str, msgspec.Meta(max_length=64, examples=["cup-the-crab"])]
    players: Annotated[int, msgspec.Meta(ge=1, le=16)]
    options: dict[str, Any] | None = None
    seed: Annotated[int, msgspec.Meta(ge=0)] | None = None  # core checks < 2**64


class MoveRequest(msgspec.Struct, forbid_unknown_fields=True):
    """POST /v1/games/{id}/moves: a move exactly as listed in legal_moves."""
    move: dict[str, Any]
    expected_version: int | None = None  # any other version than the current one is stale: 409
