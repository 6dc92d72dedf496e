"""The event stream: every change pushed to every viewer, redacted, across replicas."""

import random
import time
from collections.abc import Iterator

import httpx
import pytest

from tests.service.play import auth, create, play_to_end, tokens_of
from tests.service.servers import SHARED_REDIS, Server, server
from tests.service.sse import Listener
from tests.service.test_api_leaks import assert_clean, play_selections_until


@pytest.fixture(scope="module")
def replicas() -> Iterator[tuple[Server, Server]]:
    """Two replicas sharing one Redis, as behind a load balancer."""
    env = {"REDIS_URL": SHARED_REDIS, "ACCESS_LOG": "1", "EVENTS_KEEP_ALIVE_SECONDS": "1"}
    with server(env) as a, server(env) as b:
        yield a, b


def events_url(base: str, game_id: str, **query: object) -> str:
    params = "&".join(f"{key}={value}" for key, value in query.items())
    return f"{base}/v1/games/{game_id}/events" + (f"?{params}" if params else "")


def over(events) -> bool:
    return events[-1].data["game"]["status"] == "over"


def play_one(client: httpx.Client, game_id: str, tokens, rng) -> None:
    spectator = client.get(f"/v1/games/{game_id}").json()
    seat = spectator["to_move"][0]
    move = rng.choice(client.get(f"/v1/games/{game_id}/legal-moves",
                                 headers=auth(tokens[seat])).json()["legal_moves"])
    assert client.post(f"/v1/games/{game_id}/moves", json={"move": move},
                       headers=auth(tokens[seat])).status_code == 200


def test_a_fresh_stream_starts_with_the_current_state_and_ends_after_the_game_is_over(api, client):
    game = create(client, "crabe-vs-poulpe", 2)
    tokens, rng = tokens_of(game), random.Random(4)
    for _ in range(3):
        play_one(client, game["id"], tokens, rng)
    listener = Listener(events_url(api.url, game["id"]), auth(tokens[0]))
    assert listener.status == 200 and listener.content_type.startswith("text/event-stream")
    play_to_end(client, game, seed=5)
    listener.join()
    final = client.get(f"/v1/games/{game['id']}", headers=auth(tokens[0])).json()
    assert listener.ids() == list(range(3, final["version"] + 1))
    assert listener.events[0].data["entry"] is None
    assert all(event.event == "game" for event in listener.events)
    assert all(event.data["entry"]["version"] == event.data["version"]
               for event in listener.events[1:])
    assert listener.events[-1].data["game"] == final and listener.ended_by_server


def test_each_event_is_the_viewers_game_at_that_version_with_the_move_as_history_shows_it(
        api, client):
    game = create(client, "cup-the-crab", 3)
    tokens = tokens_of(game)
    streams = {seat: Listener(events_url(api.url, game["id"]), auth(token), until=over)
               for seat, token in tokens.items()}
    streams[None] = Listener(events_url(api.url, game["id"]), until=over)
    bodies_after_moves: dict[int, dict] = {}
    play_to_end(client, game, seed=9,
                check=lambda seat, body: bodies_after_moves.__setitem__(body["version"], body))
    for seat, listener in streams.items():
        listener.join()
        history = client.get(f"/v1/games/{game['id']}/history",
                             headers=auth(tokens[seat]) if seat is not None else {}).json()
        by_version = {entry["version"]: entry for entry in history["entries"]}
        for event in listener.events[1:]:
            body = event.data["game"]
            assert body["you"] == seat and body["version"] == event.data["version"]
            if seat is None:
                assert body["view"]["hand"] is None and body["legal_moves"] == []
            if event.data["version"] in bodies_after_moves and \
                    bodies_after_moves[event.data["version"]]["you"] == seat:
                assert body == bodies_after_moves[event.data["version"]]
            if over([event]):  # once over, the history shows every move: so does the event
                assert event.data["entry"] == by_version[event.data["version"]]


