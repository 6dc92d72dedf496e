"""The shapes every game's bodies share, generic in the game's view, move and result."""

from dataclasses import dataclass
from typing import Any, Generic, Literal, TypeVar

import msgspec

import core
from service.games.meta import Clock, RematchOffer
from service.webhooks.bodies import WebhookFailure

ViewT = TypeVar("ViewT")
MoveT = TypeVar("MoveT")
SeenMoveT = TypeVar("SeenMoveT")
ResultT = TypeVar("ResultT")
EntryT = TypeVar("EntryT")
StatT = TypeVar("StatT")
GameT = TypeVar("GameT")

# The games this service offers, as core registers them: the document lists them.
GameName = Literal[core.GAMES]  # type: ignore[valid-type]
Status = Literal["waiting", "active", "over"]


class SeatInfo(msgspec.Struct, kw_only=True):
    """A seat as everyone sees it: who sits there and, with a turn clock, until when it
    may think (epoch seconds)."""
    seat: int
    type: Literal["human", "ai", "open"]
    name: str | None
    player: str | None           # the player's id (GET /v1/players/{id}); ai-<level> for a level
    deadline: float | None
    resigned: bool               # its player resigned: it ranks last (the AI plays it on)


class GameBodyBase(msgspec.Struct, Generic[ViewT, MoveT, ResultT], kw_only=True):
    """A game as one viewer (a seat, or a spectator when `you` is null) may see it."""
    id: str
    version: int
    status: Status               # waiting: seats are open, no move yet
    seeded: bool                 # the creator chose the seed, so knows the deal
    rated: bool                  # its result updates the players' ratings
    to_move: list[int]           # empty unless active
    you: int | None
    legal_moves: list[MoveT]     # empty for a spectator and for a seat not to move
    result: ResultT | None       # set once the game is over
    view: ViewT
    seats: list[SeatInfo]
    clock: Clock | None
    rematch: str | None          # the next game's id, once every person's seat wants it
    rematch_offer: RematchOffer | None  # the seats' answers to a rematch offered, until then
    hints: bool                  # POST .../suggest answers (false between people, rated, arena)


class LegalMovesBase(msgspec.Struct, Generic[MoveT], kw_only=True):
    id: str
    version: int
    you: int | None
    legal_moves: list[MoveT]


class EntryBase(msgspec.Struct, kw_only=True):
    """One logged change as the viewer may see it: the version it made, the seat it
    concerns, and by its `kind` what happened."""
    version: int
    seat: int
    at: str | None               # when it was committed (ISO 8601, UTC; null if logged before)


class MoveEntryBase(EntryBase, Generic[SeenMoveT], kw_only=True):
    move: SeenMoveT


class JoinEntry(EntryBase, tag_field="kind", tag="join"):
    """A player took the seat."""
    name: str | None


class LeaveEntry(EntryBase, tag_field="kind", tag="leave"):
    """The seat's player left a waiting game: the seat is open again."""
    name: str | None


class ForfeitEntry(EntryBase, tag_field="kind", tag="forfeit"):
    """The turn clock ran out for these seats under on_timeout "forfeit": the game ended.
    `webhook`: a webhook bot's seat, forfeited since its bot gave no move, and why."""
    forfeited: list[int]
    webhook: WebhookFailure | msgspec.UnsetType = msgspec.UNSET


class RematchEntry(EntryBase, tag_field="kind", tag="rematch"):
    """The last person's seat to want the rematch took it: next_game is the new game
    (every token carries over)."""
    next_game: str


class RematchOfferEntry(EntryBase, tag_field="kind", tag="rematch-offer"):
    """The seat offered a rematch, or accepted the offer, and others must still answer."""


class RematchDeclineEntry(EntryBase, tag_field="kind", tag="rematch-decline"):
    """The seat declined the rematch offered (or withdrew its own offer): it is closed."""


class ResignEntry(EntryBase, tag_field="kind", tag="resign"):
    """The seat's player resigned: it ranks last; ended says whether that ended the game
    (one seat left playing, or no person among them), else the AI plays the seat on."""
    ended: bool


# The entries every game's log may hold beside its moves.
SeatEntry = (JoinEntry | LeaveEntry | ForfeitEntry | RematchEntry | RematchOfferEntry
             | RematchDeclineEntry | ResignEntry)


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


