"""Event streams under load: 1,000 open streams on 1 or more replicas while games are played.

    python loadtests/events_bench.py [--streams 1000] [--games 150] [--rate 30]
        [--seconds 60] [--replicas 2] [--out loadtest-results/events_bench.json]

Starts --replicas replicas (`python -m service`, 1 worker each, access log and the limit
on creates per client address off, since this one client plays every table; DEBUG_GC=1,
so that each reports its garbage collections) sharing one Redis database (REDIS_URL,
default db 11 of 127.0.0.1:6379, which it FLUSHES), or uses the replicas named by --url
(once per replica; memory is then measured only for the --pid given).
Then, printing its progress every second:

1. creates --games games (Cup the Crab for 2 to 5 players and Crabe vs Poulpe, in turn)
   and measures each replica's RSS;
2. opens --streams event streams spread over the replicas in turn: one per seat with its
   token, the rest spectators; once every stream has its first event, measures RSS again:
   (RSS with N idle streams - RSS with none) / N, and the objects each replica's
   collector tracks (from /debug/gc) the same way;
3. plays --rate moves a second for --seconds, each POST sent to either replica at random:
   the mover is a seat whose own stream's last event lists its legal moves, as a frontend
   plays. A game that ends is replaced by a fresh one with fresh streams;
   (This process freezes its own long-lived objects every second, as the service does,
   so that its full collections do not delay the arrivals it timestamps.)
4. waits for every stream to receive the last version, then compares the servers'
   event metrics (each replica's metrics port) with what the streams received, and reports
   the replicas' full (generation 2) collections during play.

Commit-to-delivery latency is measured for every (move, stream) pair on this process's
clock: from the instant the move's POST is sent (an upper bound: it includes the POST's
own handling before the commit), from the instant its response arrived (a lower
bound: the commit happened before it), and from the commit itself: the time its log
entry carries (`at` in /history, read after the play, taken by the service just before
the commit script and truncated to the millisecond, so this one can only overstate, by
up to a millisecond and the script's own time; the servers run on this machine's
clock). All three are printed as p50/p99/max. The raw latencies go to --out for
loadtests/plot_events_latency.py.
"""

import argparse
import asyncio
import gc
import json
import os
import platform
import random
import signal
import socket
import statistics
import subprocess
import sys
import time
import tracemalloc
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime
from functools import partial
from pathlib import Path
from urllib.parse import urlsplit

import aiohttp
import msgspec
import redis
from prometheus_client.parser import text_string_to_metric_families

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from service.events import patches  # the same JSON Patch the service makes

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
GAME_MIX = (("cup-the-crab", 2), ("cup-the-crab", 3), ("cup-the-crab", 4),
            ("cup-the-crab", 5), ("crabe-vs-poulpe", 2))
EVENT_METRICS = ("crab_event_streams_open", "crab_events_sent_total",
                 "crab_event_fan_out_lag_seconds_count")


