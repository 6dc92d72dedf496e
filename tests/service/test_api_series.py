"""Series: deals played once per rotation of the seats, the same cards in every rotation
with duplicate deals, a crosstable with intervals, every game replayable, slow moves made
by the clock and counted, and a series that outlives the replica running it."""

import json
import subprocess
import sys
import threading
import time

import httpx

from service.arena.bodies import SeriesBody, SeriesGames
from tests.service.play import auth
from tests.service.servers import ROOT, SHARED_REDIS, server, wait_until
from tests.service.test_api_players import new_player
from tests.service.test_bodies_exact import assert_exact

CUP = {"game": "cup-the-crab", "players": 2}


def start(client: httpx.Client, owner: dict, **spec) -> dict:
    response = client.post("/v1/series", json={**CUP, **spec}, headers=auth(owner["key"]))
    assert response.status_code == 201, response.text
    assert_exact(response.json(), SeriesBody)
    return response.json()


def finished(client: httpx.Client, series_id: str, seconds: float = 120) -> dict:
    deadline = time.monotonic() + seconds
    while (found := client.get(f"/v1/series/{series_id}").json())["status"] == "running":
        assert time.monotonic() < deadline, f"unfinished: {found['games_done']} games done"
        time.sleep(0.1)
    assert_exact(found, SeriesBody)
    return found


def games_of(client: httpx.Client, series: dict) -> list[dict]:
    found, url = [], series["games"]
    while url:
        page = client.get(url).json()
        assert_exact(page, SeriesGames)
        found.extend(page["games"])
        url = page["next"]
    return found


def first_position(client: httpx.Client, game: dict) -> dict:
    replay = client.get(game["replay"])
    assert replay.status_code == 200, replay.text
    return replay.json()["versions"][0]["position"]


