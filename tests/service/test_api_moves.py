"""Moves under concurrency, retries with Idempotency-Key, and the history each viewer sees."""

import threading
import time

import httpx
import pytest

from tests.service.play import auth, create, play_to_end, tokens_of
from tests.service.servers import SHARED_REDIS, server


def race(url: str, path: str, body: dict, token: str, n: int, headers=None) -> list[int]:
    """n clients post the same body at the same instant; their status codes."""
    barrier, codes = threading.Barrier(n), []

    def go():
        with httpx.Client(base_url=url, timeout=30) as http:
            barrier.wait()
            codes.append(http.post(path, json=body, headers={**auth(token), **(headers or {})})
                         .status_code)
    threads = [threading.Thread(target=go) for _ in range(n)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return codes


@pytest.mark.parametrize("expected_version", [True, False])
def test_fifty_simultaneous_moves_on_one_game_apply_exactly_once(api, client, expected_version):
    created = create(client, "cup-the-crab", 3)
    path, token = f"/v1/games/{created['id']}", created["seats"][0]["token"]
    move = client.get(path, headers=auth(token)).json()["legal_moves"][0]
    body = {"move": move, **({"expected_version": 0} if expected_version else {})}
    codes = race(api.url, f"{path}/moves", body, token, 50)
    assert codes.count(200) == 1
    assert set(codes) <= ({200, 409} if expected_version else {200, 422})
    after = client.get(f"{path}/history", headers=auth(token)).json()
    assert after["version"] == 1 and len(after["entries"]) == 1


def test_two_workers_share_games_through_redis():
    with server({"REDIS_URL": SHARED_REDIS}, workers=2) as api, \
            httpx.Client(base_url=api.url, timeout=30) as http:
        created = create(http, "cup-the-crab", 2, seed=3)
        moves = play_to_end(http, created, seed=3)
        assert len(moves) == 54
        created = create(http, "cup-the-crab", 2)
        path, token = f"/v1/games/{created['id']}", created["seats"][1]["token"]
        move = http.get(path, headers=auth(token)).json()["legal_moves"][0]
        codes = race(api.url, f"{path}/moves", {"move": move, "expected_version": 0}, token, 30)
        assert codes.count(200) == 1 and set(codes) <= {200, 409}


def test_a_retried_request_with_the_same_idempotency_key_returns_the_original_response(client):
    created = create(client, "cup-the-crab", 2)
    path, tokens = f"/v1/games/{created['id']}", tokens_of(created)
    move = client.get(path, headers=auth(tokens[0])).json()["legal_moves"][3]
    key = {"Idempotency-Key": "retry-1"}
    first = client.post(f"{path}/moves", json={"move": move}, headers={**auth(tokens[0]), **key})
    again = client.post(f"{path}/moves", json={"move": move}, headers={**auth(tokens[0]), **key})
    assert first.status_code == again.status_code == 200
    assert again.json() == first.json() and first.json()["version"] == 1
    assert len(client.get(f"{path}/history").json()["entries"]) == 1
    other = client.post(f"{path}/moves", json={"move": move, "expected_version": 1},
                        headers={**auth(tokens[0]), **key})
    assert other.status_code == 409
    assert other.json()["type"] == "/problems/idempotency-key-reused"
    # keys belong to a seat: the other seat may use the same key for its own move
    move = client.get(path, headers=auth(tokens[1])).json()["legal_moves"][0]
    assert client.post(f"{path}/moves", json={"move": move},
                       headers={**auth(tokens[1]), **key}).json()["version"] == 2


def test_simultaneous_retries_with_one_idempotency_key_apply_once_and_agree(api, client):
    created = create(client, "cup-the-crab", 2)
    path, token = f"/v1/games/{created['id']}", created["seats"][0]["token"]
    move = client.get(path, headers=auth(token)).json()["legal_moves"][0]
    codes = race(api.url, f"{path}/moves", {"move": move}, token, 20,
                 headers={"Idempotency-Key": "same"})
    assert codes == [200] * 20
    assert client.get(path).json()["version"] == 1


def test_bad_idempotency_keys_are_400(client):
    created = create(client, "cup-the-crab", 2)
    path, token = f"/v1/games/{created['id']}", created["seats"][0]["token"]
    response = client.post(f"{path}/moves", json={"move": {}},
                           headers={**auth(token), "Idempotency-Key": "x" * 201})
    assert response.status_code == 400 and "Idempotency-Key" in response.json()["detail"]


def test_history_hides_other_seats_selections_until_the_game_is_over(client):
    created = create(client, "cup-the-crab", 2, seed=8)
    path, tokens = f"/v1/games/{created['id']}", tokens_of(created)
    move = client.get(path, headers=auth(tokens[0])).json()["legal_moves"][0]
    client.post(f"{path}/moves", json={"move": move}, headers=auth(tokens[0]))
    own = client.get(f"{path}/history", headers=auth(tokens[0])).json()["entries"]
    at = own[0]["at"]
    assert own == [{"version": 1, "seat": 0, "kind": "move", "move": move, "at": at}]
    hidden = {"version": 1, "seat": 0, "kind": "move", "move": {"type": "select", "cards": None},
              "at": at}
    assert client.get(f"{path}/history", headers=auth(tokens[1])).json()["entries"] == [hidden]
    assert client.get(f"{path}/history").json()["entries"] == [hidden]
    moves = play_to_end(client, created, seed=1)
    full = client.get(f"{path}/history").json()["entries"]
    assert full[0]["move"] == move and len(full) == 1 + len(moves)
    assert [(e["seat"], e["move"]) for e in full[1:]] == moves


def test_idle_games_expire_after_the_ttl():
    for env in ({"REDIS_URL": SHARED_REDIS}, {}):
        with server({**env, "GAME_TTL_SECONDS": "1"}) as api, \
                httpx.Client(base_url=api.url) as http:
            created = create(http, "cup-the-crab", 2)
            assert http.get(f"/v1/games/{created['id']}").status_code == 200
            time.sleep(2.2)
            assert http.get(f"/v1/games/{created['id']}").status_code == 404
