"""The collector freezes what lives on and compacts (unfreezes and collects everything)
only when the frozen heap has grown by a quarter since it last did, and at most every
compact_seconds: with the same streams open, no long pause ever comes back."""

import asyncio
import gc
import weakref

from service.replica.collector import Collector


class Node:
    def __init__(self) -> None:
        self.other: object = None


def with_collector(check, compact_seconds: float = 0.0) -> None:
    async def run() -> None:
        collector = Collector(freeze_seconds=3600, compact_seconds=compact_seconds)
        collector.start()
        try:
            check(collector)
        finally:
            collector.stop()
            gc.unfreeze()  # this test process goes on as it was
    asyncio.run(run())


def test_no_compaction_is_due_while_the_frozen_heap_keeps_its_size():
    def check(collector: Collector) -> None:
        kept = [Node() for _ in range(gc.get_freeze_count() // 10)]  # a tenth more
        collector.freeze()
        assert not collector.due()
        del kept
    with_collector(check)


def test_a_compaction_is_due_once_the_frozen_heap_grew_by_a_quarter():
    def check(collector: Collector) -> None:
        kept = [Node() for _ in range(gc.get_freeze_count() // 3)]
        collector.freeze()
        assert collector.due()
        collector.compact()
        assert not collector.due()  # measured again from here
        del kept
    with_collector(check)


def test_a_compaction_waits_for_compact_seconds_since_the_last():
    def check(collector: Collector) -> None:
        kept = [Node() for _ in range(gc.get_freeze_count() // 3)]
        collector.freeze()
        assert not collector.due()
        del kept
    with_collector(check, compact_seconds=3600)


def test_a_cycle_formed_among_frozen_objects_waits_for_the_compaction():
    def check(collector: Collector) -> None:
        first, second = Node(), Node()
        collector.freeze()
        first.other, second.other = second, first  # a cycle among frozen objects
        alive = weakref.ref(first)
        del first, second
        gc.collect()
        assert alive() is not None  # frozen: no full collection sees it
        assert collector.compact() >= 2
        assert alive() is None
    with_collector(check)