class Replica:
    """A service process, started here (or only named by its URL)."""

    def __init__(self, url: str, metrics_url: str, pid: int | None,
                 process: subprocess.Popen | None = None, log: Path | None = None) -> None:
        self.url, self.pid, self.process, self.log = url, pid, process, log
        self.metrics_url = metrics_url  # the replica's metrics, on their own port

    @classmethod
    def start(cls, port: int, metrics_port: int, redis_url: str, log: Path,
              trace: bool) -> "Replica":
        # one client address plays every table here: its creates must not be rate-limited
        env = {"DEBUG_GC": "1", **os.environ, "REDIS_URL": redis_url, "ACCESS_LOG": "0",
               "RATE_LIMIT_CREATES_PER_MINUTE": "0", "METRICS_PORT": str(metrics_port)}
        if trace:  # loadtests/memhook/sitecustomize.py dumps a snapshot on SIGUSR1
            env.update(PYTHONPATH=str(HERE / "memhook"),
                       CRAB_SNAPSHOT_PREFIX=str(log.with_suffix(".snapshot")))
        with log.open("w") as output:
            process = subprocess.Popen([sys.executable, "-m", "service", "--port", str(port)],
                                       cwd=ROOT, env=env, stdout=output,
                                       stderr=subprocess.STDOUT)
        return cls(f"http://127.0.0.1:{port}", f"http://127.0.0.1:{metrics_port}/metrics",
                   process.pid, process, log)

    def rss_kib(self) -> int | None:
        if self.pid is None:
            return None
        for line in Path(f"/proc/{self.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
        return None

    def cpu_seconds(self) -> float | None:
        if self.pid is None:
            return None
        fields = Path(f"/proc/{self.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    async def snapshot(self, number: int, http: aiohttp.ClientSession) -> tracemalloc.Snapshot:
        """The replica's Python heap (started with trace=True)."""
        path = self.log.with_suffix(f".snapshot{number}.pickle")
        os.kill(self.pid, signal.SIGUSR1)
        while not path.exists():  # renamed there once written in full
            async with http.get(self.url + "/health"):  # the handler runs when Python does
                pass
            await asyncio.sleep(0.2)
        return tracemalloc.Snapshot.load(str(path))

    async def metrics(self, http: aiohttp.ClientSession) -> dict[str, float]:
        async with http.get(self.metrics_url) as response:
            text = await response.text()
        found = {}
        for family in text_string_to_metric_families(text):
            for sample in family.samples:
                if sample.name in EVENT_METRICS:
                    found[sample.name] = sample.value
                elif sample.name == "crab_event_fan_out_lag_seconds_bucket":
                    found[f"lag_le_{sample.labels['le']}"] = sample.value
        return found

    async def gc_state(self, http: aiohttp.ClientSession, since: float | None = None
                       ) -> dict | None:
        """The replica's collector as /debug/gc reports it (None unless DEBUG_GC is on);
        the collections since the Unix time since (default: none)."""
        since = time.time() + 60 if since is None else since
        async with http.get(self.url + "/debug/gc", params={"since": since}) as response:
            if response.status == 404:
                return None
            assert response.status == 200, (response.status, await response.text())
            return await response.json()

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(10)


@dataclass
class Stream:
    """One open event stream: a seat (with its token) or a spectator, on one replica."""
    table: "Table"
    seat: int | None
    replica: int
    version: int = -1
    game: dict | None = None        # the seat's last game body (spectators: not decoded)
    arrivals: list[tuple[int, float]] = field(default_factory=list)
    gaps: int = 0
    ended: bool = False


@dataclass
class Table:
    """One game being played, with its streams and the moves posted to it."""
    id: str
    tokens: dict[int, str]
    version: int = 0
    in_flight: bool = False
    over: bool = False
    streams: list[Stream] = field(default_factory=list)
    # version: (POST sent, its response back, the replica it went to)
    sent: dict[int, tuple[float, float, int]] = field(default_factory=dict)
    committed: dict[int, float] = field(default_factory=dict)  # version: its entry's `at`

    def seats_ready(self) -> list[Stream]:
        """Seat streams that show this version and a move to make (a frontend's prompt)."""
        return [s for s in self.streams if s.seat is not None and s.version == self.version
                and s.game is not None and s.game["legal_moves"]]


# What a browser's EventSource sends besides Host (Chromium's, less cookies): the server
# keeps a stream's request headers for its life, so they are part of its memory.
BROWSER_HEADERS = (
    "Connection: keep-alive", "Accept: text/event-stream", "Cache-Control: no-cache",
    ("User-Agent: Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko)"
     " Chrome/120.0.0.0 Safari/537.36"), "Accept-Encoding: gzip, deflate, br",
    "Accept-Language: en-US,en;q=0.9", "Origin: http://127.0.0.1:8000",
    "Referer: http://127.0.0.1:8000/play", "Sec-Fetch-Mode: cors", "Sec-Fetch-Site: same-origin",
    "Sec-Fetch-Dest: empty")


class EventsClient(asyncio.Protocol):
    """One event stream's HTTP/1.1 client, on the bare transport: the request, then the
    chunked body parsed as it arrives, each event timestamped in the data_received call
    that completed it. (aiohttp's response, its reader and the task reading lines held
    10,000 streams at a client-side loop lag whose p99 reached 40 ms; this costs one
    object and a buffer a stream.)"""

    def __init__(self, bench: "Bench", stream: Stream, url, headers: dict[str, str],
                 done: asyncio.Future) -> None:
        self.bench, self.stream, self.url, self.headers, self.done = \
            bench, stream, url, headers, done
        self.raw = b""        # bytes received and not yet parsed
        self.body = b""       # the body's bytes (chunk framing removed), not yet an event
        self.head = True      # the status line and headers come first
        self.transport: asyncio.Transport | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:
        self.transport = transport
        target = self.url.path + (f"?{self.url.query}" if self.url.query else "")
        lines = [f"GET {target} HTTP/1.1", f"Host: {self.url.netloc}", *BROWSER_HEADERS,
                 *(f"{k}: {v}" for k, v in self.headers.items())]
        transport.write(("\r\n".join(lines) + "\r\n\r\n").encode())

    def data_received(self, data: bytes) -> None:
        now = time.perf_counter()
        self.raw += data
        if self.head:
            end = self.raw.find(b"\r\n\r\n")
            if end < 0:
                return
            status = self.raw[:end].split(b" ", 2)[1]
            if status != b"200":
                self._fail(ConnectionError(f"{status.decode()} {self.raw[end + 4:][:200]!r}"))
                return
            self.raw, self.head = self.raw[end + 4:], False
        while True:  # whole chunks only: "size\r\n" data "\r\n"
            line = self.raw.find(b"\r\n")
            if line < 0:
                break
            size = int(self.raw[:line], 16)
            if len(self.raw) < line + 2 + size + 2:
                break
            if size == 0:  # the body's end: the game is over
                self._finish(None)
                return
            self.body += self.raw[line + 2:line + 2 + size]
            self.raw = self.raw[line + 2 + size + 2:]
        while (end := self.body.find(b"\n\n")) >= 0:
            event, self.body = self.body[:end], self.body[end + 2:]
            self._event(event, now)

    def _event(self, event: bytes, now: float) -> None:
        version, kind, data = None, b"game", None
        for line in event.split(b"\n"):
            if line.startswith(b"id: "):
                version = int(line[4:])
            elif line.startswith(b"event: "):
                kind = line[7:]
            elif line.startswith(b"data: "):
                data = line[6:]
        if version is not None and data is not None:  # (a keep-alive is a comment)
            self.bench.received(self.stream, kind, version, data, now)

    def _fail(self, error: Exception) -> None:
        self._finish(error)
        self.transport.close()

    def _finish(self, error: Exception | None) -> None:
        if not self.done.done():
            if error is None:
                self.done.set_result(None)
            else:
                self.done.set_exception(error)

    def connection_lost(self, error: Exception | None) -> None:
        self._finish(error or ConnectionError("the stream closed before its end"))


class Bench:
    def __init__(self, args: argparse.Namespace, replicas: list[Replica]) -> None:
        self.args, self.replicas = args, replicas
        self.rng = random.Random(args.seed)
        self.tables: list[Table] = []
        self.retired: list[Table] = []
        self.moves = self.rejected = self.skipped_ticks = self.stream_errors = 0
        self.refusals: Counter = Counter()  # why moves were refused, by status and detail
        self.events = 0
        # data bytes and events by (a delta event?, a spectator's?)
        self.data_bytes: Counter = Counter()
        self.data_events: Counter = Counter()
        self.events_by_replica = [0] * len(replicas)
        self.opened = 0
        self.lag_probe: list[float] = []
        self.recent: list[tuple[Table, int, float]] = []  # arrivals since the last progress
        self.followers: list[asyncio.Task] = []
        self.last_error = ""
        self.http: aiohttp.ClientSession | None = None
        self.wall_minus_perf = time.time() - time.perf_counter()  # arrivals are perf_counter

    # --- games and streams -------------------------------------------------------------

    async def create_table(self, index: int) -> Table:
        game, players = GAME_MIX[index % len(GAME_MIX)]
        replica = self.replicas[index % len(self.replicas)]
        async with self.http.post(replica.url + "/v1/games",
                                  json={"game": game, "players": players}) as response:
            assert response.status == 201, await response.text()
            created = await response.json()
        return Table(created["id"], {s["seat"]: s["token"] for s in created["seats"]})

    def plan_streams(self, table: Table, spectators: int) -> None:
        for seat in [*table.tokens, *[None] * spectators]:
            table.streams.append(Stream(table, seat, self.opened % len(self.replicas)))
            self.opened += 1

    async def follow(self, stream: Stream) -> None:
        """Reads a stream to its end, resuming with Last-Event-ID if it drops."""
        loop = asyncio.get_running_loop()
        while not stream.ended:
            headers = {}
            if stream.seat is not None:
                headers["Authorization"] = f"Bearer {stream.table.tokens[stream.seat]}"
            if stream.version >= 0:
                headers["Last-Event-ID"] = str(stream.version)
            url = urlsplit(f"{self.replicas[stream.replica].url}/v1/games/{stream.table.id}"
                           f"/events{'?delta=true' if self.args.delta else ''}")
            done = loop.create_future()
            transport = None
            try:
                transport, _ = await loop.create_connection(
                    partial(EventsClient, self, stream, url, headers, done),
                    url.hostname, url.port)
                await done
                stream.ended = True
            except (OSError, ConnectionError) as error:
                self.stream_errors += 1
                self.last_error = repr(error)[:200]
                await asyncio.sleep(0.1)
            finally:
                if transport is not None:
                    transport.close()

    def received(self, stream: Stream, kind: bytes, version: int, data: bytes,
                 now: float) -> None:
        """One event of stream, its data line's payload data, arrived at now."""
        if stream.version >= 0:  # a stream's first event is the whole body anyway
            self.data_bytes[kind == b"delta", stream.seat is None] += len(data)
            self.data_events[kind == b"delta", stream.seat is None] += 1
            if version != stream.version + 1:
                stream.gaps += 1
        stream.version = version
        stream.arrivals.append((version, now))
        self.events += 1
        self.events_by_replica[stream.replica] += 1
        self.recent.append((stream.table, version, now))
        if stream.seat is not None:  # a frontend's prompt; spectators: not decoded
            event = msgspec.json.decode(data)
            stream.game = patches.apply(stream.game, event["patch"]) \
                if kind == b"delta" else event["game"]
            if stream.game["status"] == "over":
                stream.table.over = True

    async def open_tables(self, tables: list[Table]) -> None:
        for table in tables:
            for stream in table.streams:
                self.followers.append(asyncio.create_task(self.follow(stream)))

    def streams(self) -> list[Stream]:
        return [s for t in self.tables for s in t.streams]

    # --- play ----------------------------------------------------------------------------

    async def move(self, table: Table) -> None:
        stream = self.rng.choice(table.seats_ready())
        table.in_flight = True
        body = {"move": self.rng.choice(stream.game["legal_moves"]),
                "expected_version": table.version}
        replica = self.rng.randrange(len(self.replicas))
        headers = {"Authorization": f"Bearer {table.tokens[stream.seat]}"}
        sent = time.perf_counter()
        url = f"{self.replicas[replica].url}/v1/games/{table.id}/moves"
        async with self.http.post(url, json=body, headers=headers) as response:
            answer = await response.json()
            back = time.perf_counter()
        if response.status == 200:
            table.sent[answer["version"]] = (sent, back, replica)
            table.version = answer["version"]
            self.moves += 1
        else:
            self.rejected += 1
            self.refusals[f"{response.status} {answer.get('detail', answer)}"[:160]] += 1
        table.in_flight = False

    async def play(self, seconds: float) -> None:
        loop = asyncio.get_running_loop()
        interval, start = 1 / self.args.rate, time.perf_counter()
        ticks = 0
        while time.perf_counter() < start + seconds:
            ticks += 1
            await self.replace_finished()
            # A ready table from a random sample: scanning all of them every tick (1,500
            # tables at 10,000 streams, 100 ticks a second) made this process the
            # bottleneck of what it measures.
            sample = self.rng.sample(self.tables, min(len(self.tables), 64))
            ready = next((t for t in sample if not t.in_flight and not t.over
                          and t.seats_ready()), None)
            if ready is not None:
                loop.create_task(self.move(ready))
            else:
                self.skipped_ticks += 1
            await asyncio.sleep(max(0.0, start + ticks * interval - time.perf_counter()))

    async def replace_finished(self) -> None:
        if not any(t.over for t in self.tables):
            return
        done = [t for t in self.tables if t.over and all(s.ended for s in t.streams)]
        for table in done:
            self.tables.remove(table)
            self.retired.append(table)
            fresh = await self.create_table(len(self.tables) + len(self.retired))
            fresh_streams = len(table.streams) - len(fresh.tokens)
            self.plan_streams(fresh, max(0, fresh_streams))
            self.tables.append(fresh)
            await self.open_tables([fresh])

    async def settle(self, seconds: float) -> bool:
        """Waits until every stream has the last version of its game."""
        deadline = time.perf_counter() + seconds
        while time.perf_counter() < deadline:
            if all(s.version >= t.version for t in self.tables for s in t.streams) and \
                    not any(t.in_flight for t in self.tables):
                return True
            await asyncio.sleep(0.05)
        return False

    async def probe_loop_lag(self) -> None:
        """How late this process's own event loop wakes: the client's share of latency."""
        while True:
            asked = time.perf_counter()
            await asyncio.sleep(0.01)
            self.lag_probe.append(time.perf_counter() - asked - 0.01)

    # --- reports -------------------------------------------------------------------------

    async def read_commit_times(self) -> None:
        """Each played version's commit time, from its log entry (after the play: reading
        histories meanwhile would load the servers being measured)."""
        for table in self.tables + self.retired:
            async with self.http.get(f"{self.replicas[0].url}/v1/games/{table.id}/history") \
                    as response:
                entries = (await response.json())["entries"]
            for entry in entries:
                at = datetime.fromisoformat(entry["at"].replace("Z", "+00:00")).timestamp()
                table.committed[entry["version"]] = at - self.wall_minus_perf

    def latencies(self) -> tuple[list[float], list[float], list[float]]:
        from_sent, from_back, from_commit = [], [], []
        for table in self.tables + self.retired:
            for stream in table.streams:
                for version, arrived in stream.arrivals:
                    if version in table.sent:
                        sent, back, _ = table.sent[version]
                        from_sent.append((arrived - sent) * 1000)
                        from_back.append((arrived - back) * 1000)
                        from_commit.append((arrived - table.committed[version]) * 1000)
        return from_sent, from_back, from_commit

    def slowest(self, count: int) -> list[dict]:
        late = []
        for table in self.tables + self.retired:
            for stream in table.streams:
                for version, arrived in stream.arrivals:
                    if version in table.sent:
                        sent, back, replica = table.sent[version]
                        late.append({"ms": (arrived - sent) * 1000, "game": table.id,
                                     "version": version, "seat": stream.seat,
                                     "stream_replica": stream.replica, "post_replica": replica})
        return sorted(late, key=lambda row: -row["ms"])[:count]

    def progress(self, phase: str, started: float) -> str:
        recent, self.recent = self.recent, []
        from_sent = [(arrived - table.sent[version][0]) * 1000
                     for table, version, arrived in recent if version in table.sent]
        lat = "-"
        if from_sent:
            lat = (f"last second p50 {percentile(from_sent, 50):.1f} ms"
                   f" p99 {percentile(from_sent, 99):.1f} ms")
        live = sum(1 for s in self.streams() if s.version >= 0 and not s.ended)
        return (f"[{time.perf_counter() - started:6.1f}s] {phase:8} streams live {live:5}"
                f"  moves {self.moves:6}  events {self.events:7}  latency {lat}"
                f"  errors {self.stream_errors} {self.last_error}")


def percentile(values: list[float], pct: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * pct / 100))]


