"""A replica's metrics as operators scrape them: on a port of their own, the sum of every
worker, counters that never go back, and a real Prometheus that reads them right."""

import math
import os
import signal
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
from prometheus_client.multiprocess import MultiProcessCollector
from prometheus_client.parser import text_string_to_metric_families

from tests.prometheus import Prometheus
from tests.service.play import create
from tests.service.servers import PrivateRedis, Server, server, wait_until

VIEWS = 'crab_http_requests_total{route="/v1/games/{game_id}",method="GET",status="200"}'
VIEW = ("crab_http_requests_total", (("method", "GET"), ("route", "/v1/games/{game_id}"),
                                     ("status", "200")))


def sample(api: Server, key: tuple[str, tuple] = VIEW) -> float:
    for family in text_string_to_metric_families(api.metrics()):
        for found in family.samples:
            if (found.name, tuple(sorted(found.labels.items()))) == key:
                return found.value
    return 0.0


def views(api: Server, game_id: str, count: int, threads: int = 4) -> None:
    """count views of the game, from threads clients at once (each answered 200)."""
    def some(share: int) -> None:
        with httpx.Client(base_url=api.url, timeout=30) as client:
            for _ in range(share):
                assert client.get(f"/v1/games/{game_id}").status_code == 200
    with ThreadPoolExecutor(threads) as pool:
        list(pool.map(some, [count // threads] * threads))


def worker_pids(folder: Path) -> set[int]:
    return {int(path.stem.rpartition("_")[2]) for path in folder.glob("counter_*.db")}


def views_by_worker(folder: Path) -> list[float]:
    """Each worker's own count of views, read from its file alone."""
    return [found.value for path in sorted(folder.glob("counter_*.db"))
            for family in MultiProcessCollector.merge([str(path)])
            for found in family.samples
            if (found.name, tuple(sorted(found.labels.items()))) == VIEW]


def test_prometheus_scraping_two_workers_under_load_sees_counters_grow_by_the_requests_sent(
        tmp_path):
    folder = tmp_path / "multiproc"
    with PrivateRedis() as redis, server({"REDIS_URL": redis.url, "ACCESS_LOG": "0",
                                          "PROMETHEUS_MULTIPROC_DIR": str(folder)},
                                         workers=2) as api:
        with httpx.Client(base_url=api.url, timeout=30) as client:
            game = create(client, "cup-the-crab", 2)
        views(api, game["id"], 8)  # the series exists before Prometheus' first scrape
        wait_until(lambda: sample(api) == 8, what="the first views counted")
        target = api.metrics_url.split("/")[2]
        with Prometheus([target], scrape_seconds=0.25) as prometheus:
            wait_until(lambda: prometheus.value(VIEWS) == 8, what="Prometheus' first scrape")
            time.sleep(1.5)  # scrapes before the load, for the window to start among them
            first = time.time()
            views(api, game["id"], 800)
            wait_until(lambda: prometheus.value(VIEWS) == 808, what="every view scraped")
            time.sleep(0.5)
            # A window from a second before the load to now: scrapes cover it end to end.
            seconds = math.ceil(time.time() - first) + 1
            window = f"[{seconds}s]"
            assert prometheus.value(f"resets({VIEWS}{window})") == 0
            # The raw samples Prometheus took: never one below the one before.
            [series] = prometheus.query(f"{VIEWS}{window}")
            taken = [float(value) for _, value in series["values"]]
            assert taken == sorted(taken) and len(set(taken)) > 2, taken
            assert prometheus.value(f"max_over_time({VIEWS}{window})"
                                    f" - min_over_time({VIEWS}{window})") == 800
            # rate() and increase() extrapolate from the first and last scrapes in the
            # window to its edges, a scrape interval (0.25 s) at most at each end: never
            # less than the requests sent, and more by that share of the window at most.
            most = 800 * seconds / (seconds - 3 * 0.25)
            assert 800 - 1e-6 <= prometheus.value(f"increase({VIEWS}{window})") <= most
            assert 800 - 1e-6 <= prometheus.value(f"rate({VIEWS}{window})") * seconds <= most
        counted = views_by_worker(folder)
        assert len(counted) == 2 and min(counted) > 0 and sum(counted) == 808, counted
    assert not list(folder.glob("*.db"))  # the stopped service removed its files


def test_a_dead_workers_counts_stay_and_its_live_gauges_go(tmp_path):
    folder = tmp_path / "multiproc"
    with PrivateRedis() as redis, server({"REDIS_URL": redis.url, "ACCESS_LOG": "0",
                                          "PROMETHEUS_MULTIPROC_DIR": str(folder)},
                                         workers=2) as api:
        with httpx.Client(base_url=api.url, timeout=30) as client:
            game = create(client, "cup-the-crab", 2)
        views(api, game["id"], 200)
        wait_until(lambda: len(worker_pids(folder)) == 2 and sample(api) == 200,
                   what="both workers' views counted")
        dead = min(worker_pids(folder))
        os.kill(dead, signal.SIGKILL)
        # uvicorn starts a worker in its place; the dead one's views are still counted
        wait_until(lambda: len(worker_pids(folder)) == 3, what="a worker in the dead one's place")
        assert sample(api) == 200
        assert not list(folder.glob(f"gauge_live*_{dead}.db"))  # gone at that scrape
        views(api, game["id"], 100)
        wait_until(lambda: sample(api) == 300, what="the new worker's views added")


def test_metrics_are_served_on_their_own_port_to_the_bearer_of_the_token(tmp_path):
    with server({"METRICS_TOKEN": "s3cret-operators", "TMPDIR": str(tmp_path)}) as api:
        refused = httpx.get(api.metrics_url, timeout=5)
        assert refused.status_code == 401
        assert refused.headers["WWW-Authenticate"].startswith("Bearer")
        assert refused.json()["type"] == "/problems/unauthorized"
        assert "s3cret" not in refused.text
        wrong = httpx.get(api.metrics_url, headers={"Authorization": "Bearer nope"}, timeout=5)
        assert wrong.status_code == 401
        token = {"Authorization": "Bearer s3cret-operators"}
        wait_until(lambda: 'route="/health"' in api.metrics(token), what="/health counted")
        assert httpx.get(api.url + "/metrics", timeout=5).status_code == 404
        assert httpx.get(api.metrics_url.replace("/metrics", "/health"),
                         timeout=5).status_code == 404
        assert [path.name for path in tmp_path.glob("crab-metrics-*")]  # its folder, made
        assert "s3cret" not in api.output()  # the start-up log names no token
    assert not list(tmp_path.glob("crab-metrics-*"))  # ... and removed at the stop


def test_metrics_are_off_without_a_port(tmp_path):
    with server({"METRICS_PORT": "0", "TMPDIR": str(tmp_path)}) as api:
        assert httpx.get(api.url + "/metrics", timeout=5).status_code == 404
        assert not list(tmp_path.glob("crab-metrics-*"))  # no folder: one process, no files


def test_metrics_are_on_the_api_port_only_where_the_operator_asks_with_the_same_sum(tmp_path):
    env = {"METRICS_ON_API_PORT": "1", "METRICS_TOKEN": "s3cret-operators",
           "TMPDIR": str(tmp_path)}
    with PrivateRedis() as redis, server({**env, "REDIS_URL": redis.url}, workers=2) as api:
        refused = httpx.get(api.url + "/metrics", timeout=5)
        assert refused.status_code == 401 and refused.json()["type"] == "/problems/unauthorized"
        assert "s3cret" not in refused.text
        token = {"Authorization": "Bearer s3cret-operators"}
        with httpx.Client(base_url=api.url, timeout=5) as client:
            game = create(client, "cup-the-crab", 2)
            for _ in range(20):
                client.get(f"/v1/games/{game['id']}")
        views = ('crab_http_requests_total{method="GET",route="/v1/games/{game_id}",'
                 'status="200"} 20.0')
        # whichever worker answers, the API's port gives the replica's sum, as its own port does
        for _ in range(6):
            wait_until(lambda: views in httpx.get(api.url + "/metrics", headers=token,
                                                  timeout=5).text, what="both workers' views")
        assert views in api.metrics(token)
        assert "/metrics" not in httpx.get(api.url + "/schema/openapi.json",
                                           timeout=5).json()["paths"]


def test_metrics_on_the_api_port_alone_still_make_the_workers_folder(tmp_path):
    with server({"METRICS_ON_API_PORT": "1", "METRICS_PORT": "0",
                 "TMPDIR": str(tmp_path)}) as api:
        assert api.metrics_url is None
        wait_until(lambda: 'route="/health"' in httpx.get(api.url + "/metrics", timeout=5).text,
                   what="/health counted on the API's port")
        assert [path.name for path in tmp_path.glob("crab-metrics-*")]
    assert not list(tmp_path.glob("crab-metrics-*"))
