"""JSON bodies of the API as msgspec structs: the OpenAPI document is made from them.

Game-specific bodies are tagged by `game` and built per game from the generic shapes in
`common` (see `cupcrab` and `cvp`); this module gathers them into the unions the
controllers return, and converts the dicts that `core` and the sessions produce into them.
"""

from typing import Any, TypeAlias

import msgspec

from service.bodies import cupcrab, cvp

GameBody: TypeAlias = cupcrab.CupCrabGame | cvp.CvpGame
LegalMovesBody: TypeAlias = cupcrab.CupCrabLegalMoves | cvp.CvpLegalMoves
HistoryBody: TypeAlias = cupcrab.CupCrabHistory | cvp.CvpHistory
SuggestionBody: TypeAlias = cupcrab.CupCrabSuggestion | cvp.CvpSuggestion

# Each game's move union by its schema's name, for the bodies whose moves are not tagged
# by game (a move request, the legal moves of an illegal-move problem): see service.openapi.
MOVE_UNIONS: dict[str, Any] = {"CupCrabMove": cupcrab.CupCrabMove, "CvpMove": cvp.CvpMove}


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


def suggestion_body(body: dict[str, Any]) -> SuggestionBody:
    return msgspec.convert(body, SuggestionBody)



# An event's `game` is the game body, so events carry no tag of their own: each game's
# event type is chosen by name.
EVENTS: dict[str, Any] = {"cup-the-crab": cupcrab.CupCrabEvent,
                          "crabe-vs-poulpe": cvp.CvpEvent}
DELTA_EVENTS: dict[str, Any] = {"cup-the-crab": cupcrab.CupCrabDeltaEvent,
                                "crabe-vs-poulpe": cvp.CvpDeltaEvent}


def event_body(game: str, body: dict[str, Any]) -> msgspec.Struct:
    return msgspec.convert(body, EVENTS[game])
