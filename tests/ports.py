"""Loopback ports for the servers the tests start (uvicorn, redis-server, PostgreSQL).

A port asked of the OS (bind to 0) is free when asked, not when the server binds it a
moment later: meanwhile the other pytest-xdist worker may be handed the same one, or a
client's socket may take it (the OS hands client sockets ports from 32768 up here). So
each worker picks from a range of its own below those, and never hands out a port twice.
"""

import os
import random
import socket

_LOWEST, _HIGHEST = 10_000, 32_000  # below the ephemeral ports (32768-60999 on Linux)
_handed: set[int] = set()


def _own_range() -> range:
    workers = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1"))
    worker = int(os.environ.get("PYTEST_XDIST_WORKER", "gw0").removeprefix("gw"))
    span = (_HIGHEST - _LOWEST) // max(1, workers)
    first = _LOWEST + worker * span
    return range(first, first + span)


def free_port() -> int:
    """A port of this worker's range that nothing listens on and that was not handed out."""
    ports = _own_range()
    for _ in range(1000):
        port = random.choice(ports)
        if port in _handed:
            continue
        with socket.socket() as sock:
            try:
                sock.bind(("127.0.0.1", port))
            except OSError:
                continue
        _handed.add(port)
        return port
    raise RuntimeError(f"no free port in {ports}")
