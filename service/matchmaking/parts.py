"""The rated queue's part: the matchmaker, on the game sessions, the seats the server
plays and the players' ratings."""

from dataclasses import dataclass

from service.games.limits import GameLimits
from service.games.robots import Robots
from service.games.sessions import Sessions
from service.matchmaking.controller import QueueController
from service.matchmaking.queue import Matchmaker
from service.parts import Part, Provided
from service.players.storage import Players
from service.store import Store


@dataclass(frozen=True)
class MatchmakingParts:
    matchmaker: Matchmaker

    @staticmethod
    def build(sessions: Sessions, robots: Robots, store: Store, players: Players,
              limits: GameLimits) -> "MatchmakingParts":
        return MatchmakingParts(Matchmaker(sessions, robots, store, players, limits))

    def part(self) -> Part:
        return Part(routes=[QueueController],
                    provides={"matchmaker": Provided(self.matchmaker, after="robots")},
                    start=[self.matchmaker.start], stop=[self.matchmaker.stop])
