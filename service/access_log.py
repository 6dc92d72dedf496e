"""One JSON line per request: method, route path, status, duration. Never a header or body."""

import json
import logging
import time

from litestar.types import ASGIApp, Message, Receive, Scope, Send

log = logging.getLogger("service.access")


def access_log_middleware(app: ASGIApp) -> ASGIApp:
    async def middleware(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await app(scope, receive, send)
            return
        start = time.perf_counter()
        status = 500

        async def send_wrapper(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)

        try:
            await app(scope, receive, send_wrapper)
        finally:
            log.info(json.dumps({
                "method": scope["method"], "path": scope["path"], "status": status,
                "ms": round((time.perf_counter() - start) * 1000, 2)}))
    return middleware
