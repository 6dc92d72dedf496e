"""The contract every store keeps (tests/service/test_store.py runs it on both), split by
concern: each consumer is typed against the parts it uses (the archive's outbox against
`Indexes` and `Bells`, a player's events against `PlayerEventStreams`, ...), and `Store`,
which both stores implement, is all of them."""

from collections.abc import Callable
from typing import Protocol, runtime_checkable

from service.store.keys import PlayerEventKeys, QueueKeys
from service.store.records import (
    Allowance,
    Change,
    Commit,
    FinishedGame,
    GameRecord,
    MatchRule,
    RateBudget,
)

# listener(game id, version, wall-clock time of the commit, the traceparent of the span
# that committed it or ''): a commit of a watched game. A version of -1 means "notices may
# have been lost" (the store reconnected).
Listener = Callable[[str, int, float, str], None]
# shout_listener(game id, message): a message said at a watched game's table (a quick
# reaction, service/lobby/reactions.py), kept nowhere: only open streams hear it.
ShoutListener = Callable[[str, bytes], None]


class StoreUnavailable(Exception):
    """The store cannot be reached; the request changed nothing."""


class GameRecords(Protocol):
    """Games: one record each, changed by compare-and-set on the version."""
    async def create(self, game_id: str, record: GameRecord) -> bool:
        """Stores a new game; False (and nothing changed) if a game has this id already."""
    async def load(self, game_id: str) -> GameRecord | None: ...
    async def load_with_replay(self, game_id: str,
                               idempotency_key: str) -> tuple[GameRecord | None, bytes | None]:
        """The record and the stored response for this idempotency key, in one round trip."""
    async def load_spending(self, game_id: str, budget: RateBudget, idempotency_key: str | None
                            ) -> tuple[Allowance, GameRecord | None, bytes | None]:
        """Takes one request from the game's budget and, if it fits, reads the game and
        the stored response for idempotency_key, in one round trip; (refusal, None, None)
        if it does not fit."""
    async def commit(self, game_id: str, expected_version: int, commit: Commit) -> bool:
        """Applies commit if the game is at expected_version; False if it moved on."""
    async def history(self, game_id: str) -> list[bytes]: ...
    async def changes_since(self, game_id: str, version: int) -> list[Change] | None:
        """The versions after version, in order (empty if none; None if no such game: it
        expired or was deleted): but for the latest, rebuilt (versions.py), so a game's
        blobs are core states and its entries JSON with the seat and move of each move."""
    async def load_many(self, game_ids: list[str]) -> list[GameRecord | None]: ...
    async def finished(self, game_ids: list[str]) -> list[FinishedGame | None]:
        """Each game's record, first state and log, for the archive (None: no such game)."""
    async def release(self, game_ids: list[str], ttl: int) -> None:
        """The games' keys expire in ttl seconds (a game committed with keep is kept
        until then): the archive has them."""


class Indexes(Protocol):
    """Sorted sets of members by score (the waiting lists, the turn clocks, the outbox)."""
    async def index_add(self, index: str, member: str, score: float,
                        earliest: bool = False) -> None:
        """Adds member at score; with earliest, a member already there keeps the lower
        of its score and this one."""
    async def index_remove(self, index: str, member: str) -> bool:
        """True if member was there (of concurrent removals, exactly one gets True)."""
    async def index_lease(self, index: str, upto: float, until: float,
                          count: int) -> list[tuple[str, float]]:
        """(member, score) with score <= upto, lowest first, now leased to this caller:
        their score is until, so no other caller gets them before then."""
    async def index_remove_many(self, index: str, members: list[str]) -> None: ...
    async def index_size(self, indexes: list[str]) -> int:
        """Members in all of indexes."""
    async def index_due(self, indexes: list[str], upto: float,
                        count: int) -> list[tuple[str, str, float]]:
        """(index, member, score) with score <= upto, lowest first, count per index."""
    async def index_page(self, index: str, below: float | None,
                         count: int) -> list[tuple[str, float]]:
        """(member, score) with score <= below (all if None), highest first."""


