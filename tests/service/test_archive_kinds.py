"""Every kind of finished game reaches the archive: between AI levels only, between people,
seeded, of a series, of a challenge, of the queue, forfeited by a clock, and with a seat
played by its clock. Run on both deployments (Redis with PostgreSQL, the embedded store
with SQLite): each game is exported once, as it ended."""

import time
from collections.abc import Callable

import httpx
import pytest

from tests.service.archives import drained
from tests.service.play import auth, create, play_to_end
from tests.service.test_api_players import new_player

AI_LEVEL = {"type": "ai", "level": 1}


def over(client: httpx.Client, game_id: str, seconds: float = 60) -> dict:
    deadline = time.monotonic() + seconds
    while (game := client.get(f"/v1/games/{game_id}").json())["status"] != "over":
        assert time.monotonic() < deadline, f"{game_id} did not end: {game['status']}"
        time.sleep(0.1)
    return game


def seated(client: httpx.Client, game_id: str, tokens: dict[int, str]) -> list[str]:
    """Plays the seats of tokens to the end; the game's id."""
    play_to_end(client, {"id": game_id, "seats": [{"seat": seat, "token": token}
                                                  for seat, token in tokens.items()]}, seed=1)
    return [game_id]


def all_ai(client: httpx.Client) -> list[str]:
    game = create(client, "cup-the-crab", 2, seats=[AI_LEVEL, AI_LEVEL])
    assert over(client, game["id"])["rated"] is True  # every seat a player: rated
    return [game["id"]]


def all_human(client: httpx.Client) -> list[str]:
    game = create(client, "cup-the-crab", 3)
    play_to_end(client, game, seed=2)
    return [game["id"]]


def seeded(client: httpx.Client) -> list[str]:
    game = create(client, "crabe-vs-poulpe", 2, seed=11)
    play_to_end(client, game, seed=3)
    return [game["id"]]


def series(client: httpx.Client) -> list[str]:
    owner = new_player(client, "Owner", "bot")
    made = client.post("/v1/series", headers=auth(owner["key"]), json={
        "game": "cup-the-crab", "players": 2, "contestants": ["ai-1", "ai-2"], "deals": 1})
    assert made.status_code == 201, made.text
    deadline = time.monotonic() + 120
    while (found := client.get(f"/v1/series/{made.json()['id']}").json())["status"] == "running":
        assert time.monotonic() < deadline, f"the series did not finish: {found}"
        time.sleep(0.1)
    games = client.get(found["games"]).json()["games"]
    assert len(games) == 2
    return [game["game_id"] for game in games]


def challenge(client: httpx.Client) -> list[str]:
    ann, bob = new_player(client, "Ann", "bot"), new_player(client, "Bob", "bot")
    offered = client.post("/v1/challenges", headers=auth(ann["key"]), json={
        "game": "crabe-vs-poulpe", "opponents": [bob["id"]]})
    assert offered.status_code == 201, offered.text
    accepted = client.post(f"/v1/challenges/{offered.json()['id']}/accept",
                           headers=auth(bob["key"])).json()
    anns = client.get(f"/v1/challenges/{accepted['id']}", headers=auth(ann["key"])).json()
    return seated(client, accepted["game_id"], {accepted["seat"]: accepted["token"],
                                                anns["seat"]: anns["token"]})


def queue(client: httpx.Client) -> list[str]:
    tickets = {}
    for name in ("Ann", "Bob"):
        player = new_player(client, name)
        joined = client.post("/v1/queue", headers=auth(player["key"]),
                             json={"game": "crabe-vs-poulpe", "players": 2})
        assert joined.status_code == 201, joined.text
        tickets[joined.json()["id"]] = player
    deadline = time.monotonic() + 20
    found = []
    while len(found) < 2:
        assert time.monotonic() < deadline, f"never seated: {found}"
        found = [ticket for ticket_id, player in tickets.items()
                 if (ticket := client.get(f"/v1/queue/{ticket_id}", headers=auth(player["key"])
                                          ).json())["status"] == "seated"]
        time.sleep(0.05)
    assert found[0]["game_id"] == found[1]["game_id"]
    return seated(client, found[0]["game_id"], {t["seat"]: t["token"] for t in found})


def forfeited(client: httpx.Client) -> list[str]:
    game = create(client, "cup-the-crab", 2, seats=[{"type": "human"}, AI_LEVEL],
                  turn_seconds=1, on_timeout="forfeit")
    assert over(client, game["id"], 20)["result"]["reason"] == "forfeit"
    return [game["id"]]


def timed_out(client: httpx.Client) -> list[str]:
    """A seat whose clock ran out once (the AI moved for it), then played to the end."""
    game = create(client, "crabe-vs-poulpe", 2, turn_seconds=1, on_timeout="ai")
    deadline = time.monotonic() + 20
    while not any(entry["kind"] == "timeout" for entry in
                  client.get(f"/v1/games/{game['id']}/history").json()["entries"]):
        assert time.monotonic() < deadline, "no timeout"
        time.sleep(0.1)
    play_to_end(client, game, seed=4)
    return [game["id"]]


KINDS: dict[str, Callable[[httpx.Client], list[str]]] = {
    "all-ai": all_ai, "all-human": all_human, "seeded": seeded, "series": series,
    "challenge": challenge, "queue": queue, "forfeited": forfeited, "timed-out": timed_out}


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_every_kind_of_finished_game_reaches_the_archive(client, kind):
    game_ids = KINDS[kind](client)
    finals = {game_id: over(client, game_id) for game_id in game_ids}
    drained(str(client.base_url))
    for game_id, final in finals.items():
        response = client.get("/v1/games/export", params={"id": game_id})
        assert response.status_code == 200, response.text
        lines = response.text.splitlines()
        assert len(lines) == 1, f"{kind} game {game_id} is archived {len(lines)} times"
        record = httpx.Response(200, content=lines[0]).json()
        assert record["result"] == final["result"] and record["version"] == final["version"]
    archive = client.get("/ready").json()["archive"]
    assert archive["refused"] == 0 and archive["status"] == "ok", archive
