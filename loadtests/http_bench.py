"""HTTP benchmark of the game endpoints against a bare HTTP + Redis baseline.

    python loadtests/http_bench.py [--runs 3] [--seconds 10] [--connections 32] [--compare TREE]
        [--traced]
        [--servers uvicorn granian hypercorn] [--port 8600]

Needs `wrk` (Debian: apt-get install wrk) and a Redis server (REDIS_URL, default database
12 of 127.0.0.1:6379, which it flushes). It starts, on loopback, the service and the
baseline app of loadtests/baseline_app.py with the same uvicorn settings (1 worker, uvloop,
httptools), then measures with wrk, several runs each, medians reported:

- GET a seat's view (in the play phase) vs the baseline's Redis GET;
- the same GET with If-None-Match naming the current ETag (a 304, no body), where the
  service sends ETags, vs the same baseline GET;
- POST a legal move (each prepared move posted once) vs the baseline's Redis GET + SET;
- p99 of the game endpoints at about half of their peak rate.

Each line also gives the server's CPU time per request (from /proc): on a machine shared
with other work, requests/s follow the neighbours' load; CPU per request hardly does, so
its ratio to the baseline's is the steadier comparison.

With --compare TREE (a worktree of an earlier commit, say), that tree's service is served
too and measured in the same runs, interleaved, so a before/after comparison shares the
machine's load of the moment. With --traced, this tree's service is served a second time
with tracing on (OTEL_EXPORTER_OTLP_ENDPOINT: a sink in this process that drops what it
is sent; every request sampled), in the same runs too.

With --servers uvicorn granian hypercorn, the service and the baseline are each served by
every server named (granian: `pip install granian`, 1 worker, `--interface asgi --loop
uvloop`; hypercorn: `pip install hypercorn`, its uvloop worker in the process), measured in
the same runs, interleaved, and each service is compared with the baseline on its own
server and with the baseline on uvicorn. The service on uvicorn is `python -m service`,
as shipped. The servers listen on loopback at --port + 1 and up.
"""

import argparse
import asyncio
import collections
import functools
import http.server
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

import redis

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))

from service.games.requests import CreateGame  # noqa: E402
from service.games.sessions import Sessions  # noqa: E402
from service.store import RedisStore  # noqa: E402

UNITS = {"us": 0.001, "ms": 1.0, "s": 1000.0}


def start(command: list[str], env: dict[str, str], port: int,
          cwd: Path = ROOT) -> subprocess.Popen:
    process = subprocess.Popen(command, cwd=cwd, env={**os.environ, **env},
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(200):
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=1)
            return process
        except OSError as error:
            if getattr(error, "code", None) == 404:  # the baseline has no /health: it is up
                return process
            time.sleep(0.05)
    process.kill()
    raise RuntimeError(f"{command} did not start")


# How each ASGI server is started on a port with an application factory (module:function),
# one worker serving in one process, no access log: as the service's own uvicorn is run.
SERVERS = {
    "uvicorn": lambda port, factory: [
        sys.executable, "-m", "uvicorn", "--loop", "uvloop", "--http", "httptools",
        "--no-access-log", "--log-level", "warning", "--port", str(port), "--factory", factory],
    "granian": lambda port, factory: [
        shutil.which("granian") or "granian", "--interface", "asgi", "--loop", "uvloop",
        "--workers", "1", "--no-ws", "--log-level", "warning", "--factory", "--port", str(port),
        factory],
    "hypercorn": lambda port, factory: [  # workers 0: served in this process, no child
        sys.executable, "-m", "hypercorn", "--worker-class", "uvloop", "--workers", "0",
        "--bind", f"127.0.0.1:{port}", "--log-level", "warning", f"{factory}()"],
}


def served(server: str, port: int, factory: str) -> list[str]:
    return SERVERS[server](port, factory)


def worker_pid(process: subprocess.Popen) -> int:
    """The process that serves: granian's only worker, else the process itself."""
    children = Path(f"/proc/{process.pid}/task/{process.pid}/children")
    found = children.read_text().split() if children.exists() else []
    return int(found[0]) if found else process.pid


