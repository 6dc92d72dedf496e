"""The Litestar application factory: `create_app()` reads its settings from the environment."""

import logging
from pathlib import Path

from litestar import Litestar
from litestar.di import Provide
from swagger_ui_bundle import swagger_ui_path

from service.archive.controller import ArchiveController
from service.archive.storage import Archive
from service.archive.writer import Archiver
from service.arena.challenges import Challenges
from service.arena.controller import (
    ChallengesController,
    PlayerEventsController,
    SeriesController,
)
from service.arena.series import SeriesRunner
from service.arena.storage import SeriesBook
from service.config import Settings
from service.events.controller import EventsController
from service.events.streams import Hub
from service.games.controller import GamesController
from service.games.limits import GameLimits
from service.games.robots import Robots
from service.games.sessions import Sessions
from service.http.cors import cors
from service.http.decoding import StrictRequest, refuse_repeated_parameters
from service.http.head import head_as_get
from service.http.openapi import SWAGGER_ASSETS, openapi_config
from service.http.problems import HANDLERS
from service.http.rate_limits import Limit, RateLimits, trusted_proxies
from service.http.static import static_files
from service.lobby.clocks import Clocks
from service.lobby.controller import LobbyController
from service.lobby.seats import Lobby
from service.matchmaking.controller import QueueController
from service.matchmaking.queue import Matchmaker
from service.players.controller import LeaderboardsController, PlayersController
from service.players.feed import Inbox
from service.replica import debug
from service.replica.collector import Collector
from service.replica.health import HealthController
from service.replica.observe import STATS, LateBodies, metrics, observer
from service.replica.shutdown import Drain
from service.reviews.controller import ReviewsController
from service.reviews.worker import Reviewer
from service.sql.database import Database
from service.store import Store, open_store
from service.web.routes import play_routes


def _rate_limits(settings: Settings, store: Store) -> RateLimits:
    return RateLimits(store, {
        "creates": Limit("creates", settings.creates_per_minute, 60_000, per_token=False),
        "moves": Limit("moves", settings.moves_per_second, 1_000, per_token=True),
    }, trusted_proxies(settings.trusted_proxies))


def create_app(settings: Settings | None = None, store: Store | None = None) -> Litestar:
    settings = settings or Settings.from_env()
    store = store or open_store(settings.redis_url, settings.game_ttl)
    database = Database(settings.database_url)
    archive = Archive(database)
    sessions = Sessions(store, archive, GameLimits.of(settings))
    inbox = Inbox(store)
    archiver = Archiver(sessions, archive, settings, requests=lambda: STATS.begun, inbox=inbox)
    robots = Robots(sessions, settings)
    challenges = Challenges(sessions, robots, inbox)
    runner = SeriesRunner(sessions, robots, inbox, SeriesBook(database))
    hub = Hub(sessions, settings.keep_alive_seconds)
    lobby = Lobby(sessions)
    drain = Drain(hub)
    clocks = Clocks(sessions, robots)
    matchmaker = Matchmaker(sessions, robots)
    reviewer = Reviewer(sessions, settings)
    archiver.ingested.append(runner.bell.ring_here)  # a series' game ended: it may go on
    # Modules, routes and schemas live as long as the process, and so do open streams:
    # keeping them out of the collector's way shortens every full collection, hence the
    # latency tail (service/replica/collector.py).
    collector = Collector()

    # Each provider names what its object is built on, as the constructors above do.
    # Litestar resolves a handler's dependencies level by level of that graph and starts
    # an anyio task group, a task per dependency, for every level of two or more: with
    # independent providers every read and move paid for one, half of a read's CPU in the
    # app (loadtests/asgi_bench.py, docs/benchmarks.md). A read (sessions, clocks) now
    # resolves one at a time. Each level costs a provider's signature check too, so a
    # provider names one object, the one the handlers taking it also take: clocks (built
    # on sessions and robots) names sessions, and a read needs no robots of its own.
    def robots_on(sessions: Sessions) -> Robots:
        return robots

    def clocks_on(sessions: Sessions) -> Clocks:
        return clocks

    def lobby_on(sessions: Sessions) -> Lobby:
        return lobby

    def hub_on(sessions: Sessions) -> Hub:
        return hub

    def drain_on(hub: Hub) -> Drain:
        return drain

    def archiver_on(sessions: Sessions) -> Archiver:
        return archiver

    def matchmaker_on(robots: Robots) -> Matchmaker:
        return matchmaker

    def inbox_on(sessions: Sessions) -> Inbox:
        return inbox

    def challenges_on(robots: Robots) -> Challenges:
        return challenges

    def runner_on(robots: Robots) -> SeriesRunner:
        return runner

    def reviewer_on(sessions: Sessions) -> Reviewer:
        return reviewer

    async def close_store() -> None:
        collector.stop()
        await clocks.stop()
        await challenges.stop()
        await runner.stop()
        await matchmaker.stop()
        await reviewer.stop()
        await archiver.stop()
        await robots.close()
        await store.close()
        await database.close()

    app = LateBodies(
        route_handlers=[GamesController, ArchiveController, LobbyController, EventsController,
                        HealthController, PlayersController, LeaderboardsController,
                        QueueController, ReviewsController, ChallengesController,
                        SeriesController, PlayerEventsController,
                        metrics,
                        static_files(SWAGGER_ASSETS, Path(swagger_ui_path), "swagger-assets"),
                        *play_routes(), *(debug.ROUTES if settings.debug_gc else ())],
        dependencies={"sessions": Provide(lambda: sessions, sync_to_thread=False),
                      "robots": Provide(robots_on, sync_to_thread=False),
                      "hub": Provide(hub_on, sync_to_thread=False),
                      "lobby": Provide(lobby_on, sync_to_thread=False),
                      "clocks": Provide(clocks_on, sync_to_thread=False),
                      "drain": Provide(drain_on, sync_to_thread=False),
                      "archiver": Provide(archiver_on, sync_to_thread=False),
                      "matchmaker": Provide(matchmaker_on, sync_to_thread=False),
                      "inbox": Provide(inbox_on, sync_to_thread=False),
                      "challenges": Provide(challenges_on, sync_to_thread=False),
                      "runner": Provide(runner_on, sync_to_thread=False),
                      "reviewer": Provide(reviewer_on, sync_to_thread=False),
                      "store": Provide(lambda: store, sync_to_thread=False)},
        exception_handlers=HANDLERS,
        middleware=[observer(settings.access_log), _rate_limits(settings, store)],
        openapi_config=openapi_config(), request_class=StrictRequest,
        before_request=refuse_repeated_parameters,
        request_max_body_size=settings.max_body_bytes,
        on_startup=[collector.start, archiver.start, clocks.start, matchmaker.start,
                    challenges.start, runner.start, reviewer.start, drain.install],
        on_shutdown=[close_store],
        logging_config=None)
    app.state.settings = settings
    if settings.debug_gc:
        debug.LOG.install()
    if settings.cors_origins:  # around the router, as Litestar's own CORS: every answer has it
        app.asgi_handler = cors(settings.cors_origins)(app.asgi_handler)
    app.asgi_handler = head_as_get(app.asgi_handler)
    logging.getLogger("service").setLevel(logging.INFO)
    return app
