"""One contract, two stores: RedisStore (real Redis) and MemoryStore behave alike."""

import asyncio
import json
import random
import re
import signal
import time
import uuid
from dataclasses import dataclass
from pathlib import Path

import msgspec
import pytest
import redis
import redis.asyncio

import core
from service.store import (
    Change,
    Commit,
    FinishedGame,
    GameRecord,
    MatchRule,
    MemoryStore,
    RateBudget,
    RedisStore,
    StoreUnavailable,
    keys,
    segments,
)
from service.store.redis_store import COMMAND_SECONDS
from tests.service.servers import SHARED_REDIS, PrivateRedis

TTL = 60


@dataclass(frozen=True)
class Kind:
    """A store to test: the embedded one (url None), a single Redis or a Redis Cluster."""
    name: str
    url: str | None

    def make(self, ttl: int = TTL):
        return RedisStore(self.url, ttl) if self.url else MemoryStore(ttl)


@pytest.fixture(params=["redis", "memory", "cluster"])
def kind(request) -> Kind:
    urls = {"redis": SHARED_REDIS, "memory": None}
    if request.param == "cluster":
        urls["cluster"] = request.getfixturevalue("redis_cluster").url
    return Kind(request.param, urls[request.param])


def run(kind: Kind, scenario, ttl: int = TTL):
    async def main():
        store = kind.make(ttl)
        try:
            return await scenario(store)
        finally:
            await store.close()
    return asyncio.run(main())


META = b'{"game": "x"}'
RECORD = GameRecord(0, b"\x00state\xff", META)


def test_a_created_game_loads_back_byte_for_byte(kind):
    async def scenario(store):
        await store.create("g1", RECORD)
        return await store.load("g1"), await store.load("missing")
    assert run(kind, scenario) == (RECORD, None)


def test_commit_is_a_compare_and_set_on_the_version(kind):
    async def scenario(store):
        await store.create("g2", RECORD)
        first = await store.commit("g2", 0, Commit(b"one", META, b"e1"))
        stale = await store.commit("g2", 0, Commit(b"two", META, b"e2"))
        second = await store.commit("g2", 1, Commit(b"three", META, b"e3"))
        return first, stale, second, await store.load("g2"), await store.history("g2")
    first, stale, second, record, history = run(kind, scenario)
    assert (first, stale, second) == (True, False, True)
    assert record == GameRecord(2, b"three", RECORD.meta)
    assert history == [b"e1", b"e3"]


def test_of_many_concurrent_commits_against_one_version_exactly_one_wins(kind):
    async def scenario(store):
        await store.create("g3", RECORD)
        results = await asyncio.gather(*[store.commit("g3", 0, Commit(bytes([i]), META, b"e"))
                                         for i in range(50)])
        return results, await store.load("g3")
    results, record = run(kind, scenario)
    assert results.count(True) == 1 and record.version == 1


def test_commits_to_a_missing_game_fail(kind):
    async def scenario(store):
        return await store.commit("nope", 0, Commit(b"x", META, b"e"))
    assert run(kind, scenario) is False


def test_idempotency_records_are_stored_with_the_commit(kind):
    async def scenario(store):
        await store.create("g4", RECORD)
        await store.commit("g4", 0, Commit(b"x", META, b"e", "0:key", b"response"))
        return (await store.load_with_replay("g4", "0:key"),
                await store.load_with_replay("g4", "0:other"),
                await store.load_with_replay("missing", "0:key"))
    found, other, missing = run(kind, scenario)
    assert found == (GameRecord(1, b"x", RECORD.meta), b"response")
    assert other == (GameRecord(1, b"x", RECORD.meta), None) and missing == (None, None)


