"""Real Redis deployments for tests, from the `redis-server` binary on loopback ports.

- `RedisCluster`: 3 primaries with 1 replica each, made by `redis-cli --cluster create`,
  with a short node timeout so that a failover takes about a second.
- `PersistentRedis`: one server with AOF on (`appendonly yes`, `appendfsync everysec`),
  as compose.yaml runs it, that a test can restart (gracefully or by SIGKILL) on the same
  port and data directory.

Both are context managers that leave no process or file behind, a failed start included
(tests/processes.py: it says why, with the nodes' last log lines).
"""

import shutil
import subprocess
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import redis

from tests.ports import free_port
from tests.processes import Process, holds


def _require(binary: str) -> None:
    if shutil.which(binary) is None:
        raise RuntimeError(f"{binary} is not installed (.ci/run installs redis)")


def _wait(check: Callable[[], object], what: str, nodes: list["_Node"],
          seconds: float = 120.0) -> None:
    """Polls check (generously: a loaded machine is slow); gives up saying what it waited
    for, with every node's last log lines."""
    deadline = time.monotonic() + seconds
    while not holds(check):
        if time.monotonic() > deadline:
            logs = "".join(f"\n{node.process.name}:\n{node.process.tail()}"
                           for node in nodes if node.process is not None)
            raise TimeoutError(f"gave up after {seconds:g} s waiting for {what}{logs}")
        time.sleep(0.05)


class _Node:
    """One redis-server process with its own directory."""

    def __init__(self, directory: Path, *options: str) -> None:
        self.port = free_port()
        self.directory = directory
        self.options = options
        self.process: Process | None = None

    def start(self) -> None:
        """Starts the node; a start that fails stops it and raises StartFailed."""
        self.stop()
        self.process = Process(
            f"redis-server on port {self.port}",
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1",
             "--dir", str(self.directory), *self.options])
        self.process.wait_ready(self._ping, "answering PING")

    def _ping(self) -> bool:
        client = self.client()
        try:
            return bool(client.ping())
        finally:
            client.close()

    def client(self) -> redis.Redis:
        return redis.Redis(port=self.port, socket_timeout=2)

    def stop(self, kill: bool = False) -> None:
        if self.process is not None:
            self.process.stop(kill=kill)
            self.process.close()


class RedisCluster:
    """Six nodes: three primaries with one replica each; `url` names the first primary."""

    def __init__(self, node_timeout_ms: int = 1000) -> None:
        _require("redis-server")
        _require("redis-cli")
        self.directory = Path(tempfile.mkdtemp(prefix="redis-cluster-"))
        self.nodes = []
        for index in range(6):
            home = self.directory / str(index)
            home.mkdir()
            self.nodes.append(_Node(home, "--cluster-enabled", "yes",
                                    "--cluster-port", str(free_port()),  # the bus port
                                    "--cluster-config-file", "nodes.conf",
                                    "--cluster-node-timeout", str(node_timeout_ms),
                                    "--save", "", "--appendonly", "no"))
        self.url = f"redis://127.0.0.1:{self.nodes[0].port}/0"
        self.urls = [f"redis://127.0.0.1:{node.port}/0" for node in self.nodes]

    def __enter__(self) -> "RedisCluster":
        try:
            for node in self.nodes:
                node.start()
            made = subprocess.run(["redis-cli", "--cluster", "create",
                                   *[f"127.0.0.1:{node.port}" for node in self.nodes],
                                   "--cluster-replicas", "1", "--cluster-yes"],
                                  capture_output=True, text=True, timeout=120)
            if made.returncode != 0:
                raise RuntimeError(f"redis-cli --cluster create failed:\n{made.stdout[-2000:]}"
                                   f"{made.stderr[-2000:]}")
            _wait(self._ready, "cluster_state:ok on every node with three replicas in sync",
                  self.nodes)
        except BaseException:
            self.close()
            raise
        return self

    def _ready(self) -> bool:
        infos = [node.client().cluster("info") for node in self.nodes]
        if any(info["cluster_state"] != "ok" or int(info["cluster_known_nodes"]) != 6
               for info in infos):
            return False
        replicas = [node.client().info("replication") for node in self.nodes]
        return sum(r["role"] == "slave" and r["master_link_status"] == "up"
                   for r in replicas) == 3

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        for node in self.nodes:
            node.stop(kill=True)
        shutil.rmtree(self.directory, ignore_errors=True)


class PersistentRedis:
    """A single redis-server with AOF (appendfsync everysec) that survives restarts."""

    def __init__(self) -> None:
        _require("redis-server")
        self.directory = Path(tempfile.mkdtemp(prefix="redis-aof-"))
        self.node = _Node(self.directory, "--appendonly", "yes", "--appendfsync", "everysec",
                          "--save", "")
        self.url = f"redis://127.0.0.1:{self.node.port}/0"

    def __enter__(self) -> "PersistentRedis":
        try:
            self.node.start()
        except BaseException:
            self.__exit__()
            raise
        return self

    def restart(self, crash: bool = False) -> None:
        """Stops the server (SIGTERM: a clean shutdown; crash: SIGKILL) and starts it again
        on the same port and files; returns once it answers, with the AOF loaded."""
        self.node.stop(kill=crash)
        self.node.start()
        _wait(lambda: self.node.client().info("persistence")["loading"] == 0, "AOF loaded",
              [self.node])

    def __exit__(self, *exc) -> None:
        self.node.stop(kill=True)
        shutil.rmtree(self.directory, ignore_errors=True)
