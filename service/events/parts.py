"""The event streams' part: this process's hub of game feeds, fed by the store's notices."""

from dataclasses import dataclass

from service.config import Settings
from service.events.controller import EventsController
from service.events.streams import Hub
from service.games.sessions import Sessions
from service.parts import Part, Provided
from service.store import Store


@dataclass(frozen=True)
class EventParts:
    hub: Hub

    @staticmethod
    def build(sessions: Sessions, store: Store, settings: Settings) -> "EventParts":
        return EventParts(Hub(sessions, store, settings.keep_alive_seconds))

    def part(self) -> Part:
        return Part(routes=[EventsController],
                    provides={"hub": Provided(self.hub, after="sessions")})
