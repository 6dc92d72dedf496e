"""The hot path's own Redis connection: one socket per process, its commands pipelined.

redis-py's asyncio client spends more of a move's CPU than anything else on its path
(loadtests/profile_move.py, docs/benchmarks.md): per command a pool checkout and release,
retry and health-check wrappers, a timeout task for the write and a timer for the read,
several coroutines deep. A game's reads and the store's scripts are plain request-reply
commands, none of them blocking, so they can share one connection: hiredis packs each
command (in C), the commands of one turn of the event loop leave in one write, Redis
answers in order, and each reply (parsed by hiredis) resolves the oldest waiting future.
Everything else (a cluster, pub/sub, pipelines, the store's other commands) stays on
redis-py.

Failures are those of the store: no answer within COMMAND_SECONDS, a connection that
fails or closes, an error reply all raise WireError, which the store turns into a 503. A
closed connection is opened again by the next command, so a restarted Redis is reached
at once (its old socket is known dead as soon as it closes).
"""

import asyncio
from collections import deque
from typing import Any

import hiredis
from redis.asyncio.connection import parse_url


class WireError(Exception):
    """Redis failed, closed the connection, did not answer in time or answered an error."""


class Disconnected(WireError):
    """The connection closed before the reply came: the command may or may not have run."""


class NoScript(WireError):
    """EVALSHA of a script Redis does not have (it restarted): load it and call again."""


class Wire:
    """Commands to one Redis node over one connection at a time, opened when needed."""

    def __init__(self, host: str, port: int, db: int, username: str | None,
                 password: str | None, connect_seconds: float, command_seconds: float) -> None:
        self._address = (host, port)
        self._hello = [("AUTH", *([username] if username else []), password)] if password \
            else []
        self._hello += [("SELECT", db)] if db else []
        self._connect_seconds = connect_seconds
        self._command_seconds = command_seconds
        self._connection: _Connection | None = None
        self._connecting = asyncio.Lock()

    @classmethod
    def for_url(cls, url: str, connect_seconds: float, command_seconds: float
                ) -> "Wire | None":
        """A Wire to the node a redis:// URL names; None for another kind (TLS, a Unix
        socket), which redis-py serves."""
        options = parse_url(url)
        if "connection_class" in options or "path" in options:
            return None
        return cls(options.get("host", "localhost"), options.get("port", 6379),
                   options.get("db", 0), options.get("username"), options.get("password"),
                   connect_seconds, command_seconds)

    async def call(self, *command: Any) -> Any:
        """The reply to command; WireError if there is none. A command whose connection
        closes under it is sent once more on a new one, as redis-py retries (every
        script here is safe to run twice: a commit finds its own nonce)."""
        try:
            return await (await self._open()).send(command, self._command_seconds)
        except Disconnected:
            return await (await self._open()).send(command, self._command_seconds)

    async def _open(self) -> "_Connection":
        """The connection, opened (again) if it is not open."""
        if self._connection is not None and not self._connection.closed:
            return self._connection
        async with self._connecting:
            if self._connection is not None and not self._connection.closed:
                return self._connection
            try:
                async with asyncio.timeout(self._connect_seconds):
                    _, connection = await asyncio.get_running_loop().create_connection(
                        _Connection, *self._address)
            except (OSError, TimeoutError) as error:
                raise WireError(f"cannot connect to Redis at {self._address}: {error!r}") \
                    from None
            try:
                for command in self._hello:
                    await connection.send(command, self._command_seconds)
            except WireError:  # a wrong password or database: this socket is no use
                connection.close()
                raise
            self._connection = connection
            return connection

    def close(self) -> None:
        if self._connection is not None:
            self._connection.close()


class _Connection(asyncio.Protocol):
    """One socket: commands written in order, each reply resolving the oldest future."""

    def __init__(self) -> None:
        self.closed = False
        self._failure: WireError | None = None  # what the commands waiting then fail with
        self._transport: asyncio.Transport | None = None
        self._waiting: deque[asyncio.Future] = deque()
        self._outgoing: list[bytes] = []  # commands of this turn of the loop, not yet sent
        self._reader = hiredis.Reader()

    async def send(self, command: tuple, seconds: float) -> Any:
        if self.closed:
            raise Disconnected("the connection to Redis closed")
        loop = asyncio.get_running_loop()
        future = loop.create_future()
        self._waiting.append(future)
        if not self._outgoing:
            loop.call_soon(self._flush)
        self._outgoing.append(hiredis.pack_command(command))
        try:
            async with asyncio.timeout(seconds):
                return await future
        except TimeoutError:
            failure = WireError(f"Redis did not answer within {seconds} s")
            self.close(failure)  # (the replies still due would answer the next commands)
            raise failure from None

    def _flush(self) -> None:
        """Sends in one write every command this turn of the event loop gave: under load
        many requests reach Redis in the same turn, and a write is a system call (the
        largest part of a round trip's CPU here). Commands of a connection closed
        meanwhile are not sent; their callers already have their error."""
        if not self.closed:
            self._transport.writelines(self._outgoing)  # type: ignore[union-attr]
        self._outgoing = []

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self._transport = transport  # type: ignore[assignment]

    def data_received(self, data: bytes) -> None:
        self._reader.feed(data)
        try:
            self._answer()
        except hiredis.ProtocolError:  # not Redis speaking: nothing more here is readable
            self.close()

    def _answer(self) -> None:
        while (reply := self._reader.gets()) is not False:
            future = self._waiting.popleft()
            if future.done():  # its caller gave up (cancelled): the reply is nobody's
                continue
            if isinstance(reply, hiredis.ReplyError):
                error = NoScript if str(reply).startswith("NOSCRIPT") else WireError
                future.set_exception(error(f"Redis answered: {reply}"))
            else:
                future.set_result(reply)

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed = True
        while self._waiting:
            future = self._waiting.popleft()
            if not future.done():
                future.set_exception(self._failure or Disconnected(
                    f"the connection to Redis closed: {exc!r}"))

    def close(self, failure: WireError | None = None) -> None:
        """Closes at once: later commands open another connection, and what still waits
        here fails with failure (a timeout's is not retried), else Disconnected."""
        self.closed = True
        self._failure = failure
        if self._transport is not None:
            self._transport.abort()
