"""The Litestar application factory: `create_app()` reads its settings from the environment.

The composition root: what every domain shares is made here (the live store, the SQL
database, the archive's games, the turn clocks' deadlines and the archive's outbox, which
the commit writes to); each domain then builds its own parts (its `parts` module) on
what it needs, and the app is assembled from those parts alone (service.parts).
"""

import inspect
import logging
from pathlib import Path

from litestar import Litestar
from swagger_ui_bundle import swagger_ui_path

from service.archive.outbox import Outbox
from service.archive.parts import ArchiveParts
from service.archive.storage import Archive
from service.arena.parts import ArenaParts
from service.config import Settings
from service.events.parts import EventParts
from service.games.parts import GameParts
from service.http.cors import cors
from service.http.decoding import StrictRequest, refuse_repeated_parameters
from service.http.head import head_as_get
from service.http.openapi import SWAGGER_ASSETS, openapi_config
from service.http.problems import HANDLERS
from service.http.rate_limits import Limit, RateLimits, trusted_proxies
from service.http.static import static_files
from service.lobby.deadlines import Deadlines
from service.lobby.parts import LobbyParts
from service.matchmaking.parts import MatchmakingParts
from service.parts import Hook, Part, providers
from service.players.parts import PlayerParts
from service.replica import debug, tracing
from service.replica.api_metrics import metrics_route
from service.replica.observe import STATS, LateBodies, observer
from service.replica.parts import ReplicaParts
from service.reviews.parts import ReviewParts
from service.sql.database import Database
from service.store import Store, open_store
from service.tournaments.parts import TournamentParts
from service.web.routes import play_routes
from service.webhooks.parts import WebhookParts


def _rate_limits(settings: Settings, store: Store) -> RateLimits:
    return RateLimits(store, {
        "creates": Limit("creates", settings.creates_per_minute, 60_000, per_token=False),
        "moves": Limit("moves", settings.moves_per_second, 1_000, per_token=True),
    }, trusted_proxies(settings.trusted_proxies))


def _parts(settings: Settings, store: Store, database: Database) -> list[Part]:
    """Every domain's part, in the order they start (and stop, the other way round)."""
    deadlines, outbox = Deadlines(store), Outbox(store)
    players = PlayerParts.build(database, store)
    archive = Archive(database)
    webhooks = WebhookParts.build(settings, store, database)
    games = GameParts.build(settings, store, archive, players.directory, deadlines, outbox,
                            webhooks.driver)
    sessions, robots = games.sessions, games.robots
    lobby = LobbyParts.build(sessions, robots, store, deadlines)
    events = EventParts.build(sessions, store, settings)
    archived = ArchiveParts.build(archive, sessions, settings, store, outbox,
                                  players.directory, players.events,
                                  requests=lambda: STATS.begun)
    matchmaking = MatchmakingParts.build(sessions, robots, store, players.directory,
                                         games.limits)
    arena = ArenaParts.build(sessions, robots, players.events, store, database)
    tournaments = TournamentParts.build(sessions, robots, players.events, store, database)
    reviews = ReviewParts.build(sessions, database, store, settings)
    replica = ReplicaParts.build(events.hub)
    archived.writer.ingested.append(arena.runner.bell.ring_here)  # a series may go on
    archived.writer.ingested.append(tournaments.runner.bell.ring_here)  # a round may end
    # (The routes' order is the OpenAPI document's: clients are generated from it.)
    return [webhooks.caller_part(), games.part(), archived.part(), lobby.part(), events.part(),
            replica.part(store), players.part(), webhooks.part(), matchmaking.part(),
            reviews.part(), arena.part(), tournaments.part(),
            Part(routes=[static_files(SWAGGER_ASSETS, Path(swagger_ui_path), "swagger-assets"),
                         *play_routes(), *(debug.ROUTES if settings.debug_gc else ()),
                         *([metrics_route(settings.metrics_token)]
                           if settings.metrics_on_api_port else [])],
                 # a stopping worker's last requests are counted, its last spans sent
                 stop=[STATS.flush, tracing.stop])]


def _stopping(parts: list[Part], store: Store, database: Database) -> Hook:
    async def stop() -> None:
        for part in reversed(parts):  # what is built on a part stops before it
            for hook in part.stop:
                stopped = hook()
                if inspect.isawaitable(stopped):
                    await stopped
        await store.close()
        await database.close()
    return stop


def create_app(settings: Settings | None = None, store: Store | None = None) -> Litestar:
    settings = settings or Settings.from_env()
    tracing.start()  # when the OTEL_* variables ask for it: before the store and database
    store = store or open_store(settings.redis_url, settings.game_ttl)
    database = Database(settings.database_url)
    parts = _parts(settings, store, database)
    app = LateBodies(
        route_handlers=[route for part in parts for route in part.routes],
        dependencies=providers(parts),
        exception_handlers=HANDLERS,
        middleware=[observer(settings.access_log), _rate_limits(settings, store)],
        openapi_config=openapi_config(), request_class=StrictRequest,
        before_request=refuse_repeated_parameters,
        request_max_body_size=settings.max_body_bytes,
        on_startup=[hook for part in parts for hook in part.start],
        on_shutdown=[_stopping(parts, store, database)],
        logging_config=None)
    app.state.settings = settings
    if settings.debug_gc:
        debug.LOG.install()
    if settings.cors_origins:  # around the router, as Litestar's own CORS: every answer has it
        app.asgi_handler = cors(settings.cors_origins)(app.asgi_handler)
    app.asgi_handler = head_as_get(app.asgi_handler)
    if tracing.on():  # outermost: the server span holds everything else
        app.asgi_handler = tracing.traced_asgi(app.asgi_handler)
    logging.getLogger("service").setLevel(logging.INFO)
    return app
