"""A real Prometheus server for the tests (Debian's `prometheus`, 2.42 here), and promtool.

Started on a free loopback port with a generated configuration (its scrape targets, and
rule files with a short evaluation interval) and a storage folder of its own, stopped
(and its folder removed) on every path, a failed start included.
"""

import json
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import httpx

from tests.ports import free_port
from tests.processes import Process

ROOT = Path(__file__).resolve().parents[1]
RULES = ROOT / "deploy" / "prometheus" / "alerts.yml"


def require(program: str) -> str:
    """program's path; the suite needs it (.ci/setup installs Debian's prometheus)."""
    path = shutil.which(program)
    if path is None:
        raise RuntimeError(f"{program} is not installed (apt-get install prometheus:"
                           " .ci/setup does)")
    return path


class Prometheus:
    """Prometheus scraping targets (host:port, path /metrics) every scrape_seconds and
    evaluating rule_files every as often. A context manager; close() stops it."""

    def __init__(self, targets: list[str], scrape_seconds: float = 0.5,
                 rule_files: tuple[Path, ...] = (), headers_token: str | None = None) -> None:
        program = require("prometheus")
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.folder = Path(tempfile.mkdtemp(prefix="crab-prometheus-"))
        job = {"job_name": "crab", "metrics_path": "/metrics",
               "static_configs": [{"targets": targets}]}
        if headers_token:
            job["authorization"] = {"type": "Bearer", "credentials": headers_token}
        interval = f"{int(scrape_seconds * 1000)}ms"
        config = {"global": {"scrape_interval": interval, "evaluation_interval": interval,
                             "scrape_timeout": interval},
                  "rule_files": [str(path) for path in rule_files],
                  "scrape_configs": [job]}
        (self.folder / "prometheus.yml").write_text(json.dumps(config))  # JSON is YAML
        try:
            self.process = Process(
                f"prometheus on port {self.port}",
                [program, f"--config.file={self.folder / 'prometheus.yml'}",
                 f"--storage.tsdb.path={self.folder / 'data'}",
                 f"--web.listen-address=127.0.0.1:{self.port}", "--log.level=warn"])
        except BaseException:
            shutil.rmtree(self.folder, ignore_errors=True)
            raise
        try:
            self.process.wait_ready(
                lambda: httpx.get(f"{self.url}/-/ready", timeout=2).status_code == 200,
                "ready", 30)
        except BaseException:
            self.close()
            raise

    def query(self, expression: str) -> list[dict]:
        """The result of an instant query (a vector's samples, each with metric and value)."""
        answer = httpx.get(f"{self.url}/api/v1/query", params={"query": expression},
                           timeout=5).json()
        assert answer["status"] == "success", answer
        return answer["data"]["result"]

    def value(self, expression: str) -> float | None:
        """The one value of a query that gives one sample, or None if it gives none."""
        result = self.query(expression)
        assert len(result) <= 1, result
        return float(result[0]["value"][1]) if result else None

    def alerts(self) -> list[dict]:
        return httpx.get(f"{self.url}/api/v1/alerts", timeout=5).json()["data"]["alerts"]

    def targets_up(self) -> bool:
        targets = httpx.get(f"{self.url}/api/v1/targets", timeout=5).json()["data"]
        return bool(targets["activeTargets"]) and all(
            target["health"] == "up" for target in targets["activeTargets"])

    def close(self) -> None:
        try:
            self.process.close()
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)

    def __enter__(self) -> "Prometheus":
        return self

    def __exit__(self, kind: object, error: BaseException | None, trace: object) -> None:
        if error is not None:
            self.process.note_on(error)
        self.close()


def promtool(*arguments: str, timeout: float = 20) -> subprocess.CompletedProcess:
    """promtool with arguments; its output as text (killed after timeout seconds)."""
    return subprocess.run([require("promtool"), *arguments], capture_output=True, text=True,
                          timeout=timeout)

