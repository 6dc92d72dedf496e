"""After the game, on both stores: resigning (rated games included), a rematch offered and
accepted or declined, and who is still at the table."""

import pytest

from service.games import bodies
from service.lobby.bodies import RematchOffered, TablePresence
from service.players.bodies import PlayerGames
from tests.service.archives import drained
from tests.service.play import auth, create, tokens_of
from tests.service.test_api_errors import assert_problem, snapshot
from tests.service.test_api_players import (
    LEVEL_1,
    MODEL,
    bound,
    new_player,
    play_humans_to_end,
    rating,
)
from tests.service.test_bodies_exact import assert_exact

PEOPLE_2 = [{"type": "human", "name": "Ana"}, {"type": "human", "name": "Bo"}]


def over_game(client, seats=PEOPLE_2, game="crabe-vs-poulpe") -> tuple[dict, dict[int, str]]:
    """A finished game: its last seat resigned at once."""
    created = create(client, game, len(seats), seats=seats)
    tokens = tokens_of(created)
    last = max(tokens)
    assert client.post(f"/v1/games/{created['id']}/resign",
                       headers=auth(tokens[last])).status_code == 200
    return created, tokens


# -- resigning --------------------------------------------------------------------------


@pytest.mark.parametrize("game", ["crabe-vs-poulpe", "cup-the-crab"])
def test_resigning_a_two_player_game_ends_it_at_once_and_the_resigner_ranks_last(client, game):
    created = create(client, game, 2, seats=PEOPLE_2)
    tokens, path = tokens_of(created), f"/v1/games/{created['id']}"
    response = client.post(f"{path}/resign", headers=auth(tokens[0]))
    assert response.status_code == 200, response.text
    body = response.json()
    assert_exact(body, bodies.GameBody)
    assert body["status"] == "over" and body["you"] == 0 and body["legal_moves"] == []
    result = body["result"]
    assert (result["reason"], result["resigned"], result["forfeited"]) == ("resigned", [0], [])
    assert result["winners"] == [1]
    assert {place["seat"]: place["rank"] for place in result["ranking"]} == {1: 1, 0: 2}
    assert body["seats"][0]["resigned"] is True and body["seats"][1]["resigned"] is False
    entry = client.get(f"{path}/history").json()["entries"][-1]
    assert (entry["kind"], entry["seat"], entry["ended"]) == ("resign", 0, True)
    other = client.get(path, headers=auth(tokens[1])).json()
    move = {"type": "pass"}
    assert_problem(client.post(f"{path}/moves", json={"move": move}, headers=auth(tokens[1])),
                   422, "illegal-move")  # the game is over for the winner too
    assert other["status"] == "over" and other["to_move"] == []


def test_resigning_twice_changes_nothing_and_a_finished_game_cannot_be_resigned(client):
    created = create(client, "cup-the-crab", 3, seats=[*PEOPLE_2, {"type": "human"}])
    tokens, path = tokens_of(created), f"/v1/games/{created['id']}"
    assert client.post(f"{path}/resign", headers=auth(tokens[2])).status_code == 200
    before = snapshot(client, created)
    again = client.post(f"{path}/resign", headers=auth(tokens[2]))
    assert again.status_code == 200 and again.json()["version"] == before[0]["version"]
    assert snapshot(client, created) == before
    finished, finished_tokens = over_game(client)
    before = snapshot(client, finished)
    assert_problem(client.post(f"/v1/games/{finished['id']}/resign",
                               headers=auth(finished_tokens[0])), 409, "game-over")
    assert snapshot(client, finished) == before


def test_resigning_needs_a_seat_and_a_started_game(client):
    created = create(client, "crabe-vs-poulpe", 2,
                     seats=[{"type": "human", "name": "Ana"}, {"type": "open"}])
    path, host = f"/v1/games/{created['id']}", tokens_of(created)[0]
    before = snapshot(client, created)
    assert_problem(client.post(f"{path}/resign"), 401, "unauthorized")
    assert_problem(client.post(f"{path}/resign", headers=auth("x" * 43)), 401, "unauthorized")
    assert_problem(client.post(f"{path}/resign", headers=auth(host)), 409, "game-waiting")
    assert_problem(client.post("/v1/games/nothing-here/resign", headers=auth(host)), 404,
                   "game-not-found")
    assert snapshot(client, created) == before