def test_secret_selections_stay_secret_in_other_seats_events(api, client):
    game = create(client, "cup-the-crab", 2, seed=3)
    tokens = tokens_of(game)
    listener = Listener(events_url(api.url, game["id"]), auth(tokens[0]),
                        until=lambda events: events[-1].data["version"] >= 2)
    for seat in (1, 0):
        move = client.get(f"/v1/games/{game['id']}", headers=auth(tokens[seat])).json()
        client.post(f"/v1/games/{game['id']}/moves", json={"move": move["legal_moves"][-1]},
                    headers=auth(tokens[seat]))
    listener.join()
    by_seat = {event.data["entry"]["seat"]: event.data["entry"]["move"]
               for event in listener.events if event.data["entry"]}
    assert by_seat[1] == {"type": "select", "cards": None}
    assert by_seat[0]["cards"] is not None
    for event in listener.events:
        assert_clean(event.data, tokens, 0)


def test_two_replicas_see_each_others_moves_in_order_each_for_its_own_seat(replicas):
    a, b = replicas
    with httpx.Client(base_url=a.url, timeout=30) as client_a, \
            httpx.Client(base_url=b.url, timeout=30) as client_b:
        game = create(client_a, "crabe-vs-poulpe", 2)
        tokens = tokens_of(game)
        streams = {0: Listener(events_url(b.url, game["id"]), auth(tokens[0]), until=over),
                   1: Listener(events_url(a.url, game["id"], token=tokens[1]), until=over),
                   None: Listener(events_url(b.url, game["id"]), until=over)}
        rng, clients = random.Random(8), (client_a, client_b)
        turn = 0
        while client_a.get(f"/v1/games/{game['id']}").json()["status"] != "over":
            play_one(clients[turn % 2], game["id"], tokens, rng)
            turn += 1
        for seat, listener in streams.items():
            listener.join()
            assert listener.ids() == list(range(0, turn + 1)), seat
            final = client_b.get(f"/v1/games/{game['id']}",
                                 headers=auth(tokens[seat]) if seat is not None else {}).json()
            assert listener.events[-1].data["game"] == final
            for event in listener.events:
                assert_clean(event.data, tokens, seat)
    assert tokens[1] not in a.output()  # the query-string token is never logged


def test_a_dropped_stream_resumes_after_its_last_event_with_no_gap_and_no_duplicate(replicas):
    a, b = replicas
    with httpx.Client(base_url=a.url, timeout=30) as client:
        game = create(client, "cup-the-crab", 2)
        tokens = tokens_of(game)
        first = Listener(events_url(b.url, game["id"]), auth(tokens[0]),
                         until=lambda events: events[-1].data["version"] >= 5)
        rng = random.Random(2)
        for _ in range(9):
            play_one(client, game["id"], tokens, rng)
        first.join()
        last = first.ids()[-1]
        resumed = Listener(events_url(a.url, game["id"]),
                           {**auth(tokens[0]), "Last-Event-ID": str(last)},
                           until=lambda events: events[-1].data["version"] >= 12)
        by_since = Listener(events_url(b.url, game["id"], since=last), auth(tokens[0]),
                            until=lambda events: events[-1].data["version"] >= 12)
        for _ in range(3):
            play_one(client, game["id"], tokens, rng)
        for listener in (resumed, by_since):
            assert listener.join().ids() == list(range(last + 1, 13))


