"""SIGTERM: a replica finishes what it is doing, hands its AI games over, then exits."""

import signal
import threading
import time

import httpx
from litestar.testing import TestClient

from service.app import create_app
from service.config import Settings
from service.store import MemoryStore
from tests.service.play import auth, create, tokens_of
from tests.service.servers import SHARED_REDIS, server
from tests.service.sse import Listener


def test_a_stopping_replica_finishes_requests_in_flight_and_another_plays_its_ai_games_on():
    env = {"REDIS_URL": SHARED_REDIS, "ACCESS_LOG": "0"}
    with server(env) as a, server(env) as b, \
            httpx.Client(base_url=a.url, timeout=30) as on_a, \
            httpx.Client(base_url=b.url, timeout=30) as on_b:
        robots_only = create(on_a, "crabe-vs-poulpe", 2, seats=[
            {"type": "ai", "time_ms": 150}, {"type": "ai", "time_ms": 150}])
        human = create(on_a, "cup-the-crab", 2)
        token = tokens_of(human)[0]
        stream = Listener(f"{a.url}/v1/games/{human['id']}/events", auth(token))
        answers: dict[str, httpx.Response] = {}

        def think() -> None:
            answers["suggestion"] = httpx.post(
                f"{a.url}/v1/games/{human['id']}/suggest", json={"time_ms": 1500},
                headers=auth(token), timeout=30)
        thinker = threading.Thread(target=think)
        thinker.start()
        time.sleep(0.5)  # the suggestion is thinking, the AI game playing
        a.process.send_signal(signal.SIGTERM)
        thinker.join(30)
        # uvicorn exits by raising the signal again once shut down: -15 after a clean stop
        assert a.process.wait(40) in (0, -signal.SIGTERM)
        assert "Application shutdown complete" in a.output()
        stream.join(5)
        assert answers["suggestion"].status_code == 200  # in flight: finished
        assert stream.ended_by_server and stream.ids() == [0]
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            final = on_b.get(f"/v1/games/{robots_only['id']}").json()
            if final["status"] == "over":
                break
            time.sleep(0.3)
        assert final["status"] == "over"  # replica B played the game A had been playing
        entries = on_b.get(f"/v1/games/{robots_only['id']}/history").json()["entries"]
        assert final["version"] == len(entries) > 0


def test_a_stopping_replica_is_not_ready_and_says_to_retry_at_once_elsewhere(tmp_path):
    app = create_app(Settings(database_url=f"sqlite:///{tmp_path}/archive.sqlite3"),
                     MemoryStore(60))
    with TestClient(app) as client:
        assert client.get("/ready").status_code == 200
        app.dependencies["drain"].dependency().begin()  # what SIGTERM does
        refused = client.get("/ready")
    assert refused.status_code == 503 and refused.json()["type"] == "/problems/draining"
    assert refused.headers["Retry-After"] == "1"
