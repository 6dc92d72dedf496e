"""The AI over HTTP: suggestions for a seat, seats the server plays, all-AI games."""

import random
import threading
import time

import httpx
import pytest

import core
import core.ai
from tests.service.play import auth, create, play_to_end, tokens_of

AI_GAME = "cup-the-crab"


def test_a_suggestion_is_a_legal_move_with_statistics(client):
    game = create(client, AI_GAME, 2, seed=3)
    path, token = f"/v1/games/{game['id']}", game["seats"][0]["token"]
    legal = client.get(path, headers=auth(token)).json()["legal_moves"]
    response = client.post(f"{path}/suggest", json={"iterations": 400}, headers=auth(token))
    assert response.status_code == 200, response.text
    found = response.json()
    assert found["move"] in legal and found["you"] == 0 and found["version"] == 0
    assert found["iterations"] == 400 and found["algorithm"] == "ismcts"
    assert sum(s["visits"] for s in found["stats"]) == 400
    assert all(s["move"] in legal for s in found["stats"])
    assert client.post(f"{path}/moves", json={"move": found["move"]},
                       headers=auth(token)).status_code == 200


@pytest.mark.parametrize("budget, detail", [
    ({"iterations": 10 ** 9}, "iterations is capped at 20,000"),
    ({"time_ms": 600_000}, "time_ms is capped at 2,000"),
    ({}, "exactly one of level, iterations and time_ms"),
    ({"iterations": 10, "time_ms": 10}, "exactly one of level, iterations and time_ms"),
    ({"level": 2, "iterations": 10}, "exactly one of level, iterations and time_ms"),
    ({"level": 6}, "level must be an integer from 1 to 5"),
])
def test_suggestion_budgets_beyond_the_servers_limits_are_refused(client, budget, detail):
    game = create(client, AI_GAME, 2)
    response = client.post(f"/v1/games/{game['id']}/suggest", json=budget,
                           headers=auth(game["seats"][0]["token"]))
    assert response.status_code == 422 and detail in response.json()["detail"]
    assert response.json()["type"] == "/problems/budget-refused"


@pytest.mark.parametrize("level", sorted(core.ai.LEVELS))
def test_a_level_searches_with_the_budget_core_defines_for_it(client, level):
    game = create(client, AI_GAME, 2, seed=3)
    path, token = f"/v1/games/{game['id']}", game["seats"][0]["token"]
    response = client.post(f"{path}/suggest", json={"level": level}, headers=auth(token))
    assert response.status_code == 200, response.text
    found, budget = response.json(), core.ai.LEVELS[level]
    assert found["algorithm"] == budget["algorithm"]
    assert found["iterations"] == budget["iterations"]
    assert sum(s["visits"] for s in found["stats"]) == budget["iterations"]


def test_an_ai_seat_may_be_given_a_level(client):
    game = create(client, AI_GAME, 2, seats=[{"type": "human"}, {"type": "ai", "level": 2}])
    path, token = f"/v1/games/{game['id']}", game["seats"][0]["token"]
    view = client.get(path, headers=auth(token)).json()
    client.post(f"{path}/moves", json={"move": view["legal_moves"][0]}, headers=auth(token))
    deadline = time.monotonic() + 30
    while client.get(path).json()["to_move"] != [0]:   # the AI seat selects in the background
        assert time.monotonic() < deadline, "the level-2 seat did not play"
        time.sleep(0.05)
    seats = [e["seat"] for e in client.get(f"{path}/history").json()["entries"]]
    assert seats.count(0) == 1 and seats.count(1) >= 1


def test_suggestions_need_a_seat_that_has_something_to_decide(client):
    game = create(client, AI_GAME, 2)
    path, tokens = f"/v1/games/{game['id']}", tokens_of(game)
    assert client.post(f"{path}/suggest", json={"iterations": 10}).status_code == 401
    move = client.get(path, headers=auth(tokens[0])).json()["legal_moves"][0]
    client.post(f"{path}/moves", json={"move": move}, headers=auth(tokens[0]))
    response = client.post(f"{path}/suggest", json={"iterations": 10}, headers=auth(tokens[0]))
    assert response.status_code == 409 and response.json()["type"] == "/problems/not-your-turn"


