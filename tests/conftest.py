"""Makes `tests` importable as a package root (tests.reference, tests.cupcrab.positions),
and gives the suite a Redis: the one TEST_REDIS_URL names (redis://127.0.0.1:6379/14 by
default) when it answers, else a private redis-server of the suite's own on a free
loopback port, so the README's test command needs no Redis already running."""

import os
import sys
from pathlib import Path

import redis

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.service import servers  # noqa: E402  (needs the path above)

def _answers(url: str) -> bool:
    client = redis.Redis.from_url(url, socket_connect_timeout=1, socket_timeout=1)
    try:
        return bool(client.ping())
    except redis.RedisError:
        return False
    finally:
        client.close()


def _suite_redis() -> "servers.PrivateRedis | None":
    """Runs as this file is imported, before any other conftest or test module, so every
    `from tests.service.servers import SHARED_REDIS` and every server started with
    os.environ see the Redis chosen."""
    if _answers(servers.SHARED_REDIS):
        return None
    private = servers.PrivateRedis()
    servers.SHARED_REDIS = private.url.rsplit("/", 1)[0] + "/14"
    os.environ["TEST_REDIS_URL"] = servers.SHARED_REDIS
    print(f"no Redis answers at TEST_REDIS_URL or the default address: the suite's own"
          f" redis-server on port {private.port}", file=sys.stderr)
    return private


_private = _suite_redis()


def pytest_unconfigure(config) -> None:
    servers.close_suite_database()
    if _private is not None:
        _private.stop()