class PatchOperation(msgspec.Struct, kw_only=True, omit_defaults=True):
    """One JSON Patch (RFC 6902) operation on the viewer's game body: `path` is a JSON
    Pointer into it; `value` (absent for `remove`) is what goes there, of the type the
    game body's schema gives that place."""
    op: Literal["add", "remove", "replace"]
    path: str
    value: Any = None


class DeltaEventBase(msgspec.Struct, Generic[EntryT], kw_only=True):
    """The data of one `event: delta` of a stream opened with `?delta=true`: a version,
    what made it, and what changed in the viewer's game body since the version before
    (which the stream sent just before this one, or the client resumed after)."""
    version: int
    entry: EntryT | None
    patch: list[PatchOperation]


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
    """A seat of a new game and its `token`, the secret a human seat plays with, shown this
    once; null where this response gives none (an AI or an open seat, or a rematch, whose
    seats keep the tokens they had). Both are always sent, so the document requires them
    and a link can always name them."""
    seat: int
    type: Literal["human", "ai", "open"]
    name: str | None
    token: str | None


class Joined(msgspec.Struct, kw_only=True):
    """A seat taken: its token, shown this once."""
    id: str
    seat: int
    token: str


class WaitingGame(msgspec.Struct, kw_only=True):
    """A listed game: one with open seats, or one in play to watch; spectators: how many
    spectators' pages are at its table now (service/lobby/presence.py)."""
    id: str
    game: str
    players: int
    seats: list[SeatInfo]
    created: float
    clock: Clock | None
    spectators: int


class WaitingList(msgspec.Struct, kw_only=True):
    """A page of listed games (waiting for players, or in play), newest first;
    next_cursor fetches the next page."""
    games: list[WaitingGame]
    next_cursor: str | None


class Created(msgspec.Struct, kw_only=True):
    """A new game: its id, and a token per human seat (the store keeps only a hash)."""
    id: str
    game: GameName
    version: int
    seeded: bool
    seats: list[SeatToken]


class Health(msgspec.Struct):
    status: Literal["ok"]


class ArchiveHealth(msgspec.Struct):
    """How far the archive is behind: finished games not written to the database yet.
    A lagging or unreachable archive does not make the live API unready."""
    status: Literal["ok", "lagging", "unavailable", "refused"]
    outbox_depth: int           # finished games waiting for the archive
    lag_seconds: float          # how long the longest-waiting one has waited
    refused: int                # finished games the database refused, set aside
    detail: str | None          # why, when it is not ok


class Ready(msgspec.Struct):
    status: Literal["ready"]
    archive: ArchiveHealth


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


TITLES = {400: "Bad request", 401: "Unauthorized", 404: "Not found",
          405: "Method not allowed", 409: "Conflict", 413: "Request body too large",
          422: "Unprocessable request", 429: "Too many requests", 500: "Internal error",
          503: "Service unavailable"}


def problem_bytes(status: int, slug: str, instance: str, detail: str) -> bytes:
    """A problem's body, for a middleware that answers before any handler runs."""
    return msgspec.json.encode(Problem(type=f"/problems/{slug}", title=TITLES[status],
                                       status=status, detail=detail, instance=instance))


@dataclass(frozen=True)
class GameBodies:
    """One game's bodies, as service/games/bodies/__init__.py gathers them into the unions the
    controllers return and the document lists."""
    game: str            # core's name of the game
    prefix: str          # its schemas' prefix (CupCrabGame, CvpCreate2, ...)
    move: Any            # the union of its moves, tagged by `type`
    body: type           # its game body (a view, for one viewer)
    legal_moves: type
    history: type
    suggestion: type
    event: type          # an `event: game` of its stream
    delta_event: type    # an `event: delta` of its stream (`?delta=true`)
    exported: type       # a finished game, whole: a line of the export
    replay: type         # a finished game played again
    review: type         # a finished game's review for one seat
    # Its creation options beyond the first player, each (name, type) as POST /v1/games
    # takes it (service.games.requests gathers them into GameOptions); an option
    # whose type is a struct gives core its value by that struct's for_core().
    options: tuple[tuple[str, Any], ...] = ()
