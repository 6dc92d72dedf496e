"""Every way to start a game obeys every limit a game has (TURN_SECONDS_MIN, the AI's
iteration cap): POST /v1/games, challenges and series refuse what is over them with the
same problem and words, and create nothing; the queue chooses its clock and AI level
within them; a rematch made by a server with tighter limits is refused; and the document
each server serves says its own limits."""

import sqlite3
from collections.abc import Iterator

import httpx
import pytest
import redis

import core.ai
from tests.service.play import auth
from tests.service.servers import PrivateRedis, Server, server, wait_until
from tests.service.test_api_players import new_player

LIMITS = {"TURN_SECONDS_MIN": "200", "AI_MAX_ITERATIONS": "100"}  # AI levels 1 and 2 only
CLOCK = "turn_seconds is 200 to 86,400 on this server, got 10"
LEVEL = "AI level 3 (ai-3) is over this server's AI_MAX_ITERATIONS of 100: levels 1 to 2" \
        " play here"
GAME = {"game": "crabe-vs-poulpe"}


@pytest.fixture(scope="module")
def store() -> Iterator[PrivateRedis]:
    instance = PrivateRedis()
    yield instance
    instance.stop()


@pytest.fixture(scope="module")
def limited(store: PrivateRedis) -> Iterator[Server]:
    with server({"REDIS_URL": store.url, "ACCESS_LOG": "0", **LIMITS}) as running:
        yield running


@pytest.fixture
def client(limited: Server) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=limited.url, timeout=30) as http:
        yield http


def made(store: PrivateRedis, limited: Server) -> dict[str, int]:
    """What exists: games and challenges in the store, series in the archive."""
    client = redis.Redis.from_url(store.url)
    try:
        found = {kind: len(list(client.scan_iter(match=pattern, count=1000)))
                 for kind, pattern in (("games", "game:{*}:state"),
                                       ("challenges", "challenge:{*}"))}
    finally:
        client.close()
    with sqlite3.connect(limited.database_url.removeprefix("sqlite:///")) as database:
        found["series"] = database.execute("SELECT count(*) FROM series").fetchone()[0]
    return found


def refused(response: httpx.Response, slug: str, detail: str) -> None:
    assert response.status_code == 422, response.text
    assert response.json()["type"] == f"/problems/{slug}"
    assert response.json()["detail"] == detail


def starts(client: httpx.Client, key: str, **body) -> list[httpx.Response]:
    """The same table asked of each route that starts a game from a request."""
    return [client.post("/v1/games", json={**GAME, "players": 2, **body.get("games", {})}),
            client.post("/v1/challenges", headers=auth(key),
                        json={**GAME, "opponents": ["ai-1"], **body.get("challenge", {})}),
            client.post("/v1/series", headers=auth(key),
                        json={**GAME, "players": 2, "contestants": ["ai-1", "ai-1"],
                              "deals": 1, **body.get("series", {})})]


def test_every_route_refuses_a_clock_under_turn_seconds_min_and_creates_nothing(
        client, store, limited):
    bot = new_player(client, "Bot", "bot")
    before = made(store, limited)
    short = {"turn_seconds": 10}
    for response in starts(client, bot["key"], games=short, challenge=short, series=short):
        refused(response, "invalid-game", CLOCK)
    assert made(store, limited) == before


def test_every_route_refuses_an_ai_level_over_the_cap_and_creates_nothing(
        client, store, limited):
    bot = new_player(client, "Bot", "bot")
    before = made(store, limited)
    responses = starts(client, bot["key"],
                       games={"seats": [{"type": "human"}, {"type": "ai", "level": 3}]},
                       challenge={"opponents": ["ai-3"]},
                       series={"contestants": ["ai-1", "ai-3"]})
    refused(responses[0], "budget-refused",
            f"level 3 needs {core.ai.LEVELS[3]['iterations']} iterations, over this server's"
            " cap of 100")
    for response in responses[1:]:
        refused(response, "budget-refused", LEVEL)
    assert made(store, limited) == before


def test_clocks_the_server_chooses_are_within_its_limits(client):
    bot = new_player(client, "Bot", "bot")
    challenge = client.post("/v1/challenges", headers=auth(bot["key"]),
                            json={**GAME, "opponents": ["ai-1"]}).json()
    assert challenge["turn_seconds"] == 200  # the default 60 is under TURN_SECONDS_MIN
    game = client.get(f"/v1/games/{challenge['game_id']}").json()
    assert game["clock"]["turn_seconds"] == 200
    series = client.post("/v1/series", headers=auth(bot["key"]),
                         json={**GAME, "players": 2, "contestants": ["ai-1", "ai-2"],
                               "deals": 1}).json()
    assert series["turn_seconds"] == 200
    client.delete(f"/v1/series/{series['id']}", headers=auth(bot["key"]))


def test_the_queue_seats_its_game_within_the_limits(client):
    bot = new_player(client, "Bot", "bot")
    ticket = client.post("/v1/queue", headers=auth(bot["key"]),
                         json={**GAME, "players": 2, "fill_with_ai_after": 0}).json()
    wait_until(lambda: client.get(f"/v1/queue/{ticket['id']}", headers=auth(
        bot["key"])).json()["status"] == "seated")
    seated = client.get(f"/v1/queue/{ticket['id']}", headers=auth(bot["key"])).json()
    game = client.get(f"/v1/games/{seated['game_id']}").json()
    assert game["clock"] == {"turn_seconds": 200, "on_timeout": "forfeit"}  # 120 is under
    [robot] = [seat for seat in game["seats"] if seat["type"] == "ai"]
    assert robot["player"] in ("ai-1", "ai-2")


def test_the_document_says_this_servers_limits(client):
    schemas = client.get("/schema/openapi.json").json()["components"]["schemas"]
    for name in ("ChallengeCvp2", "SeriesCvp2", "CreateCvp2"):
        clock = schemas[name]["properties"]["turn_seconds"]["anyOf"][0]
        assert clock["minimum"] == 200, name
    for name, field in (("ChallengeCvp2", "opponents"), ("SeriesCvp2", "contestants")):
        assert schemas[name]["properties"][field]["items"]["pattern"] == \
            "^(p_[A-Za-z0-9_-]{16}|ai-[12])$"


def test_a_rematch_obeys_the_limits_of_the_server_that_makes_it(store, limited):
    """A game made with one-second clocks by a server that allowed them, finished by its
    clock; its rematch offered and accepted, a server whose shortest clock is 200 s
    refuses to make it."""
    with server({"REDIS_URL": store.url, "ACCESS_LOG": "0", "TURN_SECONDS_MIN": "1"}) as loose:
        created = httpx.post(f"{loose.url}/v1/games", json={
            **GAME, "players": 2, "turn_seconds": 1, "on_timeout": "forfeit",
            "seats": [{"type": "human"}, {"type": "human"}]}).json()
        game_id, token = created["id"], created["seats"][0]["token"]
        other = created["seats"][1]["token"]
        wait_until(lambda: httpx.get(f"{loose.url}/v1/games/{game_id}").json()["status"]
                   == "over", seconds=20)
    before = made(store, limited)
    offered = httpx.post(f"{limited.url}/v1/games/{game_id}/rematch", headers=auth(token))
    assert offered.status_code == 202, offered.text  # the other seat must accept
    response = httpx.post(f"{limited.url}/v1/games/{game_id}/rematch", headers=auth(other))
    refused(response, "invalid-game", "turn_seconds is 200 to 86,400 on this server, got 1")
    assert httpx.get(f"{limited.url}/v1/games/{game_id}").json()["rematch"] is None
    assert made(store, limited) == before
