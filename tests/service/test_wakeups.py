"""Background loops sleep until their work is due or a bell rings (service.wakeups): a
sleeper wakes at its due time, at once when another replica rings, and no later than
its longest sleep; a ring before an earlier due time reaches the other replicas."""

import asyncio
import time

from service.store import RedisStore
from service.wakeups import Bell
from tests.service.servers import SHARED_REDIS


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
        sleeping = asyncio.create_task(slept(there, time.time() + 30, 30))
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
        sleeper = asyncio.create_task(slept(here, time.time() + 1.0, 30))
        watcher = asyncio.create_task(slept(there, time.time() + 1.0, 30))
        await asyncio.sleep(0.2)
        await here.ring_before(time.time() + 10)  # later than `here` wakes anyway
        return await sleeper, await watcher
    woke_here, woke_there = replicas(scenario)
    assert woke_here > 0.9 and woke_there > 0.9
