"""The server calling out: one signed POST to a webhook, within every limit the operator set.

- only allowed destinations (destinations.py): the URL is checked at each call, and the
  connection's resolver is the check itself, so the addresses connected to are those
  checked;
- no redirect followed (a 3xx is a failed call, like any status but 2xx);
- the answer read up to WEBHOOK_MAX_RESPONSE_BYTES, one byte more refuses it, and read as
  sent (no decompression, whose output a small answer could make huge);
- a deadline for the whole call (connecting, sending, waiting and reading): the smaller of
  WEBHOOK_TIMEOUT_MS and what the seat's clock leaves;
- at most WEBHOOK_MAX_CONCURRENT calls in flight per worker; a call that gets no slot
  before its deadline is not made.

A call never raises for what the other side does: it answers an Outcome, whose `failure`
names what went wrong in a word (the metrics' label, the log's). Nothing of the secret,
the body or the answer is logged.
"""

import asyncio
import socket
import time
from dataclasses import dataclass
from typing import Any

import aiohttp
import msgspec
from aiohttp.abc import AbstractResolver, ResolveResult

from service.webhooks import signing
from service.webhooks.destinations import Destinations, Refused

USER_AGENT = "crab-engines-webhooks/1"


@dataclass(frozen=True)
class Outcome:
    """A call's outcome: the decoded JSON answer, or the failure's name."""
    answer: Any = None
    failure: str | None = None
    seconds: float = 0.0


class _Refusal(OSError):
    """A refused destination, raised where aiohttp expects a resolver's OSError."""

    def __init__(self, refused: Refused) -> None:
        super().__init__(str(refused))
        self.refused = refused


class CheckingResolver(AbstractResolver):
    """aiohttp's resolver: every address of the name, each checked, or none at all."""

    def __init__(self, destinations: Destinations) -> None:
        self.destinations = destinations

    async def resolve(self, host: str, port: int = 0,
                      family: socket.AddressFamily = socket.AF_INET) -> list[ResolveResult]:
        try:
            addresses = await self.destinations.resolve(host, port)
        except Refused as refused:
            raise _Refusal(refused) from None
        return [ResolveResult(hostname=host, host=str(address), port=port,
                              family=socket.AF_INET6 if address.version == 6 else socket.AF_INET,
                              proto=0, flags=socket.AI_NUMERICHOST) for address in addresses]

    async def close(self) -> None:
        return None


class Caller:
    def __init__(self, destinations: Destinations, timeout_ms: int, max_bytes: int,
                 max_concurrent: int) -> None:
        self.destinations = destinations
        self.timeout = timeout_ms / 1000
        self.max_bytes = max_bytes
        self.max_concurrent = max_concurrent
        self._slots = asyncio.Semaphore(max_concurrent)
        self._session: aiohttp.ClientSession | None = None

    def _client(self) -> aiohttp.ClientSession:
        if self._session is None:  # made on the running loop, at the first call
            connector = aiohttp.TCPConnector(
                resolver=CheckingResolver(self.destinations), use_dns_cache=False,
                limit=self.max_concurrent, limit_per_host=0)
            self._session = aiohttp.ClientSession(
                connector=connector, auto_decompress=False, trust_env=False,
                skip_auto_headers=("Accept-Encoding",), cookie_jar=aiohttp.DummyCookieJar())
        return self._session

    async def close(self) -> None:
        if self._session is not None:
            await self._session.close()
            self._session = None

    async def call(self, url: str, secrets: list[str], body: bytes, deadline: float,
                   delivery: str) -> Outcome:
        """POSTs body, signed with secrets, to url; the answer must be whole by deadline
        (time.time() seconds)."""
        started = time.perf_counter()
        outcome = await self._call(url, secrets, body, deadline, delivery)
        return Outcome(outcome.answer, outcome.failure, time.perf_counter() - started)

    async def _call(self, url: str, secrets: list[str], body: bytes, deadline: float,
                    delivery: str) -> Outcome:
        try:
            self.destinations.checked_url(url)
        except Refused:
            return Outcome(failure="refused")
        left = min(self.timeout, deadline - time.time())
        if left <= 0:
            return Outcome(failure="late")
        ends = asyncio.get_running_loop().time() + left
        try:
            async with asyncio.timeout_at(ends):
                await self._slots.acquire()
        except TimeoutError:
            return Outcome(failure="busy")  # every slot taken until the deadline
        try:
            async with asyncio.timeout_at(ends):
                return await self._post(url, secrets, body, delivery)
        except TimeoutError:
            return Outcome(failure="late")
        finally:
            self._slots.release()

    async def _post(self, url: str, secrets: list[str], body: bytes,
                    delivery: str) -> Outcome:
        headers = {"Content-Type": "application/json", "User-Agent": USER_AGENT,
                   "Crab-Delivery": delivery,
                   signing.HEADER: signing.header(secrets, int(time.time()), body)}
        try:
            async with self._client().post(url, data=body, headers=headers,
                                           allow_redirects=False) as response:
                if not 200 <= response.status < 300:
                    return Outcome(failure="redirect" if 300 <= response.status < 400
                                   else "status")
                if response.content_length is not None and \
                        response.content_length > self.max_bytes:
                    return Outcome(failure="too-large")
                raw = await self._read(response)
        except _Refusal:
            return Outcome(failure="refused")
        except aiohttp.ClientConnectorError as error:
            return Outcome(failure="refused" if isinstance(error.os_error, _Refusal)
                           else "unreachable")
        except (aiohttp.ClientError, OSError, ValueError):  # ValueError: a URL aiohttp refuses
            return Outcome(failure="unreachable")
        if raw is None:
            return Outcome(failure="too-large")
        try:
            return Outcome(answer=msgspec.json.decode(raw))
        except msgspec.DecodeError:
            return Outcome(failure="malformed")

    async def _read(self, response: aiohttp.ClientResponse) -> bytes | None:
        """The answer's bytes, None past the limit (read no further than one byte over)."""
        chunks, size = [], 0
        async for chunk in response.content.iter_chunked(8192):
            size += len(chunk)
            if size > self.max_bytes:
                return None
            chunks.append(chunk)
        return b"".join(chunks)
