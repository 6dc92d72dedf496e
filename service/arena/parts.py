"""The arena's parts: challenges and series, on the game sessions, the seats the server
plays and the players' event streams; series kept in the SQL database."""

from dataclasses import dataclass

from service.arena.challenges import Challenges
from service.arena.controller import (ChallengesController, PlayerEventsController,
                                      SeriesController)
from service.arena.series import SeriesRunner
from service.arena.storage import SeriesBook
from service.games.robots import Robots
from service.games.sessions import Sessions
from service.parts import Part, Provided
from service.players.events import PlayerEvents
from service.sql.database import Database
from service.store import Store


@dataclass(frozen=True)
class ArenaParts:
    challenges: Challenges
    runner: SeriesRunner

    @staticmethod
    def build(sessions: Sessions, robots: Robots, player_events: PlayerEvents, store: Store,
              database: Database) -> "ArenaParts":
        return ArenaParts(Challenges(sessions, robots, player_events, store),
                          SeriesRunner(sessions, robots, player_events, SeriesBook(database),
                                       store))

    def part(self) -> Part:
        return Part(routes=[ChallengesController, SeriesController, PlayerEventsController],
                    provides={"challenges": Provided(self.challenges, after="robots"),
                              "runner": Provided(self.runner, after="robots")},
                    start=[self.challenges.start, self.runner.start],
                    stop=[self.challenges.stop, self.runner.stop])
