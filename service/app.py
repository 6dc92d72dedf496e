"""The Litestar application factory: `create_app()` reads its settings from the environment."""

import gc
import logging

from litestar import Litestar
from litestar.di import Provide
from litestar.static_files import create_static_files_router
from swagger_ui_bundle import swagger_ui_path

from service.config import Settings
from service.controllers.games import GamesController
from service.controllers.health import HealthController
from service.cors import cors
from service.decoding import StrictRequest
from service.observe import metrics, observer
from service.openapi import SWAGGER_ASSETS, openapi_config
from service.problems import HANDLERS
from service.robots import Robots
from service.sessions import Sessions
from service.store import Store, open_store


def create_app(settings: Settings | None = None, store: Store | None = None) -> Litestar:
    settings = settings or Settings.from_env()
    store = store or open_store(settings.redis_url, settings.game_ttl)
    sessions = Sessions(store)
    robots = Robots(sessions, settings)
    def robots_of(sessions: Sessions) -> Robots:
        # Robots play over sessions, and saying so makes Litestar resolve the two one
        # after the other: dependencies it sees as independent it resolves in a task group,
        # a task each, on every request that takes both (a tenth of a read's CPU).
        return robots

    def freeze_startup_objects() -> None:
        # Modules, routes and schemas live as long as the process: keeping them out of the
        # collector's generations shortens every full collection, hence the latency tail.
        gc.collect()
        gc.freeze()

    async def close_store() -> None:
        await robots.close()
        await store.close()

    app = Litestar(
        route_handlers=[GamesController, HealthController, metrics,
                        create_static_files_router(path=SWAGGER_ASSETS,
                                                   directories=[swagger_ui_path],
                                                   include_in_schema=False)],
        dependencies={"sessions": Provide(lambda: sessions, sync_to_thread=False),
                      "robots": Provide(robots_of, sync_to_thread=False),
                      "store": Provide(lambda: store, sync_to_thread=False)},
        exception_handlers=HANDLERS, middleware=[observer(settings.access_log)],
        openapi_config=openapi_config(), request_class=StrictRequest,
        request_max_body_size=settings.max_body_bytes, on_startup=[freeze_startup_objects],
        on_shutdown=[close_store],
        logging_config=None)
    app.state.settings = settings
    if settings.cors_origins:  # around the router, as Litestar's own CORS: every answer has it
        app.asgi_handler = cors(settings.cors_origins)(app.asgi_handler)
    logging.getLogger("service").setLevel(logging.INFO)
    return app
