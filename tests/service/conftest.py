"""Fixtures: the API served by real uvicorn processes, against Redis and the embedded store."""

from collections.abc import Iterator

import httpx
import pytest
import redis

from tests.clusters import RedisCluster
from tests.service.archives import archived_by, drained, replay_every_archived_game
from tests.service.servers import SHARED_REDIS, PrivateRedis, Server, server

STORES = {"redis": {"REDIS_URL": SHARED_REDIS}, "memory": {}}


@pytest.fixture(scope="session", autouse=True)
def clean_test_database() -> Iterator[None]:
    client = redis.Redis.from_url(SHARED_REDIS)
    client.flushdb()
    yield
    client.flushdb()
    client.close()


@pytest.fixture(scope="session", params=sorted(STORES))
def api(request) -> Iterator[Server]:
    """The service, once per store; every API test runs against both: Redis with the
    archive in PostgreSQL, the embedded store with it in SQLite.

    Once the API tests (of this pytest-xdist worker) are done, every game they finished
    is in the archive (its outbox is empty), and each plays again in the core to its
    archived result."""
    env = dict(STORES[request.param])  # Redis's archive: the suite's PostgreSQL database
    with server({**env, "ACCESS_LOG": "1", "TURN_SECONDS_MIN": "1"}) as running:
        running.store = request.param
        yield running
        # Counted before the replay: a game whose clock runs out meanwhile is archived after
        # the count and only adds to what is replayed.
        drained(running.url)
        written = archived_by(running)
        replayed = replay_every_archived_game(running)
    assert replayed >= written, f"the {request.param} archive lost games: {written} written"


@pytest.fixture
def client(api: Server) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=api.url, timeout=30) as http:
        yield http


@pytest.fixture
def private_redis() -> Iterator[PrivateRedis]:
    with PrivateRedis() as instance:
        yield instance


@pytest.fixture(scope="session")
def redis_cluster() -> Iterator[RedisCluster]:
    """A real 3-primary, 3-replica Redis Cluster, started once (a few seconds) per session.
    Nothing kills its nodes (a test that does starts a cluster of its own), so a node is
    given 5 s, not 1, before the others fail it over: a worker starved of CPU by a browser
    beside it must not look dead."""
    with RedisCluster(node_timeout_ms=5000) as cluster:
        yield cluster
