"""Request bodies of the API as msgspec structs (they are also the OpenAPI schema).

They are decoded strictly (service.decoding): no coercion ("2" is not 2) and no field
that is not listed here.
"""

from typing import Annotated, Any, Literal

import msgspec


class Budget(msgspec.Struct, forbid_unknown_fields=True):
    """How the AI thinks: exactly one of iterations, time_ms (server-capped) and a
    strength level (core.ai.LEVELS)."""
    iterations: Annotated[int, msgspec.Meta(ge=1)] | None = None
    time_ms: Annotated[int, msgspec.Meta(ge=1)] | None = None
    level: Annotated[int, msgspec.Meta(ge=1)] | None = None


# A display name: 1 to 24 characters, no control character, not only spaces.
Name = Annotated[str, msgspec.Meta(min_length=1, max_length=24,
                                   pattern=r"^[^\x00-\x1f\x7f]*[^\x00-\x20\x7f][^\x00-\x1f\x7f]*$")]


class SeatSpec(msgspec.Struct, forbid_unknown_fields=True):
    """One seat of a new game: a human (the creator: gets a token), an AI the server
    plays, or an open seat that someone takes later with POST .../join."""
    type: Literal["human", "ai", "open"] = "human"
    name: Name | None = None
    iterations: Annotated[int, msgspec.Meta(ge=1)] | None = None
    time_ms: Annotated[int, msgspec.Meta(ge=1)] | None = None
    level: Annotated[int, msgspec.Meta(ge=1)] | None = None


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
    listed: bool = True  # in the waiting list while seats are open (false: by link only)
    # 5 to 86,400 unless the server's TURN_SECONDS_MIN allows shorter clocks
    turn_seconds: Annotated[int, msgspec.Meta(ge=1, le=86_400)] | None = None
    on_timeout: Literal["ai", "forfeit"] = "ai"  # what a running-out clock does


class JoinRequest(msgspec.Struct, forbid_unknown_fields=True):
    """POST /v1/games/{id}/join: take the given open seat, or the first one."""
    name: Name | None = None
    seat: Annotated[int, msgspec.Meta(ge=0, le=15)] | None = None


class MoveRequest(msgspec.Struct, forbid_unknown_fields=True):
    """POST /v1/games/{id}/moves: a move exactly as listed in legal_moves.

    `move` is checked by the game's core once the game is loaded (its form depends on the
    game; core's messages say what is wrong); the document lists every game's moves.
    """
    move: dict[str, Any]
    expected_version: int | None = None  # any other version than the current one: 409
