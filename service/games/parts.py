"""Live play's parts: the sessions over the live store, the seats the server plays, and
their routes. Built on what every domain shares (the store, the archive, the players'
directory) and on the two indexes the commit writes to: the turn clocks' deadlines and the
archive's outbox, built beside the store by the composition root (service.app)."""

from dataclasses import dataclass
from typing import Protocol

from service.archive.outbox import Outbox
from service.archive.storage import Archive
from service.config import Settings
from service.games.controller import GamesController
from service.games.limits import GameLimits
from service.games.robots import Robots, SeatCallers
from service.games.sessions import Sessions
from service.lobby.deadlines import Deadlines
from service.parts import Part, Provided
from service.players.storage import Players
from service.store import Store


class WebhookSeatsAndCallers(SeatCallers, Protocol):
    async def seats(self, player_ids: list[str | None]) -> list[int]: ...


@dataclass(frozen=True)
class GameParts:
    sessions: Sessions
    robots: Robots
    limits: GameLimits

    @staticmethod
    def build(settings: Settings, store: Store, archive: Archive, players: Players,
              deadlines: Deadlines, outbox: Outbox,
              webhooks: WebhookSeatsAndCallers | None = None) -> "GameParts":
        """webhooks: who says which seats of a new game a bot's webhook plays, and asks it
        their moves (service.webhooks.driver)."""
        limits = GameLimits.of(settings)
        sessions = Sessions(store, archive, limits, players, deadlines, outbox,
                            None if webhooks is None else webhooks.seats)
        return GameParts(sessions, Robots(sessions, deadlines, settings, webhooks), limits)

    def part(self) -> Part:
        return Part(routes=[GamesController],
                    provides={"sessions": Provided(self.sessions),
                              "robots": Provided(self.robots, after="sessions"),
                              "limits": Provided(self.limits, after="sessions")},
                    stop=[self.robots.close])
