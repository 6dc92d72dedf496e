"""Games survive a restart of their Redis, which runs with AOF as compose.yaml runs it.

Clients play whole games through the service and retry a failed move with the same
Idempotency-Key until it gets an answer, so a move committed just before Redis went down
is answered from its idempotency record, never applied twice.  Every move a client saw
committed must be in the game afterwards: version == moves acknowledged == log length,
and the stored state loads in core and equals the replay of the log.
"""

import random
import threading
import time
import uuid

import httpx
import pytest
import redis

import core
from service.store import keys
from tests.clusters import PersistentRedis
from tests.service.play import auth, create, replay_in_core, tokens_of
from tests.service.servers import server, wait_until

GAMES = 6
GAME, PLAYERS = "cup-the-crab", 2   # 54 moves a game


class Player(threading.Thread):
    """Plays one game to its end (or until told to pause), retrying through outages."""

    def __init__(self, url: str, created: dict, seed: int, pause_after: int | None) -> None:
        super().__init__()
        self.url, self.created, self.rng = url, created, random.Random(seed)
        self.tokens, self.path = tokens_of(created), f"/v1/games/{created['id']}"
        self.pause_after = pause_after
        self.acknowledged = 0      # moves answered 200
        self.outage_answers = 0    # 503s and refused connections met while Redis was down
        self.error: BaseException | None = None

    def run(self) -> None:
        try:
            with httpx.Client(base_url=self.url, timeout=10) as http:
                while self.pause_after is None or self.acknowledged < self.pause_after:
                    if not self._one_move(http):
                        return
        except BaseException as error:  # reported by the test, not lost in the thread
            self.error = error

    def _retry(self, send) -> httpx.Response:
        while True:
            try:
                response = send()
            except httpx.TransportError:
                response = None
            if response is not None and response.status_code != 503:
                return response
            self.outage_answers += 1
            time.sleep(0.05)

    def _one_move(self, http: httpx.Client) -> bool:
        view = self._retry(lambda: http.get(self.path)).json()
        if view["status"] == "over":
            return False
        seat = self.rng.choice(view["to_move"])
        mine = self._retry(lambda: http.get(self.path, headers=auth(self.tokens[seat]))).json()
        body = {"move": self.rng.choice(mine["legal_moves"]), "expected_version": mine["version"]}
        headers = {**auth(self.tokens[seat]), "Idempotency-Key": uuid.uuid4().hex}
        response = self._retry(lambda: http.post(f"{self.path}/moves", json=body,
                                                 headers=headers))
        assert response.status_code in (200, 409), response.text   # 409: another seat moved
        self.acknowledged += response.status_code == 200
        return True


def play(url: str, games: list[dict], pause_after: int | None) -> list[Player]:
    players = [Player(url, created, seed, pause_after) for seed, created in enumerate(games)]
    for player in players:
        player.start()
    return players


def finish(players: list[Player]) -> None:
    for player in players:
        player.join(120)
        assert not player.is_alive() and player.error is None, player.error


def verify(url: str, redis_url: str, players: list[Player], over: bool) -> None:
    """Every acknowledged move is there once, in order; the stored state loads in core and,
    once over, is exactly the replay of the log from the seed."""
    store = redis.Redis.from_url(redis_url)
    with httpx.Client(base_url=url, timeout=10) as http:
        for player in players:
            game_id, token = player.created["id"], player.tokens[0]
            history = http.get(f"/v1/games/{game_id}/history", headers=auth(token)).json()
            assert "entries" in history, history
            entries = history["entries"]
            assert history["version"] == player.acknowledged == len(entries)
            assert [entry["version"] for entry in entries] == list(range(1, len(entries) + 1))
            state = core.from_bytes(store.hget(keys.game(game_id).state, "blob"))
            assert state.is_over == over
            if over:  # the log then shows every move, selections included
                moves = [(entry["seat"], entry["move"]) for entry in entries]
                replayed = replay_in_core(GAME, PLAYERS, player.created["seed_for_test"], moves)
                assert replayed.to_bytes() == state.to_bytes()
    store.close()


def new_games(url: str) -> list[dict]:
    with httpx.Client(base_url=url, timeout=10) as http:
        games = []
        for seed in range(GAMES):
            created = create(http, GAME, PLAYERS, seed=500 + seed)
            created["seed_for_test"] = 500 + seed
            games.append(created)
    return games


@pytest.fixture
def aof_service():
    with PersistentRedis() as persistent, server({"REDIS_URL": persistent.url}) as api:
        yield persistent, api


def test_a_clean_restart_of_redis_in_the_middle_of_games_loses_no_committed_move(aof_service):
    persistent, api = aof_service
    players = play(api.url, new_games(api.url), pause_after=None)
    wait_until(lambda: sum(p.acknowledged for p in players) >= GAMES * 54 // 2)  # half-way
    persistent.restart()                          # SIGTERM: Redis writes and fsyncs the AOF
    finish(players)
    assert sum(p.outage_answers for p in players) > 0   # the restart did hit the games
    verify(api.url, persistent.url, players, over=True)


def test_a_crash_of_redis_loses_nothing_older_than_a_second(aof_service):
    persistent, api = aof_service
    games = new_games(api.url)
    first_half = play(api.url, games, pause_after=20)
    finish(first_half)
    time.sleep(1.5)                               # appendfsync everysec has run since
    persistent.restart(crash=True)                # SIGKILL: no shutdown, no final fsync
    verify(api.url, persistent.url, first_half, over=False)
    rest = play(api.url, games, pause_after=None)
    finish(rest)
    for before, after in zip(first_half, rest):
        after.acknowledged += before.acknowledged
    verify(api.url, persistent.url, rest, over=True)
