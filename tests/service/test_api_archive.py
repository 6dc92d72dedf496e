"""The archive: every finished game is kept, answers at its URL forever, replays with every
card shown, and streams out as ndjson. Run on both deployments: Redis with PostgreSQL, the
embedded store with SQLite."""

import json
import time
from collections.abc import Iterator
from contextlib import nullcontext
from datetime import UTC, datetime

import httpx
import pytest
import redis

import core
from service.games import bodies
from tests.service.archives import drained
from tests.service.conftest import STORES
from tests.service.play import auth, create, play_to_end, replay_in_core, tokens_of
from tests.service.servers import PrivateRedis, Server, server, suite_database
from tests.service.sse import Listener
from tests.service.test_bodies_exact import assert_exact

AI = {"type": "ai", "iterations": 30}


def exported(client: httpx.Client, **params: str) -> list[dict]:
    response = client.get("/v1/games/export", params=params)
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith("application/x-ndjson")
    lines = [json.loads(line) for line in response.text.splitlines()]
    for line in lines:
        assert_exact(line, bodies.ExportedGame)  # each line is its documented type exactly
    return lines


def archived_record(client: httpx.Client, game_id: str) -> dict:
    drained(str(client.base_url))
    found = [line for line in exported(client) if line["id"] == game_id]
    assert len(found) == 1, f"{game_id} is archived {len(found)} times"
    return found[0]


def instant(text: str) -> float:
    assert text.endswith("Z"), text
    return datetime.fromisoformat(text).timestamp()


def test_a_game_played_out_is_archived_once_with_its_whole_record(client):
    created = create(client, "cup-the-crab", 3, seats=[{"type": "human", "name": "Ann"},
                                                        {"type": "human"}, {"type": "human"}])
    before = time.time()
    play_to_end(client, created, seed=3)
    final = client.get(f"/v1/games/{created['id']}").json()
    history = client.get(f"/v1/games/{created['id']}/history").json()
    record = archived_record(client, created["id"])
    assert record["game"] == "cup-the-crab" and record["players"] == 3
    assert record["reason"] == "finished" and record["result"] == final["result"]
    assert record["version"] == final["version"]
    assert [seat["name"] for seat in record["seats"]] == ["Ann", None, None]
    assert all(seat["type"] == "human" and seat["ai"] is None for seat in record["seats"])
    # After the end the history shows everything, and the archive keeps exactly that.
    assert record["entries"] == history["entries"]
    assert instant(record["created_at"]) <= before <= instant(record["ended_at"]) <= time.time()


def test_every_logged_change_carries_the_time_it_was_committed(client):
    created = create(client, "cup-the-crab", 2)
    token = tokens_of(created)[0]
    before = time.time()
    move = client.get(f"/v1/games/{created['id']}", headers=auth(token)).json()["legal_moves"][0]
    client.post(f"/v1/games/{created['id']}/moves", json={"move": move}, headers=auth(token))
    entry = client.get(f"/v1/games/{created['id']}/history").json()["entries"][0]
    assert before - 0.001 <= instant(entry["at"]) <= time.time()


def test_games_ended_by_the_ai_and_by_a_forfeit_are_archived_too(client):
    robots = create(client, "crabe-vs-poulpe", 2, seats=[AI, AI])
    walked_away = create(client, "cup-the-crab", 3, seats=[{"type": "human"}, AI, AI],
                         turn_seconds=1, on_timeout="forfeit")
    deadline = time.monotonic() + 30
    while any(client.get(f"/v1/games/{game['id']}").json()["status"] != "over"
              for game in (robots, walked_away)):
        assert time.monotonic() < deadline, "the games did not end"
        time.sleep(0.2)
    assert archived_record(client, robots["id"])["seats"][0]["ai"] == {
        "iterations": 30, "time_ms": None, "level": None}
    forfeit = archived_record(client, walked_away["id"])
    assert forfeit["reason"] == "forfeit" and forfeit["result"]["forfeited"] == [0]
    assert forfeit["entries"][-1]["kind"] == "forfeit"


