"""Challenges and a player's event stream: a game offered to players or AI levels,
accepted by each, declined, cancelled or expired, and every party told on its one stream,
which resumes after the last event it saw. Run on both deployments."""

import time

import httpx

from service.arena.bodies import ChallengeBody
from tests.service.play import auth
from tests.service.sse import Listener
from tests.service.test_api_players import new_player
from tests.service.test_bodies_exact import assert_exact

CUP = {"game": "cup-the-crab"}


def offer(client: httpx.Client, player: dict, opponents: list[str], **extra) -> dict:
    response = client.post("/v1/challenges", json={**CUP, "opponents": opponents, **extra},
                           headers=auth(player["key"]))
    assert response.status_code == 201, response.text
    assert_exact(response.json(), ChallengeBody)
    return response.json()


def answer(client: httpx.Client, player: dict, challenge: dict, verb: str) -> httpx.Response:
    return client.post(f"/v1/challenges/{challenge['id']}/{verb}", headers=auth(player["key"]))


def stream(api, player: dict, until=None, last_id: str | None = None) -> Listener:
    headers = auth(player["key"])
    if last_id is not None:
        headers["Last-Event-ID"] = last_id
    return Listener(f"{api.url}/v1/players/me/events", headers=headers, until=until)


def events_of(listener: Listener, kind: str, seconds: float = 10) -> list:
    deadline = time.monotonic() + seconds
    while not (found := [e for e in listener.events if e.event == kind]):
        assert time.monotonic() < deadline, f"no {kind} event: {listener.events}"
        time.sleep(0.02)
    return found


def test_a_challenge_of_an_ai_level_starts_its_game_at_once_with_the_seat_token(client, api):
    bot = new_player(client, "Bot", "bot")
    challenge = offer(client, bot, ["ai-2"], seat=1, turn_seconds=30)
    assert challenge["status"] == "accepted" and challenge["seat"] == 1
    view = client.get(f"/v1/games/{challenge['game_id']}", headers=auth(challenge["token"])).json()
    assert view["you"] == 1 and view["seats"][1]["player"] == bot["id"]
    assert view["seats"][0]["player"] == "ai-2" and view["clock"]["turn_seconds"] == 30
    listener = stream(api, bot)
    [started] = events_of(listener, "game_started")
    listener.stop()
    assert started.data["game_id"] == challenge["game_id"] and started.data["seat"] == 1
    assert started.data["token"] == challenge["token"]
    assert started.data["links"]["events"] == f"/v1/games/{challenge['game_id']}/events"


def test_a_challenged_player_is_told_and_the_game_starts_when_it_accepts(client, api):
    ann, bob = new_player(client, "Ann", "bot"), new_player(client, "Bob", "bot")
    bobs_stream = stream(api, bob)
    challenge = offer(client, ann, [bob["id"]], game="crabe-vs-poulpe")
    assert challenge["status"] == "pending" and challenge["token"] is None
    [told] = events_of(bobs_stream, "challenge")
    assert told.data["challenge"]["id"] == challenge["id"]
    assert told.data["challenge"]["token"] is None
    accepted = answer(client, bob, challenge, "accept")
    assert accepted.status_code == 200, accepted.text
    body = accepted.json()
    assert body["status"] == "accepted" and body["token"] and body["game_id"]
    [started] = events_of(bobs_stream, "game_started")
    bobs_stream.stop()
    assert started.data["token"] == body["token"]
    anns = client.get(f"/v1/challenges/{challenge['id']}", headers=auth(ann["key"])).json()
    assert anns["token"] and anns["token"] != body["token"] and anns["seat"] != body["seat"]
    game = client.get(f"/v1/games/{body['game_id']}").json()
    assert {seat["player"] for seat in game["seats"]} == {ann["id"], bob["id"]}
    assert game["rated"] is True and game["hints"] is False


def test_accepting_twice_is_answered_alike_and_makes_one_game(client):
    ann, bob = new_player(client, "Ann", "bot"), new_player(client, "Bob", "bot")
    challenge = offer(client, ann, [bob["id"]])
    first, second = answer(client, bob, challenge, "accept"), answer(client, bob, challenge, "accept")
    assert first.status_code == second.status_code == 200
    assert first.json()["game_id"] == second.json()["game_id"]


def test_a_declined_challenge_tells_the_challenger_and_can_no_longer_be_accepted(client, api):
    ann, bob = new_player(client, "Ann", "bot"), new_player(client, "Bob", "bot")
    challenge = offer(client, ann, [bob["id"]])
    anns_stream = stream(api, ann)
    declined = answer(client, bob, challenge, "decline")
    assert declined.status_code == 200 and declined.json()["status"] == "declined"
    [told] = events_of(anns_stream, "challenge_declined")
    anns_stream.stop()
    assert told.data["by"] == bob["id"]
    late = answer(client, bob, challenge, "accept")
    assert late.status_code == 409 and late.json()["type"].endswith("challenge-closed")


