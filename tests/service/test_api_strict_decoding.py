"""Strict decoding at every request body: a string is never a number (`"2"` is not 2),
unknown fields are refused wherever they are, and a refused body changes nothing. A
whole number written `2.0` is the integer 2, as JSON Schema (so the document) reads it."""

import pytest

from tests.service.play import auth, create, tokens_of

CREATE_REFUSED = [
    ({"game": "cup-the-crab", "players": "2"}, "Expected `int`, got `str` - at `$.players`"),
    ({"game": "cup-the-crab", "players": 2, "seed": "7"}, "got `str` - at `$.seed`"),
    ({"game": "cup-the-crab", "players": 2, "options": {"first_player": "0"}},
     "got `str` - at `$.options.first_player`"),
    ({"game": "cup-the-crab", "players": 2, "seats": [{"type": "ai", "iterations": "50"},
                                                      {}]},
     "got `str` - at `$.seats[0].iterations`"),
    ({"game": "crabe-vs-poulpe", "players": 2, "options": {"deck": {"crab-1": 2}}},
     "unknown field `crab-1` - at `$.options.deck`"),
    ({"game": "crabe-vs-poulpe", "players": 2,
      "options": {"deck": {"crab": ["1"] * 4, "octopus": ["1"] * 5}}},
     "Expected `array` of length >= 5 - at `$.options.deck.crab`"),
    ({"game": "crabe-vs-poulpe", "players": 2,
      "options": {"deck": {"crab": ["eleven"] * 5, "octopus": ["1"] * 5}}},
     "Invalid enum value 'eleven' - at `$.options.deck.crab[0]`"),
    ({"game": "cup-the-crab", "players": 2.5}, "Expected `int`, got `float` - at `$.players`"),
    ({"game": 7, "players": 2}, "Expected `str`, got `int` - at `$.game`"),
    ({"game": "cup-the-crab", "players": 2, "colour": "red"}, "unknown field `colour`"),
    ({"game": "cup-the-crab", "players": 2, "options": {"speed": 1}},
     "unknown field `speed` - at `$.options`"),
    ({"game": "cup-the-crab", "players": 2, "seats": [{"type": "human", "nick": "x"}, {}]},
     "unknown field `nick` - at `$.seats[0]`"),
]


@pytest.mark.parametrize("body, detail", CREATE_REFUSED)
def test_a_create_body_off_the_schema_is_400_naming_the_field(client, body, detail):
    response = client.post("/v1/games", json=body)
    assert response.status_code == 400, response.text
    assert response.json()["type"] == "/problems/invalid-request"
    assert detail in response.json()["detail"]


def test_whole_numbers_written_as_floats_are_integers(client):
    created = client.post("/v1/games", json={"game": "cup-the-crab", "players": 3.0,
                                             "seed": 12.0, "options": {"first_player": 1e0}})
    assert created.status_code == 201, created.text
    same = create(client, "cup-the-crab", 3, seed=12, options={"first_player": 1})
    game, twin = (client.get(f"/v1/games/{c['id']}").json()
                  for c in (created.json(), same))
    assert game["view"] == twin["view"]


@pytest.fixture
def game(client):
    created = create(client, "cup-the-crab", 2, seed=5)
    tokens = tokens_of(created)
    path = f"/v1/games/{created['id']}"
    move = client.get(path, headers=auth(tokens[0])).json()["legal_moves"][0]
    return path, tokens[0], move


def state_of(client, path, token):
    return (client.get(path, headers=auth(token)).json(),
            client.get(f"{path}/history", headers=auth(token)).json())


@pytest.mark.parametrize("extra, detail", [
    ({"expected_version": "0"}, "Expected `int | null`, got `str` - at `$.expected_version`"),
    ({"expected_version": 0.5}, "got `float` - at `$.expected_version`"),
    ({"expected_version": True}, "got `bool` - at `$.expected_version`"),
    ({"version": 0}, "unknown field `version`"),
])
def test_a_move_body_off_the_schema_is_400_and_changes_nothing(client, game, extra, detail):
    path, token, move = game
    before = state_of(client, path, token)
    response = client.post(f"{path}/moves", json={"move": move, **extra}, headers=auth(token))
    assert response.status_code == 400, response.text
    assert detail in response.json()["detail"]
    assert state_of(client, path, token) == before


def test_a_move_with_a_field_its_type_does_not_have_is_refused_by_the_rules(client, game):
    path, token, move = game
    before = state_of(client, path, token)
    response = client.post(f"{path}/moves", json={"move": {**move, "stack": 0}},
                           headers=auth(token))
    assert response.status_code == 422, response.text
    assert "exactly the fields type, cards" in response.json()["detail"]
    assert state_of(client, path, token) == before


def test_an_expected_version_written_as_a_float_is_the_integer(client, game):
    path, token, move = game
    response = client.post(f"{path}/moves", json={"move": move, "expected_version": 0.0},
                           headers=auth(token))
    assert response.status_code == 200, response.text
    assert response.json()["version"] == 1


@pytest.mark.parametrize("budget, detail", [
    ({"iterations": "100"}, "Expected `int | null`, got `str` - at `$.iterations`"),
    ({"time_ms": "50"}, "got `str` - at `$.time_ms`"),
    ({"iterations": 100, "depth": 3}, "unknown field `depth`"),
])
def test_a_suggest_body_off_the_schema_is_400(client, game, budget, detail):
    path, token, _ = game
    response = client.post(f"{path}/suggest", json=budget, headers=auth(token))
    assert response.status_code == 400, response.text
    assert detail in response.json()["detail"]