def test_a_stream_resumed_from_any_version_gets_each_version_as_the_live_stream_did(replicas):
    """The store keeps one whole record a game; every older version a resumed stream asks
    for is rebuilt (the state by the core from the log, the metadata by undoing each
    commit's change: with a turn clock, new deadlines every version): each event after
    the resumed version is the one the live stream got, to the byte."""
    a, b = replicas
    with httpx.Client(base_url=a.url, timeout=30) as client:
        game = create(client, "cup-the-crab", 3, turn_seconds=600)
        tokens = tokens_of(game)
        live = Listener(events_url(a.url, game["id"]), auth(tokens[1]))
        play_to_end(client, game, seed=8)
        sent = {int(event.id): event.data for event in live.join().events}
    latest = max(sent)
    for since in (0, 1, latest // 2, latest - 2, latest - 1):
        resumed = Listener(events_url(b.url, game["id"], since=since), auth(tokens[1])).join()
        assert resumed.ids() == list(range(since + 1, latest + 1))
        assert [event.data for event in resumed.events] == \
            [sent[version] for version in resumed.ids()], since


def test_an_idle_stream_gets_keep_alive_comments(replicas):
    a, _ = replicas
    with httpx.Client(base_url=a.url, timeout=30) as client:
        game = create(client, "cup-the-crab", 2)
    listener = Listener(events_url(a.url, game["id"]))
    deadline = time.monotonic() + 5
    while listener.comments < 2 and time.monotonic() < deadline:
        time.sleep(0.1)
    listener.stop()
    assert listener.comments >= 2 and listener.ids() == [0]


def test_the_stream_refuses_bad_resumes_unknown_games_and_foreign_tokens(api, client):
    game = create(client, "cup-the-crab", 2)
    other = create(client, "cup-the-crab", 2)
    url = events_url(api.url, game["id"])
    for headers, status, kind in (({"Last-Event-ID": "x1"}, 400, "invalid-request"),
                                  ({"Last-Event-ID": "-3"}, 400, "invalid-request"),
                                  (auth(tokens_of(other)[0]), 401, "unauthorized")):
        response = httpx.get(url, headers=headers)
        assert response.status_code == status and response.json()["type"] == f"/problems/{kind}"
    assert httpx.get(events_url(api.url, game["id"], since="two")).status_code == 400
    assert httpx.get(events_url(api.url, "no-such-game")).status_code == 404


def test_a_seats_secret_selection_changes_no_event_that_others_receive(api, client):
    """The two-world leak test on the stream: games dealt alike that differ only in seat 1's
    selection give every other viewer the same events."""
    games = [create(client, "cup-the-crab", 3, seed=77, options={"first_player": 0})
             for _ in range(2)]
    for game in games:
        play_selections_until(client, game, 2, random.Random(7))
    choices = client.get(f"/v1/games/{games[0]['id']}",
                         headers=auth(tokens_of(games[0])[1])).json()["legal_moves"]
    for game, move in zip(games, (choices[0], choices[-1])):
        client.post(f"/v1/games/{game['id']}/moves", json={"move": move},
                    headers=auth(tokens_of(game)[1]))
    version = client.get(f"/v1/games/{games[0]['id']}").json()["version"]
    for caller in (None, 0, 2):
        seen = []
        for game in games:
            headers = {} if caller is None else auth(tokens_of(game)[caller])
            listener = Listener(events_url(api.url, game["id"], since=0), headers,
                                until=lambda events: events[-1].data["version"] >= version)
            events = [event.data for event in listener.join().events]
            for data in events:
                data["game"].pop("id")
                # When a change was committed is public: its event arrives then.
                (data["entry"] or {}).pop("at", None)
            seen.append(events)
        assert seen[0] == seen[1], f"seat {caller} can tell the selections apart"


@pytest.mark.parametrize("store", ["memory", "redis"])
def test_the_stream_of_a_game_that_vanished_ends_within_a_keep_alive_and_is_then_refused(store):
    """A game that expired (or was deleted) sends no event: its streams end at the next
    keep-alive's re-read, so that their clients ask again and are told 404."""
    env = {"EVENTS_KEEP_ALIVE_SECONDS": "1", "GAME_TTL_SECONDS": "2"}
    if store == "redis":
        env["REDIS_URL"] = SHARED_REDIS
    with server(env) as api, httpx.Client(base_url=api.url, timeout=30) as client:
        game = create(client, "cup-the-crab", 2)
        listener = Listener(events_url(api.url, game["id"]), auth(tokens_of(game)[0]))
        deadline = time.monotonic() + 10
        while not listener.ended_by_server and time.monotonic() < deadline:
            time.sleep(0.1)
        assert listener.ended_by_server and listener.ids() == [0] and listener.error is None
        assert client.get(f"/v1/games/{game['id']}/events",
                          headers=auth(tokens_of(game)[0])).status_code == 404


def test_a_stream_outlives_a_store_outage_with_keep_alives_and_no_error(private_redis):
    env = {"REDIS_URL": private_redis.url, "EVENTS_KEEP_ALIVE_SECONDS": "1"}
    with server(env) as api, httpx.Client(base_url=api.url, timeout=30) as client:
        game = create(client, "cup-the-crab", 2)
        listener = Listener(events_url(api.url, game["id"]), auth(tokens_of(game)[0]))
        private_redis.stop()
        time.sleep(2.5)  # keep-alives re-read the log: the store is down for each of them
        comments = listener.comments
        time.sleep(1.5)
        assert listener.comments > comments and listener.error is None
        assert not listener.ended_by_server and listener.ids() == [0]
        listener.stop()
        assert "Exception in ASGI application" not in api.output()
