"""AI seats driven while clients read and move on two replicas at once.

A bot follows its game on one replica and moves on another; every read of a game whose AI
seat is to move may start that seat's turn (a replica that died mid-turn is healed so), so
two drivers of one game's AI seats meet routinely. Whatever their order, every request
gets a true answer (never a 5xx), and no AI game stops.
"""

import random
import threading
import time
from collections.abc import Iterator

import httpx
import pytest

from tests.service.play import auth, create, tokens_of
from tests.service.servers import SHARED_REDIS, Server, server

GAMES_PER_TABLE_SIZE = 8


@pytest.fixture(scope="module")
def replicas() -> Iterator[tuple[Server, Server]]:
    env = {"REDIS_URL": SHARED_REDIS, "ACCESS_LOG": "0"}
    with server(env) as first, server(env) as second:
        yield first, second


class Reader(threading.Thread):
    """Reads a game over and over on both replicas, as a bot does on each event."""

    def __init__(self, urls: list[str], game_id: str, token: str) -> None:
        super().__init__(daemon=True)
        self.urls, self.game_id, self.token = urls, game_id, token
        self.failures: list[str] = []
        self.done = threading.Event()

    def run(self) -> None:
        clients = [httpx.Client(base_url=url, timeout=30) for url in self.urls]
        try:
            while not self.done.is_set():
                for http in clients:
                    for headers in (auth(self.token), {}):
                        response = http.get(f"/v1/games/{self.game_id}", headers=headers)
                        if response.status_code >= 500:
                            self.failures.append(f"GET: {response.status_code} {response.text}")
        finally:
            for http in clients:
                http.close()


def play_against_ai_seats(urls: list[str], players: int, seed: int) -> list[str]:
    """One game of a human seat against AI seats of levels 1 and 2, its moves posted to
    either replica while a reader reads it on both; the 5xx answers seen."""
    rng = random.Random(seed)
    seats = [{"type": "human"}] + [{"type": "ai", "level": rng.choice((1, 2))}
                                   for _ in range(players - 1)]
    clients = [httpx.Client(base_url=url, timeout=60) for url in urls]
    try:
        created = create(clients[0], "cup-the-crab", players, seats=seats)
        game_id, token = created["id"], tokens_of(created)[0]
        reader = Reader(urls, game_id, token)
        reader.start()
        failures = reader.failures
        try:
            deadline = time.monotonic() + 120
            while time.monotonic() < deadline:
                view = rng.choice(clients).get(f"/v1/games/{game_id}", headers=auth(token)).json()
                if view["status"] == "over":
                    break
                if 0 not in view["to_move"]:
                    time.sleep(0.01)  # the AI seats are thinking
                    continue
                response = rng.choice(clients).post(
                    f"/v1/games/{game_id}/moves", headers=auth(token),
                    json={"move": rng.choice(view["legal_moves"])})
                if response.status_code >= 500:
                    failures.append(f"POST: {response.status_code} {response.text}")
            else:
                failures.append(f"game {game_id} did not end within 120 s")
        finally:
            reader.done.set()
            reader.join()
        return failures
    finally:
        for http in clients:
            http.close()


@pytest.mark.parametrize("players", [4, 5])
def test_ai_seats_driven_from_two_replicas_never_fail_a_request_nor_stop(replicas, players):
    urls = [replica.url for replica in replicas]
    failures = []
    for seed in range(GAMES_PER_TABLE_SIZE):
        failures += play_against_ai_seats(urls, players, seed)
    logs = "".join(replica.output() for replica in replicas)
    stopped = [line for line in logs.splitlines()
               if "stopped" in line or "unhandled" in line or "Traceback" in line]
    assert not failures, failures[:5]
    assert not stopped, "\n".join(stopped[:10])
