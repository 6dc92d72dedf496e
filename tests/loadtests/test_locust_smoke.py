"""The locustfile cannot rot: a short headless run plays real games against a real server."""

import csv
import os
import subprocess
import sys

from tests.service.servers import ROOT, SHARED_REDIS, server

sys.path.insert(0, str(ROOT / "loadtests"))
from run import verdict  # noqa: E402

ENDPOINTS = {"/v1/games", "/v1/games/[id]", "/v1/games/[id] (seat)", "/v1/games/[id]/moves",
             "/v1/games/[id]/history", "/v1/games/[id]/suggest"}


def test_a_short_headless_run_plays_whole_games_without_a_failure(tmp_path):
    # Four users asking for suggestions may overlap more than the default AI cap allows;
    # the load test raises it (and runs without rate limits, as every test server does).
    with server({"REDIS_URL": SHARED_REDIS, "ACCESS_LOG": "0", "AI_MAX_CONCURRENT": "16"}) as api:
        done = subprocess.run(
            [sys.executable, str(ROOT / "loadtests" / "run.py"), "--host", api.url,
             "--users", "4", "--spawn-rate", "4", "--run-time", "20s", "--out", str(tmp_path),
             "--max-p99-ms", "1000"], capture_output=True, text=True, timeout=120,
            env={**os.environ, "LOCUST_AI_SHARE": "0.6"})
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    rows = {row["Name"]: row for row in csv.DictReader((tmp_path / "locust_stats.csv").open())}
    assert ENDPOINTS <= set(rows)
    assert int(rows["/v1/games/[id]/history"]["Request Count"]) > 0  # games were finished
    assert all(int(row["Failure Count"]) == 0 for row in rows.values())
    assert (tmp_path / "report.html").exists()
    assert verdict(tmp_path / "locust_stats.csv", max_p99_ms=0.0001) == 1