def cpu_seconds(pid: int) -> float:
    """CPU time (user + system) the process has used so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def wrk(url: str, seconds: int, connections: int, script: str, env: dict[str, str],
        server: int | None = None) -> dict:
    """Runs wrk once; requests/s, p50 and p99 in ms, responses with status >= 400 and,
    given the server's pid, its CPU time per request in us: unlike requests/s, that hardly
    moves with what else the (shared) machine runs."""
    cpu_before = cpu_seconds(server) if server else 0.0
    out = subprocess.run(
        ["wrk", "-t2", f"-c{connections}", f"-d{seconds}s", "--latency", "-s", str(HERE / script),
         url], env={**os.environ, "THREADS": "2", **env}, capture_output=True, text=True,
        check=True).stdout
    cpu = cpu_seconds(server) - cpu_before if server else 0.0
    def latency(pct: str) -> float:
        value, unit = re.search(rf"^\s+{pct}%\s+([\d.]+)(us|ms|s)\s*$", out, re.M).groups()
        return float(value) * UNITS[unit]
    bad = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    requests = int(re.search(r"(\d+) requests in", out).group(1))
    return {"rps": float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1)),
            "p50": latency("50"), "p99": latency("99"), "bad": int(bad.group(1)) if bad else 0,
            "cpu_us": 1e6 * cpu / max(requests, 1)}


async def prepare_moves(redis_url: str, games: int, path: Path) -> None:
    """Creates 2-player games and writes both seats' first moves, one line each."""
    sessions = Sessions(RedisStore(redis_url, 3600))
    with path.open("w") as out:
        for start_at in range(0, games, 200):
            batch = await asyncio.gather(*[sessions.create(CreateGame("cup-the-crab", 2))
                                           for _ in range(min(200, games - start_at))])
            for game_id, session, tokens in batch:
                for seat in (0, 1):
                    move = json.dumps({"move": session.state.legal_moves(seat)[seat]})
                    out.write(f"/v1/games/{game_id}/moves\t{tokens[seat]}\t{move}\n")
    await sessions.store.close()


def play_phase(url: str, tokens: list[str]) -> None:
    """Both seats select, so the benchmarked view is a typical one of the play phase
    (a few legal moves) rather than a selection's (up to 286 of them)."""
    for token in tokens:
        headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
        view = json.loads(urllib.request.urlopen(urllib.request.Request(
            url, headers=headers)).read())
        urllib.request.urlopen(urllib.request.Request(
            url + "/moves", method="POST", headers=headers,
            data=json.dumps({"move": view["legal_moves"][0]}).encode()))


def median(runs: list[dict]) -> dict:
    return {key: statistics.median(run[key] for run in runs) for key in runs[0]}


@dataclass
class Target:
    """A served API under test: where it is, a play-phase game to read and a seat's token."""
    label: str
    port: int
    process: subprocess.Popen
    baseline: str = "base"  # the baseline it is compared with (figures' name prefix)
    view_url: str = ""
    token: str = ""
    etag: str | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def prepare(self) -> None:
        created = json.loads(urllib.request.urlopen(urllib.request.Request(
            f"{self.url}/v1/games", method="POST",
            data=b'{"game": "cup-the-crab", "players": 2}')).read())
        self.view_url = f"{self.url}/v1/games/{created['id']}"
        self.token = created["seats"][0]["token"]
        play_phase(self.view_url, [seat["token"] for seat in created["seats"]])
        self.etag = urllib.request.urlopen(urllib.request.Request(
            self.view_url, headers={"Authorization": f"Bearer {self.token}"})).headers.get("ETag")


