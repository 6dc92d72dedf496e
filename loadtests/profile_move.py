"""Where a move's time goes: py-spy samples one server worker while wrk posts moves.

    python loadtests/profile_move.py [--seconds 20] [--connections 32] [--rate 250] [--tree DIR]

Needs wrk, py-spy (dev extra; run as root or with ptrace allowed) and Redis (REDIS_URL,
default database 12, flushed). It serves the API (`python -m service`, 1 worker, Redis),
prepares legal first moves of fresh games as loadtests/http_bench.py does, posts them with
wrk while py-spy records the worker's stacks (on-CPU samples only), then prints:

- the share of samples by the layer their innermost Python frame is in (ours: service/ and
  the compiled core it calls; Litestar; redis-py; msgspec's and the event loop's C code
  show under the Python frame that called them);
- the share of samples in which each of our functions is on the stack (inclusive).
"""

import argparse
import asyncio
import collections
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import redis

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))

from loadtests.http_bench import prepare_moves, start  # noqa: E402

LAYERS = [("ours (service/ and core)", re.compile(r"(^|/)(service|core)/")),
          ("litestar", re.compile(r"(^|/)litestar/")),
          ("redis-py", re.compile(r"(^|/)redis/")),
          ("uvicorn + httptools", re.compile(r"(^|/)(uvicorn|httptools)/")),
          ("asyncio", re.compile(r"(^|/)asyncio/")),
          ("prometheus-client", re.compile(r"(^|/)prometheus_client/")),
          ("other", re.compile(r""))]
FRAME = re.compile(r"^(?P<function>.*) \((?P<file>[^:]+)(:\d+)?\)$")


def layer_of(path: str) -> str:
    return next(name for name, pattern in LAYERS if pattern.search(path))


def ours(frame: str) -> str | None:
    """`module.function` for a frame of service/ or core/, else None."""
    match = FRAME.match(frame)
    if match is None or not re.search(r"(^|/)(service|core)/", match["file"]):
        return None
    module = re.sub(r".*/(service|core)/", r"\1/", match["file"])
    return f"{module}:{match['function']}"


def summarize(folded: Path) -> None:
    by_layer: collections.Counter = collections.Counter()
    inclusive: collections.Counter = collections.Counter()
    total = 0
    for line in folded.read_text().splitlines():
        stack, _, count = line.rpartition(" ")
        frames = [frame for frame in stack.split(";") if not frame.startswith(("process ",
                                                                               "thread "))]
        if not frames or not count.isdigit():  # py-spy 0.4 can write a garbled line
            continue
        samples = int(count)
        total += samples
        leaf = FRAME.match(frames[-1])
        by_layer[layer_of(leaf["file"] if leaf else frames[-1])] += samples
        for name in {ours(frame) for frame in frames} - {None}:
            inclusive[name] += samples
    print(f"{total} on-CPU samples of the worker")
    print("\nby the layer of the innermost frame:")
    for name, samples in by_layer.most_common():
        print(f"  {name:28} {samples / total:6.1%}")
    print("\nour functions, share of samples with them on the stack:")
    for name, samples in inclusive.most_common(25):
        print(f"  {samples / total:6.1%}  {name}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=int, default=20)
    parser.add_argument("--connections", type=int, default=32)
    parser.add_argument("--rate", type=int, default=250, help="py-spy samples per second")
    parser.add_argument("--tree", type=Path, default=ROOT,
                        help="profile the service of another checkout (e.g. an earlier commit)")
    parser.add_argument("--summarize", type=Path, metavar="FOLDED",
                        help="only summarize py-spy's raw output of an earlier run")
    args = parser.parse_args()
    if args.summarize:
        summarize(args.summarize)
        return
    for tool in ("wrk", "py-spy"):
        if shutil.which(tool) is None:
            sys.exit(f"profile_move needs {tool}")
    redis_url = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/12")
    redis.Redis.from_url(redis_url).flushdb()
    moves = Path(tempfile.mkstemp(suffix=".moves")[1])
    asyncio.run(prepare_moves(redis_url, 2500 * args.seconds, moves))
    server = start([sys.executable, "-m", "service", "--port", "8603"],
                   {"REDIS_URL": redis_url, "ACCESS_LOG": "0"}, 8603, cwd=args.tree)
    folded = Path(tempfile.mkstemp(suffix=".folded")[1])
    try:
        spy = subprocess.Popen(["py-spy", "record", "--pid", str(server.pid), "--rate",
                                str(args.rate), "--duration", str(args.seconds), "--format",
                                "raw", "--output", str(folded), "--nonblocking"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        out = subprocess.run(["wrk", "-t2", f"-c{args.connections}", f"-d{args.seconds}s",
                              "-s", str(HERE / "moves.lua"), "http://127.0.0.1:8603"],
                             env={**os.environ, "THREADS": "2", "MOVES": str(moves)},
                             capture_output=True, text=True, check=True).stdout
        spy.wait()
        print(re.search(r"Requests/sec:.*", out)[0], f"(py-spy's stacks: {folded})")
        summarize(folded)
    finally:
        server.terminate()
        server.wait()
        moves.unlink()


if __name__ == "__main__":
    main()
