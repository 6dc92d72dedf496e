"""/v1/players and /v1/leaderboards: identities that last, their ratings and games."""

import re
from typing import Any

from litestar import Controller, HttpMethod, Response, get, patch, post, route
from litestar.exceptions import NotFoundException, ValidationException
from litestar.params import Parameter

import core
from service.games.sessions import PlayerNotFound
from service.http.instants import iso_ms
from service.http.openapi import problems
from service.players import ratings
from service.players.bodies import (
    Leaderboard,
    LeaderboardLine,
    NewPlayer,
    Opponent,
    PlayerBody,
    PlayerCreated,
    PlayerGame,
    PlayerGames,
    PlayerRef,
    PlayerRename,
    PoolInfo,
    Pools,
    Rating,
    RatingChange,
    RatingPoint,
)
from service.players.ratings import PROVISIONAL_GAMES
from service.players.standings import RANKED_AFTER
from service.players.storage import Player, Players, Ranked
from service.webhooks.controller import webhook_body
from service.webhooks.registry import WebhookRegistry
from service.webhooks.storage import Webhook

HISTORY = 50  # rated games a profile's chart shows, per pool
PLAYER_ID = re.compile(r"^(p_[A-Za-z0-9_-]{16}|ai-[1-5])$")
GAMES_CURSOR = re.compile(r"^[0-9]{1,15}~[A-Za-z0-9_-]{1,64}$")
BOARD_CURSOR = re.compile(
    r"^-?[0-9]+(\.[0-9]+)?(e[+-]?[0-9]+)?~(p_[A-Za-z0-9_-]{16}|ai-[1-5])~[0-9]{1,9}$")


def _line(ranked: Ranked) -> LeaderboardLine:
    standing, player = ranked.standing, ranked.player
    return LeaderboardLine(
        rank=ranked.rank, player=PlayerRef(id=player.id, name=player.name, kind=player.kind),
        value=standing["conservative"], mu=standing["mu"], sigma=standing["sigma"],
        rated_games=standing["rated_games"],
        provisional=standing["rated_games"] < PROVISIONAL_GAMES and player.kind != "ai")


class PlayersController(Controller):
    path = "/v1/players"
    tags = ["players"]

    @post("/", status_code=201, responses=problems(400, 413, 422, 429, 503),
          summary="A new player (a person or a bot); its key is shown this once")
    async def create(self, data: NewPlayer, players: Players,
                     webhooks: WebhookRegistry) -> PlayerCreated:
        if data.webhook is None:
            player, key = await players.create(data.name, data.kind)
            return PlayerCreated(id=player.id, name=player.name, kind=data.kind, key=key,
                                 webhook=None)
        url = await webhooks.checked(data.webhook.url, data.kind)
        made: dict[str, Any] = {}

        def webhook_row(player_id: str) -> dict[str, Any]:
            made["row"], made["secret"] = webhooks.new_row(player_id, url)
            return made["row"]

        player, key = await players.create(data.name, data.kind, webhook_row)
        return PlayerCreated(id=player.id, name=player.name, kind=data.kind, key=key,
                             webhook=webhook_body(Webhook(**made["row"]), made["secret"]))

    @route("/me", http_method=HttpMethod.OPTIONS, include_in_schema=False,
           sync_to_thread=False)
    def allowed(self) -> Response[None]:
        """What /v1/players/me allows. Litestar's own OPTIONS answer is made with the
        route's first handler and lists only its method, though both are served."""
        return Response(None, status_code=204, headers={"Allow": "GET, HEAD, OPTIONS, PATCH"})

    @get("/me", responses=problems(401, 503),
         summary="The player whose key is given (Authorization: Bearer <player key>)")
    async def me(self, me: Player, players: Players) -> PlayerBody:
        return await self._profile(players, me.id)

    @patch("/me", responses=problems(400, 401, 413, 503),
           summary="Rename the player whose key is given (Authorization: Bearer <player key>)")
    async def rename(self, data: PlayerRename, me: Player, players: Players) -> PlayerBody:
        await players.rename(me.id, data.name)
        return await self._profile(players, me.id)

    @get("/{player_id:str}", responses=problems(404, 503),
         summary="A player: name, kind, and per game its rating, games and wins")
    async def profile(self, player_id: str, players: Players) -> PlayerBody:
        return await self._profile(players, player_id)

    @get("/{player_id:str}/games", responses=problems(400, 404, 503),
         summary="A player's archived games, the latest first, a page at a time")
    async def games(self, player_id: str, players: Players,
                    cursor: str | None = Parameter(
                        query="cursor", default=None, pattern=GAMES_CURSOR.pattern,
                        description="the previous page's next_cursor"),
                    limit: int = Parameter(query="limit", default=50, ge=1, le=100)
                    ) -> PlayerGames:
        if not PLAYER_ID.match(player_id) or await players.profile(player_id) is None:
            raise PlayerNotFound("no player has this id")
        before = None
        if cursor is not None:
            ended_ms, _, game_id = cursor.partition("~")
            before = (int(ended_ms), game_id)
        rows = await players.games(player_id, before, limit + 1)
        page = rows[:limit]
        return PlayerGames(
            player=player_id,
            games=[_played(row) for row in page],
            next_cursor=f"{page[-1]['ended_ms']}~{page[-1]['game_id']}"
            if len(rows) > limit else None)

    @staticmethod
    async def _profile(players: Players, player_id: str) -> PlayerBody:
        found = await players.profile(player_id, history=HISTORY) \
            if PLAYER_ID.match(player_id) else None
        if found is None:
            raise PlayerNotFound("no player has this id")
        player, standings = found
        ratings = [_rating(player, standing, standing["history"]) for standing in standings]
        return PlayerBody(id=player.id, name=player.name, kind=player.kind,  # type: ignore[arg-type]
                          created_at=iso_ms(player.created_ms) or "",
                          last_seen=iso_ms(player.last_seen_ms), ratings=ratings)


