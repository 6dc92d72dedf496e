"""The archive's parts: its games in the SQL database, the writer that empties the outbox
into them on every replica, and the routes that replay and export them."""

from collections.abc import Callable
from dataclasses import dataclass

from service.archive.controller import ArchiveController
from service.archive.outbox import Outbox
from service.archive.storage import Archive
from service.archive.writer import ArchiveWriter
from service.config import Settings
from service.games.sessions import Sessions
from service.parts import Part, Provided
from service.players.events import PlayerEvents
from service.players.storage import Players
from service.store import Store


@dataclass(frozen=True)
class ArchiveParts:
    archive: Archive
    writer: ArchiveWriter

    @staticmethod
    def build(archive: Archive, sessions: Sessions, settings: Settings, store: Store,
              outbox: Outbox, players: Players, player_events: PlayerEvents,
              requests: Callable[[], int]) -> "ArchiveParts":
        """requests: how many requests this process has begun, which paces the writer."""
        return ArchiveParts(archive, ArchiveWriter(
            sessions, archive, settings, store, outbox, players, player_events, requests))

    def part(self) -> Part:
        return Part(routes=[ArchiveController],
                    provides={"archive": Provided(self.archive),
                              "archive_writer": Provided(self.writer, after="sessions")},
                    start=[self.writer.start], stop=[self.writer.stop])
