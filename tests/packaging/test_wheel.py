"""The container's build, checked without a Docker engine: the wheel the Dockerfile builds
installs into a clean virtual environment and, installed (not editable), serves a game."""

import re
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from service.sql import migrate
from tests.processes import Process
from tests.service.play import create, play_to_end
from tests.service.servers import SHARED_REDIS, free_port, suite_database

pytestmark = pytest.mark.build  # minutes of compiling: `python -m pytest -m build`

ROOT = Path(__file__).resolve().parents[2]
WHEEL_COMMAND = ["-m", "pip", "wheel", "--no-deps", "--wheel-dir"]


def test_the_dockerfile_builds_the_wheel_with_the_command_tested_here():
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert "RUN python " + " ".join(WHEEL_COMMAND) + " /dist ." in dockerfile
    runtime = dockerfile.rsplit("\nFROM ", 1)[1]  # the last stage: what the image runs
    assert "USER crab" in runtime and "HEALTHCHECK" in runtime and "EXPOSE 8000" in runtime
    assert re.search(r"pip install --no-cache-dir /dist/\*\.whl", runtime)


def test_the_installed_wheel_serves_a_whole_game_against_redis(tmp_path):
    dist = tmp_path / "dist"
    subprocess.run([sys.executable, *WHEEL_COMMAND, str(dist), str(ROOT)], check=True,
                   capture_output=True)
    wheel = next(dist.glob("crab_engines-*.whl"))
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    subprocess.run([venv / "bin" / "python", "-m", "pip", "install", "-q", str(wheel)],
                   check=True, capture_output=True)
    where = subprocess.run([venv / "bin" / "python", "-c",
                            "import core, core.games.cupcrab.rules as rules, service; print(rules.__file__)"],
                           cwd=tmp_path, check=True, capture_output=True, text=True).stdout
    assert where.startswith(str(venv)) and where.strip().endswith(".so")
    migrated = subprocess.run(  # the migrations are package data too
        [venv / "bin" / "python", "-m", "service.archive", "upgrade"], cwd=tmp_path,
        env={"DATABASE_URL": f"sqlite:///{tmp_path}/archive.sqlite3"}, capture_output=True,
        text=True)
    head = migrate.head()
    assert migrated.returncode == 0 and f"revision {head}" in migrated.stdout, migrated.stderr
    port = free_port()
    # A replica of the suite's Redis archives where the others do (tests/service/servers.py).
    with Process(f"the installed crab-service on port {port}",
                 [str(venv / "bin" / "crab-service"), "--port", str(port)], cwd=tmp_path,
                 env={"REDIS_URL": SHARED_REDIS, "PATH": "/usr/bin:/bin",
                      "DATABASE_URL": suite_database().url}) as server:
        url = f"http://127.0.0.1:{port}"
        server.wait_ready(lambda: httpx.get(url + "/ready", timeout=2).status_code == 200,
                          "answering GET /ready with 200")
        with httpx.Client(base_url=url, timeout=30) as client:
            created = create(client, "cup-the-crab", 3, seed=9)
            moves = play_to_end(client, created, seed=9)
            final = client.get(f"/v1/games/{created['id']}").json()
            web_client = [client.get(path) for path in ("/play", "/play/style.css", "/play/js/app.js")]
        assert len(moves) == 81 and final["status"] == "over" and final["result"]["winners"]
        assert [response.status_code for response in web_client] == [200, 200, 200]  # package data
