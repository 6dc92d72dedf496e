"""The tournaments' parts: the runner (every replica's loop and the requests' logic) on
the game sessions, the seats the server plays, the players' and the tournaments' event
streams; tournaments kept in the SQL database."""

from dataclasses import dataclass

from service.games.robots import Robots
from service.games.sessions import Sessions
from service.parts import Part, Provided
from service.players.events import PlayerEvents
from service.sql.database import Database
from service.store import Store
from service.tournaments.controller import TournamentsController
from service.tournaments.events import TournamentEvents
from service.tournaments.runner import TournamentRunner
from service.tournaments.storage import TournamentBook


@dataclass(frozen=True)
class TournamentParts:
    runner: TournamentRunner
    events: TournamentEvents

    @staticmethod
    def build(sessions: Sessions, robots: Robots, player_events: PlayerEvents, store: Store,
              database: Database) -> "TournamentParts":
        events = TournamentEvents(store)
        return TournamentParts(TournamentRunner(sessions, robots, player_events, events,
                                                TournamentBook(database), store), events)

    def part(self) -> Part:
        return Part(routes=[TournamentsController],
                    provides={"tournaments": Provided(self.runner, after="robots"),
                              "tournament_events": Provided(self.events, after="tournaments")},
                    start=[self.runner.start], stop=[self.runner.stop])
