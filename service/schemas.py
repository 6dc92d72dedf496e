"""Request bodies of the API as msgspec structs (they are also the OpenAPI schema)."""

from typing import Annotated, Any, Literal

import msgspec


class Budget(msgspec.Struct, forbid_unknown_fields=True):
    """How the AI thinks: exactly one of iterations, time_ms (server-capped) and a
    strength level (core.ai.LEVELS)."""
    iterations: Annotated[int, msgspec.Meta(ge=1)] | None = None
    time_ms: Annotated[int, msgspec.Meta(ge=1)] | None = None
    level: Annotated[int, msgspec.Meta(ge=1)] | None = None


class SeatSpec(msgspec.Struct, forbid_unknown_fields=True):
    """One seat of a new game: a human (gets a token) or an AI the server plays."""
    type: Literal["human", "ai"] = "human"
    iterations: Annotated[int, msgspec.Meta(ge=1)] | None = None
    time_ms: Annotated[int, msgspec.Meta(ge=1)] | None = None
    level: Annotated[int, msgspec.Meta(ge=1)] | None = None


class CreateGame(msgspec.Struct, forbid_unknown_fields=True):
    """POST /v1/games."""
    game: Annotated[str, msgspec.Meta(max_length=64, examples=["cup-the-crab"])]
    players: Annotated[int, msgspec.Meta(ge=1, le=16)]
    options: dict[str, Any] | None = None
    seed: Annotated[int, msgspec.Meta(ge=0)] | None = None  # core checks < 2**64
    seats: Annotated[list[SeatSpec], msgspec.Meta(max_length=16)] | None = None


class MoveRequest(msgspec.Struct, forbid_unknown_fields=True):
    """POST /v1/games/{id}/moves: a move exactly as listed in legal_moves."""
    move: dict[str, Any]
    expected_version: int | None = None  # any other version than the current one is stale: 409
