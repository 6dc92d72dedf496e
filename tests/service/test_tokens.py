"""Seat tokens: shown once, never logged, useless on any other game."""

import httpx

from tests.service.play import auth, create, play_to_end, tokens_of
from tests.service.servers import server
from tests.service.sse import Listener


def test_no_token_issued_in_a_whole_run_appears_in_the_servers_output():
    issued: list[str] = []
    with server({"ACCESS_LOG": "1", "TURN_SECONDS_MIN": "1"}) as running, \
            httpx.Client(base_url=running.url, timeout=30) as client:
        game = create(client, "cup-the-crab", 3, seats=[
            {"type": "human"}, {"type": "open"}, {"type": "open"}])
        issued += tokens_of(game).values()
        path = f"/v1/games/{game['id']}"
        for _ in range(2):
            issued.append(client.post(f"{path}/join", json={"name": "x"}).json()["token"])
        stream = Listener(f"{running.url}{path}/events?token={issued[1]}",
                          until=lambda events: events[-1].data["game"]["status"] == "over")
        client.post(f"{path}/moves", json={"move": {"type": "fly"}}, headers=auth(issued[0]),
                    params={"token": issued[2]})
        client.post(f"{path}/suggest", json={"iterations": 20}, headers=auth(issued[0]))
        client.get(path, headers={"Authorization": f"Token {issued[0]}"})
        client.get(path, headers=auth(issued[0] + "x"))
        tokens = dict(enumerate(issued))
        moves = play_to_end(client, {"id": game["id"], "seats": [
            {"seat": seat, "token": token} for seat, token in tokens.items()]}, seed=3)
        assert moves and stream.join().events[-1].data["game"]["status"] == "over"
        client.post(f"{path}/rematch", headers=auth(issued[2]))
        log = running.output()
    assert f'"path": "{path}/events"' in log  # the requests were logged, without tokens
    for token in issued:
        assert token not in log


def test_a_seats_token_opens_nothing_in_another_game(api, client):
    mine, other = create(client, "cup-the-crab", 2), create(client, "crabe-vs-poulpe", 2)
    token = tokens_of(mine)[0]
    path = f"/v1/games/{other['id']}"
    for response in (client.get(path, headers=auth(token)),
                     client.get(f"{path}/legal-moves", headers=auth(token)),
                     client.get(f"{path}/history", headers=auth(token)),
                     client.get(f"{path}/events", params={"token": token}),
                     client.post(f"{path}/moves", json={"move": {"type": "pass"}},
                                 headers=auth(token)),
                     client.post(f"{path}/suggest", json={"iterations": 5},
                                 headers=auth(token)),
                     client.post(f"{path}/leave", headers=auth(token)),
                     client.post(f"{path}/rematch", headers=auth(token)),
                     client.post(f"{path}/rematch/decline", headers=auth(token)),
                     client.post(f"{path}/resign", headers=auth(token)),
                     client.post(f"{path}/presence", json={}, headers=auth(token))):
        assert response.status_code == 401, response.text
        assert token not in response.text
    body = client.get(f"/v1/games/{mine['id']}", headers=auth(token)).text
    assert token not in body  # never shown again, not even to its own seat
