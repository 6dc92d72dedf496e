"""Webhook bots over the API (docs/arena.md, "Webhook bots"): registered in one request,
their secret shown once and rotated; the example bot (examples/webhook_bot.py, a real
process) plays whole series against the AI; a bot that answers wrong, or signs are
checked with the wrong secret, falls to the clock's policy and is counted in the series'
latency table and the metrics. Run on both stores, the server allowing loopback."""

import json
import os
import sys
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families

from service.arena.bodies import SeriesBody
from service.games.bodies import HistoryBody
from service.players.bodies import PlayerCreated
from service.webhooks import signing
from service.webhooks.bodies import WebhookBody
from service.webhooks.decision import WebhookDecision
from tests.ports import free_port
from tests.processes import Process
from tests.service.conftest import STORES
from tests.service.play import auth
from tests.service.servers import ROOT, Server, server, wait_until
from tests.service.test_api_series import finished, games_of
from tests.service.test_bodies_exact import assert_exact

ALLOW_LOOPBACK = {"WEBHOOK_NETWORKS": "127.0.0.1/32", "TURN_SECONDS_MIN": "1",
                  "WEBHOOK_TIMEOUT_MS": "2000"}
CVP = {"game": "crabe-vs-poulpe", "players": 2}


@pytest.fixture(scope="module", params=sorted(STORES))
def hooked(request) -> Iterator[Server]:
    with server({**STORES[request.param], **ALLOW_LOOPBACK}) as running:
        yield running


@pytest.fixture
def client(hooked: Server) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=hooked.url, timeout=30) as http:
        yield http


def register(client: httpx.Client, url: str, kind: str = "bot") -> httpx.Response:
    return client.post("/v1/players", json={"name": "Hook", "kind": kind,
                                            "webhook": {"url": url}})


class Answering:
    """A stdlib HTTP server on loopback, in a thread, answering every POST with body."""

    def __init__(self, body: bytes) -> None:
        received = self.received = []

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                received.append((dict(self.headers),
                                 self.rfile.read(int(self.headers["Content-Length"]))))
                self.send_response(200)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *_: object) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_port}/"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


def example_bot(*arguments: str, env: dict[str, str] | None = None) -> Process:
    return Process("examples/webhook_bot.py", [
        sys.executable, str(ROOT / "examples" / "webhook_bot.py"), *arguments],
        env={**os.environ, **(env or {})}, cwd=ROOT)


def series_against_ai(client: httpx.Client, bot: dict) -> dict:
    response = client.post("/v1/series", json={**CVP, "contestants": [bot["id"], "ai-1"],
                                               "deals": 1, "turn_seconds": 5},
                           headers=auth(bot["key"]))
    assert response.status_code == 201, response.text
    return finished(client, response.json()["id"])


def bot_entries(client: httpx.Client, series: dict) -> list[dict]:
    """Every log entry of the bot's seats in the series' games (contestant 0's)."""
    entries = []
    for game in games_of(client, series):
        seat = next(s["seat"] for s in game["seats"] if s["contestant"] == 0)
        replay = client.get(f"/v1/games/{game['game_id']}/history").json()
        assert_exact(replay, HistoryBody)  # a failure's `webhook` in the document's schema
        entries += [e for e in replay["entries"] if e.get("seat") == seat and "move" in e]
    return entries


def test_a_bot_registers_with_its_webhook_in_one_request_and_sees_its_secret_once(client):
    made = register(client, "http://127.0.0.1:9/decide")
    assert made.status_code == 201, made.text
    bot = made.json()
    assert_exact(bot, PlayerCreated)
    first = bot["webhook"]["secret"]
    assert first.startswith("crab_whsec_") and bot["webhook"]["url"] == "http://127.0.0.1:9/decide"
    shown = client.get("/v1/players/me/webhook", headers=auth(bot["key"]))
    assert shown.status_code == 200 and shown.json()["secret"] is None
    assert_exact(shown.json(), WebhookBody)
    assert first not in client.get(f"/v1/players/{bot['id']}").text

    rotated = client.post("/v1/players/me/webhook/secret", json={"previous_valid_seconds": 60},
                          headers=auth(bot["key"])).json()
    assert rotated["secret"].startswith("crab_whsec_") and rotated["secret"] != first
    assert rotated["previous_secret_until"] is not None
    moved = client.put("/v1/players/me/webhook", json={"url": "http://127.0.0.1:10/"},
                       headers=auth(bot["key"])).json()
    assert moved["url"] == "http://127.0.0.1:10/" and moved["secret"] is None  # kept, unshown

    assert client.delete("/v1/players/me/webhook", headers=auth(bot["key"])).status_code == 204
    gone = client.get("/v1/players/me/webhook", headers=auth(bot["key"]))
    assert gone.status_code == 404 and gone.json()["type"].endswith("webhook-not-found")
    again = client.put("/v1/players/me/webhook", json={"url": "http://127.0.0.1:11/"},
                       headers=auth(bot["key"])).json()
    assert again["secret"].startswith("crab_whsec_")  # a new webhook: a new secret, shown


