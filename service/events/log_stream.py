"""A stream of Server-Sent Events over an event log the store keeps (a player's events, a
tournament's): resumable by the id each event is sent with (Last-Event-ID or `after`),
with a keep-alive comment whenever a wait for the log finds nothing."""

import re
from collections.abc import AsyncIterator, Awaitable, Callable

import msgspec
from litestar.response import ServerSentEvent, ServerSentEventMessage

EVENT_ID = re.compile(r"^[0-9]{1,20}-[0-9]{1,20}$")  # an event's id, as sent
# Last-Event-ID may be empty (an EventSource that has seen no id may send it so): none.
RESUME_HEADER = r"^([0-9]{1,20}-[0-9]{1,20})?$"

# Waits for the events after an id (None: from the oldest kept), as (id, JSON) pairs.
ReadAfter = Callable[[str | None], Awaitable[list[tuple[str, bytes]]]]


def log_stream(read_after: ReadAfter, after: str | None) -> ServerSentEvent:
    """The log's events after `after` as they come, each named by its `type`."""
    async def events() -> AsyncIterator[ServerSentEventMessage]:
        since = after
        while True:
            found = await read_after(since)
            if not found:
                yield ServerSentEventMessage(comment="keep-alive", data=None)
            for event_id, event in found:
                kind = msgspec.json.decode(event)["type"]
                yield ServerSentEventMessage(id=event_id, event=kind, data=event.decode())
                since = event_id

    return ServerSentEvent(events(), headers={"Cache-Control": "no-store"})
