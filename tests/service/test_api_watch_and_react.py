"""Watching and reacting, on both stores: the list of live games a passer-by may watch,
what a spectator's stream carries (never more than core's view for no seat), and the quick
reactions a seat says to the table (fixed phrases, heard by every open stream on every
replica, one per 5 s per seat)."""

import json
import time
from collections.abc import Iterator

import httpx
import pytest

from service.games.bodies.common import WaitingList
from service.lobby.bodies import Reaction, TablePresence
from service.lobby.reactions import RATE_SECONDS
from tests.service.play import auth, create, play_to_end, replay_in_core, tokens_of
from tests.service.servers import SHARED_REDIS, Server, server
from tests.service.sse import Listener
from tests.service.test_api_errors import assert_problem, snapshot
from tests.service.test_api_leaks import assert_clean
from tests.service.test_api_players import new_player
from tests.service.test_api_queue import join as queue
from tests.service.test_api_queue import seated
from tests.service.test_bodies_exact import assert_exact

PEOPLE_2 = [{"type": "human", "name": "Ana"}, {"type": "human", "name": "Bo"}]
OPEN_2 = [{"type": "human", "name": "Ana"}, {"type": "open"}]


def live_ids(client: httpx.Client) -> list[str]:
    response = client.get("/v1/games", params={"status": "active", "limit": 100})
    assert response.status_code == 200, response.text
    assert_exact(response.json(), WaitingList)
    return [game["id"] for game in response.json()["games"]]


def joined(client: httpx.Client, created: dict, name: str = "Cy") -> str:
    response = client.post(f"/v1/games/{created['id']}/join", json={"name": name})
    assert response.status_code == 201, response.text
    return response.json()["token"]


def reactions_of(listener: Listener) -> list[dict]:
    return [event.data for event in listener.events if event.event == "reaction"]


def wait_for(predicate, seconds: float = 10) -> None:
    deadline = time.monotonic() + seconds
    while not predicate():
        assert time.monotonic() < deadline, "never happened"
        time.sleep(0.05)


# -- the live games ----------------------------------------------------------------------


def test_a_listed_game_between_people_is_live_once_every_seat_is_taken_until_it_ends(client):
    created = create(client, "crabe-vs-poulpe", 2, seats=OPEN_2, listed=True)
    assert created["id"] not in live_ids(client)  # still waiting: in the waiting list instead
    token = joined(client, created)
    page = client.get("/v1/games", params={"status": "active", "limit": 100}).json()["games"]
    found = next(game for game in page if game["id"] == created["id"])
    assert [seat["name"] for seat in found["seats"]] == ["Ana", "Cy"]
    assert client.post(f"/v1/games/{created['id']}/resign", headers=auth(token)).status_code == 200
    assert created["id"] not in live_ids(client)  # over: dropped from the list


def test_the_rematch_of_a_live_game_is_live_too(client):
    created = create(client, "crabe-vs-poulpe", 2, seats=OPEN_2, listed=True)
    tokens = [tokens_of(created)[0], joined(client, created)]
    client.post(f"/v1/games/{created['id']}/resign", headers=auth(tokens[1]))
    for token in tokens:
        answer = client.post(f"/v1/games/{created['id']}/rematch", headers=auth(token))
    assert answer.status_code == 201, answer.text
    assert answer.json()["id"] in live_ids(client)


def test_games_by_link_or_against_the_ai_alone_are_never_listed_for_passers_by(client):
    by_link = create(client, "crabe-vs-poulpe", 2, seats=OPEN_2, listed=False)
    joined(client, by_link)
    against_ai = create(client, "cup-the-crab", 2,
                        seats=[{"type": "human"}, {"type": "ai", "level": 1}])
    by_api = create(client, "crabe-vs-poulpe", 2, seats=PEOPLE_2)
    listed = live_ids(client)
    for game in (by_link, against_ai, by_api):
        assert game["id"] not in listed
        assert client.get(f"/v1/games/{game['id']}").status_code == 200  # still watchable by link


def test_a_rated_queue_game_is_live(client):
    ann, bob = new_player(client, "Ann"), new_player(client, "Bob")
    first, second = queue(client, ann), queue(client, bob)
    game_id = seated(client, ann, first["id"])["game_id"]
    seated(client, bob, second["id"])
    assert game_id in live_ids(client)


