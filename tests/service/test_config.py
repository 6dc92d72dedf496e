"""Settings come from the environment, are checked, and bad ones stop the server at start."""

import socket
import subprocess
import sys

import pytest

from service.config import ConfigError, Settings
from tests.ports import free_port
from tests.service.servers import ROOT


def test_defaults_need_nothing_installed():
    settings = Settings.from_env({})
    assert settings.redis_url is None and settings.workers == 1 and settings.port == 8000


def test_every_setting_is_read_from_the_environment():
    settings = Settings.from_env({"REDIS_URL": "redis://h:1/2", "HOST": "0.0.0.0",
                                  "PORT": "9000", "WORKERS": "3", "GAME_TTL_SECONDS": "60",
                                  "MAX_BODY_BYTES": "4096", "ACCESS_LOG": "0"})
    assert settings == Settings("redis://h:1/2", "0.0.0.0", 9000, 3, 60, 4096, False)
    assert Settings.from_env(settings.as_env()) == settings


@pytest.mark.parametrize("env, message", [
    ({"PORT": "http"}, "PORT must be an integer, got 'http'"),
    ({"PORT": "70000"}, "PORT must be from 1 to 65535, got 70000"),
    ({"WORKERS": "2"}, "2 workers need REDIS_URL"),
    ({"MAX_BODY_BYTES": "10"}, "MAX_BODY_BYTES must be from 256"),
    ({"METRICS_PORT": "8000"}, "METRICS_PORT must differ from PORT"),
    ({"METRICS_PORT": "-1"}, "METRICS_PORT must be from 0 to 65535"),
])
def test_bad_settings_are_refused_with_the_variable_named(env, message):
    with pytest.raises(ConfigError, match=message):
        Settings.from_env(env)


def test_asking_for_several_workers_without_redis_is_a_clear_startup_error():
    env = {"PATH": "/usr/bin:/bin"}
    done = subprocess.run([sys.executable, "-m", "service", "--workers", "2"], cwd=ROOT,
                          env=env, capture_output=True, text=True, timeout=30)
    assert done.returncode != 0
    assert "2 workers need REDIS_URL" in done.stderr and "Traceback" not in done.stderr


def test_a_metrics_port_already_taken_is_a_clear_startup_error():
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = subprocess.run([sys.executable, "-m", "service", "--port", str(free_port())],
                              cwd=ROOT, env={"PATH": "/usr/bin:/bin", "METRICS_PORT": str(port)},
                              capture_output=True, text=True, timeout=60)
    assert done.returncode != 0 and "Traceback" not in done.stderr
    assert f"METRICS_HOST:METRICS_PORT (127.0.0.1:{port}) cannot serve the metrics" in done.stderr


def test_ai_seats_created_under_higher_limits_think_within_todays():
    from service.games.requests import Budget
    from service.games.robots import Robots
    from service.games.sessions import Sessions
    from service.store import MemoryStore
    sessions = Sessions(MemoryStore(60))
    robots = Robots(sessions, sessions.deadlines, Settings(ai_max_iterations=100,
                                                           ai_max_time_ms=50))
    assert robots.capped(Budget(iterations=5000)) == Budget(iterations=100)
    assert robots.capped(Budget(time_ms=2000)) == Budget(time_ms=50)
    assert robots.capped(Budget(iterations=10)) == Budget(iterations=10)
