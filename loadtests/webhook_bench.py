"""What a webhook bot's decision costs: the call's round trip on loopback, and a whole
decision (the seat's turn starting to its move committed) beside a streaming bot's.

    python loadtests/webhook_bench.py [--calls 2000] [--deals 25] [--out results.json]

1. The call alone: the service's caller (service/webhooks/caller.py: sign, resolve and
   check the address, POST, read and decode the answer) against the example webhook bot
   (examples/webhook_bot.py, a process of its own on loopback), --calls calls one after
   the other: wall time p50/p90/p99 and this process's CPU time per call.
2. Whole decisions: `python -m service` (embedded store, SQLite archive, loopback
   allowed) and a series of --deals deals of Crabe vs Poulpe against AI level 1, played
   once by the example webhook bot and once by the example streaming bot
   (examples/bot.py --policy random: its stream, then POST .../moves); each
   contestant's latency as the series' table gives it (docs/arena.md, "Latency").
"""

import argparse
import asyncio
import json
import os
import resource
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
import msgspec

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from service.webhooks.caller import Caller  # noqa: E402
from service.webhooks.destinations import Destinations, _networks  # noqa: E402

SECRET = "crab_whsec_bench"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_for(check, what: str, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if check():
                return
        except (httpx.HTTPError, OSError):
            pass
        time.sleep(0.1)
    raise RuntimeError(f"gave up waiting for {what}")


def quantiles(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)
    pick = lambda q: round(ordered[min(len(ordered) - 1, int(q * len(ordered)))], 3)  # noqa: E731
    return {"p50": pick(0.5), "p90": pick(0.9), "p99": pick(0.99), "max": round(ordered[-1], 3)}


def cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


async def calls(url: str, count: int) -> dict:
    caller = Caller(Destinations(("*",), _networks("127.0.0.1/32")), 2000, 16384, 8)
    body = msgspec.json.encode({"type": "decision", "game": {
        "legal_moves": [{"type": "play", "card": "crab"}, {"type": "pass"}]}})
    walls, failures = [], 0
    try:
        for warm in range(50):
            await caller.call(url, [SECRET], body, time.time() + 5, f"warm:{warm}")
        started = cpu()
        for index in range(count):
            outcome = await caller.call(url, [SECRET], body, time.time() + 5, f"bench:{index}")
            walls.append(outcome.seconds * 1000)
            failures += outcome.failure is not None
        spent = cpu() - started
    finally:
        await caller.close()
    return {"calls": count, "failures": failures, "wall_ms": quantiles(walls),
            "caller_cpu_ms_per_call": round(spent * 1000 / count, 3)}


def serve(port: int, archive: str) -> subprocess.Popen:
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{archive}", "ACCESS_LOG": "0",
           "RATE_LIMIT_CREATES_PER_MINUTE": "0", "RATE_LIMIT_MOVES_PER_SECOND": "0",
           "WEBHOOK_NETWORKS": "127.0.0.1/32"}
    env.pop("REDIS_URL", None)
    process = subprocess.Popen([sys.executable, "-m", "service", "--port", str(port)],
                               cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
    wait_for(lambda: httpx.get(f"http://127.0.0.1:{port}/health").status_code == 200,
             "the service")
    return process


def series(url: str, bot: dict, deals: int) -> dict:
    made = httpx.post(f"{url}/v1/series", headers={"Authorization": f"Bearer {bot['key']}"},
                      json={"game": "crabe-vs-poulpe", "players": 2,
                            "contestants": [bot["id"], "ai-1"], "deals": deals,
                            "turn_seconds": 10, "at_once": 1})
    made.raise_for_status()
    return wait_series(url, made.json()["id"])


def wait_series(url: str, series_id: str) -> dict:
    while (found := httpx.get(f"{url}/v1/series/{series_id}").json())["status"] == "running":
        time.sleep(1)
    return found


def webhook_series(url: str, deals: int) -> dict:
    port = free_port()
    bot_process = subprocess.Popen(
        [sys.executable, "examples/webhook_bot.py", "--server", url, "--port", str(port)],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        bot = json.loads(bot_process.stdout.readline())
        return series(url, bot, deals)["contestants"][0]["latency"]
    finally:
        bot_process.terminate()
        bot_process.wait(10)


def stream_series(url: str, deals: int) -> dict:
    bot_process = subprocess.Popen(
        [sys.executable, "examples/bot.py", "--url", url, "--series", "ai-1", "--deals",
         str(deals), "--game", "crabe-vs-poulpe", "--policy", "random", "--turn-seconds", "10"],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        for line in bot_process.stdout:
            if line.startswith('{"series"'):
                found = wait_series(url, json.loads(line)["series"])
                return found["contestants"][0]["latency"]
        raise RuntimeError("the streaming bot started no series")
    finally:
        bot_process.terminate()
        bot_process.wait(10)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=2000)
    parser.add_argument("--deals", type=int, default=25)
    parser.add_argument("--out")
    args = parser.parse_args()
    results: dict = {"load_average": os.getloadavg()}
    port = free_port()
    bot = subprocess.Popen([sys.executable, "examples/webhook_bot.py", "--port", str(port)],
                           cwd=ROOT, env={**os.environ, "CRAB_WEBHOOK_SECRET": SECRET},
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_for(lambda: socket.create_connection(("127.0.0.1", port), 1).close() is None,
                 "the example webhook bot")
        results["call"] = asyncio.run(calls(f"http://127.0.0.1:{port}/", args.calls))
    finally:
        bot.terminate()
        bot.wait(10)
    print(json.dumps(results["call"]), flush=True)
    service_port = free_port()
    with tempfile.TemporaryDirectory() as folder:
        service = serve(service_port, f"{folder}/archive.sqlite3")
        try:
            url = f"http://127.0.0.1:{service_port}"
            results["webhook_decisions"] = webhook_series(url, args.deals)
            print(json.dumps({"webhook": results["webhook_decisions"]}), flush=True)
            results["stream_decisions"] = stream_series(url, args.deals)
            print(json.dumps({"stream": results["stream_decisions"]}), flush=True)
        finally:
            service.terminate()
            service.wait(20)
    results["load_average_after"] = os.getloadavg()
    print(json.dumps(results, indent=1))
    if args.out:
        Path(args.out).write_text(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
