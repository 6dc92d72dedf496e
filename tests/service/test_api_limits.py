"""Abuse limits: budgets shared by every replica, and the AI's share of a worker bounded."""

import asyncio
from collections.abc import Iterator

import httpx
import pytest

from tests.service.play import auth, create, tokens_of
from tests.service.servers import SHARED_REDIS, Server, server

GAME = {"game": "cup-the-crab", "players": 2}


def from_client(address: str) -> dict[str, str]:
    return {"X-Forwarded-For": address}


@pytest.fixture(scope="module")
def limited() -> Iterator[tuple[Server, Server]]:
    """Two replicas sharing Redis, behind a trusted proxy on 127.0.0.1, with small budgets."""
    env = {"REDIS_URL": SHARED_REDIS, "RATE_LIMIT_CREATES_PER_MINUTE": "5",
           "RATE_LIMIT_MOVES_PER_SECOND": "3", "TRUSTED_PROXIES": "127.0.0.1"}
    with server(env) as a, server(env) as b:
        yield a, b


def test_a_flood_of_creates_from_one_client_gets_429s_while_other_clients_play_on(limited):
    a, b = limited
    answers = [httpx.post(f"{(a, b)[i % 2].url}/v1/games", json=GAME,
                          headers=from_client("203.0.113.7")) for i in range(8)]
    assert [r.status_code for r in answers] == [201] * 5 + [429] * 3  # across both replicas
    refused = answers[-1]
    assert refused.headers["content-type"] == "application/problem+json"
    assert refused.json()["type"] == "/problems/rate-limited"
    assert 1 <= int(refused.headers["retry-after"]) <= 12
    assert refused.headers["ratelimit-limit"] == "5"
    assert refused.headers["ratelimit-remaining"] == "0"
    assert answers[0].headers["ratelimit-remaining"] == "4"
    other = httpx.post(f"{a.url}/v1/games", json=GAME, headers=from_client("198.51.100.9"))
    assert other.status_code == 201


def test_joins_spend_the_clients_create_budget(limited):
    a, _ = limited
    flooder = "192.0.2.50"
    codes = [httpx.post(f"{a.url}/v1/games", json=GAME, headers=from_client(flooder))
             .status_code for _ in range(6)]
    assert codes[-1] == 429
    host = httpx.post(f"{a.url}/v1/games", headers=from_client("192.0.2.51"), json={
        "game": "cup-the-crab", "players": 3, "seats": [{"type": "human"}, {"type": "open"},
                                                         {"type": "open"}]}).json()
    join = f"{a.url}/v1/games/{host['id']}/join"
    assert httpx.post(join, json={}, headers=from_client(flooder)).status_code == 429
    assert httpx.post(join, json={}, headers=from_client("192.0.2.52")).status_code == 201


def test_moves_are_limited_per_seat_token_and_other_seats_move_on(limited):
    a, _ = limited
    game = httpx.post(f"{a.url}/v1/games", json=GAME, headers=from_client("192.0.2.1")).json()
    tokens = tokens_of(game)
    path = f"{a.url}/v1/games/{game['id']}/moves"
    flood, seconds = asyncio.run(at_once(path, auth(tokens[0]), 12))
    codes = [r.status_code for r in flood]
    assert set(codes) == {422, 429}  # refused moves spend budget too
    # A burst of 3, then one more each third of a second: sent at once, however slow the
    # machine, no more got through than the burst and what refilled while they were served.
    assert codes.count(422) <= 3 + int(seconds * 3) + 1
    assert {r.headers["ratelimit-limit"] for r in flood} == {"3"}
    assert max(int(r.headers["ratelimit-remaining"]) for r in flood) == 2  # the first served
    refused = next(r for r in flood if r.status_code == 429)
    assert refused.json()["type"] == "/problems/rate-limited"
    assert refused.json()["detail"].startswith("too many moves from this seat: 3 per 1 s")
    assert refused.headers["retry-after"] == "1"
    assert refused.headers["ratelimit-remaining"] == "0"
    assert len(refused.headers.get_list("ratelimit-limit")) == 1
    other = httpx.post(path, json={"move": {"type": "pass"}}, headers=auth(tokens[1]))
    assert other.status_code == 422  # its own budget: refused for the move, not the rate
    assert httpx.get(f"{a.url}/v1/games/{game['id']}").json()["version"] == 0


async def at_once(path: str, headers: dict[str, str], count: int) -> tuple[list[httpx.Response], float]:
    """The answers to `count` moves sent together, and the seconds they took."""
    async with httpx.AsyncClient(timeout=60) as client:
        started = asyncio.get_running_loop().time()
        answers = await asyncio.gather(*(client.post(path, json={"move": {"type": "pass"}},
                                                     headers=headers) for _ in range(count)))
        return list(answers), asyncio.get_running_loop().time() - started


def test_suggestions_spend_the_seats_move_budget():
    with server({"RATE_LIMIT_MOVES_PER_SECOND": "1"}) as running:  # the next one in 1 s
        game = httpx.post(f"{running.url}/v1/games", json=GAME).json()
        seat = auth(tokens_of(game)[0])
        path = f"{running.url}/v1/games/{game['id']}"
        hint = httpx.post(f"{path}/suggest", json={"iterations": 10}, headers=seat)
        move = httpx.post(f"{path}/moves", json={"move": hint.json()["move"]}, headers=seat)
    assert hint.status_code == 200 and hint.headers["ratelimit-remaining"] == "0"
    assert move.status_code == 429


def test_without_trusted_proxies_x_forwarded_for_is_ignored():
    with server({"RATE_LIMIT_CREATES_PER_MINUTE": "2"}) as running:
        codes = [httpx.post(f"{running.url}/v1/games", json=GAME,
                            headers=from_client(f"203.0.113.{i}")).status_code
                 for i in range(3)]
    assert codes == [201, 201, 429]


def test_a_limit_of_zero_is_off(api, client):
    answers = [client.post("/v1/games", json=GAME) for _ in range(3)]
    assert all(r.status_code == 201 and "ratelimit-limit" not in r.headers for r in answers)


def test_suggestions_beyond_the_ai_limit_are_refused_at_once_and_moves_go_on():
    with server({"AI_MAX_CONCURRENT": "1"}) as running, \
            httpx.Client(base_url=running.url, timeout=30) as client:
        game = create(client, "cup-the-crab", 2)
        tokens = tokens_of(game)
        path = f"/v1/games/{game['id']}"
        move = client.get(path, headers=auth(tokens[1])).json()["legal_moves"][0]

        async def crowd():
            async with httpx.AsyncClient(base_url=running.url, timeout=30) as http:
                thinking = [http.post(f"{path}/suggest", json={"time_ms": 1500},
                                      headers=auth(tokens[0])) for _ in range(6)]

                async def move_meanwhile():
                    await asyncio.sleep(0.3)
                    return await http.post(f"{path}/moves", json={"move": move},
                                           headers=auth(tokens[1]))
                return await asyncio.gather(*thinking, move_meanwhile())
        *suggestions, moved = asyncio.run(crowd())
    codes = sorted(answer.status_code for answer in suggestions)
    assert 200 in codes and 503 in codes and set(codes) == {200, 503}
    busy = next(answer for answer in suggestions if answer.status_code == 503)
    assert busy.json()["type"] == "/problems/ai-busy" and busy.headers["retry-after"] == "1"
    assert moved.status_code == 200
