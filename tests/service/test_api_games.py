"""Whole games over HTTP only, for every game and player count, on both stores."""

import pytest

import core
from tests.service.play import auth, create, play_to_end, replay_in_core, tokens_of

def player_counts():
    """Every (game, players) that core accepts."""
    for game in core.GAMES:
        for players in range(1, 7):
            try:
                core.new_game(game, players, seed=0)
            except ValueError:
                continue
            yield game, players


@pytest.mark.parametrize("game, players", list(player_counts()))
def test_a_whole_game_played_over_http_ends_as_core_computes(client, game, players):
    seed = 1000 + players
    created = create(client, game, players, seed=seed)
    moves = play_to_end(client, created, seed=players)
    final = client.get(f"/v1/games/{created['id']}").json()
    state = replay_in_core(game, players, seed, moves)
    assert final["status"] == "over" and final["to_move"] == []
    assert final["result"] == {**state.result(), "reason": "finished", "forfeited": [],
                               "resigned": []}
    assert final["version"] == len(moves)
    assert final["view"] == state.view(None)


def test_creating_a_game_returns_one_token_per_seat_once(client):
    created = create(client, "cup-the-crab", 3)
    assert created["version"] == 0 and created["game"] == "cup-the-crab"
    assert [s["seat"] for s in created["seats"]] == [0, 1, 2]
    assert len({s["token"] for s in created["seats"]}) == 3
    view = client.get(f"/v1/games/{created['id']}",
                      headers=auth(created["seats"][1]["token"])).json()
    assert "token" not in str(view) and view["you"] == 1


def test_a_view_has_the_documented_fields(client):
    created = create(client, "cup-the-crab", 2)
    game_id, tokens = created["id"], tokens_of(created)
    seat_view = client.get(f"/v1/games/{game_id}", headers=auth(tokens[0])).json()
    assert set(seat_view) == {"id", "game", "version", "status", "seeded", "rated", "to_move",
                              "you", "legal_moves", "result", "view", "seats", "clock",
                              "rematch", "rematch_offer", "hints"}
    assert seat_view["status"] == "active" and seat_view["result"] is None
    assert seat_view["legal_moves"] == client.get(
        f"/v1/games/{game_id}/legal-moves", headers=auth(tokens[0])).json()["legal_moves"]
    spectator = client.get(f"/v1/games/{game_id}").json()
    assert spectator["you"] is None and spectator["legal_moves"] == []
    assert spectator["view"]["hand"] is None


def test_seeded_games_are_marked_seeded_in_every_view(client):
    seeded = create(client, "cup-the-crab", 2, seed=5)
    unseeded = create(client, "cup-the-crab", 2)
    assert seeded["seeded"] is True and unseeded["seeded"] is False
    for created, flag in ((seeded, True), (unseeded, False)):
        token = created["seats"][0]["token"]
        assert client.get(f"/v1/games/{created['id']}").json()["seeded"] is flag
        assert client.get(f"/v1/games/{created['id']}", headers=auth(token)).json()["seeded"] is flag


def test_the_same_seed_deals_the_same_game_as_core(client):
    created = create(client, "cup-the-crab", 4, seed=77, options={"first_player": 2})
    token = created["seats"][0]["token"]
    view = client.get(f"/v1/games/{created['id']}", headers=auth(token)).json()
    assert view["view"] == core.new_game("cup-the-crab", 4, seed=77,
                                         options={"first_player": 2}).view(0)


def test_a_custom_crabe_vs_poulpe_deck_is_each_colours_cards_by_face(client):
    """Over HTTP a deck is a list of faces per colour (5 to 40 cards each), so every deck
    the document allows is one the game takes; core gets it as {card: copies}."""
    deck = {"crab": ["alpha", "1", "1", "2", "pincer", "omega"],
            "octopus": ["alpha", "3", "4", "5", "mimic"]}
    created = client.post("/v1/games", json={"game": "crabe-vs-poulpe", "players": 2,
                                             "seed": 4, "options": {"deck": deck}})
    assert created.status_code == 201, created.text
    view = client.get(f"/v1/games/{created.json()['id']}").json()["view"]
    assert view["mode"] == "custom"
    assert view["deck"] == {"crab-alpha": 1, "crab-1": 2, "crab-2": 1, "crab-pincer": 1,
                            "crab-omega": 1, "octopus-alpha": 1, "octopus-3": 1,
                            "octopus-4": 1, "octopus-5": 1, "octopus-mimic": 1}
    assert view["deck"] == core.new_game("crabe-vs-poulpe", 2, seed=4, options={
        "deck": view["deck"]}).view(None)["deck"]
