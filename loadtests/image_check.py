"""The Dockerfile built and run for real: podman builds the image, and the container plays.

    python loadtests/image_check.py            # warm: reuses the stand-in base and layers
    python loadtests/image_check.py --cold     # rebuilds the stand-in base, no layer cache

Needs root (it installs podman, runc, debootstrap and redis-server with apt-get when they
are missing) and only the standard library, so any python3 runs it. What it does, and why
(see ../shared/design/containers.md when it is beside the checkout):

1. No registry can be reached here, so the official `python:3.11-slim` is replaced by a
   stand-in made from Debian's own packages (bookworm, CPython 3.11): debootstrap, a venv
   on `PATH` standing in for the official image's `python` and `pip`, and this machine's CA
   bundle (it reaches the package registries through a proxy with its own authority). The
   stand-in is cached in podman's store under a tag keyed by its recipe, so a rerun skips it.
2. `podman build --format docker` (the OCI format drops `HEALTHCHECK`) of the Dockerfile,
   unchanged but for its `PYTHON_IMAGE` build argument, which names the stand-in.
3. A private redis-server on a free loopback port; the container on the host's network, on
   another free port, rate limits off.
4. Checks: `/health` and `/ready`, the service runs as uid 10001, the image's `HEALTHCHECK`
   is defined and passes, one whole game of each game through the HTTP API (the human seats
   held by this script choosing among the legal moves, one AI seat each, so the compiled
   search runs in the image), the games are in that Redis, and the container stops cleanly
   on SIGTERM. The container and the Redis are removed also when a check fails.
5. A table of figures: base build, image build, image size, start to healthy, games.

Exits 1 when any check fails. Podman runs as `podman --runtime runc` with its own
containers.conf (cgroupfs, no default ulimits): this machine's hybrid cgroups refuse crun.
"""

import argparse
import hashlib
import json
import os
import platform
import random
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
WORK = ROOT / "build" / "image-check"   # logs and podman's config (git- and docker-ignored)
IMAGE = "localhost/crab-engines:image-check"
STEP = re.compile(r"(\[\d+/\d+\] )?STEP |COMMIT |--> Using cache")
LABEL = "io.crab-engines.image-check.base"  # on the stand-in and all built on it: its key
USER_UID = 10001                        # the Dockerfile's `useradd --uid`

# The stand-in for python:3.11-slim. Bump RECIPE when the steps below change: it is part
# of the cache key, with the suite, the packages, the mirror and the CA bundle.
RECIPE = 2
SUITE = "bookworm"
PACKAGES = ["python3", "python3-venv", "python3-dev", "ca-certificates", "passwd"]
VENV = "/opt/python"
BASE_ENV = {"PATH": f"{VENV}/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
            "LANG": "C.UTF-8"}
HOST_CA = Path("/etc/ssl/certs/ca-certificates.crt")

CONTAINERS_CONF = """\
[containers]
default_ulimits = []
pids_limit = 0
[engine]
cgroup_manager = "cgroupfs"
"""

# The games played in the container: the script holds the human seats; the AI seat at
# level 3 (ISMCTS, 500 iterations a decision) runs the compiled search and its threads.
GAMES = [
    ("cup-the-crab", {"players": 3, "seats": [{"type": "human", "name": "one"},
                                              {"type": "human", "name": "two"},
                                              {"type": "ai", "level": 3}]}),
    ("crabe-vs-poulpe", {"players": 2, "options": {"mode": "asymmetrical"},
                         "seats": [{"type": "human", "name": "one"},
                                   {"type": "ai", "level": 3}]}),
]
# As compose.yaml runs it (two workers), the games faster than people: rate limits off.
SERVICE_ENV = {"WORKERS": "2", "RATE_LIMIT_CREATES_PER_MINUTE": "0",
               "RATE_LIMIT_MOVES_PER_SECOND": "0"}


class CheckFailed(Exception):
    pass


