"""Request bodies of the API as msgspec structs (they are also the OpenAPI schema).

They are decoded strictly (service.decoding): no coercion ("2" is not 2) and no field
that is not listed here.
"""

from typing import Annotated, Any, Literal

import msgspec


class Budget(msgspec.Struct, forbid_unknown_fields=True):
    """How long the AI thinks: exactly one of iterations and time_ms (server-capped)."""
    iterations: Annotated[int, msgspec.Meta(ge=1)] | None = None
    time_ms: Annotated[int, msgspec.Meta(ge=1)] | None = None


class SeatSpec(msgspec.Struct, forbid_unknown_fields=True):
    """One seat of a new game: a human (gets a token) or an AI the server plays."""
    type: Literal["human", "ai"] = "human"
    iterations: Annotated[int, msgspec.Meta(ge=1)] | None = None
    time_ms: Annotated[int, msgspec.Meta(ge=1)] | None = None


class GameOptions(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    """Creation options; each game takes some of them (docs/rules.md), core says which."""
    first_player: Annotated[int, msgspec.Meta(ge=0)] | None = None
    mode: Literal["symmetrical", "asymmetrical"] | None = None    # Crabe vs Poulpe's deck
    deck: Annotated[dict[str, Annotated[int, msgspec.Meta(ge=0, le=64)]],
                    msgspec.Meta(max_length=64)] | None = None    # Crabe vs Poulpe: card -> copies


class CreateGame(msgspec.Struct, forbid_unknown_fields=True):
    """POST /v1/games."""
    game: Annotated[str, msgspec.Meta(max_length=64, examples=["cup-the-crab"])]
    players: Annotated[int, msgspec.Meta(ge=1, le=16)]
    options: GameOptions | None = None
    seed: Annotated[int, msgspec.Meta(ge=0)] | None = None  # core checks < 2**64: else 422
    seats: Annotated[list[SeatSpec], msgspec.Meta(max_length=16)] | None = None


class MoveRequest(msgspec.Struct, forbid_unknown_fields=True):
    """POST /v1/games/{id}/moves: a move exactly as listed in legal_moves.

    `move` is checked by the game's core once the game is loaded (its form depends on the
    game; core's messages say what is wrong); the document lists every game's moves.
    """
    move: dict[str, Any]
    expected_version: Annotated[int, msgspec.Meta(ge=0)] | None = None  # else 409 if stale
