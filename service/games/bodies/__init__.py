"""JSON bodies of the API as msgspec structs: the OpenAPI document is made from them.

Game-specific bodies are tagged by `game` and built per game from the generic shapes in
`common` (see `cupcrab` and `cvp`, each ending with its `BODIES`); this module gathers
them into the unions the controllers return, and converts the dicts that `core` and the
sessions produce into them.
"""

from typing import Any, TypeAlias, Union

import msgspec

import core
from service.games.bodies import cupcrab, cvp
from service.games.bodies.common import GameBodies

# Each game's bodies by core's name, in core's order (core/registry.py): the one list of
# the service's per-game bodies (tests/service/test_bodies_exact.py checks each game has).
GAMES: dict[str, GameBodies] = {bodies.game: bodies for bodies in sorted(
    (cupcrab.BODIES, cvp.BODIES), key=lambda bodies: core.GAMES.index(bodies.game))}


def _union(part: str) -> Any:
    return Union[tuple(getattr(bodies, part) for bodies in GAMES.values())]  # noqa: UP007


GameBody: TypeAlias = _union("body")  # type: ignore[valid-type]
LegalMovesBody: TypeAlias = _union("legal_moves")  # type: ignore[valid-type]
HistoryBody: TypeAlias = _union("history")  # type: ignore[valid-type]
SuggestionBody: TypeAlias = _union("suggestion")  # type: ignore[valid-type]
ReplayBody: TypeAlias = _union("replay")  # type: ignore[valid-type]
ExportedGame: TypeAlias = _union("exported")  # type: ignore[valid-type]
ReviewBody: TypeAlias = _union("review")  # type: ignore[valid-type]

# Each game's move union by its schema's name, for the bodies whose moves are not tagged
# by game (a move request, the legal moves of an illegal-move problem): see service.http.openapi.
MOVE_UNIONS: dict[str, Any] = {f"{bodies.prefix}Move": bodies.move for bodies in GAMES.values()}


def as_sent(body: dict[str, Any]) -> Any:
    """A body of the hot paths (views, legal moves, history), encoded as the dict it is.

    The dicts that core and the sessions build are exactly these typed bodies, field for
    field (tests/service/test_bodies_exact.py checks every step of random games of both
    games, for every viewer), so converting each into its structs before encoding them
    only cost time: a quarter of a read's CPU in the app (docs/benchmarks.md). The
    structs stay what the document, the tests and generated clients read.
    """
    return body


def game_body(body: dict[str, Any]) -> GameBody:
    return as_sent(body)


def legal_moves_body(body: dict[str, Any]) -> LegalMovesBody:
    return as_sent(body)


def history_body(body: dict[str, Any]) -> HistoryBody:
    return as_sent(body)


def replay_body(body: dict[str, Any]) -> ReplayBody:
    return as_sent(body)


def review_body(body: dict[str, Any]) -> ReviewBody:
    return msgspec.convert(body, ReviewBody)


def suggestion_body(body: dict[str, Any]) -> SuggestionBody:
    return msgspec.convert(body, SuggestionBody)



# An event's `game` is the game body, so events carry no tag of their own: each game's
# event type is chosen by name.
EVENTS: dict[str, Any] = {game: bodies.event for game, bodies in GAMES.items()}
DELTA_EVENTS: dict[str, Any] = {game: bodies.delta_event for game, bodies in GAMES.items()}


def event_body(game: str, body: dict[str, Any]) -> msgspec.Struct:
    return msgspec.convert(body, EVENTS[game])