def summary(values: list[float]) -> dict[str, float]:
    if not values:  # nothing measured (no move was made): say so rather than fail
        return {"count": 0, "p50": float("nan"), "p99": float("nan"), "max": float("nan"),
                "mean": float("nan")}
    return {"count": len(values), "p50": percentile(values, 50), "p99": percentile(values, 99),
            "max": max(values), "mean": statistics.fmean(values)}


async def wait_ready(replicas: list[Replica], http: aiohttp.ClientSession) -> None:
    for replica in replicas:
        for _ in range(1200):  # a minute: slow to start on a busy machine
            if replica.process is not None and replica.process.poll() is not None:
                raise RuntimeError(f"{replica.url} exited: see {replica.log}")
            try:
                async with http.get(replica.url + "/ready") as response:
                    if response.status == 200:
                        break
            except aiohttp.ClientError:
                pass
            await asyncio.sleep(0.05)
        else:
            raise RuntimeError(f"{replica.url} did not start")


async def reporter(bench: Bench, phase: list[str], started: float) -> None:
    while True:
        await asyncio.sleep(1)
        print(bench.progress(phase[0], started), flush=True)
        # This process holds every stream's client side: its own full collections would
        # delay the arrivals it timestamps, so what lives on is frozen out of their way.
        gc.collect(1)
        gc.freeze()


