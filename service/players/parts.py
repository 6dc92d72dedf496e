"""The players' parts: the directory of players in the SQL database, each player's event
stream in the live store, their routes and the leaderboards; and `me`, the player whose
key a request carries, for every domain's handlers that need one."""

from dataclasses import dataclass

from litestar.di import Provide

from service.parts import Part, Provided
from service.players.controller import LeaderboardsController, PlayersController
from service.players.events import PlayerEvents
from service.players.identity import key_holder
from service.players.storage import Players
from service.sql.database import Database
from service.store import Store


@dataclass(frozen=True)
class PlayerParts:
    directory: Players
    events: PlayerEvents

    @staticmethod
    def build(database: Database, store: Store) -> "PlayerParts":
        return PlayerParts(Players(database), PlayerEvents(store))

    def part(self) -> Part:
        return Part(routes=[PlayersController, LeaderboardsController],
                    provides={"players": Provided(self.directory),
                              "player_events": Provided(self.events, after="players")},
                    resolves={"me": Provide(key_holder)})
