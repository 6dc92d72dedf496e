"""The lobby's parts: seats and waiting lists, rematches, resignations, presence,
reactions, and the
turn clocks, on the game sessions
and the seats the server plays."""

from dataclasses import dataclass

from service.games.robots import Robots
from service.games.sessions import Sessions
from service.lobby.clocks import Clocks
from service.lobby.controller import LobbyController
from service.lobby.deadlines import Deadlines
from service.lobby.presence import Presence
from service.lobby.reactions import Reactions
from service.lobby.rematches import Rematches
from service.lobby.resignations import Resignations
from service.lobby.seats import Lobby
from service.parts import Part, Provided
from service.store import Store


@dataclass(frozen=True)
class LobbyParts:
    lobby: Lobby
    clocks: Clocks
    rematches: Rematches
    resignations: Resignations
    presence: Presence
    reactions: Reactions

    @staticmethod
    def build(sessions: Sessions, robots: Robots, store: Store,
              deadlines: Deadlines) -> "LobbyParts":
        return LobbyParts(Lobby(sessions, store), Clocks(sessions, robots, deadlines),
                          Rematches(sessions), Resignations(sessions), Presence(sessions, store),
                          Reactions(sessions, store))

    def part(self) -> Part:
        return Part(routes=[LobbyController],
                    provides={"lobby": Provided(self.lobby, after="sessions"),
                              "clocks": Provided(self.clocks, after="sessions"),
                              "rematches": Provided(self.rematches, after="sessions"),
                              "resignations": Provided(self.resignations, after="sessions"),
                              "presence": Provided(self.presence, after="sessions"),
                              "reactions": Provided(self.reactions, after="sessions")},
                    start=[self.clocks.start], stop=[self.clocks.stop])
