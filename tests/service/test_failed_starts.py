"""A process the tests start and that fails to start is stopped, with what it started, and
the test is told why with the process's last log lines: a failed start never leaves a
process to slow the next tests down (issue 30: 50 services were left on a busy machine)."""

import re

import pytest

from tests.processes import StartFailed, command_line, descendants
from tests.service.servers import PrivateRedis, Server

SLOW_START = '''
import subprocess, sys, time
subprocess.Popen(["sleep", "{marker}"])  # something it started, in its process group
print("starting slowly", flush=True)
time.sleep(3600)
'''


def running_with(*words: str) -> list[str]:
    """The command lines of this process's descendants that contain every word."""
    lines = [command_line(pid) for pid in descendants()]
    return [line for line in lines if all(word in line for word in words)]


def port_of(failure: pytest.ExceptionInfo[StartFailed]) -> str:
    return re.search(r"on port (\d+)", str(failure.value)).group(1)


def test_a_service_that_exits_at_start_says_why_and_leaves_no_process():
    with pytest.raises(StartFailed) as failure:
        Server({"TURN_SECONDS_MIN": "soon"}, start_seconds=600)
    message = str(failure.value)
    assert "exited with status 1 before answering GET /health" in message  # not a deadline
    assert "TURN_SECONDS_MIN must be an integer, got 'soon'" in message  # its last log lines
    assert running_with("service", port_of(failure)) == []


def test_a_service_that_hangs_at_start_is_stopped_with_what_it_started(tmp_path):
    marker = "4041.5"  # how long the child sleeps: a word no other process has
    (tmp_path / "sitecustomize.py").write_text(SLOW_START.format(marker=marker))
    with pytest.raises(StartFailed) as failure:
        Server({"PYTHONPATH": str(tmp_path)}, start_seconds=5)
    message = str(failure.value)
    assert "was running but not answering GET /health after 5 s" in message
    assert "starting slowly" in message
    assert running_with("service", port_of(failure)) == []
    assert running_with("sleep", marker) == []


def test_a_redis_server_that_exits_at_start_says_why_and_leaves_no_process():
    with pytest.raises(StartFailed) as failure:
        PrivateRedis("--no-such-directive", "yes")
    assert "Bad directive or wrong number of arguments" in str(failure.value)
    assert running_with("redis-server", port_of(failure)) == []