class SpanSink:
    """Takes what an OTLP/HTTP exporter sends (POST /v1/traces) and drops it, counting."""

    def __init__(self) -> None:
        sink = self
        self.spans = self.bytes = 0

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802
                size = int(self.headers.get("Content-Length", 0))
                self.rfile.read(size)
                sink.spans, sink.bytes = sink.spans + 1, sink.bytes + size
                self.send_response(200)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, format: str, *args: object) -> None:
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seconds", type=int, default=10)
    parser.add_argument("--connections", type=int, default=32)
    parser.add_argument("--servers", nargs="+", default=["uvicorn"], choices=list(SERVERS),
                        help="serve the service and the baseline with each (same runs)")
    parser.add_argument("--port", type=int, default=8600,
                        help="the servers listen on the ports above this one")
    parser.add_argument("--traced", action="store_true",
                        help="also serve this tree's service with tracing on (every request"
                             " sampled, OTLP/HTTP to a sink in this process), same runs")
    parser.add_argument("--compare", metavar="TREE", type=Path,
                        help="also serve the service of another checkout (its core compiled,"
                             " the same store format) and measure it in the same runs,"
                             " interleaved with this one")
    args = parser.parse_args()
    if shutil.which("wrk") is None:
        sys.exit("http_bench needs wrk: apt-get install wrk")
    redis_url = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/12")
    redis.Redis.from_url(redis_url).flushdb()
    common = {"REDIS_URL": redis_url, "ACCESS_LOG": "0"}
    service = [sys.executable, "-m", "service", "--port"]
    first = args.port
    targets = [Target("game", first + 1, start(service + [str(first + 1)], common, first + 1))]
    if args.compare:
        targets.append(Target(f"game at {args.compare}", first + 4, start(
            service + [str(first + 4)], common, first + 4, cwd=args.compare)))
    sink = None
    if args.traced:
        sink = SpanSink()
        targets.append(Target("game traced", first + 3, start(
            service + [str(first + 3)], {**common, "OTEL_EXPORTER_OTLP_ENDPOINT": sink.url},
            first + 3)))
    baseline_app = "loadtests.baseline_app:create_app"
    baselines = {"base": (first + 2, start(served("uvicorn", first + 2, baseline_app), common,
                                           first + 2))}
    for index, server in enumerate(name for name in args.servers if name != "uvicorn"):
        ours, theirs = first + 5 + 2 * index, first + 6 + 2 * index
        targets.append(Target(f"game on {server}", ours, start(
            served(server, ours, "service.app:create_app"), common, ours), f"base-{server}"))
        baselines[f"base-{server}"] = (theirs, start(served(server, theirs, baseline_app),
                                                     common, theirs))
    try:
        for target in targets:
            target.prepare()
        for port, _ in baselines.values():
            blob = json.loads(urllib.request.urlopen(urllib.request.Request(
                f"http://127.0.0.1:{port}/baseline/k", method="POST", data=b"{}",
                headers={"Content-Type": "application/json"})).read())
            assert blob["key"] == "k"
        moves_file = Path(tempfile.mkstemp(suffix=".moves")[1])
        figures: dict[str, list[dict]] = collections.defaultdict(list)
        for _ in range(args.runs):
            measure_once(args, targets, baselines, figures, redis_url, moves_file)
        report(figures, args, targets, redis_url, moves_file)
    finally:
        for process in [t.process for t in targets] + [p for _, p in baselines.values()]:
            process.terminate()
            process.wait()
        if sink is not None:
            sink.close()
            print(f"spans exported by the traced service: {sink.spans} requests of spans,"
                  f" {sink.bytes / 1e6:.1f} MB")