def test_a_replay_opens_only_once_the_game_is_over(client):
    created = create(client, "cup-the-crab", 2)
    response = client.get(f"/v1/games/{created['id']}/replay")
    assert response.status_code == 409 and response.json()["type"] == "/problems/game-not-over"
    assert client.get("/v1/games/nope/replay").status_code == 404


def test_a_replay_shows_every_version_with_every_card_as_the_core_plays_it(client):
    created = create(client, "cup-the-crab", 3, seed=41)
    moves = play_to_end(client, created, seed=41)
    replay = client.get(f"/v1/games/{created['id']}/replay").json()
    assert_exact(replay, bodies.ReplayBody)
    assert [version["version"] for version in replay["versions"]] == \
        list(range(len(moves) + 1))
    assert replay["versions"][0]["entry"] is None
    assert [(v["entry"]["seat"], v["entry"]["move"]) for v in replay["versions"][1:]] == moves
    # Every hand is shown, and the last position is the one the core reaches on its own.
    first_deal = replay["versions"][0]["position"]
    assert all(seat["reserve"] for seat in first_deal["seats"])
    alone = replay_in_core("cup-the-crab", 3, 41, moves)
    assert replay["versions"][-1]["position"] == alone.snapshot()
    assert replay["result"] == client.get(f"/v1/games/{created['id']}").json()["result"]
    words = json.dumps(replay)
    assert "rng" not in words and "seed\"" not in words  # no PRNG state, no seed


def test_the_export_filters_by_game_and_time_and_resumes_after_a_cursor(client):
    start = datetime.now(UTC).isoformat()
    games = [create(client, game, 2, seats=[AI, AI])
             for game in ("cup-the-crab", "crabe-vs-poulpe", "cup-the-crab")]
    for game in games:
        while client.get(f"/v1/games/{game['id']}").json()["status"] != "over":
            time.sleep(0.1)
    drained(str(client.base_url))
    ours = {game["id"] for game in games}
    since = [line for line in exported(client, since=start) if line["id"] in ours]
    assert {line["id"] for line in since} == ours
    assert [line["ended_at"] for line in since] == sorted(line["ended_at"] for line in since)
    crabs = exported(client, game="cup-the-crab", since=start)
    assert {line["id"] for line in crabs} & ours == {games[0]["id"], games[2]["id"]}
    assert all(line["game"] == "cup-the-crab" for line in crabs)
    assert exported(client, until=start, game="crabe-vs-poulpe") == [
        line for line in exported(client, game="crabe-vs-poulpe")
        if instant(line["ended_at"]) < datetime.fromisoformat(start).timestamp()]
    # Page by page with limit and cursor: the same games, in the same order.
    everything, paged, cursor = exported(client, since=start), [], None
    while True:
        page = exported(client, since=start, limit="1", **({"cursor": cursor} if cursor else {}))
        if not page:
            break
        paged += page
        cursor = page[-1]["cursor"]
    assert paged == everything


def test_the_export_of_one_id_is_that_games_record_alone(client):
    game = create(client, "crabe-vs-poulpe", 2, seats=[AI, AI])
    while client.get(f"/v1/games/{game['id']}").json()["status"] != "over":
        time.sleep(0.1)
    record = archived_record(client, game["id"])
    assert exported(client, id=game["id"]) == [record]
    assert exported(client, id="no-such-game") == []


@pytest.mark.parametrize("params, detail", [
    ({"cursor": "yesterday"}, "cursor"), ({"since": "2026-11-01T00:00:00"}, "since"), ({"until": "2026-13-01T00:00:00Z"}, "until"),
    ({"game": "chess"}, "game"), ({"limit": "0"}, "limit"), ({"id": "a b"}, "id")])
def test_bad_export_parameters_are_refused(client, params, detail):
    response = client.get("/v1/games/export", params=params)
    assert response.status_code == 400 and detail in response.text