def test_with_three_people_a_resigned_seat_is_played_by_the_ai_and_ranks_last(client):
    """The ruling of docs/rules.md, "Resigning": the others finish their game, the AI
    playing the resigned seat on; the seat ranks last whatever it scores, and its own
    token can no longer move."""
    created = create(client, "cup-the-crab", 3, seats=[*PEOPLE_2, {"type": "human", "name": "Cy"}])
    tokens, path = tokens_of(created), f"/v1/games/{created['id']}"
    resigned = client.post(f"{path}/resign", headers=auth(tokens[1])).json()
    assert resigned["status"] == "active" and resigned["legal_moves"] == []
    [entry] = [e for e in client.get(f"{path}/history").json()["entries"]
               if e["kind"] == "resign"]
    assert (entry["seat"], entry["ended"]) == (1, False)
    playing = client.get(path).json()
    assert 1 not in playing["to_move"], "the AI made the resigned seat's selection at once"
    view = client.get(path, headers=auth(tokens[1])).json()
    move = {"type": "select", "cards": view["view"]["reserve"][:3]}
    refused = assert_problem(client.post(f"{path}/moves", json={"move": move},
                                         headers=auth(tokens[1])), 422, "illegal-move")
    assert "resigned" in refused["detail"]
    final = play_humans_to_end(client, {**created, "seats": [
        {**seat, "token": None if seat["seat"] == 1 else seat["token"]}
        for seat in created["seats"]]}, seed=3)
    result = final["result"]
    assert (result["reason"], result["resigned"]) == ("resigned", [1])
    last = {place["seat"]: place["rank"] for place in result["ranking"]}
    assert last[1] == 3 and all(last[seat] < 3 for seat in (0, 2))
    assert 1 not in result["winners"]


def test_a_person_resigning_against_the_ai_alone_ends_the_game(client):
    created = create(client, "cup-the-crab", 3, seats=[PEOPLE_2[0], LEVEL_1, LEVEL_1])
    path = f"/v1/games/{created['id']}"
    body = client.post(f"{path}/resign", headers=auth(tokens_of(created)[0])).json()
    assert body["status"] == "over" and body["result"]["resigned"] == [0]
    assert [p["seat"] for p in body["result"]["ranking"] if p["rank"] == 3] == [0]


def test_a_rated_game_resigned_rates_the_resigner_as_losing(client):
    ann = new_player(client, "Ann")
    created = create(client, "crabe-vs-poulpe", 2, seats=[bound(ann), LEVEL_1])
    path = f"/v1/games/{created['id']}"
    assert client.get(path).json()["rated"] is True
    body = client.post(f"{path}/resign", headers=auth(tokens_of(created)[0])).json()
    assert body["rated"] is True and body["result"]["winners"] == [1]
    drained(str(client.base_url))
    found = rating(client, ann["id"], "crabe-vs-poulpe")
    assert (found["games"], found["wins"], found["rated_games"]) == (1, 0, 1)
    [played] = client.get(f"/v1/players/{ann['id']}/games").json()["games"]
    assert (played["id"], played["rank"]) == (created["id"], 2)


# -- rematches ----------------------------------------------------------------------------


def test_a_rematch_between_people_is_offered_then_made_when_the_other_accepts(client):
    created, tokens = over_game(client)
    path = f"/v1/games/{created['id']}"
    assert_problem(client.post(f"{path}/rematch"), 401, "unauthorized")
    offered = client.post(f"{path}/rematch", headers=auth(tokens[0]))
    assert offered.status_code == 202, offered.text
    assert_exact(offered.json(), RematchOffered)
    assert offered.json()["rematch_offer"] == {"accepted": [0], "declined": []}
    for token in (None, *tokens.values()):  # every seat and spectators see the offer
        body = client.get(path, headers=auth(token) if token else {}).json()
        assert body["rematch_offer"] == {"accepted": [0], "declined": []}
        assert body["rematch"] is None
    again = client.post(f"{path}/rematch", headers=auth(tokens[0]))
    assert again.status_code == 202 and again.json()["version"] == offered.json()["version"]
    made = client.post(f"{path}/rematch", headers=auth(tokens[1]))
    assert made.status_code == 201, made.text
    next_id = made.json()["id"]
    assert client.get(path).json()["rematch"] == next_id
    late = client.post(f"{path}/rematch", headers=auth(tokens[0]))
    assert late.status_code == 200 and late.json()["id"] == next_id
    kinds = [(e["kind"], e["seat"]) for e in client.get(f"{path}/history").json()["entries"]]
    assert kinds[-2:] == [("rematch-offer", 0), ("rematch", 1)]
    for seat, token in tokens.items():
        assert client.get(f"/v1/games/{next_id}", headers=auth(token)).json()["you"] == seat


def test_a_declined_rematch_is_closed_and_can_be_offered_again(client):
    created, tokens = over_game(client)
    path = f"/v1/games/{created['id']}"
    assert_problem(client.post(f"{path}/rematch/decline", headers=auth(tokens[1])), 409,
                   "no-rematch-offer")
    client.post(f"{path}/rematch", headers=auth(tokens[0]))
    declined = client.post(f"{path}/rematch/decline", headers=auth(tokens[1]))
    assert declined.status_code == 200
    assert declined.json()["rematch_offer"] == {"accepted": [0], "declined": [1]}
    before = snapshot(client, created)
    assert_problem(client.post(f"{path}/rematch/decline", headers=auth(tokens[0])), 409,
                   "no-rematch-offer")
    assert snapshot(client, created) == before
    assert client.get(path).json()["rematch"] is None
    offered = client.post(f"{path}/rematch", headers=auth(tokens[1]))
    assert offered.status_code == 202
    assert offered.json()["rematch_offer"] == {"accepted": [1], "declined": []}
    withdrawn = client.post(f"{path}/rematch/decline", headers=auth(tokens[1])).json()
    assert withdrawn["rematch_offer"] == {"accepted": [], "declined": [1]}
    kinds = [e["kind"] for e in client.get(f"{path}/history").json()["entries"]]
    assert kinds[-4:] == ["rematch-offer", "rematch-decline", "rematch-offer",
                          "rematch-decline"]


