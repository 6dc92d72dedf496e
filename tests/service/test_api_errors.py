"""Every error is problem+json with a stable type and an actionable detail, and changes nothing."""

import httpx
import pytest

from tests.service.play import auth, create, tokens_of
from tests.service.servers import server, wait_until


def snapshot(client, created):
    """Everything a rejected request must leave as it was: all views and the history."""
    game_id, tokens = created["id"], tokens_of(created)
    views = [client.get(f"/v1/games/{game_id}").json()]
    views += [client.get(f"/v1/games/{game_id}", headers=auth(t)).json() for t in tokens.values()]
    views.append(client.get(f"/v1/games/{game_id}/history", headers=auth(tokens[0])).json())
    return views


def assert_problem(response, status, type_):
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/problem+json")
    body = response.json()
    assert body["type"] == f"/problems/{type_}" and body["status"] == status
    assert body["detail"] and "Traceback" not in response.text
    return body


@pytest.fixture
def game(client):
    created = create(client, "cup-the-crab", 3, seed=4, options={"first_player": 0})
    return created, tokens_of(created), f"/v1/games/{created['id']}"


def test_malformed_json_is_400_and_changes_nothing(client, game):
    created, tokens, path = game
    before = snapshot(client, created)
    body = assert_problem(client.post(f"{path}/moves", content=b"{not json",
                                      headers=auth(tokens[0])), 400, "malformed-request")
    assert "JSON is malformed" in body["detail"]
    assert snapshot(client, created) == before


@pytest.mark.parametrize("payload, detail", [
    ({"move": 5}, "Expected `object`, got `int` - at `$.move`"),
    ({"mvoe": {}}, "unknown field `mvoe`"),
    ({"move": {}, "expected_version": "one"}, "Expected `int | null`, got `str` - at `$.expected_version`"),
    ([], "Expected `object`, got `array`"),
])
def test_schema_violations_are_400_with_msgspecs_message_and_path(client, game, payload, detail):
    created, tokens, path = game
    before = snapshot(client, created)
    body = assert_problem(client.post(f"{path}/moves", json=payload, headers=auth(tokens[0])),
                          400, "invalid-request")
    assert detail in body["detail"]
    assert snapshot(client, created) == before


def test_creating_with_a_bad_schema_is_400_and_with_bad_values_422(client):
    assert "`$.players`" in assert_problem(client.post("/v1/games", json={
        "game": "cup-the-crab", "players": [2]}), 400, "invalid-request")["detail"]
    body = assert_problem(client.post("/v1/games", json={"game": "chess", "players": 2}),
                          400, "invalid-request")  # the document lists the games
    assert "Invalid enum value 'chess' - at `$.game`" in body["detail"]
    assert "2 to 5 players" in assert_problem(client.post("/v1/games", json={
        "game": "cup-the-crab", "players": 1}), 422, "invalid-game")["detail"]
    assert "exactly 2 players" in assert_problem(client.post("/v1/games", json={
        "game": "crabe-vs-poulpe", "players": 3}), 422, "invalid-game")["detail"]
    assert "`$.players`" in assert_problem(client.post("/v1/games", json={
        "game": "cup-the-crab", "players": 6}), 400, "invalid-request")["detail"]
    assert "seed must be" in assert_problem(client.post("/v1/games", json={
        "game": "cup-the-crab", "players": 2, "seed": 2 ** 64}), 422, "invalid-game")["detail"]


@pytest.mark.parametrize("headers", [{}, auth("not-a-token"), {"Authorization": "Basic abc"},
                                     {"Authorization": "Bearer"}])
def test_moves_without_a_valid_token_are_401(client, game, headers):
    created, tokens, path = game
    before = snapshot(client, created)
    response = client.post(f"{path}/moves", json={"move": {"type": "pass"}}, headers=headers)
    assert_problem(response, 401, "unauthorized")
    assert response.headers["www-authenticate"] == "Bearer"
    assert snapshot(client, created) == before


def test_reading_with_a_wrong_token_is_401_not_a_silent_spectator_view(client, game):
    _, tokens, path = game
    assert_problem(client.get(path, headers=auth("forged")), 401, "unauthorized")
    other = create(client, "cup-the-crab", 2)["seats"][0]["token"]
    assert_problem(client.get(path, headers=auth(other)), 401, "unauthorized")


