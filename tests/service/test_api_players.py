"""Players: identities with a key, seats bound to them, ratings updated by rated games
only (as OpenSkill's Plackett-Luce computes them), the AI levels fixed, leaderboards, and a
rebuild from the archive equal to the live ratings. Run on both deployments."""

import os
import subprocess
import sys
import time

import httpx
import pytest
from openskill.models import PlackettLuce

from service.players.bodies import Leaderboard, PlayerBody, PlayerCreated, PlayerGames
from service.players.ratings import anchor, pool
from tests.service.archives import drained
from tests.service.play import auth, create, play_to_end, tokens_of
from tests.service.test_api_archive import exported
from tests.service.test_bodies_exact import assert_exact

MODEL = PlackettLuce()
LEVEL_1 = {"type": "ai", "level": 1}


def new_player(client: httpx.Client, name: str, kind: str = "human") -> dict:
    response = client.post("/v1/players", json={"name": name, "kind": kind})
    assert response.status_code == 201, response.text
    assert_exact(response.json(), PlayerCreated)
    return response.json()


def profile(client: httpx.Client, player_id: str) -> dict:
    response = client.get(f"/v1/players/{player_id}")
    assert response.status_code == 200, response.text
    assert_exact(response.json(), PlayerBody)
    return response.json()


def rating(client: httpx.Client, player_id: str, game: str, players: int = 2) -> dict | None:
    """The player's rating in the pool of game at this table size."""
    return next((r for r in profile(client, player_id)["ratings"]
                 if r["pool"] == pool(game, players)), None)


def bound(player: dict) -> dict:
    return {"type": "human", "player": player["key"]}


def play_humans_to_end(client: httpx.Client, created: dict, seed: int) -> dict:
    """Plays the human seats' moves (the first legal one, or by seed) while the server's
    AI plays its own; the final game as a spectator sees it."""
    tokens = tokens_of(created)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        game = client.get(f"/v1/games/{created['id']}").json()
        if game["status"] == "over":
            return game
        ours = [seat for seat in game["to_move"] if seat in tokens]
        if not ours:
            time.sleep(0.02)
            continue
        view = client.get(f"/v1/games/{created['id']}", headers=auth(tokens[ours[0]])).json()
        if not view["legal_moves"]:
            continue
        move = view["legal_moves"][(seed + view["version"]) % len(view["legal_moves"])]
        client.post(f"/v1/games/{created['id']}/moves", headers=auth(tokens[ours[0]]),
                    json={"move": move, "expected_version": view["version"]})
    raise TimeoutError("the game did not end")


def ranks(game: dict) -> list[int]:
    by_seat = {place["seat"]: place["rank"] for place in game["result"]["ranking"]}
    return [by_seat[seat] for seat in sorted(by_seat)]


def test_a_new_player_gets_its_key_once_and_its_profile_never_shows_it(client):
    made = new_player(client, "Ann")
    assert made["key"].startswith("crab_pk_") and made["id"].startswith("p_")
    shown = profile(client, made["id"])
    assert shown["name"] == "Ann" and shown["kind"] == "human" and shown["ratings"] == []
    assert made["key"] not in str(shown)
    me = client.get("/v1/players/me", headers=auth(made["key"]))
    assert me.status_code == 200 and me.json()["id"] == made["id"]


def test_a_player_renamed_with_its_key_shows_the_new_name_and_a_bad_one_changes_nothing(client):
    made = new_player(client, "Ann")
    renamed = client.patch("/v1/players/me", json={"name": "Annie"}, headers=auth(made["key"]))
    assert renamed.status_code == 200, renamed.text
    assert_exact(renamed.json(), PlayerBody)
    assert renamed.json()["name"] == profile(client, made["id"])["name"] == "Annie"
    for body, key, status in [({"name": ""}, made["key"], 400), ({"name": "x" * 25}, made["key"], 400),
                              ({"name": "Bo", "kind": "bot"}, made["key"], 400),
                              ({"name": "Bo"}, None, 401), ({"name": "Bo"}, "crab_pk_nope", 401)]:
        refused = client.patch("/v1/players/me", json=body, headers=auth(key) if key else {})
        assert refused.status_code == status, refused.text
    assert profile(client, made["id"])["name"] == "Annie"


@pytest.mark.parametrize("body", [{"name": ""}, {"name": "x" * 25}, {"name": "Bo", "kind": "ai"},
                                  {"name": "Bo", "key": "mine"}, {}])
