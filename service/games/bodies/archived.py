"""The shapes of finished games' bodies, generic in the game's entries, result and position:
the archived record (as exported) and its replay (see each game's module for its types).

After the end nothing is hidden: entries carry what each mover was shown, and a replay's
positions are the core's complete snapshots of every version.
"""

from typing import Generic, Literal, TypeVar

import msgspec

from service.games.budget import Budget

EntryT = TypeVar("EntryT")
ResultT = TypeVar("ResultT")
PositionT = TypeVar("PositionT")
VersionT = TypeVar("VersionT")
MoveT = TypeVar("MoveT")
DecisionT = TypeVar("DecisionT")

# A game's creation options as core took them (e.g. Crabe vs Poulpe's mode and its deck as
# copies per card).
Options = dict[str, int | str | dict[str, int]]


class ArchivedSeat(msgspec.Struct, kw_only=True):
    seat: int
    type: Literal["human", "ai"]
    name: str | None
    ai: Budget | None            # an AI seat's budget
    player: str | None           # the player's id (ai-<level> for a level)


class ExportedGameBase(msgspec.Struct, Generic[EntryT, ResultT], kw_only=True):
    """A finished game, whole, as the archive keeps it; `cursor` resumes an export after it.
    GET .../replay plays it again in the core from its first state."""
    id: str
    players: int
    options: Options | None
    seeded: bool                 # the creator chose the deal's seed
    rated: bool                  # its result updated the players' ratings
    created_at: str              # ISO 8601, UTC
    ended_at: str
    reason: Literal["finished", "forfeit", "resigned"]
    result: ResultT
    seats: list[ArchivedSeat]
    version: int                 # the number of logged changes
    entries: list[EntryT]        # the whole log, as GET .../history gives it after the end
    # The place of a rated game in the order the archive updated ratings (1, 2, ...; not
    # the export's order of ending): recomputing ratings goes in this order. Null unrated.
    rated_order: int | None
    cursor: str


class ReplayVersionBase(msgspec.Struct, Generic[EntryT, PositionT], kw_only=True):
    version: int
    entry: EntryT | None          # the change that made this version (null for version 0)
    position: PositionT           # the complete position, every card shown


class ReplayBase(msgspec.Struct, Generic[VersionT, ResultT], kw_only=True):
    id: str
    version: int
    result: ResultT
    versions: list[VersionT]


class ReviewRequest(msgspec.Struct, forbid_unknown_fields=True):
    """Which seat's decisions to review."""
    seat: int


class ReviewedDecisionBase(msgspec.Struct, Generic[MoveT], kw_only=True):
    """One decision of the seat (forced moves are left out) beside the AI's choice there.
    Win rates are the search's estimates for the seat (1 a win); a played move the search
    never tried has none (played_visits 0), and then no loss."""
    version: int                  # the version its move made: the position is version - 1
    legal_moves: int              # how many moves the seat could choose from
    played: MoveT
    played_win_rate: float | None
    played_visits: int
    best: MoveT                   # the AI's choice at the review's level
    best_win_rate: float
    best_visits: int
    loss: float | None            # best_win_rate - played_win_rate, 0 when they agree
    worst: bool                   # one of the few largest losses
    # The seat's chance of winning before the move, from what it knew (core.ai.evaluate);
    # null in a review computed before the judge existed. Always sent, so required.
    win_chance: float | None


class ReviewBase(msgspec.Struct, Generic[DecisionT], kw_only=True):
    """A finished game's review for one seat: queued, running (done of total decisions
    reviewed, the first `done` listed) or done (every decision, the worst marked)."""
    id: str
    seat: int
    status: Literal["queued", "running", "done"]
    level: int                    # the AI level that reviews (docs/ai.md)
    done: int
    total: int | None             # null until the decisions are counted
    decisions: list[DecisionT]