def test_the_live_list_says_how_many_spectators_watch_each_game(client):
    watched, quiet = (create(client, "crabe-vs-poulpe", 2, seats=OPEN_2, listed=True)
                      for _ in range(2))
    for game in (watched, quiet):
        joined(client, game)
    for viewer in ("viewer-aaaa1", "viewer-bbbb2"):
        beat(client, watched["id"], viewer=viewer)
    beat(client, watched["id"], tokens_of(watched)[0])  # a seat at the table is no spectator

    def counts() -> dict[str, int]:
        page = client.get("/v1/games", params={"status": "active", "limit": 100}).json()
        return {game["id"]: game["spectators"] for game in page["games"]}
    assert (counts()[watched["id"]], counts()[quiet["id"]]) == (2, 0)
    beat(client, watched["id"], viewer="viewer-aaaa1", here=False)  # one went away
    assert (counts()[watched["id"]], counts()[quiet["id"]]) == (1, 0)


def test_the_live_list_refuses_an_unknown_status(client):
    assert_problem(client.get("/v1/games", params={"status": "over"}), 400, "invalid-request")


# -- what a spectator receives -------------------------------------------------------------


def test_a_spectators_stream_carries_core_view_for_no_seat_and_nothing_more(api, client):
    """A seeded game between two people, played to the end under a spectator's stream:
    each event's view is exactly what core shows no seat at that version, and no event
    (reactions included) holds a token or a hidden key."""
    seed = 11
    created = create(client, "cup-the-crab", 2, seats=PEOPLE_2, seed=seed,
                      options={"first_player": 0})
    tokens = tokens_of(created)
    watcher = Listener(f"{api.url}/v1/games/{created['id']}/events")
    wait_for(lambda: watcher.events)  # open: it hears what is said from now on
    assert client.post(f"/v1/games/{created['id']}/reactions", json={"phrase": "good-luck"},
                       headers=auth(tokens[1])).status_code == 200
    moves = play_to_end(client, created, seed=seed)
    watcher.join()
    games = [event for event in watcher.events if event.event == "game"]
    assert [event.data["version"] for event in games] == list(range(len(moves) + 1))
    for event in games:
        version = event.data["version"]
        state = replay_in_core("cup-the-crab", 2, seed, moves[:version],
                               options={"first_player": 0})
        assert event.data["game"]["view"] == json.loads(json.dumps(state.view(None)))
        assert event.data["game"]["you"] is None and event.data["game"]["legal_moves"] == []
    for event in watcher.events:
        assert_clean(event.data, tokens, caller=None)
    assert reactions_of(watcher) == [{"seat": 1, "phrase": "good-luck",
                                      "at": reactions_of(watcher)[0]["at"]}]


# -- reactions ---------------------------------------------------------------------------


def test_a_reaction_is_heard_by_the_other_seat_and_the_spectators_and_is_no_version(api, client):
    created = create(client, "crabe-vs-poulpe", 2, seats=PEOPLE_2)
    tokens, path = tokens_of(created), f"/v1/games/{created['id']}"
    heard_one = lambda events: any(event.event == "reaction" for event in events)
    other = Listener(f"{api.url}{path}/events", headers=auth(tokens[1]), until=heard_one)
    spectator = Listener(f"{api.url}{path}/events", until=heard_one)
    wait_for(lambda: other.events and spectator.events)
    before = snapshot(client, created)
    said = client.post(f"{path}/reactions", json={"phrase": "well-played"},
                       headers=auth(tokens[0]))
    assert said.status_code == 200, said.text
    assert_exact(said.json(), Reaction)
    assert said.json()["seat"] == 0 and said.json()["phrase"] == "well-played"
    for listener in (other, spectator):
        listener.join()
        heard = [event for event in listener.events if event.event == "reaction"]
        assert [event.data for event in heard] == [said.json()]
        assert heard[0].id is None  # Last-Event-ID stays the game's version
    assert snapshot(client, created) == before