async def measure_rss(replicas: list[Replica]) -> list[int | None]:
    await asyncio.sleep(2)  # let allocations settle
    return [replica.rss_kib() for replica in replicas]


async def run(args: argparse.Namespace, replicas: list[Replica]) -> dict:
    started = time.perf_counter()
    phase = ["start"]
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=64)) as http:
        bench = Bench(args, replicas)
        bench.http = http  # the moves and the replicas' reports; streams: EventsClient
        await wait_ready(replicas, http)
        tasks = [asyncio.create_task(reporter(bench, phase, started)),
                 asyncio.create_task(bench.probe_loop_lag())]
        phase[0] = "create"
        bench.tables = [await bench.create_table(i) for i in range(args.games)]
        spectators = args.streams - sum(len(t.tokens) for t in bench.tables)
        for index, table in enumerate(bench.tables):
            share = spectators // args.games + (index < spectators % args.games)
            bench.plan_streams(table, share)
        memory = await open_idle_streams(bench, phase)
        idle_metrics = [await r.metrics(http) for r in replicas]
        held = Counter(s.replica for s in bench.streams())
        events_before = list(bench.events_by_replica)
        cpu_before = [r.cpu_seconds() for r in replicas]
        play_started = time.time()
        phase[0] = "play"
        await bench.play(args.seconds)
        phase[0] = "settle"
        settled = await bench.settle(15)
        cpu_after = [r.cpu_seconds() for r in replicas]
        after = [await r.metrics(http) for r in replicas]
        collections = [await r.gc_state(http, play_started) for r in replicas]
        events_after = list(bench.events_by_replica)
        for task in tasks + bench.followers:
            task.cancel()
        await asyncio.gather(*tasks, *bench.followers, return_exceptions=True)
        await bench.read_commit_times()
    from_sent, from_back, from_commit = bench.latencies()
    played = [b - a for a, b in zip(events_before, events_after)]
    cpu = None if None in cpu_before else sum(cpu_after) - sum(cpu_before)
    return {
        "streams": len(bench.streams()), "games": args.games, "rate": args.rate,
        "seconds": args.seconds, "moves": bench.moves, "rejected": bench.rejected,
        "refusals": dict(bench.refusals.most_common(5)),
        "skipped_ticks": bench.skipped_ticks, "stream_errors": bench.stream_errors,
        "settled": settled, "games_finished": len(bench.retired),
        "gaps": sum(s.gaps for t in bench.tables + bench.retired for s in t.streams),
        "latency_from_sent_ms": summary(from_sent), "latency_from_response_ms": summary(from_back),
        "latency_from_commit_ms": summary(from_commit),
        "client_loop_lag_ms": summary([lag * 1000 for lag in bench.lag_probe]),
        "server_cpu_ms_per_event": None if cpu is None else cpu * 1000 / max(1, sum(played)),
        "memory": memory, "replicas": len(replicas), "delta": args.delta,
        "bytes_per_event": {f"{'delta' if delta else 'game'} {'spectator' if spectator else 'seat'}":
                            {"events": bench.data_events[delta, spectator],
                             "mean_bytes": bench.data_bytes[delta, spectator]
                             / max(1, bench.data_events[delta, spectator])}
                            for delta, spectator in sorted(bench.data_events)},
        "full_collections": gc_report(collections),
        "metrics": metrics_report(idle_metrics, held, idle_metrics, after, played),
        "slowest": bench.slowest(10),
        "raw_from_sent_ms": from_sent, "raw_from_response_ms": from_back,
        "raw_from_commit_ms": from_commit,
    }


