"""The Litestar application factory: `create_app()` reads its settings from the environment."""

import gc
import logging

from litestar import Litestar
from litestar.config.cors import CORSConfig
from litestar.di import Provide
from litestar.static_files import create_static_files_router
from swagger_ui_bundle import swagger_ui_path

from service.config import Settings
from service.controllers.events import EventsController
from service.controllers.games import GamesController
from service.controllers.health import HealthController
from service.controllers.lobby import LobbyController
from service.controllers.play import play_routes
from service.decoding import StrictRequest
from service.drain import Drain
from service.clocks import Clocks
from service.events import Hub
from service.limits import Limit, RateLimits, trusted_proxies
from service.lobby import Lobby
from service.observe import metrics, observer
from service.openapi import SWAGGER_ASSETS, openapi_config
from service.problems import HANDLERS
from service.robots import Robots
from service.sessions import Sessions
from service.store import Store, open_store


def _rate_limits(settings: Settings, store: Store) -> RateLimits:
    return RateLimits(store, {
        "creates": Limit("creates", settings.creates_per_minute, 60_000, per_token=False),
        "moves": Limit("moves", settings.moves_per_second, 1_000, per_token=True),
    }, trusted_proxies(settings.trusted_proxies))


def _cors(settings: Settings) -> CORSConfig | None:
    """Browser frontends on other origins: only those CORS_ORIGINS names (none by default)."""
    if not settings.cors_origins:
        return None
    return CORSConfig(allow_origins=list(settings.cors_origins),
                      allow_methods=["GET", "POST", "OPTIONS"],
                      allow_headers=["Authorization", "Content-Type", "Idempotency-Key",
                                     "If-None-Match", "Last-Event-ID"],
                      expose_headers=["ETag", "Retry-After", "Location", "RateLimit-Limit",
                                      "RateLimit-Remaining", "RateLimit-Reset",
                                      "RateLimit-Policy"], max_age=600)


def create_app(settings: Settings | None = None, store: Store | None = None) -> Litestar:
    settings = settings or Settings.from_env()
    store = store or open_store(settings.redis_url, settings.game_ttl)
    sessions = Sessions(store)
    robots = Robots(sessions, settings)
    hub = Hub(sessions, settings.keep_alive_seconds)
    lobby = Lobby(sessions)
    drain = Drain(hub)
    clocks = Clocks(sessions, robots)
    def freeze_startup_objects() -> None:
        # Modules, routes and schemas live as long as the process: keeping them out of the
        # collector's generations shortens every full collection, hence the latency tail.
        gc.collect()
        gc.freeze()

    async def close_store() -> None:
        await clocks.stop()
        await robots.close()
        await store.close()

    app = Litestar(
        route_handlers=[GamesController, LobbyController, EventsController, HealthController,
                        metrics,
                        create_static_files_router(path=SWAGGER_ASSETS,
                                                   directories=[swagger_ui_path],
                                                   include_in_schema=False),
                        *play_routes()],
        dependencies={"sessions": Provide(lambda: sessions, sync_to_thread=False),
                      "robots": Provide(lambda: robots, sync_to_thread=False),
                      "hub": Provide(lambda: hub, sync_to_thread=False),
                      "lobby": Provide(lambda: lobby, sync_to_thread=False),
                      "clocks": Provide(lambda: clocks, sync_to_thread=False),
                      "drain": Provide(lambda: drain, sync_to_thread=False),
                      "store": Provide(lambda: store, sync_to_thread=False)},
        exception_handlers=HANDLERS,
        middleware=[observer(settings.access_log), _rate_limits(settings, store)],
        openapi_config=openapi_config(), request_class=StrictRequest, cors_config=_cors(settings),
        request_max_body_size=settings.max_body_bytes,
        on_startup=[freeze_startup_objects, clocks.start, drain.install],
        on_shutdown=[close_store],
        logging_config=None)
    app.state.settings = settings
    logging.getLogger("service").setLevel(logging.INFO)
    return app