def log(message: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {message}", flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cold", action="store_true",
                        help="remove the cached stand-in base and build without layer cache")
    parser.add_argument("--verbose", action="store_true",
                        help="print every line of podman build, not only its steps")
    args = parser.parse_args(argv)
    if os.geteuid() != 0:
        print("image_check: run as root (podman's storage, apt-get, debootstrap)")
        return 2
    # SIGTERM (a CI timeout, a kill) unwinds like Ctrl-C, so the container is removed.
    signal.signal(signal.SIGTERM, interrupted)
    WORK.mkdir(parents=True, exist_ok=True)
    conf = WORK / "containers.conf"
    conf.write_text(CONTAINERS_CONF)
    os.environ["CONTAINERS_CONF"] = str(conf)

    started = time.monotonic()
    load = os.getloadavg()[0]
    figures: dict[str, str] = {}
    checks = Checks()
    try:
        ensure_tools()
        base = stand_in_base(args.cold, figures)
        image = build_image(base, args.cold, args.verbose, figures)
        with backing_services() as env, container(image, env) as box:
            check_container(box, image, checks, figures)
            play_games(box, checks, figures)
            checks.run("the games are in the container's Redis",
                       lambda: games_in_redis(env))
            stop_container(box, checks, figures)
    except CheckFailed as failure:
        checks.failed.append(str(failure))
        print(f"FAIL: {failure}", flush=True)
    except KeyboardInterrupt:
        print("interrupted: what it had started (the container, the Redis) is removed", flush=True)
        return 130
    figures["whole command"] = f"{time.monotonic() - started:.0f} s"
    report(figures, "cold" if args.cold else "warm", load)
    print(f"image_check: {len(checks.passed)} passed, {len(checks.failed)} failed", flush=True)
    return 1 if checks.failed else 0


def interrupted(signum, frame):
    raise KeyboardInterrupt


class Checks:
    def __init__(self) -> None:
        self.passed: list[str] = []
        self.failed: list[str] = []

    def run(self, what: str, check) -> None:
        """Runs check(); falsy or raising is a failure, which stops the run."""
        try:
            detail = check()
        except CheckFailed as failure:
            detail, problem = None, str(failure)
        else:
            problem = None if detail else "no"
        if problem:
            raise CheckFailed(f"{what}: {problem}")
        self.passed.append(what)
        log(f"ok: {what}" + (f" ({detail})" if isinstance(detail, str) else ""))


# --- tools ---------------------------------------------------------------------------

def ensure_tools() -> None:
    wanted = {"podman": "podman", "runc": "runc", "debootstrap": "debootstrap",
              "redis-server": "redis-server"}
    missing = [package for binary, package in wanted.items() if not shutil.which(binary)]
    if missing:
        log(f"apt-get install {' '.join(missing)}")
        run(["apt-get", "update"])
        run(["apt-get", "install", "-y", *missing],
            env={**os.environ, "DEBIAN_FRONTEND": "noninteractive"})


def podman(*args: str, check: bool = True, timeout: float | None = 600,
           **kwargs) -> subprocess.CompletedProcess:
    return run(["podman", "--runtime", "runc", *args], check=check, timeout=timeout, **kwargs)


def run(command: list[str], check: bool = True, timeout: float | None = None,
        **kwargs) -> subprocess.CompletedProcess:
    """Runs a command, its output captured; a failure raises with the output's last lines."""
    done = subprocess.run(command, check=False, capture_output=True, text=True,
                          timeout=timeout, **kwargs)
    if check and done.returncode != 0:
        text = (done.stdout + done.stderr).strip()
        raise CheckFailed(f"{' '.join(command[:4])}... exited {done.returncode}:\n"
                          + "\n".join(text.splitlines()[-30:]))
    return done


# --- the stand-in base ---------------------------------------------------------------

def apt_mirror() -> str:
    """The Debian mirror this machine's apt uses for the suite (deb822 or one-line lists)."""
    lists = [Path("/etc/apt/sources.list"), *sorted(Path("/etc/apt/sources.list.d").glob("*"))]
    for path in lists:
        if not path.is_file():
            continue
        text = path.read_text()
        if path.suffix == ".sources":
            for stanza in text.split("\n\n"):
                fields = {}
                for line in stanza.splitlines():
                    if ":" in line and not line.startswith(("#", " ")):
                        key, value = line.split(":", 1)
                        fields[key.strip().lower()] = value.split()
                if SUITE in fields.get("suites", []) and "deb" in fields.get("types", []):
                    return fields["uris"][0]
        else:
            for line in text.splitlines():
                words = re.sub(r"\[[^]]*\]", " ", line).split()  # drop [arch=... signed-by=...]
                if len(words) >= 3 and words[0] == "deb" and words[2] == SUITE:
                    return words[1]
    raise CheckFailed(f"no Debian mirror for {SUITE} in /etc/apt/sources.list(.d)")


