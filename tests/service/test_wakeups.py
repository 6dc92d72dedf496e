"""Background loops sleep until their work is due or a bell rings (service.replica.wakeups): a
sleeper wakes at its due time, at once when another replica rings, and no later than
its longest sleep; a ring before an earlier due time reaches the other replicas."""

import asyncio
import time

import httpx
import pytest

from service.replica.wakeups import Bell
from service.store import MemoryStore, RedisStore
from tests.service.play import create
from tests.service.servers import SHARED_REDIS, PrivateRedis, server


def replicas(scenario):
    async def main():
        one, two = RedisStore(SHARED_REDIS, 60), RedisStore(SHARED_REDIS, 60)
        try:
            return await scenario(Bell(one, "test-topic"), Bell(two, "test-topic"))
        finally:
            await one.close()
            await two.close()
    return asyncio.run(main())


async def slept(bell: Bell, due: float, longest: float) -> float:
    started = time.monotonic()
    await bell.sleep_until(due, longest)
    return time.monotonic() - started


async def new_loop_slept(bell: Bell, due: float, longest: float) -> float:
    """How long a new loop on bell sleeps once it has looked at its work: its first call
    ends at once (what rang before the loop was there is work it has not seen)."""
    await bell.sleep_until(0, 0)
    return await slept(bell, due, longest)


def test_a_sleeper_wakes_at_its_due_time_or_its_longest_sleep():
    async def scenario(bell, _):
        await slept(bell, 0, 1)  # the first sleep subscribes (and is rung once on connecting)
        await asyncio.sleep(0.3)
        await slept(bell, 0, 1)
        return (await slept(bell, time.time() + 0.3, 5),
                await slept(bell, time.time() + 60, 0.3))
    due, longest = replicas(scenario)
    assert 0.25 < due < 1 and 0.25 < longest < 1


def test_a_ring_on_another_replica_wakes_a_sleeper_at_once():
    async def scenario(here, there):
        await slept(there, 0, 1)
        await asyncio.sleep(0.3)
        await slept(there, 0, 1)  # what the connection rang is heard
        sleeping = asyncio.create_task(new_loop_slept(there, time.time() + 30, 30))
        await asyncio.sleep(0.2)
        await here.ring_before(time.time() + 1)  # here no loop sleeps: it rings everywhere
        return await sleeping
    assert replicas(scenario) < 1


def test_work_due_after_the_loops_next_wake_rings_nobody():
    async def scenario(here, there):
        await slept(here, 0, 1)
        await slept(there, 0, 1)
        await asyncio.sleep(0.3)
        await slept(here, 0, 1)  # what the connections rang is heard
        await slept(there, 0, 1)
        sleeper = asyncio.create_task(new_loop_slept(here, time.time() + 1.0, 30))
        watcher = asyncio.create_task(new_loop_slept(there, time.time() + 1.0, 30))
        await asyncio.sleep(0.2)
        await here.ring_before(time.time() + 10)  # later than `here` wakes anyway
        return await sleeper, await watcher
    woke_here, woke_there = replicas(scenario)
    assert woke_here > 0.9 and woke_there > 0.9


def test_a_deadline_armed_on_a_replica_that_dies_is_applied_on_time_by_another():
    """The commit that arms a deadline rings the other replicas' clocks (they slept with
    nothing due): killed right after, its replica leaves the timeout to another, which
    applies it when due, not up to 30 s later (its longest sleep)."""
    redis = PrivateRedis()
    env = {"REDIS_URL": redis.url, "TURN_SECONDS_MIN": "1", "ACCESS_LOG": "0"}
    try:
        with server(env) as doomed, server(env) as survivor:
            time.sleep(1)  # both idle, their clocks asleep with nothing due
            with httpx.Client(base_url=doomed.url, timeout=30) as client:
                game = create(client, "cup-the-crab", 2, turn_seconds=1, on_timeout="forfeit")
            doomed.process.kill()
            doomed.process.wait()
            # Not read meanwhile: a read of an overdue game would arm its clock again.
            time.sleep(5)
            found = httpx.get(f"{survivor.url}/v1/games/{game['id']}", timeout=30).json()
            assert found["status"] == "over", "the timeout waits for the survivor's next look"
    finally:
        redis.stop()


@pytest.mark.parametrize("store", ["redis", "memory"])
def test_two_loops_on_one_bell_each_see_a_ring_that_came_while_one_worked(store):
    """The archive's two drain passes share a bell: a ring that wakes one while the other
    works must still end the other's next sleep at once, or that one sleeps its longest.
    (Whether the store's echo of the ring comes before or after the woken loop goes on
    must not matter: the embedded store echoes at once.)"""
    async def main():
        made = RedisStore(SHARED_REDIS, 60) if store == "redis" else MemoryStore(60)
        bell = Bell(made, "test-topic")
        try:
            await slept(bell, 0, 1)  # the first sleep subscribes (and is rung on connecting)
            await asyncio.sleep(0.3)
            working = asyncio.Event()

            async def other_loop() -> float:
                await bell.sleep_until(0, 0)  # it has looked at its work
                working.set()
                await asyncio.sleep(0.5)      # ... and works while the ring comes
                return await slept(bell, time.time() + 30, 3)

            other = asyncio.create_task(other_loop())
            await working.wait()
            woken = asyncio.create_task(new_loop_slept(bell, time.time() + 30, 3))
            await asyncio.sleep(0.1)
            await bell.ring()
            return await woken, await other
        finally:
            await made.close()
    woken, other = asyncio.run(main())
    assert woken < 1 and other < 1
