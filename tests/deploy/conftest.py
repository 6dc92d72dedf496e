"""A replica and a real Prometheus scraping it, shared by the tests of deploy/."""

import re
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import yaml

from tests.prometheus import RULES, Prometheus
from tests.service.play import create
from tests.service.servers import PrivateRedis, Server, server, wait_until

DASHBOARD = Path(__file__).resolve().parents[2] / "deploy" / "grafana" / "crab-engines.json"
# Prometheus' own series, which no service exports
PROMETHEUS_SERIES = {"up"}


def quick_rules(folder: Path) -> Path:
    """alerts.yml with every `for:` one second, for a test that cannot wait minutes."""
    rules = yaml.safe_load(RULES.read_text())
    for group in rules["groups"]:
        for rule in group["rules"]:
            rule["for"] = "1s"
    path = folder / "alerts.yml"
    path.write_text(yaml.safe_dump(rules))
    return path


def metric_names(expression: str) -> set[str]:
    """The series an expression selects (labels' values and functions left out)."""
    bare = re.sub(r'"(?:[^"\\]|\\.)*"', '""', expression)  # label values may hold anything
    return {name for name in re.findall(r"\b([a-z_][a-z0-9_]*)\s*(?:\{|\[|\)|$|\s)", bare)
            if name.startswith("crab_") or name in PROMETHEUS_SERIES}


class Deployment:
    def __init__(self, redis: PrivateRedis, api: Server, prometheus: Prometheus) -> None:
        self.redis, self.api, self.prometheus = redis, api, prometheus


@pytest.fixture(scope="module")
def deployment(tmp_path_factory) -> Iterator[Deployment]:
    """A replica on a Redis of its own, which has answered a game, a view and a problem
    (so that every family of its metrics has samples), scraped every 0.25 s by a
    Prometheus evaluating alerts.yml with one-second `for:`s."""
    folder = tmp_path_factory.mktemp("rules")
    with PrivateRedis() as redis, server({"REDIS_URL": redis.url, "ACCESS_LOG": "0"}) as api:
        with httpx.Client(base_url=api.url, timeout=30) as client:
            game = create(client, "cup-the-crab", 2)
            assert client.get(f"/v1/games/{game['id']}").status_code == 200
            assert client.get("/v1/nothing-here").status_code == 404
        with Prometheus([api.metrics_url.split("/")[2]], scrape_seconds=0.25,
                        rule_files=(quick_rules(folder),)) as prometheus:
            wait_until(prometheus.targets_up, what="Prometheus scraping the replica")
            wait_until(lambda: prometheus.query('crab_http_problems_total'),
                       what="the problem scraped")
            yield Deployment(redis, api, prometheus)