def test_a_player_with_a_bad_name_or_kind_is_refused_with_400(client, body):
    response = client.post("/v1/players", json=body)
    assert response.status_code == 400, response.text
    assert response.headers["content-type"] == "application/problem+json"


def test_an_unknown_player_or_key_is_refused_and_nothing_is_made(client):
    assert client.get("/v1/players/p_AAAAAAAAAAAAAAAA").json()["type"] == "/problems/player-not-found"
    assert client.get("/v1/players/me").status_code == 401
    assert client.get("/v1/players/me", headers=auth("crab_pk_nope")).status_code == 401
    refused = client.post("/v1/games", json={"game": "crabe-vs-poulpe", "players": 2,
                                             "seats": [{"type": "human", "player": "nope"},
                                                       LEVEL_1]})
    assert refused.status_code == 403 and refused.json()["type"] == "/problems/unknown-player"


def test_a_game_between_two_bound_players_rates_both_as_openskill_does(client):
    ann, bob = new_player(client, "Ann"), new_player(client, "Bob")
    created = create(client, "cup-the-crab", 2, seats=[bound(ann), bound(bob)])
    assert [seat["name"] for seat in created["seats"]] == ["Ann", "Bob"]
    game = client.get(f"/v1/games/{created['id']}").json()
    assert game["rated"] is True and [s["player"] for s in game["seats"]] == [ann["id"], bob["id"]]
    play_to_end(client, created, seed=5)
    game = client.get(f"/v1/games/{created['id']}").json()
    drained(str(client.base_url))
    expected = MODEL.rate([[MODEL.rating()], [MODEL.rating()]], ranks=ranks(game))
    for player, (after,) in zip((ann, bob), expected):
        found = rating(client, player["id"], "cup-the-crab")
        assert (found["mu"], found["sigma"]) == (after.mu, after.sigma)
        assert found["rated_games"] == found["games"] == 1 and found["provisional"]
        assert found["history"][-1]["game_id"] == created["id"]
    record = [line for line in exported(client, player=ann["id"]) if line["id"] == created["id"]]
    assert len(record) == 1 and record[0]["rated"] is True
    assert [seat["player"] for seat in record[0]["seats"]] == [ann["id"], bob["id"]]
    # its place in the order ratings were updated, which a recompute follows
    assert isinstance(record[0]["rated_order"], int) and record[0]["rated_order"] >= 1


def test_a_seat_joined_with_a_player_key_is_bound_to_that_player(client):
    host, guest = new_player(client, "Host"), new_player(client, "Guest")
    created = create(client, "crabe-vs-poulpe", 2, seats=[bound(host), {"type": "open"}],
                     listed=False)
    joined = client.post(f"/v1/games/{created['id']}/join", json={"player": guest["key"]})
    assert joined.status_code == 201, joined.text
    game = client.get(f"/v1/games/{created['id']}").json()
    assert [seat["player"] for seat in game["seats"]] == [host["id"], guest["id"]]
    assert [seat["name"] for seat in game["seats"]] == ["Host", "Guest"]
    assert game["rated"] is True


def test_a_rated_game_against_an_ai_level_moves_the_player_and_never_the_level(client):
    ann = new_player(client, "Ann")
    created = create(client, "crabe-vs-poulpe", 2, seats=[bound(ann), LEVEL_1])
    game = play_humans_to_end(client, created, seed=1)
    drained(str(client.base_url))
    level = anchor(pool("crabe-vs-poulpe", 2), 1)
    expected = MODEL.rate([[MODEL.rating()], [MODEL.rating(mu=level.mu, sigma=level.sigma)]],
                          ranks=ranks(game))
    found = rating(client, ann["id"], "crabe-vs-poulpe")
    assert (found["mu"], found["sigma"]) == (expected[0][0].mu, expected[0][0].sigma)
    ai = rating(client, "ai-1", "crabe-vs-poulpe")
    assert (ai["mu"], ai["sigma"]) == (level.mu, level.sigma) and not ai["provisional"]


@pytest.mark.parametrize("case", ["seeded", "unbound seat", "casual", "one player twice"])
def test_an_unrated_game_counts_the_games_played_but_changes_no_rating(client, case):
    ann, bob = new_player(client, "Ann"), new_player(client, "Bob")
    seats = {"seeded": [bound(ann), bound(bob)], "unbound seat": [bound(ann), {"type": "human"}],
             "casual": [bound(ann), bound(bob)],
             "one player twice": [bound(ann), bound(ann)]}[case]
    extra = {"seed": 7} if case == "seeded" else {"rated": False} if case == "casual" else {}
    created = create(client, "cup-the-crab", 2, seats=seats, **extra)
    assert client.get(f"/v1/games/{created['id']}").json()["rated"] is False
    play_to_end(client, created, seed=2)
    drained(str(client.base_url))
    found = rating(client, ann["id"], "cup-the-crab")
    assert found["rated_games"] == 0 and found["games"] == (2 if case == "one player twice" else 1)
    assert (found["mu"], found["sigma"]) == (MODEL.mu, MODEL.sigma) and found["history"] == []
    [record] = exported(client, id=created["id"])
    assert record["rated"] is False and record["rated_order"] is None


