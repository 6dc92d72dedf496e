"""Liveness and readiness for orchestrators and load balancers."""

from litestar import Controller, get

from service.bodies.common import Health, Ready
from service.drain import Drain
from service.openapi import problems
from service.store import Store


class HealthController(Controller):
    tags = ["health"]

    @get("/health", summary="The process is up")
    async def health(self) -> Health:
        return Health(status="ok")

    @get("/ready", summary="The game store answers (503 when it does not)",
         responses=problems(503))
    async def ready(self, store: Store, drain: Drain) -> Ready:
        drain.check_ready()  # a stopping worker is not ready: 503
        await store.ping()   # StoreUnavailable becomes a 503 problem
        return Ready(status="ready")
