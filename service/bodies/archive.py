"""The shapes of finished games' bodies, generic in the game's entries, result and position:
the archived record (as exported) and its replay (see each game's module for its types).

After the end nothing is hidden: entries carry what each mover was shown, and a replay's
positions are the core's complete snapshots of every version.
"""

from typing import Generic, Literal, TypeVar

import msgspec

from service.schemas import Budget

EntryT = TypeVar("EntryT")
ResultT = TypeVar("ResultT")
PositionT = TypeVar("PositionT")
VersionT = TypeVar("VersionT")

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
    reason: Literal["finished", "forfeit"]
    result: ResultT
    seats: list[ArchivedSeat]
    version: int                 # the number of logged changes
    entries: list[EntryT]        # the whole log, as GET .../history gives it after the end
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