# -- once the live store has forgotten the game ------------------------------------------


@pytest.fixture(scope="module", params=sorted(STORES))
def forgetful(request) -> Iterator[Server]:
    """A service that keeps an archived game in its live store for one second only (with a
    Redis of its own: replicas of one Redis share their settings)."""
    env = {"ARCHIVED_GAME_TTL_SECONDS": "1", "ACCESS_LOG": "0"}
    with PrivateRedis() if request.param == "redis" else nullcontext() as private:
        if private is not None:
            env.update(REDIS_URL=private.url, DATABASE_URL=suite_database().url)
        with server(env) as running:
            running.store, running.redis_url = request.param, env.get("REDIS_URL")
            yield running


def forgotten_game(api: Server) -> tuple[httpx.Client, dict, dict]:
    """A game played out, archived and gone from the live store; what it answered before."""
    client = httpx.Client(base_url=api.url, timeout=30)
    created = create(client, "cup-the-crab", 2, seed=5)
    play_to_end(client, created, seed=5)
    token = tokens_of(created)[0]
    path = f"/v1/games/{created['id']}"
    before = {"view": client.get(path, headers=auth(token)).json(),
              "history": client.get(f"{path}/history", headers=auth(token)).json(),
              "replay": client.get(f"{path}/replay").json()}
    drained(api.url)
    if api.store == "redis":
        live = redis.Redis.from_url(api.redis_url)
        deadline = time.monotonic() + 10
        while live.exists(f"game:{{{created['id']}}}:state"):
            assert time.monotonic() < deadline, "the archived game's keys did not expire"
            time.sleep(0.1)
        live.close()
    else:
        time.sleep(1.2)
    return client, created, before


def test_a_finished_games_url_answers_from_the_archive_as_it_did_live(forgetful):
    client, created, before = forgotten_game(forgetful)
    path, token = f"/v1/games/{created['id']}", tokens_of(created)[0]
    view = client.get(path, headers=auth(token))
    assert view.status_code == 200 and view.json() == before["view"]
    assert client.get(f"{path}/history", headers=auth(token)).json() == before["history"]
    assert client.get(f"{path}/replay").json() == before["replay"]
    cached = client.get(path, headers={**auth(token), "If-None-Match": view.headers["etag"]})
    assert cached.status_code == 304
    # Its event stream gives the last version and ends, as a finished game's does.
    stream = Listener(f"{forgetful.url}{path}/events", auth(token))
    assert stream.join().ended_by_server
    assert [event.data["version"] for event in stream.events] == [before["view"]["version"]]
    resumed = Listener(f"{forgetful.url}{path}/events?since=3", auth(token))
    assert [event.data["version"] for event in resumed.join().events] == \
        [before["view"]["version"]]


def test_an_archived_game_refuses_every_change(forgetful):
    client, created, _ = forgotten_game(forgetful)
    path, token = f"/v1/games/{created['id']}", tokens_of(created)[0]
    move = client.post(f"{path}/moves", json={"move": {"type": "select", "cards": ["cup-1"] * 3}},
                       headers=auth(token))
    assert move.status_code == 422 and "over" in move.json()["detail"]
    rematch = client.post(f"{path}/rematch", headers=auth(token))
    assert rematch.status_code == 409 and rematch.json()["type"] == "/problems/game-archived"
    assert client.get(path, headers=auth("not-a-token")).status_code == 401
    assert client.get(path).json()["status"] == "over"


def test_the_core_replays_each_archived_game_to_its_result(forgetful):
    client, created, before = forgotten_game(forgetful)
    record = archived_record(client, created["id"])
    state = core.new_game("cup-the-crab", 2, seed=5)
    for entry in record["entries"]:
        state.apply(entry["seat"], entry["move"])
    assert state.result()["ranking"] == record["result"]["ranking"] == \
        before["view"]["result"]["ranking"]