class Queues(Protocol):
    """Matchmaking queues (service/matchmaking/queue.py): tickets (JSON bodies) of one game
    at one table size, paired by scripts/match.lua's rule (the embedded store keeps the
    same)."""
    async def queue_put(self, queue: QueueKeys, ticket_id: str, ticket: bytes,
                        rating: float, since: float) -> None:
        """A new waiting ticket."""
    async def queue_get(self, queue: QueueKeys, ticket_id: str) -> bytes | None: ...
    async def queue_cancel(self, queue: QueueKeys, ticket_id: str, now: float) -> bytes | None:
        """The ticket cancelled if it still waits; the ticket as it is now (None: unknown)."""
    async def queue_match(self, queue: QueueKeys, now: float, rule: MatchRule, game_id: str,
                          tokens: list[str]) -> list[bytes]:
        """One pairing pass: the tickets of the group it seats (empty: none), now out of
        the queue and claimed for game_id."""
    async def queue_seated(self, queue: QueueKeys, game_id: str, now: float,
                           tickets: dict[str, bytes]) -> None:
        """game_id is made: the group's tickets as they now are."""
    async def queue_stuck(self, queue: QueueKeys, before: float,
                          until: float) -> list[tuple[str, bytes]]:
        """Groups claimed before `before` whose game was never made, claimed again until
        `until`: (game id, the group's tickets as a JSON list)."""
    async def queue_busy(self, queues: list[QueueKeys]) -> bool:
        """Whether a ticket waits or a group is being seated in one of queues."""


class PlayerEventStreams(Protocol):
    """A player's events (service/players/events.py): in order, the last `keep` or so kept
    for ttl seconds after the last one, each with an id that orders it."""
    async def player_events_push(self, stream: PlayerEventKeys, once: str | None, event: bytes,
                                 keep: int, ttl: int) -> str | None:
        """Appends event; its id. With once, an event of that once-key pushed before
        makes this push nothing (None)."""
    async def player_events_read(self, stream: PlayerEventKeys, after: str | None,
                                 wait_ms: int) -> list[tuple[str, bytes]]:
        """(id, event) of the events after id `after` (every one kept if None), oldest
        first; if there is none yet, waits up to wait_ms (at most a few seconds) for one."""


class Documents(Protocol):
    """Documents changed by compare-and-set (challenges)."""
    async def doc_get(self, key: str) -> bytes | None: ...
    async def doc_swap(self, key: str, old: bytes | None, new: bytes, ttl: int) -> bool:
        """Replaces the document with new (kept ttl seconds) if it is still old (None: if
        there is none); False if it changed meanwhile."""


class Attendance(Protocol):
    """Who is at a game's table (service/lobby/presence.py): members present until a time,
    in one key that expires when nobody beats any more."""
    async def attendance_mark(self, key: str, member: str | None, until: float, now: float,
                              ttl: int) -> list[str]:
        """member is present until `until` (gone if that is not after now; None: nobody is
        marked); the members present at now. The key lives ttl seconds after a mark."""
    async def attendance_many(self, keys: list[str], now: float) -> list[list[str]]:
        """The members present at now at each of the tables, read in one round trip (a
        list of games shows each one's spectators); nothing is marked or forgotten."""


class Budgets(Protocol):
    """Rate budgets shared by every replica."""
    async def spend(self, key: str, period_ms: int, limit: int) -> Allowance:
        """Takes one request from key's budget of limit per period (GCRA)."""


class Notices(Protocol):
    """Commit notices, on any replica."""
    def on_commit(self, listener: Listener) -> None:
        """Calls listener for every commit of a watched game, on any replica."""
    async def watch(self, game_id: str) -> None: ...
    async def unwatch(self, game_id: str) -> None: ...
    async def shout(self, game_id: str, message: bytes) -> None:
        """Hands message to the shout listener of every replica watching the game."""
    def on_shout(self, listener: ShoutListener) -> None: ...


class Bells(Protocol):
    """Wake-ups of background work (service/replica/wakeups.py), on every replica."""
    async def ring(self, topic: str) -> None:
        """Calls every listener of topic, on every replica (this one included)."""
    def on_ring(self, topic: str, listener: Callable[[], None]) -> None:
        """Calls listener for every ring of topic; and for every topic, when rings may
        have been lost (the store reconnected)."""


@runtime_checkable
class Store(GameRecords, Indexes, Queues, PlayerEventStreams, Documents, Attendance, Budgets,
            Notices, Bells, Protocol):
    """Everything above, and the connection's own life."""
    async def ping(self) -> None: ...
    async def close(self) -> None: ...
