"""Turn clocks: a game whose player walks away still ends, on any replica, exactly once."""

import time
from collections.abc import Iterator

import httpx
import pytest

from tests.service.play import auth, create, tokens_of
from tests.service.servers import SHARED_REDIS, Server, server
from tests.service.sse import Listener

AI = {"type": "ai", "iterations": 30}


def wait_for(client: httpx.Client, game_id: str, check, seconds: float) -> dict:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        body = client.get(f"/v1/games/{game_id}").json()
        if check(body):
            return body
        time.sleep(0.2)
    raise AssertionError(f"gave up after {seconds} s: {body['status']} at {body['version']}")


def absent_seat_game(client: httpx.Client, policy: str) -> dict:
    """Cup the Crab for 3: seat 0 is a person who never moves, seats 1 and 2 are AI."""
    return create(client, "cup-the-crab", 3, seats=[{"type": "human"}, AI, AI],
                  turn_seconds=1, on_timeout=policy)


@pytest.fixture
def replicas() -> Iterator[tuple[Server, Server]]:
    env = {"REDIS_URL": SHARED_REDIS, "TURN_SECONDS_MIN": "1", "ACCESS_LOG": "0"}
    with server(env) as a, server(env) as b:
        yield a, b


def test_a_player_who_never_moves_is_played_by_the_ai_to_the_end_though_a_replica_dies(
        replicas):
    a, b = replicas
    with httpx.Client(base_url=a.url, timeout=30) as on_a, \
            httpx.Client(base_url=b.url, timeout=30) as on_b:
        game = absent_seat_game(on_a, "ai")
        wait_for(on_b, game["id"], lambda body: body["version"] >= 12, 60)
        a.stop()  # the creator's replica dies mid-game; B's clock carries on
        final = wait_for(on_b, game["id"], lambda body: body["status"] == "over", 120)
        entries = on_b.get(f"/v1/games/{game['id']}/history").json()["entries"]
    assert final["version"] == len(entries)
    absent = [e for e in entries if e["seat"] == 0]
    assert absent and all(e["kind"] == "timeout" and e["policy"] == "ai" for e in absent)
    assert {e["kind"] for e in entries if e["seat"] != 0} == {"move"}
    assert final["result"]["reason"] == "finished"


def test_under_forfeit_a_player_who_never_moves_ends_the_game_ranked_last(api, client):
    game = absent_seat_game(client, "forfeit")
    stream = Listener(f"{api.url}/v1/games/{game['id']}/events")
    final = wait_for(client, game["id"], lambda body: body["status"] == "over", 20)
    assert stream.join().ended_by_server  # the forfeit was the stream's last event
    assert stream.events[-1].data["entry"]["kind"] == "forfeit"
    assert final["result"]["reason"] == "forfeit" and final["result"]["forfeited"] == [0]
    ranks = {row["seat"]: row["rank"] for row in final["result"]["ranking"]}
    assert ranks[0] == 3 and final["to_move"] == [] and final["legal_moves"] == []
    assert all(seat["deadline"] is None for seat in final["seats"])
    last = client.get(f"/v1/games/{game['id']}/history").json()["entries"][-1]
    assert last == {"version": final["version"], "seat": 0, "kind": "forfeit",
                    "forfeited": [0], "at": last["at"]}
    token = tokens_of(game)[0]
    reserve = client.get(f"/v1/games/{game['id']}", headers=auth(token)).json()["view"]
    refused = client.post(f"/v1/games/{game['id']}/moves", headers=auth(token), json={
        "move": {"type": "select", "cards": (reserve["reserve"] or ["crab"] * 3)[:3]}})
    assert refused.status_code == 422 and "forfeited" in refused.json()["detail"]


def test_a_seat_whose_clock_ran_out_under_ai_comes_back_and_plays_on(api, client):
    game = create(client, "crabe-vs-poulpe", 2, turn_seconds=1, on_timeout="ai")
    tokens = tokens_of(game)
    timed_out = wait_for(client, game["id"], lambda body: body["version"] >= 1, 10)
    entry = client.get(f"/v1/games/{game['id']}/history").json()["entries"][0]
    assert entry["kind"] == "timeout"
    seat = timed_out["to_move"][0]
    own = client.get(f"/v1/games/{game['id']}", headers=auth(tokens[seat])).json()
    played = client.post(f"/v1/games/{game['id']}/moves", headers=auth(tokens[seat]), json={
        "move": own["legal_moves"][0], "expected_version": own["version"]})
    assert played.status_code == 200


def test_the_seats_to_move_show_their_deadline_and_the_others_none(api, client):
    before = time.time()
    game = create(client, "crabe-vs-poulpe", 2, turn_seconds=600)
    body = client.get(f"/v1/games/{game['id']}").json()
    assert body["clock"] == {"turn_seconds": 600, "on_timeout": "ai"}
    for seat in body["seats"]:
        if seat["seat"] in body["to_move"]:
            assert before + 600 <= seat["deadline"] <= time.time() + 600
        else:
            assert seat["deadline"] is None


def test_a_clock_shorter_than_the_servers_minimum_is_refused():
    with server({}) as running, httpx.Client(base_url=running.url) as client:
        response = client.post("/v1/games", json={"game": "cup-the-crab", "players": 2,
                                                  "turn_seconds": 4})
        assert response.status_code == 422
        assert "turn_seconds is 5 to 86,400" in response.json()["detail"]
        assert client.post("/v1/games", json={"game": "cup-the-crab", "players": 2,
                                              "turn_seconds": 5}).status_code == 201
