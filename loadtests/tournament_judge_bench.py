"""What a tournament's judged estimates cost: the same round robin of AI levels played
with `estimates: paired` and with `estimates: judged`, the service's CPU and the wall time
of each.

    python loadtests/tournament_judge_bench.py [--levels ai-1 ai-2 ai-3 ai-4] [--deals 3]
        [--game cup-the-crab] [--port 8592] [--out results.json]

Starts `python -m service` as tournament_bench.py does (one worker, the embedded store, a
SQLite archive of its own), makes one round robin (two a table, duplicate deals) of the AI
levels with each value of `estimates` in turn, each started at once and read until it is
finished; the service's CPU (every thread: the AI seats' play and the judge's worker
threads alike) is read from /proc before and after each. Their difference is the judge's
cost, as a multiple of the paired tournament's, which is the games' own play. The results
as JSON on stdout (and in --out), with the load average before and after.
"""

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from loadtests.tournament_bench import cpu_seconds, serve  # noqa: E402


def tournament(client: httpx.Client, key: str, args: argparse.Namespace,
               estimates: str, pid: int) -> dict:
    """One round robin played out: its wall time, the service's CPU, its pairings."""
    headers = {"Authorization": f"Bearer {key}"}
    made = client.post("/v1/tournaments", headers=headers, json={
        "game": args.game, "format": "round-robin", "deals": args.deals, "duplicate": True,
        "turn_seconds": 10, "entry_seconds": 600, "entrants": args.levels,
        "estimates": estimates})
    made.raise_for_status()
    url = f"/v1/tournaments/{made.json()['id']}"
    cpu, wall = cpu_seconds(pid), time.monotonic()
    client.post(f"{url}/start", headers=headers).raise_for_status()
    while (found := client.get(url).json())["status"] == "running":
        time.sleep(0.5)
    wall, cpu = time.monotonic() - wall, cpu_seconds(pid) - cpu
    games = sum(p["verdict"]["games"] for p in found["pairings"])
    return {"estimates": estimates, "status": found["status"], "games": games,
            "wall_seconds": round(wall, 1), "service_cpu_seconds": round(cpu, 1),
            "cpu_seconds_a_game": round(cpu / games, 2) if games else None,
            "pairings": [{"a": p["a"], "b": p["b"],
                          "paired": p["verdict"]["paired_difference"],
                          "corrected": p["verdict"]["corrected_difference"],
                          "deals_for_5_percent": p["verdict"]["deals_for_5_percent"]}
                         for p in found["pairings"]]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--levels", nargs="+", default=["ai-1", "ai-2", "ai-3", "ai-4"])
    parser.add_argument("--deals", type=int, default=3)
    parser.add_argument("--game", default="cup-the-crab")
    parser.add_argument("--port", type=int, default=8592)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    load = os.getloadavg()
    with tempfile.TemporaryDirectory() as scratch:
        service = serve(args.port, f"{scratch}/archive.sqlite3", Path(scratch) / "service.log")
        try:
            with httpx.Client(base_url=f"http://127.0.0.1:{args.port}", timeout=60) as client:
                owner = client.post("/v1/players", json={"name": "Bench", "kind": "bot"})
                owner.raise_for_status()
                runs = [tournament(client, owner.json()["key"], args, estimates, service.pid)
                        for estimates in ("paired", "judged")]
        finally:
            service.terminate()
            service.wait(20)
    paired, judged = runs
    results = {"game": args.game, "levels": args.levels, "deals": args.deals, "runs": runs,
               "judge_cpu_seconds": round(judged["service_cpu_seconds"]
                                          - paired["service_cpu_seconds"], 1),
               "judged_over_paired_cpu": round(judged["service_cpu_seconds"]
                                               / paired["service_cpu_seconds"], 2),
               "load_before": [round(x, 2) for x in load],
               "load_after": [round(x, 2) for x in os.getloadavg()],
               "at": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())}
    print(json.dumps(results, indent=1))
    if args.out:
        args.out.write_text(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
