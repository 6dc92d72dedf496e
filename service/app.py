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
from service.decoding import StrictRequest
from service.events import Hub
from service.observe import metrics, observer
from service.openapi import SWAGGER_ASSETS, openapi_config
from service.problems import HANDLERS
from service.robots import Robots
from service.sessions import Sessions
from service.store import Store, open_store


def _cors(settings: Settings) -> CORSConfig | None:
    """Browser frontends on other origins: only those CORS_ORIGINS names (none by default)."""
    if not settings.cors_origins:
        return None
    return CORSConfig(allow_origins=list(settings.cors_origins),
                      allow_methods=["GET", "POST", "OPTIONS"],
                      allow_headers=["Authorization", "Content-Type", "Idempotency-Key",
                                     "If-None-Match", "Last-Event-ID"],
                      expose_headers=["ETag", "Retry-After", "Location"], max_age=600)


def create_app(settings: Settings | None = None, store: Store | None = None) -> Litestar:
    settings = settings or Settings.from_env()
    store = store or open_store(settings.redis_url, settings.game_ttl)
    sessions = Sessions(store)
    robots = Robots(sessions, settings)
    hub = Hub(sessions, settings.keep_alive_seconds)
    def freeze_startup_objects() -> None:
        # Modules, routes and schemas live as long as the process: keeping them out of the
        # collector's generations shortens every full collection, hence the latency tail.
        gc.collect()
        gc.freeze()

    async def close_store() -> None:
        await robots.close()
        await store.close()

    app = Litestar(
        route_handlers=[GamesController, EventsController, HealthController, metrics,
                        create_static_files_router(path=SWAGGER_ASSETS,
                                                   directories=[swagger_ui_path],
                                                   include_in_schema=False)],
        dependencies={"sessions": Provide(lambda: sessions, sync_to_thread=False),
                      "robots": Provide(lambda: robots, sync_to_thread=False),
                      "hub": Provide(lambda: hub, sync_to_thread=False),
                      "store": Provide(lambda: store, sync_to_thread=False)},
        exception_handlers=HANDLERS, middleware=[observer(settings.access_log)],
        openapi_config=openapi_config(), request_class=StrictRequest, cors_config=_cors(settings),
        request_max_body_size=settings.max_body_bytes, on_startup=[freeze_startup_objects],
        on_shutdown=[close_store],
        logging_config=None)
    app.state.settings = settings
    logging.getLogger("service").setLevel(logging.INFO)
    return app
