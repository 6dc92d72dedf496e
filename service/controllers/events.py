"""/v1/games/{id}/events: a game's changes pushed as Server-Sent Events."""

from litestar import Controller, Request, get
from litestar.exceptions import ValidationException
from litestar.params import Parameter
from litestar.response import Stream

from service.controllers.games import bearer_token, load
from service.events import Hub
from service.openapi import problems
from service.sessions import Sessions

EVENT_STREAM = "text/event-stream"
VERSION = r"^[0-9]{0,18}$"


def _version(raw: str | None, name: str) -> int | None:
    if not raw:  # an EventSource that has seen no id sends none (or, some, an empty one)
        return None
    if not raw.isdigit() or len(raw) > 18:
        raise ValidationException(extra=[{"message": f"{name} must be a version (a whole"
                                                     f" number >= 0), got {raw[:40]!r}"}])
    return int(raw)


class EventsController(Controller):
    path = "/v1/games"
    tags = ["events"]

    @get("/{game_id:str}/events", media_type=EVENT_STREAM, responses=problems(400, 401, 404, 503),
         summary="Every change of the game as the caller may see it, pushed (Server-Sent Events)",
         description="Each event: `id:` the version, `event: game`, `data:` a CupCrabEvent or"
                     " CvpEvent (see the schemas) holding the version, the log entry that made"
                     " it as the caller may see it (null in the first event of a fresh stream,"
                     " which is the current state) and the caller's game body then. Resume"
                     " with the Last-Event-ID header (EventSource sends it) or `since`. The"
                     " stream ends once the game is over and its last event was sent.")
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
                         description="resume after this version; empty: from now")) -> Stream:
        resume = _version(last_event_id, "Last-Event-ID")
        if resume is None:
            resume = _version(since, "since")
        session = await load(sessions, game_id)
        seat = sessions.seat_of(session, bearer_token(request) or token or None)
        # no-transform and X-Accel-Buffering: proxies must pass events on at once
        return Stream(hub.stream(session, seat, resume), media_type=EVENT_STREAM,
                      headers={"Cache-Control": "no-cache, no-transform",
                               "X-Accel-Buffering": "no"})
