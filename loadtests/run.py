"""Headless locust run with a verdict: prints throughput and p50/p95/p99 per endpoint.

    python loadtests/run.py --host http://127.0.0.1:8000 --users 20 --spawn-rate 5 \\
        --run-time 60s --out loadtest-results --max-p99-ms 250

Starts nothing but locust: the service (and Redis) must already run at --host. Writes
locust's CSV files and HTML report into --out. Exits 1 when any request failed or any
endpoint's p99 exceeds --max-p99-ms; requests the service refused for now with
Retry-After (429, 503) and the users retried are counted apart (BACKOFF), not failed.
"""

import argparse
import csv
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", required=True)
    parser.add_argument("--users", type=int, default=20)
    parser.add_argument("--spawn-rate", type=float, default=5)
    parser.add_argument("--run-time", default="60s")
    parser.add_argument("--out", type=Path, default=Path("loadtest-results"))
    parser.add_argument("--max-p99-ms", type=float, default=250.0)
    parser.add_argument("--games", default=None, help="game:players mix (see locustfile)")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    command = [sys.executable, "-m", "locust", "-f", str(HERE / "locustfile.py"), "--headless",
               "--host", args.host, "-u", str(args.users), "-r", str(args.spawn_rate),
               "-t", args.run_time, "--csv", str(args.out / "locust"),
               "--html", str(args.out / "report.html"), "--only-summary", "--loglevel", "WARNING"]
    if args.games:
        command += ["--games", args.games]
    subprocess.run(command, check=False)
    return verdict(args.out / "locust_stats.csv", args.max_p99_ms)


def verdict(stats_file: Path, max_p99_ms: float) -> int:
    rows = list(csv.DictReader(stats_file.open()))
    print(f"{'endpoint':34} {'requests':>9} {'fails':>6} {'req/s':>8} {'p50':>6} {'p95':>6}"
          f" {'p99':>6}  (ms)")
    failed, backed_off = False, 0
    for row in rows:
        p99 = float(row["99%"] or 0)
        print(f"{row['Type'] + ' ' + row['Name']:34} {row['Request Count']:>9}"
              f" {row['Failure Count']:>6} {float(row['Requests/s']):8.1f} {row['50%']:>6}"
              f" {row['95%']:>6} {row['99%']:>6}")
        if row["Type"] == "BACKOFF":   # refused for now and retried, as clients must
            backed_off += int(row["Request Count"])
        elif row["Name"] != "Aggregated":
            failed |= int(row["Failure Count"]) > 0 or p99 > max_p99_ms
    total = next((r for r in rows if r["Name"] == "Aggregated"), None)
    if total is None or int(total["Request Count"]) == 0:
        print("no request was made")
        return 1
    if backed_off:
        print(f"{backed_off} requests were refused for now (429/503 with Retry-After) and"
              " retried after it: not failures")
    print("FAILED: failures or p99 over the bound" if failed else "OK")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
