"""The shapes every game's bodies share, generic in the game's view, move and result."""

from typing import Any, Generic, Literal, TypeVar

import msgspec

ViewT = TypeVar("ViewT")
MoveT = TypeVar("MoveT")
SeenMoveT = TypeVar("SeenMoveT")
ResultT = TypeVar("ResultT")
EntryT = TypeVar("EntryT")
StatT = TypeVar("StatT")
GameT = TypeVar("GameT")

Status = Literal["active", "over"]


class GameBodyBase(msgspec.Struct, Generic[ViewT, MoveT, ResultT], kw_only=True):
    """A game as one viewer (a seat, or a spectator when `you` is null) may see it."""
    id: str
    version: int
    status: Status
    seeded: bool                 # the creator chose the seed, so knows the deal
    to_move: list[int]
    you: int | None
    legal_moves: list[MoveT]     # empty for a spectator and for a seat not to move
    result: ResultT | None       # set once the game is over
    view: ViewT


class LegalMovesBase(msgspec.Struct, Generic[MoveT], kw_only=True):
    id: str
    version: int
    you: int | None
    legal_moves: list[MoveT]


class EntryBase(msgspec.Struct, Generic[SeenMoveT], kw_only=True):
    """One logged move as the viewer may see it."""
    version: int
    seat: int
    move: SeenMoveT


class HistoryBase(msgspec.Struct, Generic[EntryT], kw_only=True):
    id: str
    version: int
    entries: list[EntryT]


class EventBase(msgspec.Struct, Generic[EntryT, GameT], kw_only=True):
    """The data of one Server-Sent Event: a version, what made it (null for the first
    event of a fresh stream, which shows the current state) and the viewer's game then."""
    version: int
    entry: EntryT | None
    game: GameT


class MoveStatBase(msgspec.Struct, Generic[MoveT], kw_only=True):
    move: MoveT
    visits: int
    win_rate: float | None  # null when the only legal move was not searched


class SuggestionBase(msgspec.Struct, Generic[MoveT, StatT], kw_only=True):
    id: str
    version: int
    you: int
    move: MoveT
    algorithm: str
    iterations: int
    stats: list[StatT]   # every searched move, most visited first


class SeatToken(msgspec.Struct, kw_only=True):
    """A seat of a new game; `token` (its secret, shown this once) for a human seat only."""
    seat: int
    type: Literal["human", "ai"]
    token: str | msgspec.UnsetType = msgspec.UNSET


class Created(msgspec.Struct, kw_only=True):
    """A new game: its id, and a token per human seat (the store keeps only a hash)."""
    id: str
    game: str
    version: int
    seeded: bool
    seats: list[SeatToken]


class Health(msgspec.Struct):
    status: Literal["ok"]


class Ready(msgspec.Struct):
    status: Literal["ready"]


class Problem(msgspec.Struct, kw_only=True, omit_defaults=True):
    """An error (RFC 9457 problem+json); `type` is stable, `detail` says what to do."""
    type: str
    title: str
    status: int
    detail: str
    instance: str
    # Extension members, present on the problems that carry them:
    legal_moves: list[Any] | msgspec.UnsetType = msgspec.UNSET  # illegal-move: the caller's moves
    current_version: int | msgspec.UnsetType = msgspec.UNSET    # version-conflict
