"""Makes `tests` importable as a package root (tests.reference, tests.cupcrab.positions),
and gives the suite a Redis: the one TEST_REDIS_URL names (redis://127.0.0.1:6379/14 by
default) when it answers, else a private redis-server of the suite's own on a free
loopback port, so the README's test command needs no Redis already running."""

import os
import sys
from pathlib import Path

import pytest
import redis

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests import processes  # noqa: E402  (needs the path above)
from tests.scheduling import FileClock, LongestFileFirst  # noqa: E402
from tests.service import servers  # noqa: E402

def _answers(url: str) -> bool:
    client = redis.Redis.from_url(url, socket_connect_timeout=1, socket_timeout=1)
    try:
        return bool(client.ping())
    except redis.RedisError:
        return False
    finally:
        client.close()


def _suite_redis() -> "servers.PrivateRedis | None":
    """Runs as this file is imported, before any other conftest or test module, so every
    `from tests.service.servers import SHARED_REDIS` and every server started with
    os.environ see the Redis chosen."""
    if _answers(servers.SHARED_REDIS):
        return None
    private = servers.PrivateRedis()
    servers.SHARED_REDIS = private.url.rsplit("/", 1)[0] + "/14"
    os.environ["TEST_REDIS_URL"] = servers.SHARED_REDIS
    print(f"no Redis answers at TEST_REDIS_URL or the default address: the suite's own"
          f" redis-server on port {private.port}", file=sys.stderr)
    return private


_private = _suite_redis()


def pytest_sessionstart(session: pytest.Session) -> None:
    if not session.config.pluginmanager.hasplugin("dsession"):  # a process that runs tests
        processes.adopt_orphans()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo):
    """A test that fails shows what the processes still running for it last logged (those
    of a `with` block add theirs to the error as they stop: tests/processes.py)."""
    outcome = yield
    report = outcome.get_result()
    if report.failed:
        if logs := processes.running_tails():
            report.sections.append(("the last log lines of the processes running", logs))


_clock = FileClock()


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log):
    """The longest test files first (tests/scheduling.py)."""
    return LongestFileFirst(config, log) if config.getvalue("dist") == "loadfile" else None


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    _clock.add(report)


def pytest_sessionfinish(session: pytest.Session) -> None:
    """The suite's database and Redis go, then the safety net: whatever a test left
    running is killed and named (in a pytest-xdist worker, for the controller to report),
    and the run fails."""
    if not hasattr(session.config, "workerinput"):  # the controller, or the only process
        _clock.save(session.config)
    try:
        servers.close_suite_database()
    finally:
        if _private is not None:
            _private.stop()
    # pytest-xdist's controller runs no test, and its children are the workers.
    controller = session.config.pluginmanager.hasplugin("dsession")
    left = processes.reap_leftovers(descendants_too=not controller)
    if hasattr(session.config, "workeroutput"):
        session.config.workeroutput["leftovers"] = left
    else:
        _leftovers.extend(left)
    if _leftovers and session.exitstatus == pytest.ExitCode.OK:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


_leftovers: list[str] = []


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node, error) -> None:
    """A pytest-xdist worker is done: what its tests left running (see above)."""
    _leftovers.extend(f"{node.gateway.id}: {what}"
                      for what in getattr(node, "workeroutput", {}).get("leftovers", []))


def pytest_terminal_summary(terminalreporter) -> None:
    if _leftovers:
        terminalreporter.write_sep("=", "processes the tests left running (killed now)",
                                   red=True)
        for what in _leftovers:
            terminalreporter.write_line(what)