def test_a_budget_spent_with_the_read_gives_the_game_until_it_runs_out(kind):
    budget = RateBudget("seat", period_ms=60_000, limit=3)
    async def scenario(store):
        await store.create("g9", RECORD)
        await store.commit("g9", 0, Commit(b"x", META, b"e", "0:key", b"response"))
        answers = [await store.load_spending("g9", budget, "0:key") for _ in range(4)]
        others = [await store.load_spending("g9", RateBudget("other", 60_000, 3), None),
                  await store.load_spending("missing", budget, None)]
        return answers, others, await store.load("g9")
    answers, (other, missing), after = run(kind, scenario)
    record = GameRecord(1, b"x", META)
    assert [(a.allowed, a.remaining) for a, _, _ in answers] == [(True, 2), (True, 1),
                                                                 (True, 0), (False, 0)]
    assert [found for _, *found in answers[:3]] == [[record, b"response"]] * 3
    refused, *nothing = answers[3]
    assert nothing == [None, None] and 19_000 < refused.retry_after_ms <= 20_001
    assert other[0].allowed and other[1:] == (record, None)  # each budget is its own
    assert missing[0].allowed and missing[1:] == (None, None)
    assert after == record  # spending changed nothing of the game


def test_games_expire_when_idle_and_commits_renew_them(kind):
    async def scenario(store):
        await store.create("g5", RECORD)
        await store.create("g6", RECORD)
        await asyncio.sleep(0.6)
        await store.commit("g6", 0, Commit(b"x", META, b"e"))
        await asyncio.sleep(0.6)
        return await store.load("g5"), await store.load("g6")
    gone, kept = run(kind, scenario, ttl=1)
    assert gone is None and kept is not None and kept.version == 1


def test_a_game_that_ends_is_kept_whatever_its_ttl_until_it_is_released(kind):
    async def scenario(store):
        await store.create("k1", RECORD)
        await store.commit("k1", 0, Commit(b"over", META, b"e1", keep=True))
        await asyncio.sleep(1.3)
        kept = await store.finished(["k1", "missing"])
        await store.release(["k1"], 1)
        await asyncio.sleep(1.3)
        return kept, await store.load("k1")
    kept, released = run(kind, scenario, ttl=1)
    assert kept == [FinishedGame(GameRecord(1, b"over", META), RECORD.blob, [b"e1"]), None]
    assert released is None


def test_a_leased_member_is_given_to_one_caller_until_its_lease_ends(kind):
    async def scenario(store):
        index = "archive:{test-lease}"
        await store.index_remove_many(index, ["a", "b", "c"])
        for member, score in (("a", 1.0), ("b", 2.0), ("c", 50.0)):
            await store.index_add(index, member, score)
        first = await asyncio.gather(*[store.index_lease(index, 10.0, 20.0, 5) for _ in range(4)])
        during = await store.index_lease(index, 15.0, 30.0, 5)
        after = await store.index_lease(index, 25.0, 40.0, 5)
        await store.index_remove_many(index, ["a", "b"])
        return first, during, after, await store.index_size([index])
    first, during, after, left = run(kind, scenario)
    assert sorted(first, key=len, reverse=True) == [[("a", 1.0), ("b", 2.0)], [], [], []]
    assert during == [] and after == [("a", 20.0), ("b", 20.0)] and left == 1


def test_an_earliest_score_keeps_the_lower_of_two(kind):
    async def scenario(store):
        index = "clock:{test-earliest}"
        await store.index_remove_many(index, ["g"])
        await store.index_add(index, "g", 5.0, earliest=True)
        await store.index_add(index, "g", 9.0, earliest=True)
        kept = await store.index_due([index], 100.0, 5)
        await store.index_add(index, "g", 3.0, earliest=True)
        return kept, await store.index_due([index], 100.0, 5)
    assert run(kind, scenario) == ([("clock:{test-earliest}", "g", 5.0)],
                                   [("clock:{test-earliest}", "g", 3.0)])


def played(moves: int, metas: tuple[bytes, ...] = (META,)) -> tuple[GameRecord, list[Change]]:
    """A real game's first record and its next versions (a random legal move each, the
    metadata taken in turn from metas), as the service commits them."""
    rng = random.Random(moves)
    state = core.new_game("cup-the-crab", 3, seed=7)
    first, changes = GameRecord(0, state.to_bytes(), META), []
    for version in range(1, moves + 1):
        seat = rng.choice(list(state.to_move))
        move = rng.choice(state.legal_moves(seat))
        state.apply(seat, move)
        entry = msgspec.json.encode({"version": version, "seat": seat, "kind": "move",
                                     "move": move, "at": "2026-12-01T20:00:00.000Z"})
        changes.append(Change(entry, GameRecord(version, state.to_bytes(),
                                                metas[version % len(metas)])))
    return first, changes


