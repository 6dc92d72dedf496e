"""Fixtures: the API served by real uvicorn processes, against Redis and the embedded store."""

from collections.abc import Iterator

import httpx
import pytest
import redis

from tests.clusters import RedisCluster
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
    """The service, once per store; every API test runs against both."""
    with server({**STORES[request.param], "ACCESS_LOG": "1", "TURN_SECONDS_MIN": "1"}) as running:
        running.store = request.param
        yield running


@pytest.fixture
def client(api: Server) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=api.url, timeout=30) as http:
        yield http


@pytest.fixture
def private_redis() -> Iterator[PrivateRedis]:
    instance = PrivateRedis()
    yield instance
    instance.stop()


@pytest.fixture(scope="session")
def redis_cluster() -> Iterator[RedisCluster]:
    """A real 3-primary, 3-replica Redis Cluster, started once (a few seconds) per session."""
    with RedisCluster() as cluster:
        yield cluster