def test_the_challenger_cancels_and_the_challenged_is_told(client, api):
    ann, bob = new_player(client, "Ann", "bot"), new_player(client, "Bob", "bot")
    challenge = offer(client, ann, [bob["id"]])
    bobs_stream = stream(api, bob)
    by_bob = client.delete(f"/v1/challenges/{challenge['id']}", headers=auth(bob["key"]))
    assert by_bob.status_code == 409, by_bob.text
    cancelled = client.delete(f"/v1/challenges/{challenge['id']}", headers=auth(ann["key"]))
    assert cancelled.status_code == 200 and cancelled.json()["status"] == "cancelled"
    events_of(bobs_stream, "challenge_cancelled")
    bobs_stream.stop()


def test_an_unanswered_challenge_expires_and_both_parties_are_told(client, api):
    ann, bob = new_player(client, "Ann", "bot"), new_player(client, "Bob", "bot")
    challenge = offer(client, ann, [bob["id"]], expires_in=10)
    anns_stream = stream(api, ann)
    events_of(anns_stream, "challenge_expired", seconds=20)
    anns_stream.stop()
    found = client.get(f"/v1/challenges/{challenge['id']}", headers=auth(bob["key"])).json()
    assert found["status"] == "expired"
    assert answer(client, bob, challenge, "accept").status_code == 409


def test_a_three_player_challenge_starts_once_every_challenged_player_accepts(client):
    ann, bob, cid = (new_player(client, name, "bot") for name in ("Ann", "Bob", "Cid"))
    challenge = offer(client, ann, [bob["id"], cid["id"], "ai-1"])
    assert challenge["players"] == 4
    assert answer(client, bob, challenge, "accept").json()["status"] == "pending"
    started = answer(client, cid, challenge, "accept").json()
    assert started["status"] == "accepted"
    game = client.get(f"/v1/games/{started['game_id']}").json()
    assert sorted(seat["player"] for seat in game["seats"]) == sorted(
        [ann["id"], bob["id"], cid["id"], "ai-1"])


def test_a_challenge_is_shown_to_its_parties_only(client):
    ann, bob, eve = (new_player(client, name, "bot") for name in ("Ann", "Bob", "Eve"))
    challenge = offer(client, ann, [bob["id"]])
    for outsider in (eve,):
        for call in (lambda: client.get(f"/v1/challenges/{challenge['id']}",
                                        headers=auth(outsider["key"])),
                     lambda: answer(client, outsider, challenge, "accept")):
            response = call()
            assert response.status_code == 404 and "challenge-not-found" in response.json()["type"]
    assert client.get(f"/v1/challenges/{challenge['id']}").status_code == 401


def test_bad_challenges_are_refused_with_a_precise_message(client):
    ann = new_player(client, "Ann", "bot")
    cases = [({"opponents": ["p_nobodyhasthisid0"]}, 404, "no player has the id"),
             ({"opponents": [ann["id"]]}, 422, "at most once"),
             ({"opponents": ["ai-9"]}, 400, "opponents"),
             ({"opponents": ["ai-1"], "seat": 3}, 422, "seat is 0 to 1"),
             ({"opponents": ["ai-1"], "game": "chess"}, 400, "game"),
             ({"opponents": ["ai-1", "ai-2"], "game": "crabe-vs-poulpe"}, 422, "player")]
    for body, status, words in cases:
        response = client.post("/v1/challenges", json={**CUP, **body}, headers=auth(ann["key"]))
        assert response.status_code == status, (body, response.text)
        assert words in response.json()["detail"], (body, response.json())


def test_a_players_stream_resumes_after_the_last_event_it_saw(client, api):
    bot = new_player(client, "Bot", "bot")
    games = [offer(client, bot, ["ai-1"])["game_id"] for _ in range(3)]
    first = stream(api, bot, until=lambda events: len(events) >= 3)
    first.join()
    assert [event.data["game_id"] for event in first.events] == games
    resumed = stream(api, bot, last_id=first.events[0].id,
                     until=lambda events: len(events) >= 2)
    resumed.join()
    assert [event.data["game_id"] for event in resumed.events] == games[1:]
    bad = client.get("/v1/players/me/events", headers={**auth(bot["key"]),
                                                        "Last-Event-ID": "not-an-id"})
    assert bad.status_code == 400 and "Last-Event-ID" in bad.json()["detail"]
    assert client.get("/v1/players/me/events").status_code == 401


def test_a_finished_challenge_game_is_told_to_its_players_with_their_rank(client, api):
    bot = new_player(client, "Bot", "bot")
    challenge = offer(client, bot, ["ai-1"], game="crabe-vs-poulpe")
    game_id, token = challenge["game_id"], challenge["token"]
    while (view := client.get(f"/v1/games/{game_id}", headers=auth(token)).json())["status"] != "over":
        if view["legal_moves"] and view["you"] in view["to_move"]:
            client.post(f"/v1/games/{game_id}/moves", headers=auth(token),
                        json={"move": view["legal_moves"][0], "expected_version": view["version"]})
        else:
            time.sleep(0.02)
    listener = stream(api, bot)
    [ended] = events_of(listener, "game_ended", seconds=20)
    listener.stop()
    ranking = {place["seat"]: place["rank"] for place in view["result"]["ranking"]}
    assert ended.data["game_id"] == game_id and ended.data["rank"] == ranking[challenge["seat"]]
    assert ended.data["replay"] == f"/v1/games/{game_id}/replay"