async def committed(store, game_id: str, first: GameRecord, changes: list[Change]) -> None:
    await store.create(game_id, first)
    for change in changes:
        assert await store.commit(game_id, change.record.version - 1, Commit(
            change.record.blob, change.record.meta, change.entry))


def test_every_version_after_any_version_comes_back_with_its_entry_and_record(kind):
    """Only the latest record is kept: the older ones are rebuilt (the state by the core
    from the log, the metadata by undoing each commit's change), byte for byte, at every
    point of a game long enough to seal its first versions in segments (twice)."""
    metas = (META, b'{"game": "y", "deadlines": [1764619200.5]}', META, META,
             b'{"game": "y", "deadlines": [1764619260.25]}', "{\"name\": \"é\"}".encode())
    first, changes = played(40, metas)

    async def scenario(store):
        await store.create("g7", first)
        seen = {}
        for change in changes:
            latest = change.record.version
            await store.commit("g7", latest - 1, Commit(change.record.blob, change.record.meta,
                                                       change.entry))
            for after in sorted({0, 1, latest // 2, latest - 2, latest - 1, latest} - {-1}):
                seen[latest, after] = await store.changes_since("g7", after)
        return seen, await store.history("g7"), await store.changes_since("missing", 0)
    seen, history, missing = run(kind, scenario)
    for (latest, after), found in seen.items():
        assert found == changes[after:latest], (latest, after)
    assert history == [change.entry for change in changes]
    assert missing is None  # told apart from a game with nothing new: its streams end


def test_a_game_keeps_one_whole_record_and_its_log_however_long_it_is():
    """The footprint's shape (issue #24): after any number of moves a game's keys are its
    state hash (one record and the first state), its log (an entry a version, packed to
    a fraction of its JSON) and its undos (empty for a version whose metadata did not
    change): nothing holds a version's whole record."""
    first, changes = played(40)

    async def scenario(store):
        await committed(store, "shape", first, changes)
    run(Kind("redis", SHARED_REDIS), scenario)
    client = redis.Redis.from_url(SHARED_REDIS)
    game = keys.game("shape")
    try:
        assert sorted(k.decode() for k in client.keys("*{shape}*")) == \
            sorted([game.state, game.log, game.undos])
        assert sorted(client.hkeys(game.state)) == [b"blob", b"commit", b"initial", b"meta",
                                                    b"sealed", b"version"]
        assert client.hget(game.state, "sealed") == b"32"  # two segments of sixteen
        assert client.lrange(game.undos, 0, -1) == [b""] * 8
        packed = client.lrange(game.log, 0, -1)
        assert [segments.is_segment(element) for element in packed] == [True] * 2 + [False] * 8
        assert sum(map(len, packed)) < sum(len(change.entry) for change in changes) / 6
    finally:
        client.delete(*game.all())
        client.close()


def test_versions_are_sealed_once_and_a_seal_from_a_stale_read_changes_nothing():
    """Replicas seal a game's versions as they commit: a seal made from what another
    replica has sealed since (its count of sealed versions is stale) is refused whole."""
    first, changes = played(20)

    async def scenario(store):
        await committed(store, "sealing", first, changes)
        game = keys.game("sealing")
        stale = await store._script("seal", [game.state, game.log, game.undos],
                                    [0, segments.SEGMENT.to_bytes() + b"junk", 16])
        return stale, await store.changes_since("sealing", 0)
    stale, after_first = run(Kind("redis", SHARED_REDIS), scenario, ttl=60)
    client = redis.Redis.from_url(SHARED_REDIS)
    game = keys.game("sealing")
    try:
        assert stale == 0 and after_first == changes
        assert client.hget(game.state, "sealed") == b"16"
        assert [segments.is_segment(e) for e in client.lrange(game.log, 0, -1)] == \
            [True] + [False] * 4
        assert client.llen(game.undos) == 4 and 0 < client.ttl(game.log) <= 60
    finally:
        client.delete(*game.all())
        client.close()


def test_a_game_stored_with_every_record_reads_back_after_the_upgrade_and_plays_on():
    """A game in Redis from before undos (a rolling upgrade): its log's entries are JSON
    and every version's record is in its records list. Its versions are read from there;
    the versions committed since are rebuilt as any game's, and never sealed (its undos
    begin after its records)."""
    first, changes = played(30, (META, b'{"game": "y"}'))
    client = redis.Redis.from_url(SHARED_REDIS)
    game = keys.game("old")
    client.delete(*game.all())
    before, after = changes[:5], changes[5:]
    client.hset(game.state, mapping={"version": 5, "blob": before[-1].record.blob,
                                     "meta": before[-1].record.meta, "initial": first.blob})
    client.rpush(game.log, *[change.entry for change in before])
    client.rpush(game.records, *[msgspec.msgpack.encode(
        (change.record.version, change.record.blob, change.record.meta)) for change in before])

    async def scenario(store):
        for change in after:
            assert await store.commit("old", change.record.version - 1, Commit(
                change.record.blob, change.record.meta, change.entry))
        return ([await store.changes_since("old", since) for since in range(31)],
                await store.history("old"), (await store.finished(["old"]))[0])
    try:
        after_each, history, finished = run(Kind("redis", SHARED_REDIS), scenario)
        assert client.llen(game.records) == 5  # written no more
        assert client.llen(game.undos) == 25 and client.hget(game.state, "sealed") is None
    finally:
        client.delete(*game.all())
        client.close()
    assert after_each == [changes[since:] for since in range(31)]
    assert history == [change.entry for change in changes] == finished.log


def test_a_commit_of_a_watched_game_is_announced_with_its_version(kind):
    async def scenario(store):
        heard: list[tuple[str, int]] = []
        store.on_commit(lambda game, version, at, origin: heard.append((game, version)))
        await store.create("g8", RECORD)
        await store.watch("g8")
        await asyncio.sleep(0.2)  # the subscription is confirmed
        heard.clear()             # (a first connection announces -1: "re-read the log")
        for version in range(3):
            await store.commit("g8", version, Commit(b"x", META, b"e"))
        await asyncio.sleep(0.2)
        return heard
    assert run(kind, scenario) == [("g8", 1), ("g8", 2), ("g8", 3)]


def test_a_shout_at_a_watched_game_is_heard_apart_from_its_commits(kind):
    """A reaction is published on a channel of its own: heard by the shout listener, never
    taken for a commit (a replica of an earlier release reads every message of the commits'
    channel as a notice)."""
    async def scenario(store):
        shouts: list[tuple[str, bytes]] = []
        commits: list[int] = []
        store.on_shout(lambda game, message: shouts.append((game, message)))
        store.on_commit(lambda game, version, at, origin: commits.append(version))
        await store.create("g10", RECORD)
        await store.watch("g10")
        await asyncio.sleep(0.2)
        commits.clear()
        await store.shout("g10", b'{"seat":0}')
        await asyncio.sleep(0.2)
        return shouts, commits
    assert run(kind, scenario) == ([("g10", b'{"seat":0}')], [])


def test_games_watched_while_the_notice_connection_opens_are_announced_too(kind):
    games = [f"g9-{index}" for index in range(20)]

    async def scenario(store):
        heard: set[str] = set()
        store.on_commit(lambda game, version, at, origin:
                        heard.add(game) if version > 0 else None)
        for game in games:  # one every 2 ms, from before the connection exists until after
            await store.create(game, RECORD)
            await store.watch(game)
            await asyncio.sleep(0.002)
        await asyncio.sleep(0.2)
        for game in games:
            await store.commit(game, 0, Commit(b"x", META, b"e"))
        await asyncio.sleep(0.2)
        return heard
    assert run(kind, scenario) == set(games)


async def until(condition, what: str, seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, f"{what} did not come within {seconds} s"
        await asyncio.sleep(0.02)


def test_a_ring_wakes_the_listeners_of_its_topic_on_every_replica(kind):
    """Background work sleeps until rung (service.replica.wakeups): a ring on one replica reaches
    the listeners of its topic on another (the embedded store is one replica)."""
    # Topics of this test alone: other tests on the shared Redis ring the real ones meanwhile.
    rung, quiet = (f"{name}-{uuid.uuid4().hex}" for name in ("rung", "quiet"))

    async def scenario(here):
        there = kind.make() if kind.url else here
        heard: list[str] = []
        try:
            there.on_ring(rung, lambda: heard.append(rung))
            there.on_ring(quiet, lambda: heard.append(quiet))
            if kind.url:  # subscribed once a new connection has rung every topic once
                await until(lambda: {rung, quiet} <= set(heard), "the first rings")
            heard.clear()
            await here.ring(rung)
            await until(lambda: heard, "the ring")
            await asyncio.sleep(0.2)  # and nothing else comes
            return heard
        finally:
            if there is not here:
                await there.close()
    assert run(kind, scenario) == [rung]


def test_redis_keys_of_one_game_share_a_hash_tag_and_carry_the_ttl():
    async def scenario(store):
        await store.create("tagged", RECORD)
        await store.commit("tagged", 0, Commit(b"x", META, b"e", "0:k", b"r"))
    run(Kind("redis", SHARED_REDIS), scenario)
    client = redis.Redis.from_url(SHARED_REDIS)
    written = sorted(k.decode() for k in client.keys("*tagged*"))
    game = keys.game("tagged")  # all but the records of a game stored before undos
    assert written == sorted([game.state, game.log, game.idempotency, game.undos])
    assert {key.split("}")[0] for key in written} == {"game:{tagged"}  # one hash tag
    assert all(0 < client.ttl(k) <= TTL for k in written)
    client.close()


def test_the_lua_and_the_python_rate_budgets_answer_alike():
    """GCRA runs in Lua on Redis' clock and in Python for the memory store: one burst
    and its refusals, spent through both, answer the same."""
    async def burst(store):
        key = keys.address_budget("gcra", type(store).__name__)
        return [await store.spend(key, 60_000, 5) for _ in range(8)]
    answers = {kind: run(Kind(kind, url), burst) for kind, url in
               (("redis", SHARED_REDIS), ("memory", None))}
    for name in ("allowed", "remaining"):
        assert [getattr(a, name) for a in answers["redis"]] == \
            [getattr(a, name) for a in answers["memory"]]
    assert [a.allowed for a in answers["memory"]] == [True] * 5 + [False] * 3
    for redis_answer, memory_answer in zip(answers["redis"], answers["memory"]):
        assert abs(redis_answer.retry_after_ms - memory_answer.retry_after_ms) <= 50
        assert abs(redis_answer.reset_ms - memory_answer.reset_ms) <= 50


def test_no_module_outside_the_store_spells_a_key():
    """Every Redis key and channel is named in service/store/keys.py."""
    service = Path(__file__).resolve().parents[2] / "service"
    spelled = re.compile(r"""["'`](game|clock|lobby|rl):\{|crab:replicas""")
    found = [f"{path.relative_to(service)}:{number}" for path in service.rglob("*.py")
             if "store" not in path.relative_to(service).parts
             for number, line in enumerate(path.read_text().splitlines(), 1)
             if spelled.search(line)]
    assert found == []


def test_an_unreachable_redis_raises_store_unavailable():
    instance = PrivateRedis()
    instance.stop()

    async def scenario():
        store = RedisStore(instance.url, TTL)
        try:
            for call in (store.ping(), store.load("x"), store.create("x", RECORD),
                         store.commit("x", 0, Commit(b"", META, b"")), store.history("x"),
                         store.load_with_replay("x", "k"), store.changes_since("x", 0)):
                with pytest.raises(StoreUnavailable):
                    await call
        finally:
            await store.close()
    asyncio.run(scenario())


def test_a_restarted_redis_is_reached_again_and_given_its_scripts_again():
    """A restart closes the store's connection and empties Redis of its scripts: the next
    commands are served all the same, on a new connection, the scripts loaded again."""
    instance = PrivateRedis()

    async def scenario():
        store = RedisStore(instance.url, TTL)
        try:
            await store.create("before", RECORD)
            instance.stop()
            instance.start()
            await store.create("after", RECORD)
            return await store.commit("after", 0, Commit(b"x", META, b"e")), \
                await store.load("after")
        finally:
            await store.close()
    try:
        done, record = asyncio.run(scenario())
    finally:
        instance.stop()
    assert done and record == GameRecord(1, b"x", META)


def test_a_redis_that_stops_answering_is_store_unavailable_within_the_command_timeout():
    instance = PrivateRedis()

    async def scenario():
        store = RedisStore(instance.url, TTL)
        try:
            await store.create("g", RECORD)
            instance.process.send_signal(signal.SIGSTOP)
            started = time.monotonic()
            with pytest.raises(StoreUnavailable, match="did not answer"):
                await store.load("g")
            return time.monotonic() - started
        finally:
            instance.process.send_signal(signal.SIGCONT)
            await store.close()
    try:
        waited = asyncio.run(scenario())
    finally:
        instance.stop()
    assert COMMAND_SECONDS <= waited < COMMAND_SECONDS + 3


class LosesOneReply:
    """A TCP hop to Redis that, once armed, drops the connection instead of passing on the
    reply to the next script call (EVALSHA): a reply lost in a failover, after the script
    ran."""

    def __init__(self, port: int) -> None:
        self.port, self.armed, self.dropped = port, False, False

    async def start(self) -> str:
        self.server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        return f"redis://127.0.0.1:{self.server.sockets[0].getsockname()[1]}/9"

    async def _serve(self, client_in, client_out) -> None:
        redis_in, redis_out = await asyncio.open_connection("127.0.0.1", self.port)
        while request := await client_in.read(65536):
            redis_out.write(request)
            reply = await redis_in.read(65536)
            if b"EVALSHA" in request and self.armed and not self.dropped:
                self.dropped = True
                break                                   # the script ran; its reply is lost
            client_out.write(reply)
        client_out.close()
        redis_out.close()


def test_a_commit_whose_reply_is_lost_is_retried_and_applied_once():
    instance = PrivateRedis()
    hop = LosesOneReply(instance.port)

    async def scenario():
        store = RedisStore(await hop.start(), TTL)
        try:
            for game in ("warm", "lost"):
                await store.create(game, RECORD)
            await store.commit("warm", 0, Commit(b"x", META, b"e"))  # the scripts are loaded
            hop.armed = True
            done = await store.commit("lost", 0, Commit(b"one", META, b"e1"))
            return done, await store.load("lost"), await store.history("lost")
        finally:
            await store.close()
            hop.server.close()
    try:
        done, record, history = asyncio.run(scenario())
    finally:
        instance.stop()
    assert hop.dropped                                  # the reply was lost, redis-py retried
    assert done and record == GameRecord(1, b"one", META) and history == [b"e1"]


def test_a_burst_of_hundreds_of_concurrent_commands_is_served():
    async def scenario():
        store = RedisStore(SHARED_REDIS, TTL)
        try:
            await store.create("burst", RECORD)
            return await asyncio.gather(*[store.load("burst") for _ in range(500)])
        finally:
            await store.close()
    assert asyncio.run(scenario()) == [RECORD] * 500


def test_a_store_given_any_node_of_a_cluster_serves_games_in_every_slot(redis_cluster):
    """REDIS_URL may name any node, a replica too: the store finds the cluster by itself."""
    async def scenario(url):
        store = RedisStore(url, TTL)
        try:
            ids = [f"spread-{url[-10:]}-{i}" for i in range(40)]
            for game_id in ids:
                await store.create(game_id, RECORD)
                assert await store.commit(game_id, 0, Commit(b"x", META, b"e", "0:k", b"r"))
            return [await store.load_with_replay(game_id, "0:k") for game_id in ids]
        finally:
            await store.close()
    for url in redis_cluster.urls:
        found = asyncio.run(scenario(url))
        assert found == [(GameRecord(1, b"x", META), b"r")] * 40
    primaries = [node.client() for node in redis_cluster.nodes
                 if node.client().info("replication")["role"] == "master"]
    assert len(primaries) == 3 and all(client.dbsize() > 0 for client in primaries)


# -- matchmaking queues: one pairing rule, kept alike by scripts/match.lua and MemoryQueue --

def _ticket(ticket_id: str, player: str, rating: float, since: float, expires: float,
            fill_after: float = -1) -> bytes:
    return json.dumps({"id": ticket_id, "player": player, "name": player, "game": "g",
                       "players": 2, "rating": rating, "since": since, "expires": expires,
                       "fill_after": fill_after, "status": "waiting", "game_id": None,
                       "seat": None, "token": None}).encode()


def _queue_scenario(tickets: list[tuple[str, str, float, float, float, float]], at: float,
                    rule_base: float = 3.0):

    async def scenario(store):
        queue = keys.queue(f"test-{id(tickets)}-{time_now()}", 2)
        for ticket_id, player, rating, since, expires, fill in tickets:
            await store.queue_put(queue, ticket_id, _ticket(ticket_id, player, rating, since,
                                                            expires, fill), rating, since)
        group = await store.queue_match(queue, at, MatchRule(2, rule_base, 0.5), "gid",
                                        ["tok0", "tok1"])
        states = {ticket_id: (await store.queue_get(queue, ticket_id)) for ticket_id, *_ in tickets}
        return group, states
    return scenario


def time_now() -> int:
    """A fresh queue name per scenario (the shared Redis keeps the others' queues)."""
    return time.time_ns()


def test_two_tickets_of_close_ratings_are_claimed_together_nearest_first(kind):
    group, states = run(kind, _queue_scenario([
        ("a", "pa", 25.0, 100.0, 900.0, -1), ("b", "pb", 40.0, 101.0, 900.0, -1),
        ("c", "pc", 26.0, 102.0, 900.0, -1)], at=103.0))
    seated = [json.loads(raw) for raw in group]
    assert [(t["id"], t["seat"], t["token"], t["game_id"]) for t in seated] == \
        [("a", 0, "tok0", "gid"), ("c", 1, "tok1", "gid")]
    assert json.loads(states["b"])["status"] == "waiting"
    assert json.loads(states["a"])["status"] == "seating"


def test_an_expired_ticket_is_never_claimed(kind):
    group, states = run(kind, _queue_scenario([
        ("a", "pa", 25.0, 100.0, 101.0, -1), ("b", "pb", 25.0, 100.5, 900.0, -1)], at=103.0))
    assert group == [] and json.loads(states["a"])["status"] == "expired"
    assert json.loads(states["b"])["status"] == "waiting"


def test_a_ticket_past_its_fill_delay_is_claimed_alone_for_the_ai(kind):
    group, _ = run(kind, _queue_scenario([("a", "pa", 25.0, 100.0, 900.0, 2.0)], at=103.0))
    assert [json.loads(raw)["id"] for raw in group] == ["a"]


def test_one_players_two_tickets_are_never_claimed_together(kind):
    group, _ = run(kind, _queue_scenario([
        ("a", "pa", 25.0, 100.0, 900.0, -1), ("b", "pa", 25.0, 100.5, 900.0, -1)], at=103.0))
    assert group == []


def test_a_cancelled_ticket_leaves_the_queue_and_a_claimed_one_cannot_be_cancelled(kind):

    async def scenario(store):
        queue = keys.queue(f"cancel-{time_now()}", 2)
        for ticket_id, player in (("a", "pa"), ("b", "pb"), ("c", "pc")):
            await store.queue_put(queue, ticket_id, _ticket(ticket_id, player, 25.0, 100.0,
                                                            900.0), 25.0, 100.0)
        cancelled = json.loads(await store.queue_cancel(queue, "a", 101.0))["status"]
        group = await store.queue_match(queue, 101.0, MatchRule(2, 3.0, 0.5), "gid", ["x", "y"])
        late = json.loads(await store.queue_cancel(queue, "b", 102.0))["status"]
        unknown = await store.queue_cancel(queue, "nobody", 102.0)
        return cancelled, sorted(json.loads(raw)["id"] for raw in group), late, unknown

    assert run(kind, scenario) == ("cancelled", ["b", "c"], "seating", None)


def test_a_players_events_come_in_order_after_any_id_and_a_once_key_pushes_once(kind):
    async def scenario(store):
        player_events = keys.player_events("p_events_order_test")
        ids = [await store.player_events_push(player_events, None, b"one", 100, 60),
               await store.player_events_push(player_events, "only-once", b"two", 100, 60),
               await store.player_events_push(player_events, "only-once", b"two again", 100, 60),
               await store.player_events_push(player_events, None, b"three", 100, 60)]
        everything = await store.player_events_read(player_events, None, 0)
        after_first = await store.player_events_read(player_events, ids[0], 0)
        after_last = await store.player_events_read(player_events, ids[3], 0)
        return ids, everything, after_first, after_last
    ids, everything, after_first, after_last = run(kind, scenario)
    assert ids[2] is None and None not in (ids[0], ids[1], ids[3])
    assert [event for _, event in everything] == [b"one", b"two", b"three"]
    assert [event_id for event_id, _ in everything] == [ids[0], ids[1], ids[3]]
    assert [event for _, event in after_first] == [b"two", b"three"]
    assert after_last == []


def test_a_read_of_a_player_with_no_new_event_waits_for_the_next_one(kind):
    async def scenario(store):
        player_events = keys.player_events("p_events_wait_test")
        first = await store.player_events_push(player_events, None, b"before", 100, 60)

        async def later():
            await asyncio.sleep(0.3)
            await store.player_events_push(player_events, None, b"after", 100, 60)

        pusher = asyncio.create_task(later())
        started = time.monotonic()
        found = await store.player_events_read(player_events, first, 3000)
        await pusher
        return found, time.monotonic() - started
    found, waited = run(kind, scenario)
    assert [event for _, event in found] == [b"after"] and 0.2 < waited < 3


def test_a_document_is_swapped_only_from_the_value_read(kind):
    async def scenario(store):
        key = keys.challenge("c_swap_test")
        made = await store.doc_swap(key, None, b"v1", 60)
        made_again = await store.doc_swap(key, None, b"other", 60)
        stale = await store.doc_swap(key, b"v0", b"v2", 60)
        swapped = await store.doc_swap(key, b"v1", b"v2", 60)
        return made, made_again, stale, swapped, await store.doc_get(key)
    assert run(kind, scenario) == (True, False, False, True, b"v2")


def test_a_game_id_in_use_is_not_created_again(kind):
    async def scenario(store):
        first = await store.create("g-once", RECORD)
        second = await store.create("g-once", GameRecord(0, b"another", META))
        return first, second, await store.load("g-once")
    assert run(kind, scenario) == (True, False, RECORD)


def test_a_table_counts_those_whose_presence_has_not_lapsed_and_its_key_expires(kind):
    async def scenario(store):
        key, now = keys.presence(f"g-presence-{random.random()}"), time.time()
        seen = [await store.attendance_mark(key, "seat:0", now + 25, now, 60),
                await store.attendance_mark(key, "viewer:a1b2c3d4", now + 5, now, 60),
                await store.attendance_mark(key, None, 0, now + 10, 60),  # the viewer lapsed
                await store.attendance_mark(key, "seat:0", now, now + 10, 60)]  # left
        ttl = None
        if kind.url is not None:  # Redis forgets the table a while after its last beat
            client = redis.asyncio.Redis.from_url(kind.url) if kind.name != "cluster" else \
                redis.asyncio.RedisCluster.from_url(kind.url)
            await store.attendance_mark(key, "seat:1", now + 25, now, 60)
            ttl = await client.ttl(key)
            await client.aclose()
        return seen, ttl
    seen, ttl = run(kind, scenario)
    assert seen == [["seat:0"], ["seat:0", "viewer:a1b2c3d4"], ["seat:0"], []]
    assert ttl is None or 0 < ttl <= 60


def test_many_tables_are_read_in_one_round_trip_and_none_is_marked(kind):
    """A page of listed games shows each one's spectators: read in one trip to Redis (one
    pipeline, spread over a cluster's nodes by the client), changing nothing."""
    async def scenario(store):
        tables = [keys.presence(f"g-many-{random.random()}") for _ in range(5)]
        now = time.time()
        await store.attendance_mark(tables[0], "viewer:aaaaaaaa", now + 25, now, 60)
        await store.attendance_mark(tables[0], "seat:1", now + 25, now, 60)
        await store.attendance_mark(tables[2], "viewer:bbbbbbbb", now + 5, now, 60)
        await store.attendance_mark(tables[3], "viewer:cccccccc", now + 25, now, 60)
        trips = 0
        if kind.url is not None:
            io = store._io

            async def counted(command):
                nonlocal trips
                trips += 1
                return await io(command)
            store._io = counted
        later = await store.attendance_many(tables, now + 10)  # table 2's viewer lapsed
        store.__dict__.pop("_io", None)
        return later, trips, await store.attendance_many(tables, now), \
            await store.attendance_many([], now)
    later, trips, now, none = run(kind, scenario)
    assert later == [["seat:1", "viewer:aaaaaaaa"], [], [], ["viewer:cccccccc"], []]
    assert now == [["seat:1", "viewer:aaaaaaaa"], [], ["viewer:bbbbbbbb"], ["viewer:cccccccc"], []]
    assert trips == (0 if kind.name == "memory" else 1)
    assert none == []