def test_a_rematch_against_the_ai_is_made_at_once_and_the_game_must_be_over(client):
    created = create(client, "crabe-vs-poulpe", 2, seats=[PEOPLE_2[0], LEVEL_1])
    path, token = f"/v1/games/{created['id']}", tokens_of(created)[0]
    assert_problem(client.post(f"{path}/rematch", headers=auth(token)), 409, "game-not-over")
    assert_problem(client.post(f"{path}/rematch/decline", headers=auth(token)), 409,
                   "game-not-over")
    client.post(f"{path}/resign", headers=auth(token))
    made = client.post(f"{path}/rematch", headers=auth(token))
    assert made.status_code == 201 and client.get(path).json()["rematch"] == made.json()["id"]
    assert_problem(client.post(f"{path}/rematch/decline", headers=auth(token)), 409,
                   "no-rematch-offer")
    fresh = client.get(f"/v1/games/{made.json()['id']}").json()
    assert fresh["rematch_offer"] is None and fresh["result"] is None
    assert [seat["resigned"] for seat in fresh["seats"]] == [False, False]


# -- presence -----------------------------------------------------------------------------


def test_presence_says_which_seats_and_how_many_spectators_are_at_the_table(client):
    created, tokens = over_game(client)
    path = f"/v1/games/{created['id']}/presence"
    before = snapshot(client, created)
    first = client.post(path, json={}, headers=auth(tokens[0]))
    assert first.status_code == 200
    assert_exact(first.json(), TablePresence)
    assert first.json() == {"id": created["id"], "present": [0], "spectators": 0,
                            "reactions": [], "reactions_after": "0"}  # nothing said yet
    client.post(path, json={"here": True}, headers=auth(tokens[1]))
    for viewer in ("watcher-one", "watcher-two", "watcher-one"):
        client.post(path, json={"viewer": viewer})
    assert client.post(path, json={}).json() == {"id": created["id"], "present": [0, 1],
                                                 "spectators": 2, "reactions": [],
                                                 "reactions_after": "0"}
    gone = client.post(path, json={"here": False}, headers=auth(tokens[1])).json()
    assert gone["present"] == [0]
    assert snapshot(client, created) == before  # not a version: the game is as it was


def test_presence_refuses_a_bad_token_an_unknown_game_or_a_bad_viewer(client):
    created, tokens = over_game(client)
    path = f"/v1/games/{created['id']}/presence"
    assert_problem(client.post(path, json={}, headers=auth("x" * 43)), 401, "unauthorized")
    assert_problem(client.post("/v1/games/nothing-here/presence", json={}), 404,
                   "game-not-found")
    for bad in ({"viewer": "short"}, {"viewer": "no spaces here"}, {"here": "yes"},
                {"seat": 0}):
        assert_problem(client.post(path, json=bad), 400, "invalid-request")
    assert client.post(path, json={}).json()["present"] == []


# -- a player's games --------------------------------------------------------------------


def test_a_players_games_name_the_opponents_the_result_and_the_rating_change(client):
    ann, bob = new_player(client, "Ann"), new_player(client, "Bob")
    rated = create(client, "crabe-vs-poulpe", 2, seats=[bound(ann), bound(bob)])
    client.post(f"/v1/games/{rated['id']}/resign", headers=auth(tokens_of(rated)[1]))
    casual = create(client, "crabe-vs-poulpe", 2, seats=[bound(ann), LEVEL_1], rated=False)
    client.post(f"/v1/games/{casual['id']}/resign", headers=auth(tokens_of(casual)[0]))
    drained(str(client.base_url))
    page = client.get(f"/v1/players/{ann['id']}/games").json()
    assert_exact(page, PlayerGames)
    last, first = page["games"]
    assert (last["id"], last["rank"], last["reason"], last["players"]) == \
        (casual["id"], 2, "resigned", 2)
    assert last["rating"] is None
    assert [(o["seat"], o["player"], o["kind"], o["rank"]) for o in last["opponents"]] == \
        [(1, "ai-1", "ai", 1)]
    assert [(o["name"], o["rank"]) for o in first["opponents"]] == [("Bob", 2)]
    change = first["rating"]
    now = rating(client, ann["id"], "crabe-vs-poulpe")
    assert (change["mu"], change["sigma"]) == (now["mu"], now["sigma"])
    assert (change["mu_before"], change["sigma_before"]) == (MODEL.mu, MODEL.sigma)
    assert change["change"] == pytest.approx(now["value"] - (MODEL.mu - 3 * MODEL.sigma))
    assert change["change"] > 0  # Ann won: Bob resigned
