"""Exactly once under faults, with real processes: replicas killed by SIGKILL while games
end, PostgreSQL stopped for a while, two replicas draining one backlog, Redis restarted
from its AOF mid-drain. Each ends with every finished game in the archive once, and each
archived game playing again in the core to its result (tests/service/archives.py)."""

import asyncio
import os
import random
import signal
import threading
import time
from collections.abc import Iterator

import httpx
import pytest

from tests.clusters import PersistentRedis
from tests.databases import PrivatePostgres, migrate
from tests.service.archives import _replay_all, drained
from tests.service.play import auth, create, tokens_of
from tests.service.servers import PrivateRedis, Server, server, wait_until

AI_SEATS = [{"type": "ai", "iterations": 5}] * 2


@pytest.fixture
def database() -> Iterator[PrivatePostgres]:
    with PrivatePostgres() as cluster:
        migrate(cluster.url)
        yield cluster


def archived_ids(url: str) -> list[str]:
    with httpx.Client(base_url=url, timeout=60) as client:
        response = client.get("/v1/games/export")
        assert response.status_code == 200, response.text
        return [line.split('"id":"', 1)[1].split('"', 1)[0]
                for line in response.text.splitlines()]


def robot_games(url: str, count: int) -> list[str]:
    """count games between AI seats, played to the end by the replica at url."""
    with httpx.Client(base_url=url, timeout=30) as client:
        ids = [create(client, "crabe-vs-poulpe", 2, seats=AI_SEATS)["id"] for _ in range(count)]
        deadline = time.monotonic() + 60
        for game_id in ids:
            while client.get(f"/v1/games/{game_id}").json()["status"] != "over":
                assert time.monotonic() < deadline, f"{game_id} did not end"
                time.sleep(0.05)
    return ids


def assert_archived_once(url: str, finished: set[str], database_url: str) -> None:
    drained(url, seconds=60)
    ids = archived_ids(url)
    assert len(ids) == len(set(ids)), "a game is archived twice"
    assert finished <= set(ids), f"{len(finished - set(ids))} finished games are not archived"
    assert asyncio.run(_replay_all(database_url)) == len(ids)


def test_a_database_down_for_a_while_loses_nothing_and_two_replicas_drain_the_backlog(database):
    with PrivateRedis() as private:
        env = {"REDIS_URL": private.url, "DATABASE_URL": database.url, "ACCESS_LOG": "0"}
        with server(env) as a, server(env) as b:
            database.stop()
            finished = set(robot_games(a.url, 12) + robot_games(b.url, 12))  # moves go on
            # Once the drain has tried the database (a pass at most a few seconds later, on a
            # loaded machine), /ready says it is unavailable, and stays ready itself.
            wait_until(lambda: httpx.get(f"{a.url}/ready").json()["archive"]["status"]
                       == "unavailable")
            ready = httpx.get(f"{a.url}/ready").json()
            assert ready["status"] == "ready"  # the live API is not made unready by the archive
            assert ready["archive"]["outbox_depth"] == 24 and ready["archive"]["detail"]
            database.start()
            assert_archived_once(a.url, finished, database.url)


def test_replicas_killed_in_a_loop_while_games_end_lose_and_double_nothing(database):
    """Two replicas; one is killed by SIGKILL half a second or so after each start, while
    games played by people through both end on either (a start takes a few seconds)."""
    with PrivateRedis() as private:
        env = {"REDIS_URL": private.url, "DATABASE_URL": database.url, "ACCESS_LOG": "0"}
        with server(env) as steady:
            killed_in_a_loop(steady, env, database)


def killed_in_a_loop(steady: Server, env: dict[str, str], database: PrivatePostgres) -> None:
    victim = Server(env)
    finished: set[str] = set()
    stop = threading.Event()

    def play(seed: int) -> None:
        rng = random.Random(seed)
        while not stop.is_set():
            with httpx.Client(timeout=10) as client:
                urls = [steady.url, victim.url]
                created = create(httpx.Client(base_url=steady.url, timeout=10),
                                 "cup-the-crab", 2, seed=rng.randrange(1 << 30))
                game_id, tokens = created["id"], tokens_of(created)
                while True:
                    base = rng.choice(urls)
                    try:
                        body = client.get(f"{base}/v1/games/{game_id}").json()
                        if body["status"] == "over":
                            finished.add(game_id)
                            break
                        seat = rng.choice(body["to_move"])
                        view = client.get(f"{base}/v1/games/{game_id}",
                                          headers=auth(tokens[seat])).json()
                        client.post(f"{base}/v1/games/{game_id}/moves", headers=auth(
                            tokens[seat]), json={"move": rng.choice(view["legal_moves"]),
                                                 "expected_version": view["version"]})
                    except (httpx.HTTPError, KeyError, ValueError):
                        continue  # the replica died under this request: go on elsewhere

    players = [threading.Thread(target=play, args=(seed,)) for seed in range(3)]
    try:
        for player in players:
            player.start()
        deadline = time.monotonic() + 40  # ends once it has killed and finished enough
        kills = 0
        while time.monotonic() < deadline and (kills < 6 or len(finished) < 12):
            time.sleep(random.uniform(0.3, 0.8))
            os.kill(victim.process.pid, signal.SIGKILL)
            victim.process.wait()
            victim.stop()  # its files
            kills += 1
            victim = Server(env)
        stop.set()
        for player in players:
            player.join(30)
        assert kills >= 5 and len(finished) >= 10, (kills, len(finished))
        assert_archived_once(steady.url, finished, database.url)
    finally:
        stop.set()
        victim.stop()


def test_redis_restarted_from_its_aof_mid_drain_loses_no_finished_game(database):
    with PersistentRedis() as live:
        env = {"REDIS_URL": live.url, "DATABASE_URL": database.url, "ACCESS_LOG": "0"}
        service = Server(env)
        try:
            database.stop()
            finished = set(robot_games(service.url, 20))
            time.sleep(1.5)  # appendfsync everysec: what was written is on disk
            live.restart()
            database.start()
            assert_archived_once(service.url, finished, database.url)
        finally:
            service.stop()
