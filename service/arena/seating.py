"""A new game for contestants: players (people or bots, each seat bound to its player)
and AI levels, the turn clock on, no hints."""

import time
from dataclasses import dataclass

from service.games.meta import Clock, Meta
from service.games.requests import Budget
from service.games.robots import Robots
from service.games.sessions import InvalidGame, PlayerNotFound, Session, Sessions
from service.http.credentials import secret_hash
from service.players.ratings import level_of
from service.players.storage import Player, Players


@dataclass(frozen=True)
class Contestant:
    """Who plays a seat: a player's id (a person's or a bot's) or an AI level's (ai-N)."""
    id: str
    name: str
    kind: str   # human, bot or ai

    @property
    def level(self) -> int | None:
        return level_of(self.id)

    @staticmethod
    def of(player: Player) -> "Contestant":
        return Contestant(player.id, player.name[:24], player.kind)


async def contestants(players: Players, ids: list[str]) -> list[Contestant]:
    """The contestants these ids name, in order; PlayerNotFound naming an unknown one."""
    found = await players.by_ids(list(dict.fromkeys(ids)))
    unknown = [player_id for player_id in ids if player_id not in found]
    if unknown:
        raise PlayerNotFound(f"no player has the id {unknown[0]} (a player's id, or ai-1 to"
                             " ai-5 for an AI level)")
    return [Contestant.of(found[player_id]) for player_id in ids]


@dataclass(frozen=True)
class Table:
    """A game to make: which game, options, who sits where, how the deal is chosen."""
    game: str
    options: dict | None
    seats: list[Contestant]
    turn_seconds: int
    rated: bool
    seed: int | None = None    # chosen by the server: never shown, never derived from another

    def clock(self) -> Clock:
        """A slow seat's move is made by the AI when its turn clock runs out."""
        return Clock(self.turn_seconds, "ai")

    def ai(self) -> list[Budget | None]:
        """Each seat's AI budget: its level's, None for a player."""
        return [None if seat.level is None else Budget(level=seat.level) for seat in self.seats]

    def check(self, sessions: Sessions) -> None:
        """InvalidGame, ClockRefused or BudgetRefused unless a game of this table can be
        made: its contestants, the core's rules and this server's limits, as make_game
        checks them (nothing is made or kept here)."""
        check_table(len(self.seats), self.seats)
        sessions.new_state(self.game, len(self.seats), self.seed, self.options, self.clock(),
                           self.ai())


async def make_game(sessions: Sessions, robots: Robots, table: Table, game_id: str,
                    tokens: list[str | None]) -> Session:
    """Makes the game (GameExists if game_id is taken) and starts its AI seats' turns.
    tokens: each seat's secret token, None for an AI seat. A seat whose player is slow
    has its move made by the AI when its turn clock runs out."""
    ai = table.ai()
    state = sessions.new_state(table.game, len(table.seats), table.seed, table.options,
                               table.clock(), ai)
    meta = Meta(game=state.game, players=state.players, seeded=table.seed is not None,
                token_hashes=[None if token is None else secret_hash(token) for token in tokens],
                created=time.time(), ai=ai if any(ai) else None,
                names=[seat.name for seat in table.seats], listed=False,
                options=table.options, clock=table.clock(),
                player_ids=[None if seat.level is not None else seat.id for seat in table.seats],
                rated=table.rated, hints=False, hints_off="arena")
    _, session = await sessions.create_from(meta.with_deadlines(state.to_move, None), state,
                                            game_id=game_id)
    if robots.robot_to_move(session) is not None:
        robots.play_in_background(game_id)
    return session


def links(game_id: str) -> dict[str, str]:
    return {"game": f"/v1/games/{game_id}", "events": f"/v1/games/{game_id}/events",
            "moves": f"/v1/games/{game_id}/moves"}


def started_event(session: Session, seat: int, token: str, **about: object) -> dict:
    """What a seat's player is told of its game starting: where, which seat, its token."""
    meta = session.meta
    return {"game_id": session.game_id, "game": meta.game, "players": meta.players,
            "seat": seat, "token": token, "turn_seconds": meta.clock.turn_seconds
            if meta.clock else None, "rated": meta.is_rated(),
            "seats": [{"seat": i, "name": meta.name(i), "player": meta.player(i)}
                      for i in range(meta.players)], "links": links(session.game_id), **about}


def check_table(players: int, seats: list[Contestant]) -> None:
    """Contestants who can sit at one table of players: InvalidGame otherwise."""
    people = [seat.id for seat in seats if seat.level is None]
    if len(set(people)) != len(people):
        raise InvalidGame("a player sits at most once at a table")
    if len(seats) != players:
        raise InvalidGame(f"{players} players need {players} contestants, got {len(seats)}")
