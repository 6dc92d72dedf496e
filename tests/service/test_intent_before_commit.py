"""What must follow a commit is written before it: the next turn clock's deadline, and the
archive's outbox entry of a game that ends, so a replica dying between the two can leave a
stale entry (recognised by its version) but never a game nothing finds.

The order is read from a real Redis's own record of what it ran: its slow log, told to
keep every command (slowlog-log-slower-than 0). Redis numbers the entries as it runs the
commands, one at a time, and the test reads them once the requests have been answered, so
nothing waits on a socket for a command that may be slow to come (a busy machine) and
nothing is missed by a listener that was not yet listening."""

from collections.abc import Iterator
from dataclasses import dataclass

import httpx
import pytest
import redis

from tests.service.play import auth, create, play_to_end, tokens_of
from tests.service.servers import PrivateRedis, Server, server

KEPT = 100_000  # entries the slow log keeps: far more than a test makes (checked)


@dataclass
class Ran:
    """The commands a private Redis ran, in its own order."""
    client: redis.Redis

    def forget(self) -> None:
        self.client.slowlog_reset()

    def commands(self) -> list[list[bytes]]:
        """Every command since forget(), oldest first, each as its words (Redis keeps 32
        words of a command and 128 bytes of a word: the keys come first)."""
        entries = self.client.execute_command("SLOWLOG", "GET", "-1")
        assert len(entries) < KEPT, "the slow log overflowed: its oldest entries are lost"
        return [words for _, _, _, words, *_ in sorted(entries, key=lambda entry: entry[0])]


@pytest.fixture
def watched() -> Iterator[tuple[Server, Ran]]:
    """A service on a Redis of its own that logs every command it runs."""
    with PrivateRedis("--slowlog-log-slower-than", "0", "--slowlog-max-len", str(KEPT)) \
            as private, \
            server({"REDIS_URL": private.url, "TURN_SECONDS_MIN": "1", "ACCESS_LOG": "0"}) \
            as api, \
            redis.Redis.from_url(private.url) as client:
        yield api, Ran(client)


def added(words: list[bytes], index: str, member: str) -> bool:
    """words is a ZADD of member to a bucket of index ("clock", "archive")."""
    return words[0].upper() == b"ZADD" and words[1].startswith(f"{index}:{{".encode()) \
        and words[-1] == member.encode()


def commits(commands: list[list[bytes]], game_id: str) -> list[int]:
    """Where the commit script (its 5 keys, the game's state first) ran for game_id."""
    state = f"game:{{{game_id}}}:state".encode()
    return [at for at, words in enumerate(commands)
            if words[0].upper() == b"EVALSHA" and words[2:4] == [b"5", state]]


def test_a_moves_next_deadline_is_armed_before_its_commit(watched):
    api, ran = watched
    with httpx.Client(base_url=api.url, timeout=30) as client:
        game = create(client, "cup-the-crab", 2, turn_seconds=60)
        token = tokens_of(game)[0]
        path = f"/v1/games/{game['id']}"
        move = client.get(path, headers=auth(token)).json()["legal_moves"][0]
        ran.forget()
        assert client.post(f"{path}/moves", json={"move": move},
                           headers=auth(token)).status_code == 200
        version = client.get(path).json()["version"]
    commands = ran.commands()
    armed = [at for at, words in enumerate(commands)
             if added(words, "clock", f"{game['id']} {version}")]
    committed = commits(commands, game["id"])
    assert armed and committed, [words[:2] for words in commands]
    assert armed[0] < committed[0], (armed, committed)


def test_the_archives_entry_is_written_before_the_commit_that_ends_the_game(watched):
    api, ran = watched
    with httpx.Client(base_url=api.url, timeout=30) as client:
        game = create(client, "crabe-vs-poulpe", 2)
        ran.forget()
        play_to_end(client, game, seed=2)
        version = client.get(f"/v1/games/{game['id']}").json()["version"]
    commands = ran.commands()
    # The entry as written; a drain woken by the ending commit may lease it meanwhile, a
    # ZADD XX that only moves its score (scripts/lease.lua).
    intended = [at for at, words in enumerate(commands)
                if words[0].upper() == b"ZADD" and words[1].startswith(b"archive:{")
                and b"XX" not in (word.upper() for word in words[2:-2])
                and words[-1].startswith(f"{game['id']} {version} ".encode())]
    made = commits(commands, game["id"])
    assert len(intended) == 1 and len(made) >= 2, (intended, made)
    # Between the last two commits: before the one that ends the game.
    assert made[-2] < intended[0] < made[-1], (intended, made[-2:])
