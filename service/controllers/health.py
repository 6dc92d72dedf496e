"""Liveness and readiness for orchestrators and load balancers."""

from typing import Any

from litestar import Controller, get

from service.store import Store


class HealthController(Controller):
    tags = ["health"]

    @get("/health", summary="The process is up")
    async def health(self) -> dict[str, Any]:
        return {"status": "ok"}

    @get("/ready", summary="The game store answers (503 when it does not)")
    async def ready(self, store: Store) -> dict[str, Any]:
        await store.ping()  # StoreUnavailable becomes a 503 problem
        return {"status": "ready"}
