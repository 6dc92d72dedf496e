"""Where a move's time goes: py-spy samples one server worker while wrk posts moves.

    python loadtests/profile_move.py [--seconds 20] [--connections 32] [--rate 250] [--port 8603]
        [--access-log] [--tree DIR]

Needs wrk, py-spy (dev extra; run as root or with ptrace allowed) and Redis (REDIS_URL,
default database 12, flushed). It serves the API (`python -m service`, 1 worker, Redis),
prepares legal first moves of fresh games as loadtests/http_bench.py does, posts them with
wrk while py-spy records the worker's stacks (on-CPU samples only) and /proc its CPU time,
then prints:

- a table of the parts of the request path (the ASGI server, the event loop, Litestar's
  routing, its request handling and dependency injection, its response, msgspec's JSON
  encoding, the body's strict decoding, the store's round trips, the rules, the metrics,
  the rate limit, logging): each sample goes to the part of its innermost Python frame
  (C code, msgspec's, hiredis' and uvloop's included, counts under the Python frame that
  called it), and a part's share of the samples times the worker's CPU per move is its
  microseconds per move;
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

from loadtests.http_bench import cpu_seconds, prepare_moves, start  # noqa: E402

# The parts of a move's path, each named by the files of its frames: the first rule
# that matches a sample's innermost frame names its part ("store" rules also need a
# redis-py frame on the stack: the event loop's work for Redis is the round trip's).
PARTS = [
    ("store: redis-py, its socket I/O", r"(^|/)(redis|hiredis)/", False),
    ("store: redis-py, its socket I/O", r"(^|/)asyncio/|uvloop", True),
    ("store: ours (service/store)", r"(^|/)service/store/", False),
    ("ASGI server (uvicorn, httptools)", r"(^|/)(uvicorn|httptools|granian|hypercorn)/", False),
    ("event loop (tasks, transports)", r"(^|/)asyncio/|uvloop", False),
    ("msgspec: response JSON encode", r"(^|/)litestar/serialization/", False),
    ("Litestar: response (build, headers)", r"(^|/)litestar/(response|handlers)/", False),
    ("Litestar: request, DI, parameters", r"(^|/)litestar/(_kwargs|_signature|di|connection|"
                                          r"datastructures|params)", False),
    ("Litestar: routing, middleware stack", r"(^|/)litestar/", False),
    ("body decode (msgspec strict, repeated keys)", r"(^|/)(service/decoding\.py|json/)", False),
    ("response body (service/games/bodies)", r"(^|/)service/games/bodies/", False),
    ("metrics and access log (observe)", r"(^|/)(service/observe\.py|prometheus_client/)", False),
    ("rate limit (middleware)", r"(^|/)service/limits\.py", False),
    ("logging", r"(^|/)logging/", False),
    ("the rules (core) and sessions", r"(^|/)(core/|service/(sessions|meta|deadlines|outbox)"
                                      r"\.py)", False),
    ("ours: handler, wrappers (head, late bodies)", r"(^|/)service/", False),
    ("other", r"", False)]
RULES = [(name, re.compile(pattern), needs_redis) for name, pattern, needs_redis in PARTS]
REDIS_FRAME = re.compile(r"\((.*/)?redis/")
FRAME = re.compile(r"^(?P<function>.*) \((?P<file>[^:]+)(:\d+)?\)$")


def part_of(frames: list[str]) -> str:
    leaf = FRAME.match(frames[-1])
    path = leaf["file"] if leaf else frames[-1]
    in_redis = any(REDIS_FRAME.search(frame) for frame in frames)
    return next(name for name, pattern, needs_redis in RULES
                if pattern.search(path) and (in_redis or not needs_redis))


def ours(frame: str) -> str | None:
    """`module.function` for a frame of service/ or core/, else None."""
    match = FRAME.match(frame)
    if match is None or not re.search(r"(^|/)(service|core)/", match["file"]):
        return None
    module = re.sub(r".*/(service|core)/", r"\1/", match["file"])
    return f"{module}:{match['function']}"


def summarize(folded: Path, cpu_us: float | None = None) -> None:
    """Prints the parts' table (with microseconds per move given the worker's CPU per
    move) and our functions' inclusive shares."""
    by_part: collections.Counter = collections.Counter()
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
        by_part[part_of(frames)] += samples
        for name in {ours(frame) for frame in frames} - {None}:
            inclusive[name] += samples
    print(f"{total} on-CPU samples of the worker"
          + (f", {cpu_us:.0f} us of its CPU per move" if cpu_us else ""))
    print("\n| part of the path | share | us per move |\n|---|---|---|")
    for name, samples in by_part.most_common():
        share = samples / total
        print(f"| {name} | {share:.1%} | {f'{share * cpu_us:.0f}' if cpu_us else '-'} |")
    print("\nour functions, share of samples with them on the stack:")
    for name, samples in inclusive.most_common(25):
        print(f"  {samples / total:6.1%}  {name}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=int, default=20)
    parser.add_argument("--connections", type=int, default=32)
    parser.add_argument("--rate", type=int, default=250, help="py-spy samples per second")
    parser.add_argument("--port", type=int, default=8603, help="the server's, on loopback")
    parser.add_argument("--access-log", action="store_true",
                        help="with the JSON access log on, as shipped (off by default here,"
                             " as in http_bench.py)")
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
    server = start([sys.executable, "-m", "service", "--port", str(args.port)],
                   {"REDIS_URL": redis_url, "ACCESS_LOG": "1" if args.access_log else "0"},
                   args.port, cwd=args.tree)
    folded = Path(tempfile.mkstemp(suffix=".folded")[1])
    try:
        cpu_before = cpu_seconds(server.pid)
        spy = subprocess.Popen(["py-spy", "record", "--pid", str(server.pid), "--rate",
                                str(args.rate), "--duration", str(args.seconds), "--format",
                                "raw", "--output", str(folded), "--nonblocking"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        out = subprocess.run(["wrk", "-t2", f"-c{args.connections}", f"-d{args.seconds}s",
                              "-s", str(HERE / "moves.lua"), f"http://127.0.0.1:{args.port}"],
                             env={**os.environ, "THREADS": "2", "MOVES": str(moves)},
                             capture_output=True, text=True, check=True).stdout
        cpu = cpu_seconds(server.pid) - cpu_before
        spy.wait()
        moves_sent = int(re.search(r"(\d+) requests in", out)[1])
        print(re.search(r"Requests/sec:.*", out)[0], f"(py-spy's stacks: {folded})")
        summarize(folded, 1e6 * cpu / max(moves_sent, 1))
    finally:
        server.terminate()
        server.wait()
        moves.unlink()


if __name__ == "__main__":
    main()
