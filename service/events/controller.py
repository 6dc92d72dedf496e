"""/v1/games/{id}/events: a game's changes pushed as Server-Sent Events."""

from litestar import Controller, Request, get
from litestar.exceptions import ValidationException
from litestar.params import Parameter
from litestar.response import Stream
from litestar.response.base import ASGIResponse
from litestar.types import Empty

from service.events.streams import Follower, Hub
from service.games import bodies
from service.games.addressing import load, seat_token
from service.games.sessions import Sessions
from service.http.openapi import problems
from service.replica.observe import LATE_BODY

try:  # Litestar's internal name of its per-request state (2.x); without it, nothing is shed
    from litestar.utils.scope.state import CONNECTION_STATE_KEY
except ImportError:  # pragma: no cover - another Litestar
    CONNECTION_STATE_KEY = None

EVENT_STREAM = "text/event-stream"
VERSION = r"^[0-9]{0,18}$"
# no-transform and X-Accel-Buffering: proxies must pass events on at once
HEADERS = {"Cache-Control": "no-cache, no-transform", "X-Accel-Buffering": "no"}


def _version(raw: str | None, name: str, source: str) -> int | None:
    if not raw:  # an EventSource that has seen no id sends none (or, some, an empty one)
        return None
    if not raw.isdigit() or len(raw) > 18:
        raise ValidationException(extra=[{"message": f"{name} must be a version (a whole"
                                                     f" number >= 0), got {raw[:40]!r}",
                                           "key": name, "source": source}])
    return int(raw)


# What Litestar cached of the request (parsed headers, the route's exception handlers
# resolved into a fresh dict, ...): Litestar's outermost middleware keeps this state
# object for the connection's life, so a stream clears what only the handler needed.
_SHED = ("accept", "base_url", "content_type", "cookies", "dependency_cache",
         "exception_handlers", "headers", "parsed_query", "url")


def _shed(scope) -> None:
    state = scope.get("state", {}).get(CONNECTION_STATE_KEY) if CONNECTION_STATE_KEY else None
    if state is not None:
        for name in _SHED:
            setattr(state, name, Empty)


class _ASGIEvents(ASGIResponse):
    """The response's ASGI side: headers as Litestar makes them, then the follower sends
    the body itself, from the metrics middleware once Litestar's handler machinery has
    returned (service.replica.observe.LATE_BODY). Litestar's own streaming response runs an anyio
    task group of two tasks per stream (the iterator and a disconnect listener) and keeps
    the last chunk sent; ten thousand open streams made that, with the request and the
    frames of every layer around the handler, most of what the collector walked."""

    __slots__ = ("follower",)
    _should_set_content_length = False

    def __init__(self, follower: Follower, **kwargs) -> None:
        super().__init__(**kwargs)
        self.follower = follower

    async def __call__(self, scope, receive, send) -> None:
        await self.start_response(send)
        follower, self.follower = self.follower, None
        if LATE_BODY in scope:  # sent by the middleware once Litestar has returned
            _shed(scope)
            scope[LATE_BODY] = follower.run
        else:
            await follower.run(send, receive)


class EventStream(Stream):
    """A Stream whose body a Follower sends (documented as the Stream it is)."""

    def to_asgi_response(self, app, request, *, background=None, cookies=None,
                         encoded_headers=None, headers=None, is_head_response=False,
                         media_type=None, status_code=None, type_encoders=None) -> ASGIResponse:
        headers = {**headers, **self.headers} if headers is not None else self.headers
        extra = {} if encoded_headers is None else {"encoded_headers": encoded_headers}
        return _ASGIEvents(self.iterator, background=self.background or background,
                           cookies=self.cookies if cookies is None else [*self.cookies, *cookies],
                           encoding=self.encoding, **extra,
                           headers=headers, is_head_response=is_head_response,
                           media_type=EVENT_STREAM, status_code=self.status_code or status_code)


def _named(types) -> str:
    return " or ".join(type_.__name__ for type_ in types)


DESCRIPTION = (
    f"Each event: `id:` the version, `event: game`, `data:` a"
    f" {_named(bodies.EVENTS.values())} (see the schemas) holding the version, the log entry"
    " that made it as the caller may see it (null in the first event of a fresh stream,"
    " which is the current state) and the caller's game body then. Resume with the"
    " Last-Event-ID header (EventSource sends it) or `since`. The stream ends once the game"
    " is over and its last event was sent. With `delta=true`, each event after the first is"
    f" an `event: delta` whose data (a {_named(bodies.DELTA_EVENTS.values())}) holds the"
    " version, the entry and a JSON Patch (RFC 6902) of the caller's game body since the"
    " version before; an `event: game` may still come at any time (the first, or when the"
    " version before is no longer at hand) and replaces the body. Between them, an"
    " `event: reaction` (no `id`) carries a Reaction said at the table while the stream"
    " is open (POST .../reactions).")


class EventsController(Controller):
    path = "/v1/games"
    tags = ["events"]

    @get("/{game_id:str}/events", media_type=EVENT_STREAM, responses=problems(400, 401, 404, 503),
         summary="Every change of the game as the caller may see it, pushed (Server-Sent Events)",
         description=DESCRIPTION)
    async def events(self, game_id: str, request: Request, sessions: Sessions, hub: Hub,
                     token: str | None = Parameter(
                         query="token", default=None,
                         description="the seat's token, for clients that cannot set"
                                     " Authorization (a browser's EventSource); never logged"),
                     since: str | None = Parameter(
                         query="since", default=None, pattern=VERSION,
                         description="resume after this version (as Last-Event-ID)"),
                     last_event_id: str | None = Parameter(
                         header="Last-Event-ID", default=None, pattern=VERSION,
                         description="resume after this version; empty: from now"),
                     delta: bool = Parameter(
                         query="delta", default=False,
                         description="events after the first carry only what changed in"
                                     " the caller's game body (a JSON Patch), not the whole"
                                     " body")) -> Stream:
        resume = _version(last_event_id, "Last-Event-ID", "header")
        if resume is None:
            resume = _version(since, "since", "query")
        session = await load(sessions, game_id)
        seat = sessions.seat_of(session, seat_token(request) or token or None)
        return EventStream(hub.follower(session, seat, resume, delta), media_type=EVENT_STREAM,
                           headers=HEADERS)
