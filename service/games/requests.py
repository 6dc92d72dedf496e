"""Request bodies of the API as msgspec structs (they are also the OpenAPI schema).

They are decoded strictly (service.http.decoding): no coercion ("2" is not 2) and no field
that is not listed here.
"""

from typing import Annotated, Any, Literal

import msgspec

import core
from core.games.cvp import rules as cvp_rules

# The games this service offers, as core registers them: the document lists them.
GameName = Literal[core.GAMES]  # type: ignore[valid-type]
MAX_SEATS = max(max(counts) for counts in core.PLAYERS.values())  # the most any game has


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
    # A human seat bound to a player: that player's key (POST /v1/players), the proof.
    player: Annotated[str, msgspec.Meta(min_length=1, max_length=200)] | None = None
    iterations: Annotated[int, msgspec.Meta(ge=1)] | None = None
    time_ms: Annotated[int, msgspec.Meta(ge=1)] | None = None
    level: Annotated[int, msgspec.Meta(ge=1)] | None = None


Face = Literal[cvp_rules.FACE_NAMES]  # type: ignore[valid-type]
# Crabe vs Poulpe: 5 to 40 cards of each colour (docs/rules.md).
ColourDeck = Annotated[list[Face], msgspec.Meta(min_length=5, max_length=40)]


class CvpDeck(msgspec.Struct, forbid_unknown_fields=True):
    """Crabe vs Poulpe's custom deck: each colour's cards by face, one entry per card
    (`["alpha", "alpha", "1", ...]`). As a list per colour, every deck the schema allows is
    one the game takes: 5 to 40 cards of each colour."""
    crab: ColourDeck
    octopus: ColourDeck

    def copies(self) -> dict[str, int]:
        """The deck as core takes it: {card name: copies}."""
        counted: dict[str, int] = {}
        for colour, faces in (("crab", self.crab), ("octopus", self.octopus)):
            for face in faces:
                counted[f"{colour}-{face}"] = counted.get(f"{colour}-{face}", 0) + 1
        return counted


class GameOptions(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    """Creation options; each game takes some of them (docs/rules.md), core says which."""
    first_player: Annotated[int, msgspec.Meta(ge=0)] | None = None
    mode: Literal["symmetrical", "asymmetrical"] | None = None    # Crabe vs Poulpe's deck
    deck: CvpDeck | None = None                                   # Crabe vs Poulpe

    def for_core(self) -> dict[str, Any]:
        """The options as core.new_game takes them."""
        options = msgspec.to_builtins(self)
        if self.deck is not None:
            options["deck"] = self.deck.copies()
        return options


class CreateGame(msgspec.Struct, forbid_unknown_fields=True):
    """POST /v1/games."""
    game: GameName
    players: Annotated[int, msgspec.Meta(ge=1, le=MAX_SEATS)]
    options: GameOptions | None = None
    seed: Annotated[int, msgspec.Meta(ge=0)] | None = None  # below 2**64 (exact_requests)
    seats: Annotated[list[SeatSpec], msgspec.Meta(max_length=MAX_SEATS)] | None = None
    listed: bool = True  # in the waiting list while seats are open (false: by link only)
    # 5 to 86,400 unless the server's TURN_SECONDS_MIN allows shorter clocks
    turn_seconds: Annotated[int, msgspec.Meta(ge=1, le=86_400)] | None = None
    on_timeout: Literal["ai", "forfeit"] = "ai"  # what a running-out clock does
    # Rated when every seat is a player or an AI level and no seed was chosen; false: casual.
    rated: bool = True


class JoinRequest(msgspec.Struct, forbid_unknown_fields=True):
    """POST /v1/games/{id}/join: take the given open seat, or the first one."""
    name: Name | None = None
    seat: Annotated[int, msgspec.Meta(ge=0, le=MAX_SEATS - 1)] | None = None
    # The joining player's key: binds the seat to that player (a rated game needs it).
    player: Annotated[str, msgspec.Meta(min_length=1, max_length=200)] | None = None


class MoveRequest(msgspec.Struct, forbid_unknown_fields=True):
    """POST /v1/games/{id}/moves: a move exactly as listed in legal_moves.

    `move` is checked by the game's core once the game is loaded (its form depends on the
    game; core's messages say what is wrong); the document lists every game's moves.
    """
    move: dict[str, Any]
    expected_version: int | None = None  # any other version than the current one: 409
