"""The processes the tests start (services, redis-server, PostgreSQL, browsers) and the
session's safety net.

A `Process` keeps its output in a log file, and is started in a process group of its own
so that stopping it stops what it started too (uvicorn's workers). Its start-up is awaited
patiently while it runs, since a busy machine is slow, not broken, and given up at once
when it exits; either way a start that fails stops the process and raises `StartFailed`
with the log's last lines. Every object that owns a process is tracked until it is
closed: at the session's end `reap_leftovers()` kills whatever a test left running (a
tracked owner, or any descendant of this process) and names it, so that one test's leak
neither slows the next tests down nor goes unseen (tests/conftest.py fails the run).
"""

import ctypes
import os
import signal
import subprocess
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Protocol

# A start-up on a loaded 2-core machine (imports, a Cython core, a database migration) can
# take many times its usual second or two: only a process that is alive this long and
# still not ready is taken to be stuck.
START_SECONDS = 120.0
TAIL_LINES = 30
STOP_SECONDS = 10.0  # what SIGTERM gets before SIGKILL


class StartFailed(RuntimeError):
    """A process exited, or never became ready, while it was being started."""


class Owned(Protocol):
    """Something a test started that must not outlive the session."""
    name: str

    def alive(self) -> bool: ...

    def close(self) -> None: ...


_owned: dict[int, Owned] = {}


def track(owned: Owned) -> None:
    _owned[id(owned)] = owned


def untrack(owned: Owned) -> None:
    _owned.pop(id(owned), None)


def tail(path: Path, lines: int = TAIL_LINES) -> str:
    """The last lines of a log file, indented, for an error message."""
    try:
        text = path.read_text(errors="replace")
    except FileNotFoundError:
        return "    (no log file)"
    kept = text.splitlines()[-lines:]
    return "\n".join(f"    {line}" for line in kept) if kept else "    (the log is empty)"


def holds(check: Callable[[], object]) -> bool:
    """check(), with any exception taken as "not yet" (a port not open, a refusal...)."""
    try:
        return bool(check())
    except Exception:
        return False


class Process(subprocess.Popen):
    """A child process whose output goes to a log file, in a process group of its own."""

    def __init__(self, name: str, command: list[str], env: dict[str, str] | None = None,
                 cwd: Path | None = None) -> None:
        self.name = name
        self.group_ended = False
        handle, log = tempfile.mkstemp(prefix="crab-test-", suffix=".log")
        self.log_path = Path(log)
        with os.fdopen(handle, "wb") as output:
            super().__init__(command, cwd=cwd, env=env, stdin=subprocess.DEVNULL,
                             stdout=output, stderr=subprocess.STDOUT, start_new_session=True)
        track(self)

    def alive(self) -> bool:
        return self.poll() is None

    def output(self) -> str:
        return self.log_path.read_text(errors="replace")

    def tail(self) -> str:
        return tail(self.log_path)

    def wait_ready(self, check: Callable[[], object], what: str,
                   seconds: float = START_SECONDS) -> None:
        """Polls check until it holds. When the process exits first, or is still not ready
        after seconds, stops it and raises StartFailed with its last log lines."""
        deadline = time.monotonic() + seconds
        while not holds(check):
            if not self.alive():
                self.fail(f"exited with status {self.returncode} before {what}")
            if time.monotonic() > deadline:
                self.fail(f"was running but not {what} after {seconds:g} s")
            time.sleep(0.05)

    def fail(self, reason: str) -> None:
        last = self.tail()
        self.close()
        raise StartFailed(f"{self.name} {reason}; its last log lines:\n{last}")

    def stop(self, kill: bool = False, seconds: float = STOP_SECONDS) -> None:
        """Stops the process (SIGTERM, then SIGKILL after seconds; kill: SIGKILL at once)
        and then anything left in its group; keeps the log for the test to read."""
        if self.alive():
            self.kill() if kill else self.terminate()
            try:
                self.wait(seconds)
            except subprocess.TimeoutExpired:
                self.kill()
                self.wait()
        if not self.group_ended:  # once: the group's id is free for reuse after that
            self.group_ended = True
            try:
                os.killpg(self.pid, signal.SIGKILL)  # what it started and left behind
            except (ProcessLookupError, PermissionError):
                pass

    def close(self) -> None:
        """Stops the process for good and removes its log."""
        try:
            self.stop()
        finally:
            untrack(self)
            self.log_path.unlink(missing_ok=True)

    def note_on(self, error: BaseException) -> None:
        """Adds the process's last log lines to error, for the test's report."""
        error.add_note(f"{self.name}, its last log lines:\n{tail(self.log_path, 15)}")

    def __enter__(self) -> "Process":
        return self

    def __exit__(self, kind: object, error: BaseException | None, trace: object) -> None:
        if error is not None:
            self.note_on(error)
        self.close()


def running_tails(lines: int = 10) -> str:
    """The last log lines of every process this one runs, for a test that gives up."""
    return "".join(f"\n{owned.name}, its last log lines:\n{tail(owned.log_path, lines)}"
                   for owned in list(_owned.values())
                   if isinstance(owned, Process) and owned.alive())


def _parents() -> dict[int, tuple[int, str]]:
    """Every live process of the machine: pid -> (parent pid, state), from /proc."""
    found = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue  # ended meanwhile
        fields = stat.rsplit(")", 1)[1].split()  # after "pid (name)": state, ppid, ...
        found[int(entry.name)] = (int(fields[1]), fields[0])
    return found


def running(pid: int) -> bool:
    """pid is a live process (not a zombie whose status nobody collected yet)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def command_line(pid: int) -> str:
    try:
        return (Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ")
                .decode(errors="replace").strip())
    except OSError:
        return "?"


def descendants(root: int | None = None) -> list[int]:
    """The live (not zombie) processes below root (default: this one)."""
    table, below, found = _parents(), {root or os.getpid()}, []
    grew = True
    while grew:
        grew = False
        for pid, (parent, state) in table.items():
            if parent in below and pid not in below:
                below.add(pid)
                grew = True
                if state != "Z":
                    found.append(pid)
    return found


def adopt_orphans() -> None:
    """Makes this process the child subreaper of what it starts (Linux): a process whose
    parent exits (npm's node, a daemonised postmaster, the workers of a killed uvicorn) is
    then its child, not init's, so that the session's end finds it below this process."""
    PR_SET_CHILD_SUBREAPER = 36
    ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)


def _bury_zombies() -> None:
    """Collects the exit status of children nobody waits for (adopted orphans)."""
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


def reap_leftovers(descendants_too: bool = True) -> list[str]:
    """Closes every tracked owner still alive and (descendants_too) kills every descendant
    of this process; returns what each was, for the session's report."""
    left = []
    for owned in list(_owned.values()):
        if owned.alive():
            left.append(owned.name)
        owned.close()  # removes its files even when it died on its own
    for pid in descendants() if descendants_too else []:
        left.append(f"pid {pid}: {command_line(pid)}")
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    _bury_zombies()
    return left
