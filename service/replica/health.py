"""Liveness and readiness for orchestrators and load balancers."""

from litestar import Controller, get

from service.archive.writer import ArchiveWriter
from service.games.bodies.common import ArchiveHealth, Health, Ready
from service.http.openapi import problems
from service.replica.shutdown import Drain
from service.sql.database import DatabaseUnavailable
from service.store import Store


class HealthController(Controller):
    tags = ["health"]

    @get("/health", summary="The process is up")
    async def health(self) -> Health:
        return Health(status="ok")

    @get("/ready", summary="The game store answers (503 when it does not); how far the"
                           " archive lags", responses=problems(503))
    async def ready(self, store: Store, drain: Drain, archive_writer: ArchiveWriter) -> Ready:
        drain.check_ready()  # a stopping worker is not ready: 503
        await store.ping()   # StoreUnavailable becomes a 503 problem
        lag = await archive_writer.read_lag()
        if not lag.failing:  # (a database that is down would hold the answer up)
            try:
                await archive_writer.read_refused()
            except DatabaseUnavailable:
                pass  # the drain will say so; the count is the last one read
        status = "unavailable" if lag.failing else \
            "lagging" if lag.seconds > archive_writer.lag_limit else "refused" if lag.refused else "ok"
        detail = lag.failing or (f"the oldest finished game has waited {lag.seconds:.0f} s"
                                 if status == "lagging" else
                                 f"the database refused {lag.refused} finished game(s), set"
                                 " aside: `python -m service.archive refused` lists them"
                                 if status == "refused" else None)
        return Ready(status="ready", archive=ArchiveHealth(
            status=status, outbox_depth=lag.depth, lag_seconds=round(lag.seconds, 3),
            refused=lag.refused, detail=detail))
