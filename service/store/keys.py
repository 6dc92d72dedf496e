"""Every Redis key and channel the service uses, named here and nowhere else.

A game's keys share one hash tag, `{<game id>}`, so every command and script of a game
stays in one Redis Cluster slot; each index and rate budget has a tag of its own.

| key | type | what |
|---|---|---|
| `game:{id}:state` | hash | version, blob (core's state), meta, the last commit's nonce, initial (the state it began in), sealed (versions sealed in segments) |
| `game:{id}:log` | list | the segments (segments.py: sixteen versions' entries and undos deflated together), then each later version's log entry, packed (entries.py) |
| `game:{id}:undos` | list | each unsealed version's undo of its metadata (versions.py: empty if unchanged) |
| `game:{id}:records` | list | a game stored before undos existed: each version's packed record up to then |
| `game:{id}:idempotency` | hash | idempotency key -> the first response |
| `game:{id}:budget:<name>` | string | a seat's rate budget (GCRA arrival time) |
| `game:{id}:presence` | sorted set | who is at the table (seats, spectators), by when their presence lapses |
| `game:{id}:said` | stream | quick reactions said at a finished game's table (service/lobby/after_game_talk.py), read by the pages' presence beats |
| `game:{id}:said-once` | set | never written: a reaction has no once-key (the stream is kept as a player's events, which have one) |
| `game:{id}:events` | channel | a commit's notice, "<version> <commit time>" |
| `game:{id}:shouts` | channel | a quick reaction said at the table (JSON), heard by the game's open streams, kept nowhere |
| `lobby:{<game>}` | sorted set | listed games with open seats, by creation time |
| `live:{<game>}` | sorted set | watchable games (waiting or in play), by creation time |
| `clock:{0}` .. `clock:{15}` | sorted sets | running turn clocks, "<id> <version>" by deadline |
| `archive:{0}` .. `archive:{15}` | sorted sets | the archive's outbox, "<id> <version> <ended ms>" by when due |
| `rl:{<kind>:<address>}` | string | a client address's rate budget (GCRA arrival time) |
| `queue:{<game>:<players>}:rating` | sorted set | a matchmaking queue's waiting tickets, by rating |
| `queue:{<game>:<players>}:arrival` | sorted set | the same tickets, by when they joined |
| `queue:{<game>:<players>}:tickets` | hash | ticket id -> the ticket (JSON); `group:<game id>` -> a group being seated |
| `queue:{<game>:<players>}:seating` | sorted set | groups whose game is being made, by when claimed |
| `queue:{<game>:<players>}:done` | sorted set | tickets seated, cancelled or expired, by when (forgotten later) |
| `inbox:{<player>}:events` | stream | a player's events (service/players/events.py): challenges, games, series |
| `inbox:{<player>}:once` | set | the once-keys of events pushed (a retry pushes nothing) |
| `challenge:{<id>}` | string | a challenge (JSON), changed by compare-and-set |
| `challenges:{expiry}` | sorted set | pending challenges by when they expire |
| `webhook:{<game>}:<version>:<seat>` | string | a webhook call claimed for one decision, until its deadline has passed (service/webhooks/driver.py) |
| `crab:replicas` | channel | subscribed by every replica, so its connection always exists |
| `crab:wake:<topic>` | channel | wakes a kind of background work on every replica (service/replica/wakeups.py) |
"""

import zlib
from dataclasses import dataclass

HEARTBEAT = "crab:replicas"
_WAKE_PREFIX = "crab:wake:"


def wake_channel(topic: str) -> str:
    return _WAKE_PREFIX + topic


def topic_of_channel(channel: str) -> str | None:
    return channel[len(_WAKE_PREFIX):] if channel.startswith(_WAKE_PREFIX) else None
_GAME_CHANNEL_PREFIX, _GAME_CHANNEL_SUFFIX = "game:{", "}:events"


@dataclass(frozen=True)
class GameKeys:
    """A game's keys, in the order the commit script takes them."""
    state: str
    log: str
    idempotency: str
    records: str   # written no more: read for a game stored before undos existed
    undos: str

    def all(self) -> list[str]:
        return [self.state, self.log, self.idempotency, self.records, self.undos]


def game(game_id: str) -> GameKeys:
    tag = f"game:{{{game_id}}}"
    return GameKeys(f"{tag}:state", f"{tag}:log", f"{tag}:idempotency", f"{tag}:records",
                    f"{tag}:undos")


def seat_budget(game_id: str, name: str) -> str:
    """A rate budget kept beside its game (in its slot), spent as the game is read."""
    return f"game:{{{game_id}}}:budget:{name}"