async def open_idle_streams(bench: Bench, phase: list[str]) -> dict:
    """Opens every planned stream, in batches as clients arrive, and measures the memory
    that the idle streams hold: RSS (and the Python heap with --tracemalloc)."""
    warm = bench.tables[:4]  # code paths loaded and first allocations made beforehand
    await bench.open_tables(warm)
    await first_events(warm)
    trace = bench.args.tracemalloc
    rss_before = await measure_rss(bench.replicas)
    gc_before = [await r.gc_state(bench.http) for r in bench.replicas]
    heaps_before = [await r.snapshot(0, bench.http) for r in bench.replicas] if trace else []
    phase[0] = "open"
    rest = bench.tables[4:]
    batch = max(1, bench.args.open_batch)
    for first in range(0, len(rest), batch):
        await bench.open_tables(rest[first:first + batch])
        await first_events(rest[first:first + batch])
    added = sum(len(t.streams) for t in rest)
    rss_idle = await measure_rss(bench.replicas)
    gc_idle = [await r.gc_state(bench.http) for r in bench.replicas]
    report = memory_report(rss_before, rss_idle, added)
    if None not in gc_before and None not in gc_idle:
        tracked = [sum(state["tracked"]) + state["frozen"] for state in (*gc_before, *gc_idle)]
        half = len(tracked) // 2
        report["gc_objects_per_stream"] = (sum(tracked[half:]) - sum(tracked[:half])) / added
    if trace:
        heaps_idle = [await r.snapshot(1, bench.http) for r in bench.replicas]
        report["python_heap_top"] = heap_growth(heaps_before, heaps_idle, added)
    return report


