"""What the stores keep and answer: a game's record, a committed change, a commit to make,
and a rate budget with its answer."""

from dataclasses import dataclass

import msgspec


@dataclass(frozen=True)
class GameRecord:
    version: int   # changes committed so far (the log's length)
    blob: bytes    # core's to_bytes() of the state
    meta: bytes    # JSON of what the service keeps beside the state (game, seats, ...)

    @staticmethod
    def unpacked(raw: bytes) -> "GameRecord":
        """A record as a game stored before undos kept each version's (keys.py)."""
        return GameRecord(*msgspec.msgpack.decode(raw, type=tuple[int, bytes, bytes]))


@dataclass(frozen=True)
class Change:
    """A committed version: its log entry and the record it left."""
    entry: bytes
    record: GameRecord


@dataclass(frozen=True)
class Commit:
    """One change: the new record's state and metadata, its log entry, and the
    idempotency record if any."""
    blob: bytes
    meta: bytes
    entry: bytes
    idempotency_key: str | None = None
    response: bytes = b""
    keep: bool = False   # the game ends: keep it, whatever its TTL, until it is released


@dataclass(frozen=True)
class FinishedGame:
    """What the archive takes of a game: its record, the state it began in, its log."""
    record: GameRecord
    initial: bytes
    log: list[bytes]


@dataclass(frozen=True)
class Allowance:
    """The answer of a rate limit: whether this request fits, and the budget's state."""
    allowed: bool
    remaining: int       # requests that would still fit now
    retry_after_ms: int  # wait this long before the next one fits (0 if allowed)
    reset_ms: int        # until the whole budget is back


@dataclass(frozen=True)
class RateBudget:
    """A rate limit's budget kept beside one game (in its cluster slot), so that the store
    spends it in the same round trip as it reads the game: a seat's moves."""
    name: str        # whose budget within the game, e.g. a hash of the seat's token
    period_ms: int
    limit: int       # requests per period, at most limit in a burst


@dataclass(frozen=True)
class MatchRule:
    """How a matchmaking queue pairs (scripts/match.lua): size seats; a ticket's window
    of ratings is base + widen x its wait (seconds); look neighbours at most are read for
    each of the `anchors` longest-waiting tickets; tickets done with are kept `keep` s."""
    size: int
    base: float
    widen: float
    look: int = 32
    anchors: int = 8
    keep: float = 600.0
