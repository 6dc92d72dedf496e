"""No response shows a seat what its player could not know (ruling C8 over HTTP)."""

import json
import random

import httpx

from tests.service.play import auth, create, tokens_of

FORBIDDEN_KEYS = {"seed", "rng", "prng", "blob", "token_hashes", "snapshot", "box"}


def keys_in(value):
    if isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from keys_in(item)
    elif isinstance(value, list):
        for item in value:
            yield from keys_in(item)


def responses(client: httpx.Client, game_id: str, token: str | None) -> dict[str, object]:
    """Every read endpoint, as the holder of token (None: a spectator) gets it."""
    headers = auth(token) if token else {}
    return {suffix: client.get(f"/v1/games/{game_id}{suffix}", headers=headers).json()
            for suffix in ("", "/legal-moves", "/history")}


def assert_clean(payload, tokens: dict[int, str], caller: int | None) -> None:
    text = json.dumps(payload)
    for seat, token in tokens.items():
        assert (token in text) == False or seat == caller, f"seat {seat}'s token leaked"
    assert not FORBIDDEN_KEYS & set(keys_in(payload))


def play_selections_until(client, game, round_, rng):
    """Plays seeded random moves until round_'s selection starts."""
    game_id, tokens = game["id"], tokens_of(game)
    while True:
        spectator = client.get(f"/v1/games/{game_id}").json()
        if spectator["view"]["round"] == round_ and spectator["view"]["phase"] == "select":
            return
        seat = spectator["to_move"][0]
        move = rng.choice(client.get(f"/v1/games/{game_id}",
                                     headers=auth(tokens[seat])).json()["legal_moves"])
        client.post(f"/v1/games/{game_id}/moves", json={"move": move}, headers=auth(tokens[seat]))


def test_a_seats_secret_selection_changes_nothing_that_others_receive(client):
    """Two games dealt alike that differ only in seat 1's selection look alike to the others,
    on every endpoint and in every round."""
    for round_ in range(1, 7):
        games = [create(client, "cup-the-crab", 3, seed=50 + round_,
                        options={"first_player": 0}) for _ in range(2)]
        for game in games:
            play_selections_until(client, game, round_, random.Random(round_))
        choices = client.get(f"/v1/games/{games[0]['id']}",
                             headers=auth(tokens_of(games[0])[1])).json()["legal_moves"]
        for game, move in zip(games, (choices[0], choices[-1])):
            response = client.post(f"/v1/games/{game['id']}/moves", json={"move": move},
                                   headers=auth(tokens_of(game)[1]))
            assert response.status_code == 200
        for caller in (None, 0, 2):
            seen = [responses(client, g["id"], None if caller is None else tokens_of(g)[caller])
                    for g in games]
            for one in seen:
                for payload in one.values():
                    payload.pop("id", None)
                    for entry in payload.get("entries", []):  # when is public: events say it
                        entry.pop("at", None)
            assert seen[0] == seen[1], f"round {round_}: seat {caller} can tell the selections apart"


def test_no_response_carries_seeds_prng_state_or_other_seats_tokens_in_any_phase(client):
    game = create(client, "cup-the-crab", 3)
    tokens = tokens_of(game)
    rng = random.Random(1)
    while True:
        for caller in (None, 0, 1, 2):
            for payload in responses(client, game["id"],
                                     None if caller is None else tokens[caller]).values():
                assert_clean(payload, tokens, caller)
        spectator = client.get(f"/v1/games/{game['id']}").json()
        if spectator["status"] == "over":
            break
        seat = spectator["to_move"][0]
        move = rng.choice(client.get(f"/v1/games/{game['id']}",
                                     headers=auth(tokens[seat])).json()["legal_moves"])
        after = client.post(f"/v1/games/{game['id']}/moves", json={"move": move},
                            headers=auth(tokens[seat])).json()
        assert_clean(after, tokens, seat)
        assert after["view"]["seat"] == seat


def test_problems_never_echo_tokens_or_hidden_cards(client):
    game = create(client, "cup-the-crab", 2)
    tokens = tokens_of(game)
    path = f"/v1/games/{game['id']}"
    response = client.post(f"{path}/moves", json={"move": {"type": "pass"}},
                           headers=auth(tokens[0] + "x"))
    assert tokens[0] not in response.text
    refused = client.post(f"{path}/moves", json={"move": {
        "type": "select", "cards": ["bottle", "bottle", "bottle"]}}, headers=auth(tokens[1]))
    assert refused.status_code == 422
    reserve0 = client.get(path, headers=auth(tokens[0])).json()["view"]["reserve"]
    reserve1 = client.get(path, headers=auth(tokens[1])).json()["view"]["reserve"]
    assert str(reserve1) in refused.json()["detail"] and str(reserve0) != str(reserve1)
    assert str(reserve0) not in refused.text


def test_the_request_log_never_holds_a_token(api, client):
    game = create(client, "cup-the-crab", 2)
    for token in tokens_of(game).values():
        client.get(f"/v1/games/{game['id']}", headers=auth(token))
    log = api.output()
    assert f'"path": "/v1/games/{game["id"]}"' in log
    for token in tokens_of(game).values():
        assert token not in log
