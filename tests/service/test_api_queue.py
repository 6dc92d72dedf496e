"""Matchmaking: tickets of close ratings seated together in one rated game, across
replicas; nobody in two games, a cancelled ticket never seated, AI seats after the fill
delay. Run on both deployments (the embedded store keeps the pairing script's rule)."""

import threading
import time

import httpx
import pytest

from service.matchmaking.bodies import TicketBody
from tests.service.play import auth
from tests.service.servers import SHARED_REDIS, server
from tests.service.sse import Listener
from tests.service.test_api_players import new_player
from tests.service.test_bodies_exact import assert_exact

CVP = {"game": "crabe-vs-poulpe", "players": 2}


def join(client: httpx.Client, player: dict, **extra) -> dict:
    response = client.post("/v1/queue", json={**CVP, **extra}, headers=auth(player["key"]))
    assert response.status_code == 201, response.text
    assert_exact(response.json(), TicketBody)
    return response.json()


def ticket(client: httpx.Client, player: dict, ticket_id: str) -> dict:
    response = client.get(f"/v1/queue/{ticket_id}", headers=auth(player["key"]))
    assert response.status_code == 200, response.text
    return response.json()


def seated(client: httpx.Client, player: dict, ticket_id: str, seconds: float = 10) -> dict:
    deadline = time.monotonic() + seconds
    while (found := ticket(client, player, ticket_id))["status"] != "seated":
        assert found["status"] in ("waiting", "seating"), found
        assert time.monotonic() < deadline, f"never seated: {found}"
        time.sleep(0.05)
    return found


def test_two_players_in_the_queue_are_seated_in_one_rated_game_each_with_its_seat(client):
    ann, bob = new_player(client, "Ann"), new_player(client, "Bob")
    first = join(client, ann)
    assert first["status"] == "waiting" and first["game_id"] is None and first["token"] is None
    second = join(client, bob)
    tickets = [seated(client, ann, first["id"]), seated(client, bob, second["id"])]
    assert tickets[0]["game_id"] == tickets[1]["game_id"]
    assert {found["seat"] for found in tickets} == {0, 1}
    game = client.get(f"/v1/games/{tickets[0]['game_id']}").json()
    assert game["rated"] is True and game["status"] == "active"
    for player, found in zip((ann, bob), tickets):
        assert game["seats"][found["seat"]]["player"] == player["id"]
        view = client.get(f"/v1/games/{found['game_id']}", headers=auth(found["token"])).json()
        assert view["you"] == found["seat"]


def test_a_ticket_is_shown_only_to_its_player(client):
    ann, eve = new_player(client, "Ann"), new_player(client, "Eve")
    mine = join(client, ann)
    assert client.get(f"/v1/queue/{mine['id']}", headers=auth(eve["key"])).status_code == 404
    assert client.get(f"/v1/queue/{mine['id']}").status_code == 401
    assert client.post("/v1/queue", json=CVP).status_code == 401
    assert client.delete(f"/v1/queue/{mine['id']}", headers=auth(ann["key"])).json()["status"] \
        == "cancelled"


def test_a_cancelled_ticket_is_never_seated(client):
    ann, bob = new_player(client, "Ann"), new_player(client, "Bob")
    cancelled = join(client, ann)
    gone = client.delete(f"/v1/queue/{cancelled['id']}", headers=auth(ann["key"]))
    assert gone.status_code == 200 and gone.json()["status"] == "cancelled"
    waiting = join(client, bob)
    time.sleep(0.6)  # a few pairing passes
    assert ticket(client, bob, waiting["id"])["status"] == "waiting"
    assert ticket(client, ann, cancelled["id"])["status"] == "cancelled"
    client.delete(f"/v1/queue/{waiting['id']}", headers=auth(bob["key"]))


def test_a_player_is_never_seated_against_itself(client):
    ann = new_player(client, "Ann")
    first, second = join(client, ann), join(client, ann)
    time.sleep(0.6)
    assert [ticket(client, ann, t["id"])["status"] for t in (first, second)] == ["waiting"] * 2
    for found in (first, second):
        client.delete(f"/v1/queue/{found['id']}", headers=auth(ann["key"]))


def test_after_the_fill_delay_an_ai_level_takes_the_empty_seat(client):
    ann = new_player(client, "Ann")
    mine = seated(client, ann, join(client, ann, fill_with_ai_after=0.3)["id"])
    game = client.get(f"/v1/games/{mine['game_id']}").json()
    other = game["seats"][1 - mine["seat"]]
    assert other["type"] == "ai" and other["player"].startswith("ai-") and game["rated"] is True


