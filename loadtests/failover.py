"""A Redis Cluster primary killed in the middle of a locust run: what the service does.

    python loadtests/failover.py --users 8 --run-time 40 --kill-after 15

Starts a 3-primary, 3-replica Redis Cluster on loopback ports and two service replicas on
it (each given a different node, rate limits off), runs locust against one replica, and
SIGKILLs a primary half-way. Then it checks and prints: every failed request was a 503 (no
500, no other error), no request hung, how long the cluster took to promote the replica,
and that every game left in the cluster has as many entries in its log as its version
(its segments opened: service/store/segments.py). Exits 1 on any breach.
"""

import argparse
import csv
import re
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import redis

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from service.store import segments  # noqa: E402
from tests.clusters import RedisCluster  # noqa: E402
from tests.service.servers import server  # noqa: E402

UNLIMITED = {"RATE_LIMIT_CREATES_PER_MINUTE": "0", "RATE_LIMIT_MOVES_PER_SECOND": "0",
             "AI_MAX_CONCURRENT": "64", "ACCESS_LOG": "0"}
HANG_SECONDS = 10.0  # a request slower than this counts as hung


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--users", type=int, default=8)
    parser.add_argument("--run-time", type=int, default=40, help="seconds of locust")
    parser.add_argument("--kill-after", type=float, default=15, help="seconds into the run")
    args = parser.parse_args(argv)
    out = Path(tempfile.mkdtemp(prefix="failover-"))
    with RedisCluster() as cluster, \
            server({**UNLIMITED, "REDIS_URL": cluster.urls[0]}) as one, \
            server({**UNLIMITED, "REDIS_URL": cluster.urls[2]}) as two:
        victim = cluster.nodes[1]  # a primary (redis-cli makes the first three primaries)
        print(f"cluster up; locust: {args.users} users for {args.run_time} s on {one.url};"
              f" SIGKILL of the primary on port {victim.port} after {args.kill_after:g} s",
              flush=True)
        run = threading.Thread(target=_locust, args=(one.url, args, out))
        run.start()
        time.sleep(args.kill_after)
        victim.stop(kill=True)
        killed = time.monotonic()
        survivors = [node for node in cluster.nodes if node is not victim]
        window = _wait_for_promotion(survivors) - killed
        print(f"primary killed; the cluster was ok again {window:.1f} s later", flush=True)
        run.join()
        games, broken = _verify_games(survivors)
        faults = [fault for replica in (one, two) for fault in _server_faults(replica.output())]
    return _report(out, window, games, broken, faults)


def _locust(host: str, args: argparse.Namespace, out: Path) -> None:
    subprocess.run([sys.executable, str(ROOT / "loadtests" / "run.py"), "--host", host,
                    "--users", str(args.users), "--spawn-rate", str(args.users),
                    "--run-time", f"{args.run_time}s", "--out", str(out),
                    "--max-p99-ms", "100000"], capture_output=True, text=True)


def _wait_for_promotion(nodes) -> float:
    """When a replica of the dead primary serves its slots: three primaries among the
    survivors, and every survivor sees the cluster ok."""
    while True:
        try:
            primaries = sum(node.client().info("replication")["role"] == "master"
                            for node in nodes)
            if primaries == 3 and all(node.client().cluster("info")["cluster_state"] == "ok"
                                      for node in nodes):
                return time.monotonic()
        except redis.RedisError:
            pass
        time.sleep(0.05)


def _verify_games(nodes) -> tuple[int, list[str]]:
    """Every game on the surviving primaries: its version equals its log's entries."""
    games, broken = 0, []
    for node in nodes:
        client = node.client()
        if client.info("replication")["role"] != "master":
            continue
        for key in client.scan_iter(match="game:*:state", count=500):
            tag = key.decode()[: -len(":state")]
            version = client.hget(key, "version")
            length = len(segments.entries_of(client.lrange(f"{tag}:log", 0, -1)))
            games += 1
            if version is None or int(version) != length:
                broken.append(f"{tag}: version {version!r}, log {length}")
    return games, broken


def _server_faults(log: str) -> list[str]:
    """The service's own account of each 500 it answered: the log record and traceback."""
    records = re.split(r"\n(?=\d{4}-\d\d-\d\d \d\d:)", log)  # a record starts with its time
    return [record for record in records if "unhandled" in record]


def _report(out: Path, window: float, games: int, broken: list[str], faults: list[str]) -> int:
    stats = {row["Name"]: row for row in csv.DictReader((out / "locust_stats.csv").open())}
    failures = list(csv.DictReader((out / "locust_failures.csv").open()))
    total = stats["Aggregated"]
    slowest = max(float(row["Max Response Time"] or 0) for row in stats.values()) / 1000
    not_503 = [row for row in failures if "503" not in row["Error"]]
    # Since the users honour Retry-After, a 503 is retried and counted as a BACKOFF row
    backed_off = sum(int(row["Request Count"]) for name, row in stats.items()
                     if row["Type"] == "BACKOFF")
    print(f"\n| measure | value |\n|---|---|\n| requests | {total['Request Count']} |"
          f"\n| refused for now (503 with Retry-After), retried | {backed_off} |"
          f"\n| failed requests | {total['Failure Count']} |"
          f"\n| failed with anything but 503 | {sum(int(r['Occurrences']) for r in not_503)} |"
          f"\n| slowest request | {slowest:.2f} s |"
          f"\n| failover window (kill to cluster_state:ok) | {window:.1f} s |"
          f"\n| games verified (version == entries logged) | {games} |"
          f"\n| games broken | {len(broken)} |")
    for row in not_503[:5]:
        print("not a 503:", row["Method"], row["Name"], row["Error"][:200])
    for line in broken[:5]:
        print("broken:", line)
    for fault in faults[:3]:
        print("the server's account of a 500:", fault[-3000:])
    ok = not not_503 and not broken and slowest < HANG_SECONDS and int(total["Request Count"])
    print("OK" if ok else "FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