def test_a_seat_reacts_once_per_five_seconds_and_a_refused_reaction_is_not_heard(api, client):
    created = create(client, "crabe-vs-poulpe", 2, seats=PEOPLE_2)
    tokens, path = tokens_of(created), f"/v1/games/{created['id']}"
    listener = Listener(f"{api.url}{path}/events", headers=auth(tokens[1]))
    try:
        wait_for(lambda: listener.events)
        first = client.post(f"{path}/reactions", json={"phrase": "oops"}, headers=auth(tokens[0]))
        assert first.status_code == 200
        again = client.post(f"{path}/reactions", json={"phrase": "thanks"},
                            headers=auth(tokens[0]))
        assert_problem(again, 429, "rate-limited")
        assert 1 <= int(again.headers["Retry-After"]) <= 5
        other_seat = client.post(f"{path}/reactions", json={"phrase": "thanks"},
                                 headers=auth(tokens[1]))
        assert other_seat.status_code == 200  # each seat has its own budget
        wait_for(lambda: len(reactions_of(listener)) == 2)
        time.sleep(0.3)
        assert [r["phrase"] for r in reactions_of(listener)] == ["oops", "thanks"]
    finally:
        listener.stop()


def test_a_reaction_must_be_a_known_phrase_from_a_seat(client):
    created = create(client, "crabe-vs-poulpe", 2, seats=PEOPLE_2)
    tokens, path = tokens_of(created), f"/v1/games/{created['id']}/reactions"
    for bad in ({"phrase": "you lose"}, {"phrase": "gg", "text": "hi"}, {}, {"phrase": 1}):
        assert_problem(client.post(path, json=bad, headers=auth(tokens[0])), 400,
                       "invalid-request")
    assert_problem(client.post(path, json={"phrase": "thanks"}), 401, "unauthorized")
    assert_problem(client.post(path, json={"phrase": "thanks"}, headers=auth("x" * 43)), 401,
                   "unauthorized")
    assert_problem(client.post("/v1/games/nothing-here/reactions", json={"phrase": "thanks"},
                               headers=auth(tokens[0])), 404, "game-not-found")


# -- reactions after the game: kept beside it, heard with the presence beats ---------------


def beat(client: httpx.Client, game_id: str, token: str | None = None, viewer: str | None = None,
         after: str | None = None, here: bool = True) -> dict:
    body = {"here": here, **({"viewer": viewer} if viewer else {}),
            **({"reactions_after": after} if after is not None else {})}
    response = client.post(f"/v1/games/{game_id}/presence", json=body,
                           headers=auth(token) if token else {})
    assert response.status_code == 200, response.text
    assert_exact(response.json(), TablePresence)
    return response.json()


def test_in_play_a_presence_beat_hands_no_reaction_and_costs_no_read(client):
    created = create(client, "crabe-vs-poulpe", 2, seats=PEOPLE_2)
    tokens, path = tokens_of(created), f"/v1/games/{created['id']}"
    client.post(f"{path}/reactions", json={"phrase": "good-luck"}, headers=auth(tokens[0]))
    first = beat(client, created["id"], tokens[1])
    assert first["reactions"] == [] and first["reactions_after"] == "0"  # the stream said it
    assert beat(client, created["id"], tokens[1], after="0")["reactions"] == []


def test_after_the_game_a_reaction_is_heard_once_with_the_next_beat_of_those_still_there(client):
    created = create(client, "crabe-vs-poulpe", 2, seats=PEOPLE_2)
    tokens, game_id = tokens_of(created), created["id"]
    path = f"/v1/games/{game_id}"
    bo = beat(client, game_id, tokens[1])["reactions_after"]  # both pages opened in play
    watcher = beat(client, game_id, viewer="watcher-0001")["reactions_after"]
    beat(client, game_id, tokens[0])
    assert client.post(f"{path}/resign", headers=auth(tokens[1])).status_code == 200
    before = snapshot(client, created)
    said = client.post(f"{path}/reactions", json={"phrase": "good-game"}, headers=auth(tokens[0]))
    assert said.status_code == 200, said.text
    assert_exact(said.json(), Reaction)
    assert (said.json()["seat"], said.json()["phrase"]) == (0, "good-game")
    heard = beat(client, game_id, tokens[1], after=bo)
    assert heard["reactions"] == [said.json()] and heard["present"] == [0, 1]
    assert beat(client, game_id, tokens[1], after=heard["reactions_after"])["reactions"] == []
    assert beat(client, game_id, viewer="watcher-0001", after=watcher)["reactions"] == \
        [said.json()]  # spectators hear it too
    late = beat(client, game_id, viewer="late-comer-01")  # a page that comes after it
    assert late["reactions"] == [] and late["reactions_after"] == heard["reactions_after"]
    again = client.post(f"{path}/reactions", json={"phrase": "thanks"}, headers=auth(tokens[0]))
    assert_problem(again, 429, "rate-limited")  # the same budget as in play
    assert 1 <= int(again.headers["Retry-After"]) <= 5
    answer = client.post(f"{path}/reactions", json={"phrase": "thanks"}, headers=auth(tokens[1]))
    assert answer.status_code == 200  # the seat that resigned thanks back
    assert beat(client, game_id, tokens[0], after=bo)["reactions"] == [said.json(), answer.json()]
    assert_problem(client.post(f"{path}/reactions", json={"phrase": "oops"}), 401,
                   "unauthorized")  # a spectator never speaks, after the game neither
    assert snapshot(client, created) == before  # no version, nothing in the history


