"""Locust results at several server worker counts, on loopback, against Redis.

    python loadtests/workers_scaling.py --workers 1 2 4 --users 32 --run-time 30s --runs 3

For each worker count it starts `python -m service --workers N` (REDIS_URL, default
database 12 of 127.0.0.1:6379), waits for /ready, runs loadtests/run.py headless into
loadtest-results/workers-N-R/ once per run, stops the server, and finally prints one line
per count with medians over the runs: total requests/s, moves/s and the POST move
endpoint's p50/p95/p99. The load generator shares the machine with the server, which is
part of what the figures show on a 2-core machine.
"""

import argparse
import csv
import os
import statistics
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

HERE = Path(__file__).resolve().parent


def serve(workers: int, port: int, redis_url: str) -> subprocess.Popen:
    # Rate limits off: the users are one client address; throughput is what is measured.
    env = {**os.environ, "REDIS_URL": redis_url, "ACCESS_LOG": "0",
           "RATE_LIMIT_CREATES_PER_MINUTE": "0", "RATE_LIMIT_MOVES_PER_SECOND": "0"}
    server = subprocess.Popen([sys.executable, "-m", "service", "--port", str(port),
                               "--workers", str(workers)], cwd=HERE.parent, env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(300):
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/ready", timeout=1)
            return server
        except OSError:
            time.sleep(0.1)
    server.kill()
    raise RuntimeError(f"the service with {workers} workers did not start")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2, 4])
    parser.add_argument("--users", type=int, default=32)
    parser.add_argument("--run-time", default="30s")
    parser.add_argument("--port", type=int, default=8700)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--out", type=Path, default=Path("loadtest-results"))
    args = parser.parse_args()
    redis_url = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/12")
    lines = []
    for workers in args.workers:
        server = serve(workers, args.port, redis_url)
        runs = []
        try:
            for run in range(args.runs):
                out = args.out / f"workers-{workers}-{run + 1}"
                subprocess.run([sys.executable, str(HERE / "run.py"), "--host",
                                f"http://127.0.0.1:{args.port}", "--users", str(args.users),
                                "--spawn-rate", str(args.users), "--run-time", args.run_time,
                                "--out", str(out), "--max-p99-ms", "10000"], check=False)
                runs.append({r["Name"]: r for r in csv.DictReader(
                    (out / "locust_stats.csv").open())})
        finally:
            server.terminate()
            server.wait()
        lines.append(summary(workers, runs))
    print(f"# {time.strftime('%Y-%m-%d')}, {os.cpu_count()} cores, locust {args.users} users,"
          f" {args.run_time} a run, medians of {args.runs} runs, loopback, Redis")
    print("\n".join(lines))


def summary(workers: int, runs: list[dict]) -> str:
    def med(name: str, column: str) -> float:
        return statistics.median(float(run[name][column] or 0) for run in runs)
    move = "/v1/games/[id]/moves"
    failures = sum(int(run["Aggregated"]["Failure Count"]) for run in runs)
    return (f"{workers} worker(s): {med('Aggregated', 'Requests/s'):8.1f} req/s in all,"
            f" {med(move, 'Requests/s'):7.1f} moves/s, move p50/p95/p99"
            f" {med(move, '50%'):.0f}/{med(move, '95%'):.0f}/{med(move, '99%'):.0f} ms,"
            f" failures {failures}")


if __name__ == "__main__":
    main()
