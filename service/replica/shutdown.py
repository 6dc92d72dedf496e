"""Stopping without dropping anything: what a worker does on SIGTERM.

uvicorn, on SIGTERM, stops accepting connections, waits for the requests in flight
(moves, suggestions, AI turns inside a move) and then shuts the application down. This
module adds what uvicorn cannot know: /ready turns 503 at once so load balancers stop
sending requests here; event streams end (their clients reconnect elsewhere with
Last-Event-ID) instead of holding the shutdown open; and at shutdown the AI games played
in this worker's background are handed to the other replicas (service.games.robots.close).
"""

import asyncio
import logging
import signal
import threading

from service.events.streams import Hub
from service.http.errors import ApiError

log = logging.getLogger("service.replica.shutdown")


class Draining(ApiError):
    """This worker is stopping: send requests to another replica."""
    status = 503
    type = "draining"
    # The last of the 503s' fragments, so it closes what the document says of them all.
    when = (", or this replica is stopping (`draining`); nothing was changed, `Retry-After`"
            " says when to retry")
    when_order = 40
    sentence = "This server is restarting: try again in a moment."

    def headers(self) -> dict[str, str]:
        # Another replica can answer at once; this one is gone for good.
        return {"Retry-After": "1"}


class Drain:
    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.draining = False

    def install(self) -> None:
        """Chains our handler before the server's own SIGTERM handler (uvicorn's)."""
        if threading.current_thread() is not threading.main_thread():
            return  # an in-process test client: no signals to chain
        loop = asyncio.get_running_loop()
        previous = signal.getsignal(signal.SIGTERM)

        def on_sigterm(signum: int, frame: object) -> None:
            loop.call_soon_threadsafe(self.begin)
            if callable(previous):
                previous(signum, frame)

        signal.signal(signal.SIGTERM, on_sigterm)

    def begin(self) -> None:
        if not self.draining:
            log.info("SIGTERM: draining (no longer ready; ending event streams)")
            self.draining = True
            self.hub.end_streams()

    def check_ready(self) -> None:
        if self.draining:
            raise Draining("this worker is stopping; other replicas serve the game")