@pytest.mark.parametrize("suffix", ["", "/legal-moves", "/history"])
def test_unknown_game_ids_are_404(client, suffix):
    assert_problem(client.get(f"/v1/games/no-such-game{suffix}"), 404, "game-not-found")
    assert_problem(client.get(f"/v1/games/bad%20id{suffix}"), 404, "game-not-found")


def test_unknown_paths_and_methods_are_problems_too(client):
    assert_problem(client.get("/v2/nothing"), 404, "not-found")
    assert_problem(client.delete("/v1/games"), 405, "method-not-allowed")


def test_illegal_moves_are_422_with_the_reason_and_the_legal_moves(client, game):
    created, tokens, path = game
    before = snapshot(client, created)
    body = assert_problem(client.post(f"{path}/moves", json={"move": {
        "type": "select", "cards": ["bottle", "bottle", "bottle"]}}, headers=auth(tokens[0])),
        422, "illegal-move")
    assert "cannot select" in body["detail"]
    assert body["legal_moves"] == before[1]["legal_moves"]
    body = assert_problem(client.post(f"{path}/moves", json={"move": {"type": "pass"}},
                                      headers=auth(tokens[0])), 422, "illegal-move")
    assert "unknown move type 'pass'" in body["detail"]
    assert snapshot(client, created) == before


def test_moving_out_of_turn_is_422(client, game):
    created, tokens, path = game
    for seat in (0, 1, 2):
        move = client.get(path, headers=auth(tokens[seat])).json()["legal_moves"][0]
        client.post(f"{path}/moves", json={"move": move}, headers=auth(tokens[seat]))
    before = snapshot(client, created)
    move = before[2]["view"]["hand"][0]
    body = assert_problem(client.post(f"{path}/moves", json={"move": {
        "type": "new-stack", "card": move}}, headers=auth(tokens[1])), 422, "illegal-move")
    assert "it is seat 0's turn to play, not seat 1's" in body["detail"]
    assert body["legal_moves"] == []
    assert snapshot(client, created) == before


def test_a_stale_expected_version_is_409_with_the_current_version(client, game):
    created, tokens, path = game
    move = client.get(path, headers=auth(tokens[0])).json()["legal_moves"][0]
    client.post(f"{path}/moves", json={"move": move, "expected_version": 0},
                headers=auth(tokens[0]))
    before = snapshot(client, created)
    move = client.get(path, headers=auth(tokens[1])).json()["legal_moves"][0]
    for stale in (0, -1, 2):
        body = assert_problem(client.post(f"{path}/moves", json={
            "move": move, "expected_version": stale}, headers=auth(tokens[1])),
            409, "version-conflict")
        assert body["current_version"] == 1
    assert snapshot(client, created) == before


def test_a_body_over_the_limit_is_413(client, game):
    created, tokens, path = game
    before = snapshot(client, created)
    padding = "x" * 20_000
    body = assert_problem(client.post(f"{path}/moves", json={"move": {"type": padding}},
                                      headers=auth(tokens[0])), 413, "body-too-large")
    assert "16384 bytes" in body["detail"]
    assert snapshot(client, created) == before


def test_an_unreachable_store_is_503_then_the_service_recovers_when_it_returns(private_redis):
    with server({"REDIS_URL": private_redis.url}) as api, httpx.Client(base_url=api.url) as http:
        created = create(http, "cup-the-crab", 2)
        path, token = f"/v1/games/{created['id']}", created["seats"][0]["token"]
        assert http.get("/ready").status_code == 200
        private_redis.stop()
        response = http.get(path, headers=auth(token))
        body = assert_problem(response, 503, "store-unavailable")
        assert response.headers["retry-after"] == "1" and "nothing was changed" in body["detail"]
        assert_problem(http.post(f"{path}/moves", json={"move": {"type": "pass"}},
                                 headers=auth(token)), 503, "store-unavailable")
        assert_problem(http.post("/v1/games", json={"game": "cup-the-crab", "players": 2}),
                       503, "store-unavailable")
        assert_problem(http.get("/ready"), 503, "store-unavailable")
        assert http.get("/health").status_code == 200
        assert "Traceback" not in api.output()
        private_redis.start()  # back, empty (it keeps nothing on disk)
        wait_until(lambda: http.get("/ready").status_code == 200)
        again = create(http, "cup-the-crab", 2)
        token = again["seats"][0]["token"]
        move = http.get(f"/v1/games/{again['id']}", headers=auth(token)).json()["legal_moves"][0]
        assert http.post(f"/v1/games/{again['id']}/moves", json={"move": move},
                         headers=auth(token)).json()["version"] == 1