def measure_once(args, targets: list[Target], baselines: dict, figures, redis_url: str,
                 moves_file: Path) -> None:
    """One run: each target's view (and 304), each baseline's GET, each target's moves,
    each baseline's GET + SET, one after the other."""
    bench = functools.partial(wrk, seconds=args.seconds, connections=args.connections)
    for target in targets:
        figures[f"view {target.label}"].append(bench(target.view_url, script="fixed.lua",
                                                     env={"TOKEN": target.token},
                                                     server=worker_pid(target.process)))
        if target.etag:
            figures[f"304 {target.label}"].append(bench(
                target.view_url, script="fixed.lua",
                env={"TOKEN": target.token, "IF_NONE_MATCH": target.etag},
                server=worker_pid(target.process)))
    for name, (port, process) in baselines.items():
        figures[f"{name}-get"].append(bench(f"http://127.0.0.1:{port}/baseline/k",
                                            script="fixed.lua", env={},
                                            server=worker_pid(process)))
    for target in targets:
        expected = int(max(figures[f"view {target.label}"][-1]["rps"], 1000) * args.seconds * 1.2)
        asyncio.run(prepare_moves(redis_url, expected // 2 + 1, moves_file))
        figures[f"move {target.label}"].append(bench(target.url, script="moves.lua",
                                                     env={"MOVES": str(moves_file)},
                                                     server=worker_pid(target.process)))
    for name, (port, process) in baselines.items():
        figures[f"{name}-set"].append(bench(f"http://127.0.0.1:{port}/baseline/k",
                                            script="fixed.lua",
                                            env={"METHOD": "POST", "BODY": '{"move": {}}'},
                                            server=worker_pid(process)))


def report(figures, args, targets: list[Target], redis_url, moves_file) -> None:
    peak = {name: median(runs) for name, runs in figures.items()}
    print(f"# {time.strftime('%Y-%m-%d %H:%M')}, {os.cpu_count()} cores, load average"
          f" {os.getloadavg()[0]:.1f}, 1 server worker, wrk -t2 -c{args.connections}"
          f" -d{args.seconds}s, medians of {args.runs} runs")
    rows = [(f"view {t.label}", f"GET view ({t.label})") for t in targets]
    rows += [(f"304 {t.label}", f"GET view, If-None-Match: 304 ({t.label})")
             for t in targets]
    rows += [("base-get", "GET baseline (Redis GET)")]
    rows += [(f"base-{server}-get", f"GET baseline on {server}") for server in args.servers]
    rows += [(f"move {t.label}", f"POST move ({t.label})") for t in targets]
    rows += [("base-set", "POST baseline (GET+SET)")]
    rows += [(f"base-{server}-set", f"POST baseline on {server}") for server in args.servers]
    for name, label in rows:
        if name in peak:
            f = peak[name]
            print(f"{label:34} {f['rps']:7,.0f} req/s  p50 {f['p50']:6.2f} ms"
                  f"  p99 {f['p99']:7.2f} ms  CPU {f['cpu_us']:4,.0f} us/req"
                  f"  errors {f['bad']:.0f}")
    def ratio(ours: str, base: str) -> str:
        return (f"{peak[ours]['rps'] / peak[base]['rps']:.0%} by req/s,"
                f" {peak[base]['cpu_us'] / peak[ours]['cpu_us']:.0%} by CPU/req")

    for t in targets:
        for base in sorted({t.baseline, "base"}):
            ratios = [f"view/baseline {ratio(f'view {t.label}', f'{base}-get')}",
                      f"move/baseline {ratio(f'move {t.label}', f'{base}-set')}"]
            if f"304 {t.label}" in peak:
                ratios.append(f"304/baseline GET {ratio(f'304 {t.label}', f'{base}-get')}")
            print(f"{t.label} against {base}: " + "; ".join(ratios))
    ours = targets[0]
    half_view = peak[f"view {ours.label}"]["rps"] / 2
    delay = {"DELAY_MS": str(int(1000 * args.connections / half_view))}
    view = median([wrk(ours.view_url, args.seconds, args.connections, "fixed.lua",
                       {"TOKEN": ours.token, **delay}) for _ in range(args.runs)])
    half_move = peak[f"move {ours.label}"]["rps"] / 2
    asyncio.run(prepare_moves(redis_url, int(half_move * args.seconds * 0.7 * args.runs) + 1,
                              moves_file))
    delay = {"DELAY_MS": str(int(1000 * args.connections / half_move))}
    move = median([wrk(ours.url, args.seconds, args.connections, "moves.lua",
                       {"MOVES": str(moves_file), **delay}) for _ in range(1)])
    print(f"at about half load ({ours.label}): GET view {view['rps']:,.0f} req/s p99"
          f" {view['p99']:.2f} ms; POST move {move['rps']:,.0f} req/s p99 {move['p99']:.2f} ms"
          f" (non-2xx {view['bad'] + move['bad']:.0f})")


if __name__ == "__main__":
    main()