async def first_events(tables: list[Table]) -> None:
    while any(s.version < 0 for t in tables for s in t.streams):
        await asyncio.sleep(0.05)


def heap_growth(before: list, after: list, streams: int, top: int = 12) -> list[dict]:
    """Where the Python heap grew, per stream, by the file that allocated (every replica)."""
    grown: Counter = Counter()
    counts: Counter = Counter()
    for old, new in zip(before, after):
        for stat in new.compare_to(old, "filename"):
            where = stat.traceback[0].filename.split("site-packages/")[-1].split("python3.11/")[-1]
            grown[where] += stat.size_diff
            counts[where] += stat.count_diff
    total = sum(grown.values())
    rows = [{"where": "all Python allocations", "bytes_per_stream": total / streams,
             "blocks_per_stream": sum(counts.values()) / streams}]
    rows += [{"where": where, "bytes_per_stream": size / streams,
              "blocks_per_stream": counts[where] / streams}
             for where, size in grown.most_common(top)]
    return rows


def gc_report(states: list[dict | None]) -> list[dict] | None:
    """Each replica's full collections during play (None: a replica without DEBUG_GC)."""
    if None in states:
        return None
    rows = []
    for state in states:
        full = [c["ms"] for c in state["collections"] if c["generation"] == 2]
        young = [c["ms"] for c in state["collections"] if c["generation"] < 2]
        rows.append({"full": len(full), "full_max_ms": max(full, default=0.0),
                     "full_total_ms": sum(full), "young": len(young),
                     "young_max_ms": max(young, default=0.0), "frozen": state["frozen"],
                     "tracked": state["tracked"]})
    return rows