def test_after_the_game_a_reaction_to_a_table_nobody_else_is_at_is_refused(client):
    created = create(client, "crabe-vs-poulpe", 2, seats=PEOPLE_2)
    tokens, game_id = tokens_of(created), created["id"]
    path = f"/v1/games/{game_id}/reactions"
    client.post(f"/v1/games/{game_id}/resign", headers=auth(tokens[1]))
    beat(client, game_id, tokens[0])  # the sayer's own page does not count
    assert_problem(client.post(path, json={"phrase": "good-game"}, headers=auth(tokens[0])),
                   409, "nobody-at-table")
    cursor = beat(client, game_id, tokens[1])["reactions_after"]  # Bo comes back
    assert client.post(path, json={"phrase": "good-game"}, headers=auth(tokens[0])).status_code \
        == 200
    beat(client, game_id, tokens[1], here=False)  # and leaves: the table is Ana's alone again
    time.sleep(RATE_SECONDS)  # Ana's rest, so that only the table refuses
    assert_problem(client.post(path, json={"phrase": "thanks"}, headers=auth(tokens[0])),
                   409, "nobody-at-table")
    assert [r["phrase"] for r in beat(client, game_id, tokens[1], after=cursor)["reactions"]] \
        == ["good-game"]  # the refused one was not kept


def test_a_presence_cursor_is_a_stream_position_or_refused(client):
    created = create(client, "crabe-vs-poulpe", 2, seats=PEOPLE_2)
    path = f"/v1/games/{created['id']}/presence"
    for bad in ("abc", "1-2-3", "", "1" * 20, 5, "-1"):
        assert_problem(client.post(path, json={"reactions_after": bad}), 400, "invalid-request")


@pytest.fixture(scope="module")
def replicas() -> Iterator[tuple[Server, Server]]:
    env = {"REDIS_URL": SHARED_REDIS, "ACCESS_LOG": "0"}
    with server(env) as first, server(env) as second:
        yield first, second


def test_a_reaction_after_the_game_said_on_one_replica_is_heard_on_another(replicas):
    first, second = replicas
    with httpx.Client(base_url=first.url, timeout=30) as one, \
            httpx.Client(base_url=second.url, timeout=30) as other:
        created = create(one, "crabe-vs-poulpe", 2, seats=PEOPLE_2)
        tokens, game_id = tokens_of(created), created["id"]
        cursor = beat(other, game_id, tokens[1])["reactions_after"]
        one.post(f"/v1/games/{game_id}/resign", headers=auth(tokens[0]))
        said = one.post(f"/v1/games/{game_id}/reactions", json={"phrase": "well-played"},
                        headers=auth(tokens[0]))
        assert said.status_code == 200, said.text
        assert beat(other, game_id, tokens[1], after=cursor)["reactions"] == [said.json()]


def test_a_reaction_said_on_one_replica_is_heard_on_another(replicas):
    first, second = replicas
    with httpx.Client(base_url=first.url, timeout=30) as http:
        created = create(http, "crabe-vs-poulpe", 2, seats=PEOPLE_2)
        tokens = tokens_of(created)
        listener = Listener(f"{second.url}/v1/games/{created['id']}/events",
                            headers=auth(tokens[1]))
        try:
            wait_for(lambda: listener.events)  # the stream is open (its first event came)
            said = http.post(f"/v1/games/{created['id']}/reactions",
                             json={"phrase": "hurry-up"}, headers=auth(tokens[0]))
            assert said.status_code == 200
            wait_for(lambda: reactions_of(listener) == [said.json()])
        finally:
            listener.stop()
