"""Bodies of players, their ratings and games, and the leaderboards."""

from typing import Literal

import msgspec

from service.games.requests import GameName, Name
from service.webhooks.bodies import WebhookBody, WebhookSpec

PlayerKind = Literal["human", "bot"]


class NewPlayer(msgspec.Struct, forbid_unknown_fields=True):
    """POST /v1/players. A bot may give its `webhook`: the server then asks it each
    decision of its seats by a signed POST (docs/arena.md, "Webhook bots")."""
    name: Name
    kind: PlayerKind = "human"
    webhook: WebhookSpec | None = None


class PlayerRename(msgspec.Struct, forbid_unknown_fields=True):
    """PATCH /v1/players/me: the key's player takes a new name."""
    name: Name


class PlayerCreated(msgspec.Struct, kw_only=True):
    """A new player and its `key`, shown this once: the proof that binds a seat to the
    player (`{"type": "human", "player": "<key>"}`, or a join with `player`) and opens
    the matchmaking queue for it (`Authorization: Bearer <key>`)."""
    id: str
    name: str
    kind: PlayerKind
    key: str
    webhook: WebhookBody | None   # a bot's webhook, with its secret shown this once too


class RatingPoint(msgspec.Struct, kw_only=True):
    """The rating after one rated game."""
    game_id: str
    ended_at: str
    mu: float
    sigma: float
    value: float                 # mu - 3 sigma


class Rating(msgspec.Struct, kw_only=True):
    """A player's standing in one rating pool (a game, at the table sizes that share a
    rating: Cup the Crab has one for 2 players and one for 3 to 5, docs/players.md):
    OpenSkill's Plackett-Luce skill (mu, sigma), its conservative `value` (mu - 3 sigma:
    the leaderboards' order), provisional until enough rated games, the games (rated or
    not) played and won, and the rank on the pool's leaderboard (null until ranked)."""
    pool: str                    # GET /v1/leaderboards/{pool}
    game: GameName
    players: list[int]           # the table sizes this pool rates
    ranked_after: int            # rated games before the leaderboard ranks the player
    mu: float
    sigma: float
    value: float
    provisional: bool
    rated_games: int
    games: int
    wins: int
    rank: int | None
    history: list[RatingPoint]   # the last rated games' ratings, oldest first


class PlayerBody(msgspec.Struct, kw_only=True):
    id: str
    name: str
    kind: Literal["human", "bot", "ai"]   # ai: one of the five fixed, calibrated AI levels
    created_at: str
    last_seen: str | None        # when a game of theirs last ended
    ratings: list[Rating]


class Opponent(msgspec.Struct, kw_only=True):
    """Another seat of the game bound to a player (a person, a bot or an AI level); a
    guest who played unbound has none and is not listed."""
    seat: int
    player: str
    name: str
    kind: Literal["human", "bot", "ai"]
    rank: int


class RatingChange(msgspec.Struct, kw_only=True):
    """The player's rating in the game's pool before and after this rated game; `change`
    is the conservative value's (mu - 3 sigma)."""
    mu_before: float
    sigma_before: float
    mu: float
    sigma: float
    change: float


class PlayerGame(msgspec.Struct, kw_only=True):
    id: str                      # the game's id: GET /v1/games/{id}, .../replay
    game: GameName
    seat: int
    rank: int
    ended_at: str
    players: int                 # the table's size
    reason: Literal["finished", "forfeit", "resigned"]
    opponents: list[Opponent]
    rating: RatingChange | None  # null: the game was not rated


class PlayerGames(msgspec.Struct, kw_only=True):
    """A page of a player's archived games, the latest first."""
    player: str
    games: list[PlayerGame]
    next_cursor: str | None


class PlayerRef(msgspec.Struct, kw_only=True):
    id: str
    name: str
    kind: Literal["human", "bot", "ai"]


class LeaderboardLine(msgspec.Struct, kw_only=True):
    rank: int
    player: PlayerRef
    value: float                 # mu - 3 sigma
    mu: float
    sigma: float
    rated_games: int
    provisional: bool


class Leaderboard(msgspec.Struct, kw_only=True):
    """Ranked players of a rating pool (enough rated games; the AI levels always), the
    best first; `you` is the asked-for player's own line (null if not ranked)."""
    pool: str
    game: GameName
    players: list[int]
    ranked_after: int            # rated games before a player is ranked (the AI levels always are)
    lines: list[LeaderboardLine]
    next_cursor: str | None
    you: LeaderboardLine | None


class Pools(msgspec.Struct, kw_only=True):
    """Every rating pool: GET /v1/leaderboards/{pool} for each."""
    pools: list["PoolInfo"]


class PoolInfo(msgspec.Struct, kw_only=True):
    pool: str
    game: GameName
    players: list[int]
    ranked_after: int            # rated games before a player is ranked (the AI levels always are)
