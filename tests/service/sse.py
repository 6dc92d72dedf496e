"""A Server-Sent Events reader for the tests: httpx streaming, parsed as the spec says."""

import json
import threading
from dataclasses import dataclass, field
from typing import Any

import httpx


@dataclass
class Event:
    id: str | None
    event: str | None
    data: dict[str, Any]


@dataclass
class Listener:
    """Reads one stream in a thread until it ends, stop() is called or `until` holds."""
    url: str
    headers: dict[str, str] = field(default_factory=dict)
    until: Any = None                   # predicate on the events so far
    events: list[Event] = field(default_factory=list)
    comments: int = 0
    status: int | None = None
    content_type: str | None = None
    ended_by_server: bool = False
    error: BaseException | None = None

    def __post_init__(self) -> None:
        self._stop = threading.Event()
        self._opened = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()
        self._opened.wait(10)

    def _run(self) -> None:
        try:
            with httpx.stream("GET", self.url, headers=self.headers,
                              timeout=httpx.Timeout(30, read=30)) as response:
                self.status = response.status_code
                self.content_type = response.headers.get("content-type")
                self._opened.set()
                if response.status_code != 200:
                    response.read()
                    return
                self._read(response)
        except BaseException as error:  # noqa: BLE001 - reported to the test
            self.error = error
        finally:
            self._opened.set()

    def _read(self, response: httpx.Response) -> None:
        fields: dict[str, str] = {}
        for line in response.iter_lines():
            if self._stop.is_set():
                return
            if line == "":
                if "data" in fields:
                    self.events.append(Event(fields.get("id"), fields.get("event"),
                                             json.loads(fields["data"])))
                    if self.until is not None and self.until(self.events):
                        return
                fields = {}
            elif line.startswith(":"):
                self.comments += 1
            else:
                name, _, value = line.partition(":")
                fields[name] = fields.get(name, "") + value.removeprefix(" ")
        self.ended_by_server = True

    def stop(self) -> None:
        self._stop.set()

    def join(self, seconds: float = 20) -> "Listener":
        self._thread.join(seconds)
        assert not self._thread.is_alive(), "the stream did not end"
        if self.error is not None:
            raise self.error
        return self

    def ids(self) -> list[int]:
        return [int(event.id) for event in self.events]