def test_a_game_every_seat_abandons_has_no_winner_and_rates_nobody(client):
    # Both seats of Cup the Crab select at once, so both clocks run out at the same tick.
    game, ann, bob = "cup-the-crab", new_player(client, "Ann"), new_player(client, "Bob")
    created = create(client, game, 2, seats=[bound(ann), bound(bob)], turn_seconds=1,
                     on_timeout="forfeit")
    assert client.get(f"/v1/games/{created['id']}").json()["rated"] is True
    deadline = time.monotonic() + 30
    while (final := client.get(f"/v1/games/{created['id']}").json())["status"] != "over":
        assert time.monotonic() < deadline, "the clocks never ran out"
        time.sleep(0.1)
    assert final["result"]["forfeited"] == [0, 1]
    assert final["result"]["winners"] == [] and ranks(final) == [2, 2]
    assert final["rated"] is False
    drained(str(client.base_url))
    for player in (ann, bob):
        found = rating(client, player["id"], game)
        assert (found["games"], found["wins"], found["rated_games"]) == (1, 0, 0)
        assert (found["mu"], found["sigma"]) == (MODEL.mu, MODEL.sigma)


def test_a_players_games_are_paged_latest_first(client):
    ann = new_player(client, "Ann")
    played = []
    for seed in range(3):
        created = create(client, "cup-the-crab", 2, seats=[bound(ann), {"type": "human"}],
                         rated=False)
        play_to_end(client, created, seed=seed)
        played.append(created["id"])
    drained(str(client.base_url))
    first = client.get(f"/v1/players/{ann['id']}/games", params={"limit": 2}).json()
    assert_exact(first, PlayerGames)
    rest = client.get(f"/v1/players/{ann['id']}/games",
                      params={"limit": 2, "cursor": first["next_cursor"]}).json()
    assert [g["id"] for g in first["games"] + rest["games"]] == played[::-1]
    assert rest["next_cursor"] is None and all(g["seat"] == 0 for g in first["games"])


def test_the_leaderboard_orders_by_mu_minus_3_sigma_with_the_ai_levels_and_pages(client):
    ann = new_player(client, "Ann")
    for seed in range(5):  # enough rated games to be ranked
        play_humans_to_end(client, create(client, "crabe-vs-poulpe", 2,
                                          seats=[bound(ann), LEVEL_1]), seed)
    drained(str(client.base_url))
    whole = []
    cursor = None
    while True:
        params = {"limit": 3, "player": ann["id"], **({"cursor": cursor} if cursor else {})}
        page = client.get(f"/v1/leaderboards/{pool('crabe-vs-poulpe', 2)}", params=params).json()
        assert_exact(page, Leaderboard)
        whole += page["lines"]
        cursor = page["next_cursor"]
        if cursor is None:
            break
    values = [line["value"] for line in whole]
    assert values == sorted(values, reverse=True)
    assert [line["rank"] for line in whole] == list(range(1, len(whole) + 1))
    assert {f"ai-{level}" for level in range(1, 6)} <= {line["player"]["id"] for line in whole}
    mine = next(line for line in whole if line["player"]["id"] == ann["id"])
    assert page["you"] == mine and mine["rated_games"] == 5
    assert rating(client, ann["id"], "crabe-vs-poulpe")["rank"] == mine["rank"]
    assert client.get("/v1/leaderboards/chess").status_code == 404


def test_rebuilding_every_rating_from_the_archive_gives_the_live_ratings_exactly(api, client):
    drained(str(client.base_url))

    def rebuild(*extra: str) -> str:
        done = subprocess.run([sys.executable, "-m", "service.archive", "rebuild-ratings", *extra],
                              env={**os.environ, "DATABASE_URL": api.database_url},
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        return done.stdout

    checked = rebuild()
    assert int(checked.split()[0]) >= 7 and " 0 standings differed" in checked, checked
    assert "replace" in rebuild("--write")  # written back: the same ratings, so still equal
    assert " 0 standings differed" in rebuild()