def _played(row: dict[str, Any]) -> PlayerGame:
    """One of a player's games with its table, opponents and rating change."""
    change = row["change"]
    rating = None
    if change is not None:
        (mu_before, sigma_before), after = change
        rating = RatingChange(mu_before=mu_before, sigma_before=sigma_before, mu=after.mu,
                              sigma=after.sigma, change=(after.mu - 3 * after.sigma)
                              - (mu_before - 3 * sigma_before))
    return PlayerGame(
        id=row["game_id"], game=row["game"], seat=row["seat"], rank=row["rank"],
        ended_at=iso_ms(row["ended_ms"]) or "", players=row["players"],
        reason=row["reason"], rating=rating,
        opponents=[Opponent(seat=o["seat"], player=o["player_id"], name=o["name"],
                            kind=o["kind"], rank=o["rank"]) for o in row["opponents"]])


def _rating(player: Player, standing: dict[str, Any], history: list[dict[str, Any]]) -> Rating:
    return Rating(
        **_pool_fields(standing["pool"]),
        mu=standing["mu"], sigma=standing["sigma"],
        value=standing["conservative"], rated_games=standing["rated_games"],
        provisional=standing["rated_games"] < PROVISIONAL_GAMES and player.kind != "ai",
        games=standing["games"], wins=standing["wins"], rank=standing["rank"],
        history=[RatingPoint(game_id=point["game_id"], ended_at=iso_ms(point["ended_ms"]) or "",
                             mu=point["mu"], sigma=point["sigma"],
                             value=point["mu"] - 3 * point["sigma"]) for point in history])


def _pool_fields(pool: str) -> dict[str, Any]:
    game = ratings.game_of(pool)
    found = ratings.pools().get(pool)
    return {"pool": pool, "game": game,
            "players": list(found.players if found else core.PLAYERS[game]),
            "ranked_after": RANKED_AFTER}


class LeaderboardsController(Controller):
    path = "/v1/leaderboards"
    tags = ["players"]

    @get("/", summary="Every rating pool, each with its leaderboard")
    async def pools(self) -> Pools:
        return Pools(pools=[PoolInfo(**_pool_fields(pool))
                            for pool in ratings.pool_names(list(core.GAMES))])

    @get("/{pool:str}", responses=problems(400, 404, 503),
         summary="A rating pool's ranked players, the best first (mu - 3 sigma)")
    async def leaderboard(self, pool: str, players: Players,
                          cursor: str | None = Parameter(
                              query="cursor", default=None, pattern=BOARD_CURSOR.pattern,
                              description="the previous page's next_cursor"),
                          limit: int = Parameter(query="limit", default=50, ge=1, le=100),
                          player: str | None = Parameter(
                              query="player", default=None, pattern=PLAYER_ID.pattern,
                              description="also this player's own line (`you`)")
                          ) -> Leaderboard:
        if pool not in ratings.pool_names(list(core.GAMES)):
            raise NotFoundException()
        after = None
        if cursor is not None:
            value, last, rank = cursor.split("~")
            try:
                after = (float(value), last, int(rank))
            except ValueError:
                raise ValidationException(extra=[{"message": "not a leaderboard cursor",
                                                  "key": "cursor", "source": "query"}]) from None
        page = await players.leaderboard(pool, after, limit + 1)
        lines = [_line(ranked) for ranked in page[:limit]]
        you = None
        if player is not None:
            found = await players.profile(player)
            standing = next((s for s in found[1] if s["pool"] == pool), None) if found else None
            if standing is not None and standing["rank"] is not None:
                you = _line(Ranked(standing["rank"], found[0], standing))  # type: ignore[index]
        last_line = page[limit - 1] if len(page) > limit else None
        return Leaderboard(**_pool_fields(pool), lines=lines, you=you, next_cursor=None if last_line is None
                           else f"{last_line.standing['conservative']!r}~{last_line.player.id}"
                                                f"~{last_line.rank}")