def test_suggestions_are_off_in_a_game_between_people_and_its_rematch(client):
    game = create(client, "crabe-vs-poulpe", 2, seats=[{"type": "human"}, {"type": "open"}])
    path, host = f"/v1/games/{game['id']}", game["seats"][0]["token"]
    guest = client.post(f"{path}/join", json={"name": "Bo"}).json()["token"]
    body = client.get(path, headers=auth(host)).json()
    assert body["status"] == "active" and body["hints"] is False
    seat = body["to_move"][0]
    token = (host, guest)[seat]
    before = client.get(path).json()
    response = client.post(f"{path}/suggest", json={"level": 1}, headers=auth(token))
    assert response.status_code == 409 and response.json()["type"] == "/problems/hints-off"
    assert "between people" in response.json()["detail"]
    assert client.get(path).json() == before
    play_to_end(client, {"id": game["id"], "seats": [{"seat": 0, "token": host},
                                                     {"seat": 1, "token": guest}]}, seed=2)
    client.post(f"{path}/rematch", headers=auth(host))  # offered: the guest accepts it
    rematch = client.post(f"{path}/rematch", headers=auth(guest)).json()["id"]
    assert client.get(f"/v1/games/{rematch}").json()["hints"] is False
    against_ai = create(client, "crabe-vs-poulpe", 2, seats=[{"type": "human"}, {"type": "ai", "level": 1}])
    assert client.get(f"/v1/games/{against_ai['id']}").json()["hints"] is True


@pytest.mark.parametrize("game", core.GAMES)
def test_every_game_gets_suggestions_and_ai_seats(client, game):
    created = create(client, game, 2, seed=5)
    path, tokens = f"/v1/games/{created['id']}", tokens_of(created)
    seat = client.get(path).json()["to_move"][0]
    legal = client.get(path, headers=auth(tokens[seat])).json()["legal_moves"]
    found = client.post(f"{path}/suggest", json={"iterations": 200}, headers=auth(tokens[seat]))
    assert found.status_code == 200 and found.json()["move"] in legal
    against = create(client, game, 2, seats=[{"type": "human"}, {"type": "ai", "iterations": 50}])
    view = client.get(f"/v1/games/{against['id']}",
                      headers=auth(against["seats"][0]["token"])).json()
    assert view["to_move"] == [0] and view["legal_moves"]


def test_the_search_runs_off_the_event_loop(api, client):
    game = create(client, AI_GAME, 2)
    path, token = f"/v1/games/{game['id']}", game["seats"][0]["token"]
    thinking = threading.Thread(target=lambda: httpx.post(
        api.url + f"{path}/suggest", json={"time_ms": 1500}, headers=auth(token), timeout=30))
    thinking.start()
    time.sleep(0.3)
    start = time.perf_counter()
    assert client.get("/health").status_code == 200
    assert client.get(path).status_code == 200
    assert time.perf_counter() - start < 0.5
    thinking.join()


def test_ai_seats_play_themselves_until_a_human_must_act(client):
    seats = [{"type": "human"}, {"type": "ai", "iterations": 200}, {"type": "ai", "time_ms": 20}]
    game = create(client, AI_GAME, 3, seats=seats)
    assert [s["type"] for s in game["seats"]] == ["human", "ai", "ai"]
    assert game["seats"][1]["token"] is None and game["seats"][0]["token"]
    path, token, rng = f"/v1/games/{game['id']}", game["seats"][0]["token"], random.Random(1)
    while True:
        view = client.get(path, headers=auth(token)).json()
        if view["status"] == "over":
            break
        assert view["to_move"] == [0] and view["legal_moves"], "the AI seats stalled"
        assert client.post(f"{path}/moves", json={"move": rng.choice(view["legal_moves"])},
                           headers=auth(token)).status_code == 200
    history = client.get(f"{path}/history").json()["entries"]
    assert {e["seat"] for e in history} == {0, 1, 2} and len(history) == 3 * 21 + 3 * 6
    assert view["result"]["winners"]


