"""The service, unchanged, on a real 3-primary Redis Cluster with two replicas of itself.

REDIS_URL names one node (a primary for one replica of the service, a Redis replica for
the other): the service finds the cluster by itself, and every game, whichever slot its
id hashes to, is served by both.
"""

import threading
import time
from collections.abc import Iterator

import httpx
import pytest
import redis

from service.store import keys
from tests.clusters import RedisCluster
from tests.service.play import auth, create, play_to_end, replay_in_core, tokens_of
from tests.service.servers import Server, server, wait_until
from tests.service.sse import Listener


@pytest.fixture(scope="module")
def replicas(redis_cluster) -> Iterator[tuple[Server, Server]]:
    first, last = redis_cluster.urls[0], redis_cluster.urls[-1]
    with server({"REDIS_URL": first}) as one, server({"REDIS_URL": last}) as two:
        yield one, two


def test_games_in_every_slot_are_created_on_one_replica_and_read_on_the_other(replicas):
    one, two = replicas
    with httpx.Client(base_url=one.url, timeout=30) as a, \
            httpx.Client(base_url=two.url, timeout=30) as b:
        created = [create(a if i % 2 else b, "cup-the-crab", 3) for i in range(24)]
        for game in created:
            for http in (a, b):
                response = http.get(f"/v1/games/{game['id']}")
                assert response.status_code == 200 and response.json()["version"] == 0


def test_a_whole_game_over_http_on_the_cluster_ends_as_core_computes(replicas):
    one, two = replicas
    with httpx.Client(base_url=one.url, timeout=30) as a, \
            httpx.Client(base_url=two.url, timeout=30) as b:
        created = create(a, "crabe-vs-poulpe", 2, seed=11)
        moves = play_to_end(b, created, seed=11)
        final = a.get(f"/v1/games/{created['id']}").json()
    state = replay_in_core("crabe-vs-poulpe", 2, 11, moves)
    assert final["status"] == "over" and final["version"] == len(moves)
    assert final["result"] == {**state.result(), "reason": "finished", "forfeited": [],
                               "resigned": []}
    assert final["view"] == state.view(None)


def test_fifty_simultaneous_moves_through_both_replicas_apply_exactly_once(replicas):
    one, two = replicas
    with httpx.Client(base_url=one.url, timeout=30) as a:
        created = create(a, "cup-the-crab", 3)
        path, token = f"/v1/games/{created['id']}", created["seats"][0]["token"]
        move = a.get(path, headers=auth(token)).json()["legal_moves"][0]
    barrier, codes = threading.Barrier(50), []

    def go(url: str) -> None:
        with httpx.Client(base_url=url, timeout=30) as http:
            barrier.wait()
            codes.append(http.post(f"{path}/moves", headers=auth(token), json={
                "move": move, "expected_version": 0}).status_code)
    threads = [threading.Thread(target=go, args=((one, two)[i % 2].url,)) for i in range(50)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert codes.count(200) == 1 and set(codes) <= {200, 409}
    with httpx.Client(base_url=two.url, timeout=30) as b:
        history = b.get(f"{path}/history", headers=auth(token)).json()
    assert history["version"] == 1 and len(history["entries"]) == 1


def test_streams_hear_of_moves_at_once_after_the_node_redis_url_names_dies():
    """The replica's pub/sub connection moves to another node of the cluster: a move made
    after the node died reaches the stream in seconds, long before the stream's first
    keep-alive (25 s here) would have re-read the game anyway."""
    with RedisCluster() as cluster, server({"REDIS_URL": cluster.urls[0],
                                            "EVENTS_KEEP_ALIVE_SECONDS": "25"}) as replica, \
            httpx.Client(base_url=replica.url, timeout=30) as http:
        game = next(game for game in (create(http, "crabe-vs-poulpe", 2) for _ in range(50))
                    if not _served_by(cluster.nodes[0].client(), game["id"]))
        tokens, path = tokens_of(game), f"/v1/games/{game['id']}"
        listener = Listener(f"{replica.url}{path}/events",
                            until=lambda events: int(events[-1].id) >= 2)

        def play_one() -> None:
            """One move; through a failover (all requests 503 for a few seconds while
            the cluster client finds the new topology, docs/reliability.md) it retries."""
            deadline = time.monotonic() + 20
            while True:
                answer = http.get(path)
                if answer.status_code == 503 and time.monotonic() < deadline:
                    time.sleep(0.2)
                    continue
                seat = answer.json()["to_move"][0]
                move = http.get(f"{path}/legal-moves", headers=auth(tokens[seat])).json()
                posted = http.post(f"{path}/moves", json={"move": move["legal_moves"][0]},
                                   headers=auth(tokens[seat]))
                if posted.status_code != 503:
                    assert posted.status_code == 200, posted.text
                    return

        play_one()
        wait_until(lambda: listener.events and int(listener.events[-1].id) == 1)
        cluster.nodes[0].stop(kill=True)
        play_one()
        listener.join(6)
    assert listener.ids() == [0, 1, 2]


def _served_by(node: redis.Redis, game_id: str) -> bool:
    try:
        node.exists(keys.game(game_id).state)
        return True
    except redis.exceptions.MovedError:  # another primary holds that slot
        return False


def test_queue_tickets_through_both_replicas_on_the_cluster_are_each_seated_once(
        redis_cluster, tmp_path):
    """A queue lives in one slot: its pairing script runs there, whichever replica asks."""
    from tests.service.test_api_players import new_player
    from tests.service.test_api_queue import join, seated

    database = {"DATABASE_URL": f"sqlite:///{tmp_path}/players.sqlite3"}  # one for both
    with server({"REDIS_URL": redis_cluster.urls[0], **database}) as one, \
            server({"REDIS_URL": redis_cluster.urls[-1], **database}) as two, \
            httpx.Client(base_url=one.url, timeout=30) as a, \
            httpx.Client(base_url=two.url, timeout=30) as b:
        people = [new_player(a, f"C{index}") for index in range(20)]
        tickets = [join(a if index % 2 else b, person)["id"] for index, person in enumerate(people)]
        games: dict[str, set[str]] = {}
        for person, ticket_id in zip(people, tickets):
            games.setdefault(seated(b, person, ticket_id)["game_id"], set()).add(person["id"])
    assert len(games) == 10 and all(len(members) == 2 for members in games.values())
