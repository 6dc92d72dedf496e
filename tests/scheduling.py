"""The order in which pytest-xdist hands the test files to its workers: the longest first.

With `--dist loadfile` a file runs whole on one worker, and pytest-xdist hands out the
files with the most tests first: the browser files, a few tests of tens of seconds each,
went last, and the last of them bounded the run while the other worker had nothing left
to do. Handed out longest first (LPT scheduling), the short files fill in at the end.

A file's seconds are those of its last run on this machine (pytest's cache, recorded by
tests/conftest.py), else those of tests/file_seconds.json (a whole run, committed, for a
clean clone); a file in neither is new, and goes first. The order changes no result: only
which worker runs a file, and when.
"""

import json
from collections import defaultdict
from pathlib import Path

import pytest
from xdist.scheduler import LoadFileScheduling

MEASURED = Path(__file__).with_name("file_seconds.json")
CACHE_KEY = "crab/file-seconds"


def file_of(nodeid: str) -> str:
    return nodeid.split("::", 1)[0]


def known_seconds(config: pytest.Config) -> dict[str, float]:
    seconds = json.loads(MEASURED.read_text()) if MEASURED.exists() else {}
    if config.cache is not None:
        seconds.update(config.cache.get(CACHE_KEY, {}))
    return seconds


class LongestFileFirst(LoadFileScheduling):
    def __init__(self, config: pytest.Config, log=None) -> None:
        super().__init__(config, log)
        self.seconds = known_seconds(config)

    def _assign_work_unit(self, node) -> None:
        """Puts the longest file waiting at the head of the queue, which the base class
        hands to the node (max keeps the collection's order among equals)."""
        longest = max(self.workqueue, key=lambda scope: self.seconds.get(scope, float("inf")))
        self.workqueue.move_to_end(longest, last=False)
        super()._assign_work_unit(node)


class FileClock:
    """Sums each file's seconds (set-up, call and tear-down of its tests) as the reports
    arrive, and keeps them in pytest's cache at the session's end, over what earlier runs
    of other files left there."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = defaultdict(float)

    def add(self, report: pytest.TestReport) -> None:
        self.seconds[file_of(report.nodeid)] += report.duration

    def save(self, config: pytest.Config) -> None:
        if config.cache is None or not self.seconds:
            return
        kept = config.cache.get(CACHE_KEY, {})
        kept.update({name: round(seconds, 1) for name, seconds in self.seconds.items()})
        config.cache.set(CACHE_KEY, kept)


def main() -> None:
    """`python -m tests.scheduling`, after a whole run: its files' seconds become those
    of a clean clone (tests/file_seconds.json)."""
    cached = Path(".pytest_cache/v") / CACHE_KEY
    seconds = json.loads(cached.read_text())
    MEASURED.write_text(json.dumps(dict(sorted(seconds.items())), indent=0) + "\n")
    print(f"{len(seconds)} files' seconds written to {MEASURED}")


if __name__ == "__main__":
    main()
