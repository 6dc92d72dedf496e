"""Open seats, joins, leaves, the waiting list and rematches, on both stores."""

import asyncio
import random
import time

import httpx

from tests.service.play import auth, create, play_to_end, tokens_of
from tests.service.servers import server
from tests.service.sse import Listener
from tests.service.test_api_errors import assert_problem, snapshot
from tests.service.test_api_leaks import assert_clean

OPEN = {"type": "open"}


def open_game(client, players=3, **extra):
    return create(client, "cup-the-crab", players,
                  seats=[{"type": "human", "name": "Ana"}] + [OPEN] * (players - 1), **extra)


def listed_ids(client, **params) -> list[str]:
    return [g["id"] for g in client.get("/v1/games", params={"status": "waiting", **params})
            .json()["games"]]


def test_a_game_with_open_seats_waits_and_refuses_moves_until_every_seat_is_taken(client):
    game = open_game(client)
    assert [s.get("token") is not None for s in game["seats"]] == [True, False, False]
    assert [s["type"] for s in game["seats"]] == ["human", "open", "open"]
    path, host = f"/v1/games/{game['id']}", game["seats"][0]["token"]
    body = client.get(path, headers=auth(host)).json()
    assert body["status"] == "waiting" and body["to_move"] == [] and body["legal_moves"] == []
    before = snapshot(client, game)
    move = {"type": "select", "cards": body["view"]["reserve"][:3]}
    assert_problem(client.post(f"{path}/moves", json={"move": move}, headers=auth(host)),
                   409, "game-waiting")
    assert_problem(client.post(f"{path}/suggest", json={"iterations": 10}, headers=auth(host)),
                   409, "hints-off")  # a game between people never gets the AI's hints
    assert snapshot(client, game) == before
    for name in ("Bo", "Cy"):
        assert client.post(f"{path}/join", json={"name": name}).status_code == 201
    started = client.get(path).json()
    assert started["status"] == "active" and started["to_move"] == [0, 1, 2]
    assert [(s["type"], s["name"]) for s in started["seats"]] == \
        [("human", "Ana"), ("human", "Bo"), ("human", "Cy")]


def test_a_join_takes_the_seat_asked_for_or_the_first_open_one_and_its_token_plays(client):
    game = open_game(client, players=4)
    path = f"/v1/games/{game['id']}"
    second = client.post(f"{path}/join", json={"name": "Di", "seat": 3}).json()
    first = client.post(f"{path}/join", json={}).json()
    assert (second["seat"], first["seat"]) == (3, 1)
    assert_problem(client.post(f"{path}/join", json={"seat": 3}), 409, "seat-taken")
    assert_problem(client.post(f"{path}/join", json={"seat": 4}), 409, "no-such-seat")
    assert_problem(client.post(f"{path}/join", json={"seat": 5}), 400, "invalid-request")
    assert_problem(client.post(f"{path}/join", json={"name": "  "}), 400, "invalid-request")
    last = client.post(f"{path}/join", json={"name": "Ed"}).json()
    assert_problem(client.post(f"{path}/join", json={"name": "Fay"}), 409, "game-full")
    for joined in (first, second, last):
        view = client.get(path, headers=auth(joined["token"])).json()
        assert view["you"] == joined["seat"] and view["legal_moves"]


def test_of_fifty_concurrent_joins_for_the_last_seat_exactly_one_gets_a_token(api, client):
    game = open_game(client, players=2)

    async def race():
        async with httpx.AsyncClient(base_url=api.url, timeout=30) as http:
            return await asyncio.gather(*[http.post(f"/v1/games/{game['id']}/join",
                                                    json={"name": f"p{i}"}) for i in range(50)])
    answers = asyncio.run(race())
    winners = [a for a in answers if a.status_code == 201]
    assert len(winners) == 1
    assert {a.status_code for a in answers} == {201, 409}
    assert {a.json()["type"] for a in answers if a.status_code == 409} == {"/problems/game-full"}
    body = client.get(f"/v1/games/{game['id']}").json()
    assert body["status"] == "active" and body["version"] == 1
    assert body["seats"][1]["name"].startswith("p")
    seat = client.get(f"/v1/games/{game['id']}", headers=auth(winners[0].json()["token"]))
    assert seat.json()["you"] == 1


def test_a_player_may_leave_a_waiting_game_and_the_seat_opens_again(client):
    game = open_game(client)
    path = f"/v1/games/{game['id']}"
    joined = client.post(f"{path}/join", json={"name": "Bo"}).json()
    left = client.post(f"{path}/leave", headers=auth(joined["token"]))
    assert left.status_code == 200 and left.json()["seats"][1]["type"] == "open"
    assert_problem(client.get(path, headers=auth(joined["token"])), 401, "unauthorized")
    assert_problem(client.post(f"{path}/leave"), 401, "unauthorized")
    for name in ("Cy", "Di"):
        client.post(f"{path}/join", json={"name": name})
    assert_problem(client.post(f"{path}/leave", headers=auth(game["seats"][0]["token"])),
                   409, "game-started")
    kinds = [e["kind"] for e in client.get(f"{path}/history").json()["entries"]]
    assert kinds == ["join", "leave", "join", "join"]


