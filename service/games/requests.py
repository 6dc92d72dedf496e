"""Request bodies of the API as msgspec structs (they are also the OpenAPI schema).

They are decoded strictly (service.http.decoding): no coercion ("2" is not 2) and no field
that is not listed here.
"""

from typing import Annotated, Any, Literal

import msgspec

import core
from service.games import bodies
from service.games.bodies.common import GameName
from service.games.budget import Budget

# Budget and GameName are request bodies' words too, kept with the other shapes that the
# games' bodies use (service.games.budget, .bodies.common); a request's taker finds them here.
__all__ = ["MAX_SEATS", "Budget", "CreateGame", "GameName", "GameOptions", "JoinRequest",
           "MoveRequest", "Name", "SeatSpec"]

MAX_SEATS = max(max(counts) for counts in core.PLAYERS.values())  # the most any game has


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


class _Options(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    def for_core(self) -> dict[str, Any]:
        """The options as core.new_game takes them (a game's own struct, e.g. a deck, as
        its for_core() gives it)."""
        given = {name: getattr(self, name) for name in self.__struct_fields__}
        return {name: value.for_core() if isinstance(value, msgspec.Struct) else value
                for name, value in given.items() if value is not None}


def _game_options() -> type[_Options]:
    """One struct of every game's creation options, in core's order of the games: the
    first player, which every game takes, then each game's own (GameBodies.options)."""
    fields: dict[str, Any] = {"first_player": Annotated[int, msgspec.Meta(ge=0)]}
    for game in bodies.GAMES.values():
        fields.update({name: kind for name, kind in game.options if name not in fields})
    return msgspec.defstruct(
        "GameOptions", [(name, kind | None, None) for name, kind in fields.items()],
        bases=(_Options,), module=__name__, forbid_unknown_fields=True, omit_defaults=True,
        namespace={"__doc__": "Creation options; each game takes some of them"
                              " (docs/rules.md), core says which."})


GameOptions = _game_options()


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