def test_an_all_ai_game_plays_to_the_end_in_the_background(client):
    seats = [{"type": "ai", "iterations": 50}] * 2
    game = create(client, AI_GAME, 2, seats=seats)
    assert all(s["token"] is None for s in game["seats"])
    deadline = time.monotonic() + 60
    while client.get(f"/v1/games/{game['id']}").json()["status"] != "over":
        assert time.monotonic() < deadline, "the all-AI game did not finish"
        time.sleep(0.2)
    assert client.get(f"/v1/games/{game['id']}").json()["result"] is not None


@pytest.mark.parametrize("seats, detail", [
    ([{"type": "human"}], "one entry per player: 2 expected, got 1"),
    ([{"type": "human"}, {"type": "ai"}], "exactly one of level, iterations and time_ms"),
    ([{"type": "human"}, {"type": "ai", "iterations": 10 ** 7}], "capped at 20,000"),
    ([{"type": "human", "level": 2}, {"type": "ai", "level": 2}], "seats[0] is not an AI seat (human)"),
    ([{"type": "open", "iterations": 5}, {"type": "ai", "level": 2}], "seats[0] is not an AI seat (open)"),
])
def test_bad_seat_lists_are_refused(client, seats, detail):
    response = client.post("/v1/games", json={"game": AI_GAME, "players": 2, "seats": seats})
    assert response.status_code == 422 and detail in response.json()["detail"]


def test_a_revealed_hand_is_logged_for_the_seat_that_saw_it_and_its_ai(client):
    """Crabe vs Poulpe: a Pincer or Mimic shows the chooser the opponent's hand, once; the
    history gives it back to that seat only (its AI reads it there), to all once over."""
    for seed in range(40):
        game = create(client, "crabe-vs-poulpe", 2, seed=seed, options={"mode": "asymmetrical"})
        path, tokens, rng = f"/v1/games/{game['id']}", tokens_of(game), random.Random(seed)
        while True:
            spectator = client.get(path).json()
            if spectator["status"] == "over":
                break
            seat = spectator["to_move"][0]
            view = client.get(path, headers=auth(tokens[seat])).json()
            shown = view["view"]["revealed"]
            client.post(f"{path}/moves", json={"move": rng.choice(view["legal_moves"])},
                        headers=auth(tokens[seat]))
            if shown is not None:
                own = client.get(f"{path}/history", headers=auth(tokens[seat])).json()
                other = client.get(f"{path}/history", headers=auth(tokens[1 - seat])).json()
                public = client.get(f"{path}/history").json()
                assert own["entries"][-1]["revealed"] == shown
                assert "revealed" not in other["entries"][-1]
                assert "revealed" not in public["entries"][-1]
                return
    pytest.fail("no Pincer or Mimic was played in 40 seeded games")


def test_an_ai_game_whose_worker_died_resumes_when_it_is_read_again():
    from tests.service.servers import SHARED_REDIS, server
    seats = [{"type": "ai", "iterations": 20_000}] * 2
    with server({"REDIS_URL": SHARED_REDIS}) as first, httpx.Client(base_url=first.url) as http:
        game = create(http, AI_GAME, 2, seats=seats)
        time.sleep(0.3)
        first.process.kill()  # the worker dies with the game half played
        first.process.wait()
    with server({"REDIS_URL": SHARED_REDIS}) as second, \
            httpx.Client(base_url=second.url, timeout=30) as http:
        path = f"/v1/games/{game['id']}"
        stalled = http.get(path).json()
        assert stalled["status"] == "active"
        deadline = time.monotonic() + 120
        while http.get(path).json()["status"] != "over":
            assert time.monotonic() < deadline, "the game did not resume"
            time.sleep(0.3)
        assert http.get(path).json()["version"] > stalled["version"]