def test_the_waiting_list_shows_listed_games_with_free_seats_newest_first(client):
    listed = [open_game(client, players=2) for _ in range(3)]
    unlisted = open_game(client, players=2, listed=False)
    full = open_game(client, players=2)
    client.post(f"/v1/games/{full['id']}/join", json={})
    other_game = create(client, "crabe-vs-poulpe", 2, seats=[{"type": "human"}, OPEN])
    ids = listed_ids(client, game="cup-the-crab", limit=100)
    assert ids[:3] == [g["id"] for g in reversed(listed)]
    assert unlisted["id"] not in ids and full["id"] not in ids and other_game["id"] not in ids
    assert other_game["id"] in listed_ids(client, game="crabe-vs-poulpe")
    page = client.get("/v1/games", params={"game": "cup-the-crab", "limit": 1}).json()
    entry = page["games"][0]
    assert entry["id"] == listed[-1]["id"] and entry["players"] == 2
    assert [s["type"] for s in entry["seats"]] == ["human", "open"]
    assert_clean(page, {i: g["seats"][0]["token"] for i, g in enumerate(listed)}, None)


def test_the_waiting_list_pages_with_a_cursor_without_gaps_or_repeats(client):
    made = [open_game(client, players=2)["id"] for _ in range(5)]
    seen, cursor = [], None
    while True:
        params = {"game": "cup-the-crab", "limit": 2, **({"cursor": cursor} if cursor else {})}
        page = client.get("/v1/games", params=params).json()
        seen += [g["id"] for g in page["games"]]
        cursor = page["next_cursor"]
        if cursor is None:
            break
    assert len(seen) == len(set(seen))
    assert [i for i in seen if i in made] == list(reversed(made))
    # a cursor is a position (a creation time and an id): one of another form is refused,
    # one of this form is a position like any other, so it pages like any other
    assert_problem(client.get("/v1/games", params={"cursor": "not-ours"}), 400,
                   "invalid-request")
    assert client.get("/v1/games", params={"cursor": "1.5~made-up"}).json() == \
        {"games": [], "next_cursor": None}
    assert client.get("/v1/games", params={"limit": 0}).status_code == 400


def test_expired_games_drop_out_of_the_waiting_list():
    with server({"GAME_TTL_SECONDS": "1"}) as running, \
            httpx.Client(base_url=running.url, timeout=30) as client:
        game = open_game(client, players=2)
        assert game["id"] in listed_ids(client)
        time.sleep(1.5)
        assert game["id"] not in listed_ids(client)


def test_joins_and_leaves_are_pushed_on_the_event_stream(api, client):
    game = open_game(client, players=3)
    listener = Listener(f"{api.url}/v1/games/{game['id']}/events",
                        auth(game["seats"][0]["token"]),
                        until=lambda events: events[-1].data["version"] >= 3)
    path = f"/v1/games/{game['id']}"
    joined = client.post(f"{path}/join", json={"name": "Bo"}).json()
    client.post(f"{path}/leave", headers=auth(joined["token"]))
    client.post(f"{path}/join", json={"name": "Cy"})
    events = listener.join().events
    assert [(e.data["entry"]["kind"], e.data["entry"]["name"]) for e in events[1:]] == \
        [("join", "Bo"), ("leave", "Bo"), ("join", "Cy")]
    assert [e.data["game"]["seats"][1]["type"] for e in events] == \
        ["open", "human", "open", "human"]


def test_a_rematch_keeps_seats_names_and_tokens_and_rotates_the_first_player(client):
    game = create(client, "crabe-vs-poulpe", 2,
                  seats=[{"type": "human", "name": "Ana"}, {"type": "human", "name": "Bo"}])
    tokens = tokens_of(game)
    path = f"/v1/games/{game['id']}"
    assert_problem(client.post(f"{path}/rematch", headers=auth(tokens[0])), 409, "game-not-over")
    first_before = client.get(path).json()["view"]["first_player"]
    play_to_end(client, game, seed=random.randrange(1000))
    offered = client.post(f"{path}/rematch", headers=auth(tokens[1]))
    assert offered.status_code == 202  # the other person must accept it too
    asked = client.post(f"{path}/rematch", headers=auth(tokens[0]))
    assert asked.status_code == 201
    again = client.post(f"{path}/rematch", headers=auth(tokens[1]))
    assert again.status_code == 200 and again.json()["id"] == asked.json()["id"]
    new_path = f"/v1/games/{asked.json()['id']}"
    for seat, token in tokens.items():
        assert client.get(path, headers=auth(token)).json()["rematch"] == asked.json()["id"]
        view = client.get(new_path, headers=auth(token)).json()
        assert view["you"] == seat and view["status"] == "active"
    new = client.get(new_path).json()
    assert [s["name"] for s in new["seats"]] == ["Ana", "Bo"]
    assert new["view"]["first_player"] == (first_before + 1) % 2
    assert [seat["token"] for seat in asked.json()["seats"]] == [None, None]  # kept, not shown
    assert not any(token in asked.text for token in tokens.values())
