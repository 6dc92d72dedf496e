"""A player's events: what a bot (or any player) learns on GET /v1/players/me/events.

Its challenges, its games starting (with the seat's token) and ending, its series'
progress: every replica pushes to the store, so the stream is the same whichever replica
serves it, and an event's id (the store's, ordered) resumes a stream where it broke
(Last-Event-ID), as the game streams do. Each event is pushed once: an event that a
retry could push again (a replica that died half way, then another doing the work) has a
once-key, and the store keeps the second push out.
"""

from typing import Any, Literal

import msgspec

from service.store import PlayerEventStreams, keys

KEEP = 1000              # events a player's stream keeps (about): a bot away longer misses the oldest
TTL_SECONDS = 7 * 86400  # a stream nobody pushed to for this long is forgotten
WAIT_MS = 3000           # a stream's read waits this long for an event, then sends a comment

EventKind = Literal["challenge", "challenge_declined",
                    "challenge_cancelled", "challenge_expired", "game_started",
                    "game_ended", "series_progress", "series_finished",
                    "tournament_started", "tournament_finished"]


class PlayerEvents:
    def __init__(self, store: PlayerEventStreams) -> None:
        self.store = store

    async def push(self, player_id: str, kind: EventKind, body: dict[str, Any],
                   once: str | None = None) -> str | None:
        """Tells player_id of kind; the event's id (None: pushed before under once)."""
        event = msgspec.json.encode({"type": kind, **body})
        return await self.store.player_events_push(keys.player_events(player_id), once, event,
                                                   KEEP, TTL_SECONDS)

    async def push_all(self, player_ids: list[str], kind: EventKind, body: dict[str, Any],
                       once: str | None = None) -> None:
        for player_id in dict.fromkeys(player_ids):
            await self.push(player_id, kind, body, once)

    async def read(self, player_id: str, after: str | None,
                   wait_ms: int = WAIT_MS) -> list[tuple[str, bytes]]:
        """The events after id `after` (all kept if None), waiting a while for one."""
        return await self.store.player_events_read(keys.player_events(player_id), after, wait_ms)
