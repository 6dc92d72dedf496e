"""The problems answered below the domains: what the framework refuses before a handler
runs (a body that does not decode, no such route), a store or a database that cannot be
reached, and our own fault. problems.py turns each such exception into one of these."""

from service.http.errors import ApiError

NOT_UNDERSTOOD = "The server did not understand this request."


class MalformedRequest(ApiError):
    """A body that is not JSON, or JSON we refuse (service/http/decoding.py)."""
    status = 400
    type = "malformed-request"
    when = "The body is not JSON"
    when_order = 10
    sentence = NOT_UNDERSTOOD


class InvalidRequest(ApiError):
    """A body, header or query parameter that does not match the schema."""
    status = 400
    type = "invalid-request"
    when = ", or does not match the schema (`malformed-request`, `invalid-request`)"
    when_order = 20
    sentence = NOT_UNDERSTOOD


class RouteNotFound(ApiError):
    status = 404
    type = "not-found"
    sentence = "There is nothing at this address."


class MethodNotAllowed(ApiError):
    status = 405
    type = "method-not-allowed"

    def __init__(self, detail: str, headers: dict[str, str] | None) -> None:
        super().__init__(detail)
        self._headers = headers  # Allow: the methods the route takes

    def headers(self) -> dict[str, str] | None:
        return self._headers


class HttpError(ApiError):
    """Another refusal of the framework, answered with its status and its words."""
    type = "http-error"

    def __init__(self, status: int, detail: str) -> None:
        super().__init__(detail)
        self.status = status


class BodyTooLarge(ApiError):
    status = 413
    type = "body-too-large"
    when = "The body is larger than the server accepts (`body-too-large`)"
    sentence = "This request is too large."


class InternalError(ApiError):
    """Our fault: the detail says only whether the request may have been applied."""
    status = 500
    type = "internal-error"
    sentence = "The server failed: reload to see whether it was done."


class StoreUnreachable(ApiError):
    status = 503
    type = "store-unavailable"
    when = "The game store"
    when_order = 10
    sentence = ("The server cannot reach its games right now: nothing was changed, try again"
                " shortly.")

    def detail(self) -> str:
        return "the game store cannot be reached; nothing was changed, retry shortly"

    def headers(self) -> dict[str, str]:
        return {"Retry-After": "1"}


class ArchiveUnreachable(ApiError):
    status = 503
    type = "archive-unavailable"
    when = (" or the archive cannot be reached (`store-unavailable`,"
            " `archive-unavailable`)")
    when_order = 20
    sentence = "The archive cannot be reached right now: try again shortly."

    def detail(self) -> str:
        return "the archive's database cannot be reached; nothing was changed, retry shortly"

    def headers(self) -> dict[str, str]:
        return {"Retry-After": "5"}