def stand_in_base(cold: bool, figures: dict[str, str]) -> str:
    mirror = apt_mirror()
    key = hashlib.sha256(json.dumps({
        "recipe": RECIPE, "suite": SUITE, "packages": PACKAGES, "mirror": mirror,
        "venv": VENV, "env": BASE_ENV, "arch": platform.machine(),
        "ca": hashlib.sha256(HOST_CA.read_bytes()).hexdigest(),
    }, sort_keys=True).encode()).hexdigest()[:12]
    tag = f"localhost/crab-python-standin:3.11-slim-{key}"
    forget_builds(keep=None if cold else key)
    exists = podman("image", "exists", tag, check=False).returncode == 0
    if exists:
        log(f"stand-in base {tag}: cached")
        figures["base build"] = "cached (0 s)"
        figures["base size"] = image_size(tag)
        return tag
    started = time.monotonic()
    with tempfile.TemporaryDirectory(dir=WORK, prefix="rootfs-") as scratch:
        rootfs = Path(scratch) / "rootfs"
        log(f"debootstrap {SUITE} ({', '.join(PACKAGES)}) from {mirror}")
        run(["debootstrap", "--variant=minbase", f"--include={','.join(PACKAGES)}",
             SUITE, str(rootfs), mirror], timeout=1200)
        log(f"debootstrap done in {time.monotonic() - started:.0f} s; the venv {VENV}")
        run(["chroot", str(rootfs), "/usr/bin/python3", "-m", "venv", VENV])
        shutil.copyfile(HOST_CA, rootfs / HOST_CA.relative_to("/"))
        # As slim does: no apt lists (the Dockerfile runs apt-get update), no caches.
        for junk in ("var/lib/apt/lists", "var/cache/apt", "var/cache/debconf"):
            for path in (rootfs / junk).glob("*"):
                if path.is_file():
                    path.unlink()
        log("podman import")
        changes = [arg for name, value in BASE_ENV.items()
                   for arg in ("--change", f"ENV {name}={value}")]
        changes += ["--change", f"LABEL {LABEL}={key}", "--change", 'CMD ["python3"]']
        tar = subprocess.Popen(["tar", "-C", str(rootfs), "-c", "."], stdout=subprocess.PIPE)
        podman("import", *changes, "-", tag, stdin=tar.stdout)
        tar.wait()
    took = time.monotonic() - started
    log(f"stand-in base {tag}: made in {took:.0f} s")
    figures["base build"] = f"{took:.0f} s"
    figures["base size"] = image_size(tag)
    return tag


def forget_builds(keep: str | None) -> None:
    """Removes the stand-ins and every image built on them (their label is inherited, the
    build cache's layers included), but for those of the base `keep`: so a changed recipe
    leaves no old layers behind, and --cold (keep None) starts from nothing."""
    listing = json.loads(podman("images", "--all", "--filter", f"label={LABEL}",
                                "--format", "json").stdout or "[]")
    stale = [image["Id"] for image in listing if (image.get("Labels") or {}).get(LABEL) != keep]
    if stale:
        log(f"removing {len(stale)} images of {'every' if keep is None else 'another'}"
            " stand-in base")
        podman("rmi", "--force", *stale, check=False)


def image_size(tag: str) -> str:
    size = int(podman("image", "inspect", "--format", "{{.Size}}", tag).stdout.strip())
    return f"{size / 1e6:.0f} MB"


# --- the project's image -------------------------------------------------------------

def build_image(base: str, cold: bool, verbose: bool, figures: dict[str, str]) -> str:
    """Builds the Dockerfile on the base; returns the image's id."""
    build_log = WORK / "build.log"
    command = ["podman", "--runtime", "runc", "build", "--pull=never", "--network", "host",
               "--format", "docker", "--build-arg", f"PYTHON_IMAGE={base}",
               "--iidfile", str(WORK / "image.id"),
               "--tag", IMAGE, "--file", str(ROOT / "Dockerfile")]
    if cold:
        command.append("--no-cache")
    command.append(str(ROOT))
    log(f"podman build (every line in {build_log.relative_to(ROOT)})")
    started = time.monotonic()
    with build_log.open("w") as sink:
        process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                   text=True)
        tail: list[str] = []
        try:
            for line in process.stdout:
                sink.write(line)
                tail = (tail + [line.rstrip()])[-40:]
                if verbose or STEP.match(line):
                    print(f"  {time.monotonic() - started:6.1f} s  {line.rstrip()[:150]}",
                          flush=True)
            process.wait()
        except BaseException:
            process.terminate()
            process.wait(30)
            raise
    if process.returncode != 0:
        raise CheckFailed("podman build failed:\n" + "\n".join(tail))
    took = time.monotonic() - started
    log(f"image {IMAGE} built in {took:.0f} s")
    figures["image build"] = f"{took:.0f} s" + (" (no layer cache)" if cold else "")
    image = (WORK / "image.id").read_text().strip()
    figures["image size"] = image_size(image)
    base_bytes = int(podman("image", "inspect", "--format", "{{.Size}}", base).stdout)
    image_bytes = int(podman("image", "inspect", "--format", "{{.Size}}", image).stdout)
    figures["added to the base"] = f"{(image_bytes - base_bytes) / 1e6:.0f} MB"
    return image