def test_a_duplicate_series_plays_each_deal_once_per_rotation_with_the_same_cards(client):
    owner = new_player(client, "Owner", "bot")
    series = start(client, owner, contestants=["ai-1", "ai-2"], deals=3, at_once=3)
    done = finished(client, series["id"])
    games = games_of(client, done)
    assert [(g["index"], g["deal"], g["rotation"]) for g in games] == \
        [(i, i // 2, i % 2) for i in range(6)]
    assert [[seat["contestant"] for seat in g["seats"]] for g in games] == [[0, 1], [1, 0]] * 3
    assert all([seat["seat"] for seat in g["seats"]] == [0, 1] for g in games)
    for deal in range(3):
        first, second = (first_position(client, g) for g in games[2 * deal:2 * deal + 2])
        assert first == second  # the same cards, every one of them
    assert first_position(client, games[0]) != first_position(client, games[2])
    for game in games:  # each seat's rank and points, as in the game's own result
        seats = client.get(f"/v1/games/{game['game_id']}").json()
        assert seats["status"] == "over" and seats["rated"] is False
        by_seat = {p["seat"]: (p["rank"], p["score"]) for p in seats["result"]["ranking"]}
        assert [(seat["rank"], seat["points"]) for seat in game["seats"]] == \
            [by_seat[0], by_seat[1]]


def test_without_duplicate_deals_every_game_has_its_own_cards(client):
    owner = new_player(client, "Owner", "bot")
    series = start(client, owner, contestants=["ai-1", "ai-1"], deals=2, duplicate=False)
    games = games_of(client, finished(client, series["id"]))
    positions = [first_position(client, game) for game in games]
    assert len({str(position) for position in positions}) == 4


def test_the_crosstable_counts_every_game_and_gives_both_intervals(client):
    owner = new_player(client, "Owner", "bot")
    series = start(client, owner, contestants=["ai-1", "ai-3"], deals=4, at_once=4)
    done = finished(client, series["id"])
    [cell] = done["crosstable"]
    assert (cell["a"], cell["b"], cell["games"], cell["deals"]) == (0, 1, 8, 4)
    assert cell["a_wins"] + cell["draws"] + cell["b_wins"] == 8
    games = games_of(client, done)
    def rank(game: dict, contestant: int) -> int:
        return next(seat["rank"] for seat in game["seats"] if seat["contestant"] == contestant)

    a_wins = sum(1 for game in games if rank(game, 0) < rank(game, 1))
    assert cell["a_wins"] == a_wins
    for interval in (cell["difference"], cell["paired_difference"]):
        assert interval["low"] <= interval["mean"] <= interval["high"]
    assert cell["paired_difference"]["samples"] == 4 and cell["difference"]["samples"] == 8
    for contestant in done["contestants"]:
        assert contestant["latency"]["moves"] > 0 and contestant["latency"]["timeouts"] == 0


def test_a_series_is_refused_a_persons_player_or_a_table_of_the_wrong_size(client):
    owner, person = new_player(client, "Owner", "bot"), new_player(client, "Person")
    cases = [({"contestants": [person["id"], "ai-1"]}, 403, "a person's player"),
             ({"contestants": ["p_nobodyhasthisid0", "ai-1"]}, 404, "no player has the id"),
             ({"contestants": ["ai-1", "ai-2", "ai-3"]}, 422, "need 2 contestants"),
             ({"contestants": ["ai-1", "ai-2"], "deals": 0}, 400, "deals"),
             ({"contestants": ["ai-1", "ai-2"], "game": "crabe-vs-poulpe", "players": 3},
              422, "player")]
    for body, status, words in cases:
        response = client.post("/v1/series", json={**CUP, **body}, headers=auth(owner["key"]))
        assert response.status_code == status, (body, response.text)
        assert words in response.json()["detail"], (body, response.json())
    assert client.get("/v1/series/s_nosuchseries00000").status_code == 404


def test_a_series_stopped_by_its_owner_starts_no_more_games(client):
    owner, other = new_player(client, "Owner", "bot"), new_player(client, "Other", "bot")
    series = start(client, owner, contestants=["ai-5", "ai-5"], deals=50, at_once=1)
    refused = client.delete(f"/v1/series/{series['id']}", headers=auth(other["key"]))
    assert refused.status_code == 403, refused.text  # it reads the series, it may not stop it
    assert refused.json()["type"] == "/problems/not-series-owner"
    assert refused.json()["detail"] == f"only the player who started series {series['id']}" \
        " stops it; this key's player did not"
    assert client.get(f"/v1/series/{series['id']}").json()["status"] == "running"
    stopped = client.delete(f"/v1/series/{series['id']}", headers=auth(owner["key"]))
    assert stopped.status_code == 200 and stopped.json()["status"] == "cancelled"
    time.sleep(1)
    assert len(games_of(client, stopped.json())) <= 2


def test_the_example_bot_plays_a_series_through_its_stream_and_reports_it(api):
    played = subprocess.run(
        [sys.executable, "examples/bot.py", "--url", api.url, "--series", "ai-1",
         "--deals", "3", "--game", "crabe-vs-poulpe", "--seed", "5"],
        cwd=ROOT, capture_output=True, text=True, timeout=180)
    assert played.returncode == 0, played.stderr[-2000:]
    assert "6/6 games, finished" in played.stdout, played.stdout
    series_id = next(line.split('"')[3] for line in played.stdout.splitlines()
                     if line.startswith('{"series"'))
    done = httpx.get(f"{api.url}/v1/series/{series_id}").json()
    bot = done["contestants"][0]
    assert bot["kind"] == "bot" and bot["latency"]["moves"] > 0
    assert bot["latency"]["timeouts"] == 0


def test_a_slow_bots_moves_are_made_by_the_clock_and_counted_as_timeouts(client):
    """The bot answers every turn at once but its first in each of its two games, which it
    lets run out."""
    bot = new_player(client, "Slow", "bot")
    series = start(client, bot, contestants=[bot["id"], "ai-1"], deals=1, turn_seconds=1,
                   at_once=2, game="crabe-vs-poulpe")
    games = games_of(client, client.get(f"/v1/series/{series['id']}").json())
    seats = {g["game_id"]: next(seat["seat"] for seat in g["seats"] if seat["contestant"] == 0)
             for g in games}
    tokens = _tokens_from_stream(client, bot, set(seats))
    skipped = {game_id: 0 for game_id in seats}

    def play(game_id: str) -> None:
        while (view := client.get(f"/v1/games/{game_id}",
                                  headers=auth(tokens[game_id])).json())["status"] != "over":
            if view["you"] in view["to_move"] and view["legal_moves"]:
                if skipped[game_id] < 1:
                    skipped[game_id] += 1
                    time.sleep(1.6)  # the clock moves for the bot meanwhile
                    continue
                client.post(f"/v1/games/{game_id}/moves", headers=auth(tokens[game_id]),
                            json={"move": view["legal_moves"][0],
                                  "expected_version": view["version"]})
            else:
                time.sleep(0.01)

    players = [threading.Thread(target=play, args=(game_id,)) for game_id in seats]
    for thread in players:
        thread.start()
    for thread in players:
        thread.join(120)
    done = finished(client, series["id"])
    latency = done["contestants"][0]["latency"]
    assert latency["timeouts"] >= 2 and latency["moves"] > 0
    assert latency["max_ms"] < 1500  # the moves it made itself, not the clock's


def _tokens_from_stream(client: httpx.Client, bot: dict, game_ids: set[str]) -> dict[str, str]:
    tokens: dict[str, str] = {}
    with client.stream("GET", "/v1/players/me/events", headers=auth(bot["key"])) as events:
        for line in events.iter_lines():
            if line.startswith("data: ") and '"game_started"' in line:
                data = json.loads(line[6:])
                tokens[data["game_id"]] = data["token"]
                if set(tokens) >= game_ids:
                    return tokens
    raise AssertionError("the stream ended before every game started")


def test_a_series_goes_on_when_the_replica_running_it_dies():
    """Two replicas; the one that took the series is killed mid-series; the other plays
    it to the end from the database and the store: every deal once per rotation, no game
    twice, none skipped."""
    env = {"REDIS_URL": SHARED_REDIS, "TURN_SECONDS_MIN": "1"}
    with server(env) as first, server(env) as second:
        with httpx.Client(base_url=first.url, timeout=30) as client:
            owner = new_player(client, "Owner", "bot")
            series = start(client, owner, contestants=["ai-2", "ai-2"], deals=8, at_once=2,
                           turn_seconds=1)
            wait_until(lambda: client.get(f"/v1/series/{series['id']}").json()["games_done"] >= 2,
                       seconds=60)
        first.process.kill()
        first.process.wait()
        with httpx.Client(base_url=second.url, timeout=30) as client:
            done = finished(client, series["id"], seconds=180)
            games = games_of(client, done)
            assert done["status"] == "finished" and done["games_done"] == 16
            assert [(g["deal"], g["rotation"]) for g in games] == \
                [(i // 2, i % 2) for i in range(16)]
            assert len({g["game_id"] for g in games}) == 16
            assert all(seat["rank"] is not None for g in games for seat in g["seats"])
            assert done["crosstable"][0]["games"] == 16


def test_a_player_runs_at_most_four_series_at_once(client):
    owner = new_player(client, "Busy", "bot")
    started = [start(client, owner, contestants=["ai-3", "ai-3"], deals=100, at_once=1)
               for _ in range(4)]
    fifth = client.post("/v1/series", json={**CUP, "contestants": ["ai-1", "ai-1"]},
                        headers=auth(owner["key"]))
    assert fifth.status_code == 409 and "too-many-series" in fifth.json()["type"]
    for series in started:
        client.delete(f"/v1/series/{series['id']}", headers=auth(owner["key"]))
    assert client.post("/v1/series", json={**CUP, "contestants": ["ai-1", "ai-1"], "deals": 1},
                       headers=auth(owner["key"])).status_code == 201
