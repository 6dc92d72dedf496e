"""The arena's requests as the document gives them (one schema per game and table size)
are accepted at every edge the schemas allow, and the words of its refusals are true: a
header or query parameter is named as such, hints-off says which reason applies."""

import core
from tests.service.play import auth, create
from tests.service.test_api_players import new_player

def tables() -> list[tuple[str, int]]:
    return [(game, players) for game in core.GAMES for players in core.PLAYERS[game]]


def test_a_challenge_at_every_table_size_of_every_game_is_taken_at_its_edges(client):
    """As many opponents as the other seats, the challenger at the last seat, its first
    player the last seat: what ChallengeCupCrab5 and ChallengeCvp2 allow, started."""
    bot = new_player(client, "Bot", "bot")
    for game, players in tables():
        body = {"game": game, "opponents": ["ai-1"] * (players - 1), "seat": players - 1,
                "options": {"first_player": players - 1}, "turn_seconds": 86_400}
        response = client.post("/v1/challenges", json=body, headers=auth(bot["key"]))
        assert response.status_code == 201, (game, players, response.text)
        assert response.json()["status"] == "accepted" and response.json()["seat"] == players - 1


def test_a_series_at_every_table_size_of_every_game_is_taken(client):
    bot = new_player(client, "Bot", "bot")
    for game, players in tables():
        body = {"game": game, "players": players, "contestants": ["ai-1"] * players,
                "deals": 1, "at_once": 1}
        response = client.post("/v1/series", json=body, headers=auth(bot["key"]))
        assert response.status_code == 201, (game, players, response.text)
        stopped = client.delete(f"/v1/series/{response.json()['id']}", headers=auth(bot["key"]))
        assert stopped.status_code == 200, stopped.text  # 4 may run at once


def test_a_ticket_at_every_table_size_of_every_game_is_taken(client):
    bot = new_player(client, "Bot", "bot")
    for game, players in tables():
        response = client.post("/v1/queue", json={"game": game, "players": players},
                               headers=auth(bot["key"]))
        assert response.status_code == 201, (game, players, response.text)
        client.delete(f"/v1/queue/{response.json()['id']}", headers=auth(bot["key"]))


def hints_off(client, game_id: str, token: str) -> str:
    response = client.post(f"/v1/games/{game_id}/suggest", json={"iterations": 10},
                           headers=auth(token))
    assert response.status_code == 409 and response.json()["type"] == "/problems/hints-off"
    return response.json()["detail"]


def test_hints_off_says_which_reason_applies(client):
    bot = new_player(client, "Bot", "bot")
    challenge = client.post("/v1/challenges", headers=auth(bot["key"]),
                            json={"game": "crabe-vs-poulpe", "opponents": ["ai-1"]}).json()
    assert hints_off(client, challenge["game_id"], challenge["token"]) == (
        "the AI's suggestions are off in a game of the arena (a challenge's or a series'):"
        " each contestant plays on its own")
    rated = create(client, "crabe-vs-poulpe", 2, seats=[
        {"type": "human", "player": bot["key"]}, {"type": "ai", "level": 1}])
    assert hints_off(client, rated["id"], rated["seats"][0]["token"]) == (
        "the AI's suggestions are off in a rated game: a strong AI's advice would count in"
        " the seat's rating")
    between = create(client, "crabe-vs-poulpe", 2, seats=[{"type": "human"}, {"type": "open"}])
    client.post(f"/v1/games/{between['id']}/join", json={})
    assert hints_off(client, between["id"], between["seats"][0]["token"]).startswith(
        "the AI's suggestions are off in a game between people (it was created with open"
        " seats)")


def test_a_refused_header_or_query_parameter_is_named_as_one(client):
    game = create(client, "cup-the-crab", 2)
    bot = new_player(client, "Bot", "bot")
    cases = [
        (f"/v1/games/{game['id']}/events", {"Last-Event-ID": "x7"},
         "invalid header `Last-Event-ID`: Expected `str` matching regex"),
        (f"/v1/games/{game['id']}/events?since=x7", {}, "invalid query parameter `since`:"),
        ("/v1/games?cursor=x7", {}, "invalid query parameter `cursor`:"),
        ("/v1/games/export?since=x7", {}, "invalid query parameter `since`:"),
        ("/v1/players/me/events", {**auth(bot["key"]), "Last-Event-ID": "x7"},
         "invalid header `Last-Event-ID`:"),
    ]
    for url, headers, words in cases:
        response = client.get(url, headers=headers)
        assert response.status_code == 400 and response.json()["type"] == \
            "/problems/invalid-request", (url, response.text)
        assert response.json()["detail"].startswith(words), (url, response.json()["detail"])
        assert "request body" not in response.json()["detail"], url
    body = client.post("/v1/games", json={"game": "cup-the-crab", "players": "2"})
    assert body.json()["detail"].startswith("invalid request body: Expected `int`, got `str`")
