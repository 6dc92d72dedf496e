"""CORS for browser frontends on the origins CORS_ORIGINS names (none by default).

Our own thin ASGI middleware rather than Litestar's CORSConfig, which (2.x) replaces the
game reads' `Vary: Authorization` with `Vary: Origin`, sends its allow and expose headers
to every origin, and refuses a preflight with a text/plain 400. Here a listed origin gets
the CORS headers (with `Vary` extended, never replaced) and its preflight a 204; any other
origin gets no CORS header at all, so the browser keeps the response from its page.
"""

from collections.abc import Callable

from litestar.types import ASGIApp, Message, Receive, Scope, Send

ALLOW_METHODS = b"GET, POST, PUT, PATCH, DELETE, OPTIONS"  # PUT: an entry; PATCH: a rename
ALLOW_HEADERS = b"Authorization, Content-Type, Idempotency-Key, If-None-Match, Last-Event-ID"
EXPOSE_HEADERS = (b"ETag, Retry-After, Location, RateLimit-Limit, RateLimit-Remaining,"
                  b" RateLimit-Reset, RateLimit-Policy")
MAX_AGE = b"600"


def _header(scope: Scope, name: bytes) -> bytes | None:
    for key, value in scope["headers"]:
        if key == name:
            return value
    return None


def _with_origin(headers: list[tuple[bytes, bytes]], origin: bytes) -> list[tuple[bytes, bytes]]:
    """headers plus the CORS ones for origin, `Vary: Origin` added to any Vary there is."""
    vary = [value for key, value in headers if key.lower() == b"vary"]
    kept = [(key, value) for key, value in headers if key.lower() != b"vary"]
    return kept + [(b"vary", b", ".join([*vary, b"Origin"])),
                   (b"access-control-allow-origin", origin),
                   (b"access-control-expose-headers", EXPOSE_HEADERS)]


def cors(origins: tuple[str, ...]) -> Callable[[ASGIApp], ASGIApp]:
    """The middleware factory; `*` among origins allows every origin."""
    allowed = {origin.encode() for origin in origins}
    allow_all = b"*" in allowed

    def middleware(app: ASGIApp) -> ASGIApp:
        async def with_cors(scope: Scope, receive: Receive, send: Send) -> None:
            origin = _header(scope, b"origin") if scope["type"] == "http" else None
            if origin is None or not (allow_all or origin in allowed):
                await app(scope, receive, send)
                return
            if scope["method"] == "OPTIONS" and _header(
                    scope, b"access-control-request-method") is not None:
                await send({"type": "http.response.start", "status": 204,
                            "headers": _with_origin([
                                (b"access-control-allow-methods", ALLOW_METHODS),
                                (b"access-control-allow-headers", ALLOW_HEADERS),
                                (b"access-control-max-age", MAX_AGE)], origin)})
                await send({"type": "http.response.body", "body": b""})
                return

            async def send_with_cors(message: Message) -> None:
                if message["type"] == "http.response.start":
                    message = {**message, "headers": _with_origin(
                        list(message.get("headers", [])), origin)}
                await send(message)

            await app(scope, receive, send_with_cors)
        return with_cors
    return middleware
