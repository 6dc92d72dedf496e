"""`GET /metrics` on the API's own port, only where the operator asks for it
(METRICS_ON_API_PORT=1): off by default, since game clients reach that port (issue 35).

For a replica whose API port only operators and a scraper reach, or a check that reads the
metrics beside the API (the shared conformance checks do). The answer is the metrics' port's
(service.replica.exposition): every worker's sum, behind METRICS_TOKEN when it is set. Not
in the OpenAPI document: clients are generated from it, and this is not theirs.
"""

import json
import os

from litestar import Request, Response, get
from litestar.handlers import HTTPRouteHandler
from prometheus_client import CONTENT_TYPE_LATEST

from service.replica.exposition import DIRECTORY, TOKEN_REQUIRED, authorized, scrape


def metrics_route(token: str) -> HTTPRouteHandler:
    @get("/metrics", name="metrics", include_in_schema=False, sync_to_thread=True)  # files of every worker
    def metrics(request: Request) -> Response[bytes]:
        if not authorized(token, request.headers.get("Authorization", "")):
            body = {"type": "/problems/unauthorized", "title": "Unauthorized", "status": 401,
                    "detail": TOKEN_REQUIRED, "instance": request.url.path}
            return Response(json.dumps(body).encode(), status_code=401,
                            media_type="application/problem+json",
                            headers={"WWW-Authenticate": 'Bearer realm="metrics"'})
        return Response(scrape(os.environ.get(DIRECTORY)), media_type=CONTENT_TYPE_LATEST)
    return metrics