def presence(game_id: str) -> str:
    """Who is at a game's table (service/lobby/presence.py), beside the game."""
    return f"game:{{{game_id}}}:presence"


def channel(game_id: str) -> str:
    """The pub/sub channel on which a game's commits are announced."""
    return f"{_GAME_CHANNEL_PREFIX}{game_id}{_GAME_CHANNEL_SUFFIX}"


def game_of_channel(name: str) -> str | None:
    """The game a channel announces, None for any other channel."""
    if name.startswith(_GAME_CHANNEL_PREFIX) and name.endswith(_GAME_CHANNEL_SUFFIX):
        return name[len(_GAME_CHANNEL_PREFIX):-len(_GAME_CHANNEL_SUFFIX)]
    return None


_SHOUTS_SUFFIX = "}:shouts"


def shouts_channel(game_id: str) -> str:
    """The pub/sub channel on which what is said at a game's table is heard (reactions)."""
    return f"{_GAME_CHANNEL_PREFIX}{game_id}{_SHOUTS_SUFFIX}"


def game_of_shouts_channel(name: str) -> str | None:
    if name.startswith(_GAME_CHANNEL_PREFIX) and name.endswith(_SHOUTS_SUFFIX):
        return name[len(_GAME_CHANNEL_PREFIX):-len(_SHOUTS_SUFFIX)]
    return None


def waiting_list(game_name: str) -> str:
    """The listed games of one game with open seats."""
    return f"lobby:{{{game_name}}}"


def live_list(game_name: str) -> str:
    """The watchable games of one game: spectators' list of games in play."""
    return f"live:{{{game_name}}}"


# The turn-clock indexes: split so that no command spans two cluster slots.
CLOCK_BUCKETS = tuple(f"clock:{{{index}}}" for index in range(16))


def clock_bucket(game_id: str) -> str:
    """The turn-clock index a game's deadlines go to (a hash of its id)."""
    return CLOCK_BUCKETS[zlib.crc32(game_id.encode()) % len(CLOCK_BUCKETS)]


# The archive's outbox: finished games on their way to the database, in buckets as the
# clocks are.
ARCHIVE_BUCKETS = tuple(f"archive:{{{index}}}" for index in range(16))


def archive_bucket(game_id: str) -> str:
    return ARCHIVE_BUCKETS[zlib.crc32(game_id.encode()) % len(ARCHIVE_BUCKETS)]


def address_budget(kind: str, address: str) -> str:
    """A client address's rate budget for one kind of request (creates, moves)."""
    return f"rl:{{{kind}:{address}}}"


@dataclass(frozen=True)
class QueueKeys:
    """One matchmaking queue (a game at one table size), all in one cluster slot: its
    waiting tickets by rating and by arrival, every ticket's body, the groups being
    seated (by when they were claimed) and the tickets done with (by when)."""
    by_rating: str
    by_arrival: str
    tickets: str
    seating: str
    done: str

    def all(self) -> list[str]:
        return [self.by_rating, self.by_arrival, self.tickets, self.seating, self.done]


def queue(game_name: str, players: int) -> QueueKeys:
    tag = f"queue:{{{game_name}:{players}}}"
    return QueueKeys(f"{tag}:rating", f"{tag}:arrival", f"{tag}:tickets", f"{tag}:seating",
                     f"{tag}:done")


@dataclass(frozen=True)
class PlayerEventKeys:
    """A player's events, in one cluster slot: its events and the once-keys pushed."""
    events: str
    once: str


def player_events(player_id: str) -> PlayerEventKeys:
    tag = f"inbox:{{{player_id}}}"  # the keys' old word, kept: live streams survive an upgrade
    return PlayerEventKeys(f"{tag}:events", f"{tag}:once")


def tournament_events(tournament_id: str) -> PlayerEventKeys:
    """A tournament's stream, kept as a player's (its own hash tag, its own slot)."""
    tag = f"tournament:{{{tournament_id}}}"
    return PlayerEventKeys(f"{tag}:events", f"{tag}:once")


def said_at_table(game_id: str) -> PlayerEventKeys:
    """What is said at a finished game's table, kept as a player's events are, beside the
    game (its slot): the pages there read it when they beat their presence."""
    tag = f"game:{{{game_id}}}"
    return PlayerEventKeys(f"{tag}:said", f"{tag}:said-once")


def challenge(challenge_id: str) -> str:
    return f"challenge:{{{challenge_id}}}"


CHALLENGE_EXPIRY = "challenges:{expiry}"


def webhook_call(game_id: str, version: int, seat: int) -> str:
    return f"webhook:{{{game_id}}}:{version}:{seat}"