# --- what the container needs, and the container --------------------------------------

def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextmanager
def backing_services():
    """Starts what the service talks to and yields the container's environment for it.

    Now a private Redis. The database that a later issue adds starts here too, beside it,
    and adds its URL to the environment; games_in_redis's sibling then checks it.
    """
    port = free_port()
    directory = tempfile.mkdtemp(dir=WORK, prefix="redis-")
    redis = subprocess.Popen(["redis-server", "--bind", "127.0.0.1", "--port", str(port),
                              "--save", "", "--appendonly", "no", "--dir", directory],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(100):
            if redis_command(port, "PING") == "+PONG":
                break
            time.sleep(0.05)
        else:
            raise CheckFailed(f"redis-server on port {port} did not answer")
        log(f"private redis-server on 127.0.0.1:{port}")
        yield {"REDIS_URL": f"redis://127.0.0.1:{port}/0", "_redis_port": str(port)}
    finally:
        redis.terminate()
        redis.wait(10)
        shutil.rmtree(directory, ignore_errors=True)


def redis_command(port: int, *words: str) -> str | None:
    """One inline command, its first reply line (the standard library has no Redis client)."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=2) as sock:
            sock.sendall((" ".join(words) + "\r\n").encode())
            return sock.makefile("rb").readline().decode().strip()
    except OSError:
        return None


class Box:
    def __init__(self, name: str, port: int, metrics_port: int, started: float) -> None:
        self.name, self.port, self.started = name, port, started
        self.url = f"http://127.0.0.1:{port}"
        self.metrics_url = f"http://127.0.0.1:{metrics_port}/metrics"


@contextmanager
def container(image: str, env: dict[str, str]):
    port, metrics_port = free_port(), free_port()
    name = f"crab-image-check-{os.getpid()}"
    # (the image's metrics listen on every address at 9464: here, loopback at a free port)
    variables = {"HOST": "127.0.0.1", "PORT": str(port), "METRICS_HOST": "127.0.0.1",
                 "METRICS_PORT": str(metrics_port), **SERVICE_ENV,
                 **{k: v for k, v in env.items() if not k.startswith("_")}}
    flags = [arg for k, v in variables.items() for arg in ("--env", f"{k}={v}")]
    log(f"podman run {image[:12]} as {name} on 127.0.0.1:{port} (host network)")
    started = time.monotonic()
    # podman says it cannot reach systemd to time the HEALTHCHECK (there is none here);
    # healthcheck_passes runs it instead.
    podman("run", "--detach", "--name", name, "--network", "host", *flags, image)
    box = Box(name, port, metrics_port, started)
    try:
        yield box
    except BaseException:
        logs = podman("logs", "--tail", "30", name, check=False)
        print("container's last lines:\n" + (logs.stdout or "") + (logs.stderr or ""), flush=True)
        raise
    finally:
        podman("rm", "--force", "--time", "5", name, check=False)
        log(f"container {name} removed")


def check_container(box: Box, image: str, checks: Checks, figures: dict[str, str]) -> None:
    def health_answers():
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                status, body = http("GET", box.url + "/health", timeout=1)
                if status == 200:
                    figures["start to /health"] = f"{time.monotonic() - box.started:.1f} s"
                    return f"{body}"
            except OSError:
                pass
            if podman("container", "exists", box.name, check=False).returncode == 0 and \
                    inspect(box.name)["State"]["Status"] != "running":
                raise CheckFailed("the container stopped")
            time.sleep(0.1)
        raise CheckFailed("no answer in 60 s")

    def healthcheck_passes():
        # The image's own HEALTHCHECK, run by podman (there is no systemd here to time it).
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            done = podman("healthcheck", "run", box.name, check=False)
            if done.returncode == 0:
                figures["start to healthy"] = f"{time.monotonic() - box.started:.1f} s"
                state = inspect(box.name)["State"]
                health = state.get("Health") or state.get("Healthcheck") or {}
                return f"podman healthcheck run: healthy; inspect: {health.get('Status')}"
            time.sleep(0.2)
        raise CheckFailed(f"not healthy in 60 s: {done.stdout.strip()} {done.stderr.strip()}")

    def healthcheck_defined():
        config = json.loads(podman("image", "inspect", image).stdout)[0]
        test = (config.get("Healthcheck") or {}).get("Test")
        if not test:
            raise CheckFailed("the image has no HEALTHCHECK (built without --format docker?)")
        return " ".join(test)[:70] + "..."

    def runs_as_user():
        # Every process: uvicorn's supervisor (process 1) and its workers.
        listing = podman("exec", box.name, "python", "-c", PROCESSES).stdout.split("\n")
        processes = [json.loads(line) for line in listing if line.strip()]
        exec_uid = podman("exec", box.name, "id", "-u").stdout.strip()
        others = [p for p in processes if set(p["uids"]) != {str(USER_UID)}]
        if exec_uid != str(USER_UID) or others or not processes:
            raise CheckFailed(f"exec uid {exec_uid}; not uid {USER_UID}: {others}")
        workers = sum("spawn_main" in p["args"] for p in processes)
        return f"all {len(processes)} processes uid {USER_UID}: the supervisor, {workers} workers"

    checks.run("GET /health answers 200", health_answers)
    checks.run("GET /ready answers 200 (the service reaches Redis)",
               lambda: http("GET", box.url + "/ready")[0] == 200)
    checks.run("the wheel carries the web client and the API's documents",
               lambda: served_files(box))
    checks.run("the image defines a HEALTHCHECK", healthcheck_defined)
    checks.run("the image's HEALTHCHECK passes", healthcheck_passes)
    checks.run("the service runs as the non-root user", runs_as_user)


# Run by the container's python: one JSON line per other process, its uids (real,
# effective, saved, filesystem) and command line.
PROCESSES = """
import json, os
for pid in filter(str.isdigit, os.listdir("/proc")):
    if int(pid) == os.getpid():
        continue
    try:
        status = open(f"/proc/{pid}/status").read().splitlines()
        args = open(f"/proc/{pid}/cmdline").read().replace(chr(0), " ").strip()
    except OSError:
        continue
    uids = next(line.split()[1:] for line in status if line.startswith("Uid:"))
    print(json.dumps({"pid": int(pid), "uids": uids, "args": args[:120]}))
"""


def served_files(box: Box) -> str:
    """Every file of service/web is served at /play as it is in the checkout (the wheel's
    package data), and the OpenAPI document and Swagger UI's assets answer; the metrics
    answer on their own port, with both workers' requests, and not on the API's."""
    web = ROOT / "service" / "web"
    files = sorted(path for path in web.rglob("*") if path.is_file())
    for path in files:
        status, body = http_bytes(f"{box.url}/play/{path.relative_to(web).as_posix()}")
        if status != 200 or body != path.read_bytes():
            raise CheckFailed(f"/play/{path.relative_to(web)}: {status}, "
                              f"{'same' if body == path.read_bytes() else 'other'} bytes")
    for path in ("/play", "/schema/openapi.json", "/schema/assets/swagger-ui-bundle.js"):
        status, _ = http_bytes(box.url + path)
        if status != 200:
            raise CheckFailed(f"{path}: {status}")
    if (status := http_bytes(box.url + "/metrics")[0]) != 404:
        raise CheckFailed(f"/metrics on the API's port: {status}, not 404")
    # A worker adds its requests to the metrics in batches (FLUSH_SECONDS, 0.25 s later).
    deadline = time.monotonic() + 5
    while True:
        status, body = http_bytes(box.metrics_url)
        if status == 200 and b"crab_http_requests_total" in body:
            break
        if time.monotonic() > deadline:
            raise CheckFailed(f"{box.metrics_url}: {status}, no crab_http_requests_total"
                              " after 5 s")
        time.sleep(0.1)
    return (f"{len(files)} files of service/web, /schema/openapi.json, Swagger UI;"
            " the metrics on their own port")


def http_bytes(url: str) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def inspect(name: str) -> dict:
    return json.loads(podman("inspect", name).stdout)[0]


def stop_container(box: Box, checks: Checks, figures: dict[str, str]) -> None:
    def stops():
        started = time.monotonic()
        podman("stop", "--time", "20", box.name)
        took = time.monotonic() - started
        code = inspect(box.name)["State"]["ExitCode"]
        figures["stop on SIGTERM"] = f"{took:.1f} s, exit {code}"
        if code not in (0,) or took >= 20:
            raise CheckFailed(f"exit code {code} after {took:.1f} s (killed, or not clean)")
        return f"exit 0 in {took:.1f} s"

    checks.run("the container stops cleanly on SIGTERM", stops)


# --- the games -----------------------------------------------------------------------

def http(method: str, url: str, body=None, token: str | None = None,
         timeout: float = 30) -> tuple[int, object]:
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(url, data=data, method=method)
    request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", "Bearer " + token)
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            text = response.read().decode()
            return response.status, json.loads(text) if text else None
    except urllib.error.HTTPError as error:
        text = error.read().decode()
        try:
            return error.code, json.loads(text)
        except ValueError:
            return error.code, text


def play(url: str, game: str, spec: dict, rng: random.Random) -> tuple[int, int, dict]:
    """One whole game: the script moves for every human seat, choosing among legal moves.

    Returns the human seats' moves, the AI seat's and the result."""
    status, created = http("POST", url + "/v1/games", {"game": game, **spec})
    if status != 201:
        raise CheckFailed(f"create {game}: {status} {str(created)[:300]}")
    game_id = created["id"]
    tokens = {seat["seat"]: seat["token"] for seat in created["seats"] if seat.get("token")}
    moves = 0
    while True:
        status, table = http("GET", f"{url}/v1/games/{game_id}")
        if status != 200:
            raise CheckFailed(f"{game}: spectator view {status} {str(table)[:300]}")
        if table["status"] == "over":
            status, history = http("GET", f"{url}/v1/games/{game_id}/history")
            if status != 200:
                raise CheckFailed(f"{game}: history {status} {str(history)[:300]}")
            ai = sum(entry.get("seat") not in tokens for entry in history["entries"])
            if ai == 0:
                raise CheckFailed(f"{game}: the AI seat never moved")
            return moves, ai, table["result"]
        ours = [seat for seat in table["to_move"] if seat in tokens]
        if not ours:
            raise CheckFailed(f"{game}: no human seat to move and not over: {table['to_move']}")
        seat = rng.choice(ours)
        status, view = http("GET", f"{url}/v1/games/{game_id}", token=tokens[seat])
        legal = view.get("legal_moves") if status == 200 else None
        if not legal:
            raise CheckFailed(f"{game}: seat {seat} to move without legal moves: {status}")
        status, after = http("POST", f"{url}/v1/games/{game_id}/moves",
                             {"move": rng.choice(legal), "expected_version": view["version"]},
                             token=tokens[seat])
        if status not in (200, 201):
            raise CheckFailed(f"{game}: a legal move refused: {status} {str(after)[:300]}")
        moves += 1
        if moves > 3000:
            raise CheckFailed(f"{game}: no end after 3000 moves")


def play_games(box: Box, checks: Checks, figures: dict[str, str]) -> None:
    total = 0.0
    for game, spec in GAMES:
        def whole_game(game=game, spec=spec):
            started = time.monotonic()
            moves, ai, result = play(box.url, game, spec, random.Random(7))
            took = time.monotonic() - started
            nonlocal total
            total += took
            figures[f"game: {game}"] = f"{took:.1f} s, {moves} human moves, {ai} AI moves"
            return (f"{moves} human and {ai} AI moves in {took:.1f} s,"
                    f" winners {result.get('winners')}")
        checks.run(f"a whole game of {game} over HTTP", whole_game)
    figures["games"] = f"{total:.1f} s"


def games_in_redis(env: dict[str, str]) -> str:
    reply = redis_command(int(env["_redis_port"]), "DBSIZE") or ""
    if not reply.startswith(":") or int(reply[1:]) == 0:
        raise CheckFailed(f"DBSIZE {reply!r}")
    return f"{reply[1:]} keys"


# --- the figures ---------------------------------------------------------------------

def report(figures: dict[str, str], mode: str, load: float) -> None:
    cpu = next((line.split(":", 1)[1].strip() for line in
                Path("/proc/cpuinfo").read_text().splitlines() if line.startswith("model name")),
               platform.machine())
    version = run(["podman", "--version"], check=False).stdout.strip()
    print(f"\n{mode} run, {time.strftime('%Y-%m-%d %H:%M')}, {os.cpu_count()} cores ({cpu}),"
          f" load average {load:.1f} at the start, {version}, runc")
    print("| figure | value |\n|---|---|")
    for name, value in figures.items():
        print(f"| {name} | {value} |")
    print(flush=True)


if __name__ == "__main__":
    sys.exit(main())