def memory_report(before: list[int | None], idle: list[int | None], streams: int) -> dict:
    if None in before or None in idle:
        return {"measured": False}
    grown = sum(idle) - sum(before)
    return {"measured": True, "rss_kib_before": before, "rss_kib_idle": idle,
            "streams_added": streams, "kib_per_stream": grown / streams}


def metrics_report(idle: list[dict], held: Counter, before: list[dict], after: list[dict],
                   received: list[int]) -> list[dict]:
    rows = []
    for index, (first, last) in enumerate(zip(before, after)):
        sent = last["crab_events_sent_total"] - first["crab_events_sent_total"]
        lagged = (last["crab_event_fan_out_lag_seconds_count"]
                  - first["crab_event_fan_out_lag_seconds_count"])
        rows.append({"replica": index, "streams_open_metric": idle[index]["crab_event_streams_open"],
                     "streams_held_by_client": held[index], "events_sent_metric": sent,
                     "events_received": received[index], "fan_out_lag_observations": lagged,
                     "lag_buckets": {k: last[k] - first.get(k, 0) for k in last
                                     if k.startswith("lag_le_")}})
    return rows


def print_report(result: dict) -> None:
    replicas = result["replicas"]
    print(f"\n{result['streams']} streams on {replicas} replica{'s' * (replicas > 1)},"
          f" {result['games']} games,"
          f" {result['moves']} moves at {result['rate']}/s for {result['seconds']} s"
          f" ({result['rejected']} rejected, {result['games_finished']} games finished and"
          f" replaced), stream errors {result['stream_errors']}, gaps {result['gaps']},"
          f" all delivered: {result['settled']}")
    for refusal, count in result["refusals"].items():
        print(f"  refused {count} times: {refusal}")
    print(f"{'commit-to-delivery (ms)':34} {'events':>8} {'p50':>7} {'p99':>7} {'max':>7}")
    for name, key in (("from the POST sent", "latency_from_sent_ms"),
                      ("from the POST's response", "latency_from_response_ms"),
                      ("from the commit (its entry's time)", "latency_from_commit_ms"),
                      ("(client event-loop lag)", "client_loop_lag_ms")):
        row = result[key]
        print(f"{name:34} {row['count']:8} {row['p50']:7.2f} {row['p99']:7.2f} {row['max']:7.2f}")
    memory = result["memory"]
    if memory["measured"]:
        print(f"RSS (KiB) per replica, no streams {memory['rss_kib_before']},"
              f" {memory['streams_added']} idle streams {memory['rss_kib_idle']}:"
              f" {memory['kib_per_stream']:.1f} KiB per idle stream")
    for kind, row in result["bytes_per_event"].items():
        print(f"data bytes per event, {kind:15}: {row['mean_bytes']:8.0f}"
              f" ({row['events']} events after each stream's first)")
    if "gc_objects_per_stream" in memory:
        print(f"objects tracked by the collector: {memory['gc_objects_per_stream']:.1f}"
              f" per idle stream")
    for index, row in enumerate(result["full_collections"] or []):
        print(f"replica {index}: {row['full']} full collections during play, longest"
              f" {row['full_max_ms']:.1f} ms, {row['full_total_ms']:.1f} ms in all; {row['young']}"
              f" younger ones, longest {row['young_max_ms']:.1f} ms; tracked {row['tracked']},"
              f" frozen {row['frozen']}")
    for row in memory.get("python_heap_top", []):
        print(f"  Python heap {row['bytes_per_stream']:8.0f} B/stream"
              f" {row['blocks_per_stream']:6.1f} blocks/stream  {row['where']}")
    if result["server_cpu_ms_per_event"] is not None:
        print(f"server CPU (every replica, play phase) per event delivered:"
              f" {result['server_cpu_ms_per_event']:.3f} ms")
    for row in result["metrics"]:
        buckets = row["lag_buckets"]
        total = buckets.get("lag_le_+Inf", 0) or 1
        shares = ", ".join(f"{buckets[f'lag_le_{le}'] / total:.1%} <= {float(le) * 1000:g} ms"
                           for le in ("0.005", "0.01", "0.025", "0.05") if f"lag_le_{le}" in buckets)
        print(f"replica {row['replica']}: server fan-out lag {shares}")
        print(f"replica {row['replica']}: crab_event_streams_open {row['streams_open_metric']:.0f}"
              f" (client holds {row['streams_held_by_client']}), crab_events_sent_total"
              f" +{row['events_sent_metric']:.0f} (client received {row['events_received']}),"
              f" fan-out lag observations +{row['fan_out_lag_observations']:.0f}")


