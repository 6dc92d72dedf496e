"""What must follow a commit is written before it: the next turn clock's deadline, and the
archive's outbox entry of a game that ends. Read off a real Redis with MONITOR, which
lists every command in the order the server ran them, so a replica dying between the two
can leave a stale entry (recognised by its version) but never a game nothing finds."""

import threading
from collections.abc import Iterator

import httpx
import pytest
import redis

from tests.service.play import auth, create, play_to_end, tokens_of
from tests.service.servers import PrivateRedis, Server, server


@pytest.fixture
def watched() -> Iterator[tuple[Server, list[str]]]:
    """A service on a Redis of its own, and every command that Redis runs, in order."""
    private = PrivateRedis()
    commands: list[str] = []
    monitor_client = redis.Redis.from_url(private.url)

    def listen() -> None:
        try:
            with monitor_client.monitor() as monitor:
                for command in monitor.listen():
                    commands.append(command["command"])
        except redis.ConnectionError:
            pass  # the private Redis stopped: the test is over

    threading.Thread(target=listen, daemon=True).start()
    with server({"REDIS_URL": private.url, "TURN_SECONDS_MIN": "1", "ACCESS_LOG": "0"}) as api:
        yield api, commands
    private.stop()


def first(commands: list[str], *words: str) -> int:
    return next(index for index, command in enumerate(commands)
                if all(word in command for word in words))


def test_a_moves_next_deadline_is_armed_before_its_commit(watched):
    api, commands = watched
    client = httpx.Client(base_url=api.url, timeout=10)
    game = create(client, "cup-the-crab", 2, turn_seconds=60)
    token = tokens_of(game)[0]
    move = client.get(f"/v1/games/{game['id']}", headers=auth(token)).json()["legal_moves"][0]
    commands.clear()
    assert client.post(f"/v1/games/{game['id']}/moves", json={"move": move},
                       headers=auth(token)).status_code == 200
    armed = first(commands, "ZADD", "clock:{", f"{game['id']} 1")
    committed = first(commands, "EVALSHA", f"game:{{{game['id']}}}:state", "game:{")
    assert armed < committed, commands


def test_the_archives_entry_is_written_before_the_commit_that_ends_the_game(watched):
    api, commands = watched
    client = httpx.Client(base_url=api.url, timeout=10)
    game = create(client, "crabe-vs-poulpe", 2)
    play_to_end(client, game, seed=2)
    version = client.get(f"/v1/games/{game['id']}").json()["version"]
    intended = first(commands, "ZADD", "archive:{", f"{game['id']} {version} ")
    commits = [index for index, command in enumerate(commands)  # the commit script's 5 keys
               if "EVALSHA" in command and f" 5 game:{{{game['id']}}}:state" in command]
    assert commits[-1] > intended > commits[-2], commands[-20:]  # between the last two
