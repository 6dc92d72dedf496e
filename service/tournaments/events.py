"""A tournament's event stream (GET /v1/tournaments/{id}/events): anyone may follow it.

Kept in the store as a player's events are (service/players/events.py: a stream per
tournament, ordered ids that resume it, once-keys so that a replica finishing another's
work tells nothing twice), and readable from any replica.
"""

from typing import Any, Literal

import msgspec

from service.store import PlayerEventStreams, keys

KEEP = 20_000            # events kept: every table of a large Swiss, with room to spare
TTL_SECONDS = 30 * 86400
WAIT_MS = 3000

TournamentEventKind = Literal["entrant_joined", "entrant_left", "tournament_started",
                              "round_started", "table_finished", "round_finished",
                              "tournament_finished", "tournament_cancelled"]


class TournamentEvents:
    def __init__(self, store: PlayerEventStreams) -> None:
        self.store = store

    async def push(self, tournament_id: str, kind: TournamentEventKind, body: dict[str, Any],
                   once: str | None = None) -> str | None:
        event = msgspec.json.encode({"type": kind, "tournament": tournament_id, **body})
        return await self.store.player_events_push(keys.tournament_events(tournament_id), once,
                                                   event, KEEP, TTL_SECONDS)

    async def read(self, tournament_id: str, after: str | None,
                   wait_ms: int = WAIT_MS) -> list[tuple[str, bytes]]:
        return await self.store.player_events_read(keys.tournament_events(tournament_id),
                                                   after, wait_ms)