def free_ports(count: int, first: int) -> list[int]:
    """count ports from first up that nothing listens on now."""
    ports: list[int] = []
    port = first
    while len(ports) < count:
        with socket.socket() as sock:
            try:
                sock.bind(("127.0.0.1", port))
            except OSError:
                pass
            else:
                ports.append(port)
        port += 1
    return ports


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--streams", type=int, default=1000)
    parser.add_argument("--games", type=int, default=150)
    parser.add_argument("--rate", type=float, default=30.0, help="moves a second")
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--open-batch", type=int, default=10,
                        help="games whose streams open together (clients arriving)")
    parser.add_argument("--tracemalloc", action="store_true",
                        help="also compare the replicas' Python heaps (slower replicas)")
    parser.add_argument("--replicas", type=int, default=2, help="replicas to start")
    parser.add_argument("--delta", action="store_true",
                        help="streams ask for delta events (?delta=true)")
    parser.add_argument("--first-port", type=int, default=8200,
                        help="the replicas (and their metrics) listen on the first free ports"
                         " from this one")
    parser.add_argument("--url", action="append", help="use this replica (once per replica)")
    parser.add_argument("--metrics-url", action="append",
                        help="its metrics (METRICS_PORT), once per --url")
    parser.add_argument("--pid", action="append", type=int, help="their pids, for RSS")
    parser.add_argument("--out", type=Path, default=Path("loadtest-results/events_bench.json"))
    args = parser.parse_args(argv)
    if args.url:
        pids = args.pid or [None] * len(args.url)
        if len(args.metrics_url or ()) != len(args.url):
            parser.error("each --url needs its --metrics-url")
        replicas = [Replica(url, metrics, pid)
                    for url, metrics, pid in zip(args.url, args.metrics_url, pids)]
    else:
        redis_url = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/11")
        redis.Redis.from_url(redis_url).flushdb()
        args.out.parent.mkdir(parents=True, exist_ok=True)
        ports = free_ports(2 * args.replicas, args.first_port)  # the API's, the metrics'
        replicas = [Replica.start(ports[2 * n], ports[2 * n + 1], redis_url,
                                  args.out.with_suffix(f".replica{n}.log"), args.tracemalloc)
                    for n in range(args.replicas)]
    signal.signal(signal.SIGTERM, lambda *_: sys.exit("terminated"))  # replicas stop too
    try:
        result = asyncio.run(run(args, replicas))
    finally:
        for replica in replicas:
            replica.stop()
    result.update(command=" ".join(["python", "loadtests/events_bench.py", *sys.argv[1:]]),
                  date=time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
                  machine=f"{os.cpu_count()} cores, {platform.machine()},"
                          f" Python {platform.python_version()}",
                  load_average_after=os.getloadavg())
    print_report(result)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result))
    print(f"raw figures: {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