@pytest.mark.parametrize("url", ["http://10.0.0.1/", "http://169.254.169.254/latest/",
                                 "http://[::1]:8000/", "http://127.0.0.1.nip.invalid/",
                                 "http://user:pw@127.0.0.1/"])
def test_a_webhook_the_server_does_not_call_is_refused_with_the_reason(client, url):
    refused = register(client, url)
    assert refused.status_code in (400, 422), refused.text
    if refused.status_code == 422:
        assert refused.json()["type"].endswith("webhook-refused")


def test_a_webhook_is_a_bot_s_only_and_a_refused_url_changes_nothing(client):
    person = register(client, "http://127.0.0.1:9/", kind="human")
    assert person.status_code == 422 and "bot" in person.json()["detail"]
    bot = register(client, "http://127.0.0.1:9/").json()
    refused = client.put("/v1/players/me/webhook", json={"url": "http://10.1.1.1/"},
                         headers=auth(bot["key"]))
    assert refused.status_code == 422 and refused.json()["type"].endswith("webhook-refused")
    kept = client.get("/v1/players/me/webhook", headers=auth(bot["key"])).json()
    assert kept["url"] == "http://127.0.0.1:9/"


def test_the_example_webhook_bot_plays_whole_games_and_its_moves_are_timed(hooked, client):
    port = free_port()
    with example_bot("--server", hooked.url, "--port", str(port)) as process:
        wait_until(lambda: "key" in process.output(), what="the example bot registered")
        bot = json.loads(next(line for line in process.output().splitlines()
                              if line.startswith("{")))
        series = series_against_ai(client, bot)
    assert_exact(series, SeriesBody)
    assert series["games_done"] == 2
    latency = series["contestants"][0]["latency"]
    assert latency["moves"] > 0 and latency["timeouts"] == 0, latency
    entries = bot_entries(client, series)
    assert entries and all(entry["kind"] == "move" for entry in entries)


def test_a_bot_whose_signature_check_fails_falls_to_the_clock_and_is_counted(hooked, client):
    port = free_port()
    bot = register(client, f"http://127.0.0.1:{port}/").json()
    with example_bot("--port", str(port),
                     env={"CRAB_WEBHOOK_SECRET": "crab_whsec_not_the_one"}) as process:
        wait_until(lambda: httpx.post(f"http://127.0.0.1:{port}/", content=b"{}").status_code
                   == 401, what="the example bot refusing an unsigned call")
        series = series_against_ai(client, bot)
        assert process.alive()
    latency = series["contestants"][0]["latency"]
    assert latency["moves"] == 0 and latency["timeouts"] > 0, latency
    entries = bot_entries(client, series)
    assert entries and all(e["kind"] == "timeout" and e["webhook"] == "status" for e in entries)
    wait_until(lambda: failed_calls(hooked) > 0,
               what="the replica's metrics counting the failed calls")


def failed_calls(replica: Server, outcome: str = "status") -> float:
    """crab_webhook_decisions_total{outcome} of the replica's metrics, as Prometheus reads it."""
    return sum(sample.value for family in text_string_to_metric_families(replica.metrics())
               for sample in family.samples
               if sample.name == "crab_webhook_decisions_total"
               and sample.labels == {"outcome": outcome})


@pytest.mark.parametrize("answer,failure", [(b'{"move": {"type": "fly"}}', "illegal"),
                                            (b'{"moves": []}', "malformed"),
                                            (b"not json", "malformed")])
def test_a_wrong_answer_falls_to_the_clock_s_policy(hooked, client, answer, failure):
    answering = Answering(answer)
    try:
        bot = register(client, answering.url).json()
        series = series_against_ai(client, bot)
    finally:
        answering.close()
    assert series["contestants"][0]["latency"]["timeouts"] > 0 and series["contestants"][0]["latency"]["moves"] == 0
    assert {e["webhook"] for e in bot_entries(client, series)} == {failure}
    for headers, body in answering.received:  # what was sent: the document's shape, signed
        assert_exact(json.loads(body), WebhookDecision)
        assert signing.verify(bot["webhook"]["secret"], headers["Crab-Signature"], body,
                              time.time())
        assert json.loads(body)["game"]["you"] == json.loads(body)["seat"]