def test_a_tickets_events_say_waiting_then_seated_and_the_stream_ends(api, client):
    ann, bob = new_player(client, "Ann"), new_player(client, "Bob")
    mine = join(client, ann)
    listener = Listener(f"{api.url}/v1/queue/{mine['id']}/events", headers=auth(ann["key"]))
    deadline = time.monotonic() + 10
    while not listener.events and time.monotonic() < deadline:
        time.sleep(0.02)
    join(client, bob)
    events = listener.join().events
    assert listener.ended_by_server and all(event.event == "ticket" for event in events)
    assert [event.data["status"] for event in events] == ["waiting", "seated"]
    assert events[-1].data["token"] and events[-1].data["game_id"]


def test_fifty_tickets_at_once_on_two_replicas_make_25_games_and_nobody_plays_twice():
    with server({"REDIS_URL": SHARED_REDIS}) as one, server({"REDIS_URL": SHARED_REDIS}) as two:
        urls = [one.url, two.url]
        with httpx.Client(base_url=one.url, timeout=30) as http:
            people = [new_player(http, f"P{index}") for index in range(50)]
        tickets: dict[str, str] = {}

        def enter(index: int) -> None:
            with httpx.Client(base_url=urls[index % 2], timeout=30) as http:
                tickets[people[index]["id"]] = join(http, people[index])["id"]

        threads = [threading.Thread(target=enter, args=(index,)) for index in range(50)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        with httpx.Client(base_url=two.url, timeout=30) as http:
            found = [seated(http, person, tickets[person["id"]]) for person in people]
            games: dict[str, set[str]] = {}
            for person, body in zip(people, found):
                games.setdefault(body["game_id"], set()).add(person["id"])
            assert len(games) == 25 and all(len(members) == 2 for members in games.values())
            for game_id, members in games.items():
                seats = http.get(f"/v1/games/{game_id}").json()["seats"]
                assert {seat["player"] for seat in seats} == members


@pytest.mark.parametrize("body", [{"game": "chess", "players": 2},
                                  {"game": "crabe-vs-poulpe", "players": 3},
                                  {"game": "cup-the-crab", "players": 2, "fill_with_ai_after": -1}])
def test_a_ticket_for_no_such_table_is_refused(client, body):
    ann = new_player(client, "Ann")
    response = client.post("/v1/queue", json=body, headers=auth(ann["key"]))
    assert response.status_code in (400, 422), response.text


def test_a_group_claimed_by_a_replica_that_died_before_seating_it_is_seated_by_another():
    """The pairing script claims a group before its game exists; a replica killed right
    after leaves the claim, and another makes that very game (same id, same tokens)."""
    import asyncio

    import msgspec

    from service.matchmaking.queue import SEATING_LEASE, Ticket, queue_of
    from service.store import MatchRule, RedisStore

    with server({"REDIS_URL": SHARED_REDIS}) as replica, \
            httpx.Client(base_url=replica.url, timeout=30) as http:
        people = [new_player(http, name) for name in ("Dead", "Lock")]
        now = time.time()
        # Ratings 500 apart: the replicas' own passes would not pair them for minutes, so
        # only the claim below (a window of 1,000) does.
        tickets = [Ticket(id=f"crabe-vs-poulpe.2.claimed{index}{int(now)}", player=person["id"],
                          name=person["name"], game="crabe-vs-poulpe", players=2,
                          rating=500.0 * index, since=now, expires=now + 600, fill_after=-1)
                   for index, person in enumerate(people)]

        async def claim_and_die() -> list[bytes]:
            """What a replica does up to its death: the tickets in, the group claimed."""
            store = RedisStore(SHARED_REDIS, 60)
            queue = queue_of("crabe-vs-poulpe", 2)
            try:
                for ticket in tickets:
                    await store.queue_put(queue, ticket.id, msgspec.json.encode(ticket),
                                          ticket.rating, now - 1000)  # oldest of the queue
                return await store.queue_match(
                    queue, now, MatchRule(2, 1000.0, 0.0), "claimedgame1",
                    ["token-a" * 4, "token-b" * 4])
            finally:
                await store.close()

        group = asyncio.run(claim_and_die())
        assert len(group) == 2, "the pairing script claimed the two tickets"
        found = [seated(http, person, ticket.id, seconds=SEATING_LEASE + 10)
                 for person, ticket in zip(people, tickets)]
    assert {body["game_id"] for body in found} == {"claimedgame1"}
    assert {body["token"] for body in found} == {"token-a" * 4, "token-b" * 4}
