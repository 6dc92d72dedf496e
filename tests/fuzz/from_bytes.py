"""Coverage-guided fuzzing of core.from_bytes (both games) with atheris, for a bounded time.

    python -m tests.fuzz.from_bytes --seconds 60      # needs the `fuzz` extra: pip install -e ".[fuzz]"

Every input is loaded with core.from_bytes.  A refusal must be core.InvalidState; any
other exception is a crash.  An accepted state must be consistent: it stores back to the
very same bytes, a seat has a legal move unless the game is over (then it has a result),
every view and its snapshot load, and a legal move applied to it (chosen by the input)
gives a state that loads again and a random playout that ends.

An input's first byte picks what the rest is: 0, a whole stored blob (frame, CRC and
all, so the frame's checks are fuzzed too); 1 or 2, a Cup the Crab or a Crabe vs Poulpe
payload that the harness frames with a valid CRC (random bytes almost never match a
CRC-32, so the game checks would otherwise starve).  The seed corpus is real games'
states at every step.  With clang, the core is rebuilt instrumented (tests/fuzz/
instrumented.py) so libFuzzer steers by the coverage of the compiled checks; without
it, by Python coverage only, and the run says so.
"""

import argparse
import hashlib
import json
import os
import random
import re
import subprocess
import sys
import time
from pathlib import Path

from tests.fuzz import instrumented

OUT = instrumented.OUT
DEFAULT_CORPUS = OUT / "corpus" / "from_bytes"
ARTIFACTS = OUT / "crashes"
STATS = OUT / "from_bytes.stats.json"
LOG = OUT / "from_bytes.log"
RAW, CUP, CVP = 0, 1, 2
GAME_OF_MODE = {CUP: "cup-the-crab", CVP: "crabe-vs-poulpe"}


# -- the target (runs in the child, under atheris) ---------------------------------------

def blob_of(data: bytes) -> bytes:
    """The stored blob an input stands for (see the module docstring)."""
    from core import _codec
    mode = data[0] % 3 if data else RAW
    if mode == RAW:
        return data[1:]
    return _codec.frame(GAME_OF_MODE[mode], data[1:])


class Inconsistent(AssertionError):
    """core.from_bytes accepted a state that breaks a guarantee."""


def verify_accepted(state, blob: bytes, choice: int) -> None:
    import core
    if state.to_bytes() != blob:
        raise Inconsistent("an accepted state does not store back to the same bytes")
    if state.is_over:
        if state.to_move or state.result() is None:
            raise Inconsistent("a finished game has a seat to move or no result")
    elif not any(state.legal_actions(seat) for seat in state.to_move):
        raise Inconsistent("nobody can move, yet the game is not over")
    for seat in [None, *range(state.players)]:
        state.view(seat)
    snapshot = state.snapshot()
    if core.from_snapshot(snapshot).snapshot() != snapshot:
        raise Inconsistent("the snapshot of an accepted state does not load back")
    if state.is_over:
        return
    seat = state.to_move[choice % len(state.to_move)]
    moves = state.legal_moves(seat)
    state.apply(seat, moves[choice % len(moves)])
    after = state.to_bytes()
    if core.from_bytes(after).to_bytes() != after:
        raise Inconsistent("the state after a legal move does not load back")
    rest = state.clone()
    rest.playout(seed=choice)
    if not rest.is_over:
        raise Inconsistent("a random playout from an accepted state did not end")


class Target:
    """TestOneInput with counts, written out now and then (libFuzzer exits with exit())."""

    def __init__(self, stats: Path | None = None) -> None:
        self.counts = {"executions": 0, "accepted": 0, "refused": 0}
        self.stats = stats  # where the counts go (None: kept in memory only)

    def __call__(self, data: bytes) -> None:
        import core
        self.counts["executions"] += 1
        blob = blob_of(data)
        try:
            state = core.from_bytes(blob)
        except core.InvalidState:
            self.counts["refused"] += 1
        else:
            self.counts["accepted"] += 1
            verify_accepted(state, blob, data[-1] if data else 0)
        if self.stats is not None and self.counts["executions"] % 1000 == 0:
            self.stats.write_text(json.dumps(self.counts))


def run_child(libfuzzer_args: list[str]) -> None:
    import atheris
    with atheris.instrument_imports(include=["core"]):
        import core  # noqa: F401  (the Python layer: framing, dispatch)
    target = Target(STATS)
    atheris.Setup([sys.argv[0], *libfuzzer_args], target)
    atheris.Fuzz()


# -- the command (the parent: corpus, build, progress, summary) --------------------------

def seed_inputs() -> list[bytes]:
    """Inputs for real games' states at every step, both games, every player count."""
    import core
    inputs = []
    for game, players, seed in ([("cup-the-crab", n, s) for n in range(2, 6) for s in range(3)]
                                + [("crabe-vs-poulpe", 2, s) for s in range(12)]):
        options = {"mode": "asymmetrical"} if game == "crabe-vs-poulpe" and seed % 2 else None
        state, rng = core.new_game(game, players, seed=seed, options=options), random.Random(seed)
        mode = CUP if game == "cup-the-crab" else CVP
        while True:
            blob = state.to_bytes()
            inputs.append(bytes((mode,)) + blob[4:-4])
            if rng.random() < 0.05:
                inputs.append(bytes((RAW,)) + blob)
            if state.is_over:
                break
            seat = rng.choice(state.to_move)
            state.apply(seat, rng.choice(state.legal_moves(seat)))
    return inputs


def write_seeds(corpus: Path) -> int:
    corpus.mkdir(parents=True, exist_ok=True)
    for data in seed_inputs():
        path = corpus / hashlib.sha1(data).hexdigest()
        if not path.exists():
            path.write_bytes(data)
    return len(list(corpus.iterdir()))


STATUS = re.compile(r"^#(\d+)\s+(\w+)\s+cov: (\d+) ft: (\d+) corp: (\d+)/(\S+)")


def fuzz(seconds: int, corpus: Path, native: bool) -> int:
    corpus = corpus.resolve()
    before = write_seeds(corpus)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    crashes_before = set(ARTIFACTS.iterdir())
    built = instrumented.build() if native else None
    env = dict(os.environ)
    cwd = instrumented.ROOT
    if built:
        site, runtime = built
        env.update(LD_PRELOAD=str(runtime), PYTHONPATH=f"{site}{os.pathsep}{instrumented.ROOT}")
        cwd = site  # sys.path[0] is the working directory: the instrumented core first
        print("coverage: compiled core instrumented (clang -fsanitize=fuzzer-no-link)"
              " + Python layer")
    else:
        print("coverage: Python layer only (no clang, or --no-native): the compiled checks"
              " run but do not steer the fuzzer")
    STATS.unlink(missing_ok=True)
    args = [f"-max_total_time={seconds}", "-max_len=1024", "-timeout=10",
            "-print_final_stats=1", f"-artifact_prefix={ARTIFACTS}/", str(corpus)]
    print(f"fuzzing core.from_bytes for {seconds} s; seed corpus {before} inputs in {corpus}",
          flush=True)
    started, last, status, final = time.monotonic(), 0.0, None, {}
    with open(LOG, "w") as log, subprocess.Popen(
            [sys.executable, "-m", "tests.fuzz.from_bytes", "--child", "--", *args], cwd=cwd,
            env=env, stderr=subprocess.PIPE, text=True, errors="replace") as child:
        for line in child.stderr:
            log.write(line)
            if match := STATUS.match(line):
                status = match
            if line.startswith("stat::"):
                key, _, value = line.removeprefix("stat::").partition(":")
                final[key] = value.strip()
            elapsed = time.monotonic() - started
            if status and elapsed - last >= 10:
                last = elapsed
                print(f"  {elapsed:5.0f} s  {int(status[1]):>10,} executions  cov {status[3]}"
                      f"  corpus {status[5]}", flush=True)
    crashes = sorted(set(ARTIFACTS.iterdir()) - crashes_before)
    counts = json.loads(STATS.read_text()) if STATS.exists() else {}
    summary = {
        "seconds": seconds,
        "executions": f'{int(final.get("number_of_executed_units", status[1] if status else 0)):,}',
        "executions per second": final.get("average_exec_per_sec", "?"),
        "accepted / refused (to the last 1,000th)":
            f"{counts.get('accepted', '?')} / {counts.get('refused', '?')}",
        "coverage (edges)": status[3] if status else "?",
        "corpus": f"{len(list(corpus.iterdir()))} files ({before} before the run,"
                  f" new {final.get('new_units_added', '?')}; libFuzzer keeps"
                  f" {status[5] if status else '?'} of them)",
        "crashes": len(crashes),
        "exit status": child.returncode,
    }
    print("\n| measure | value |\n|---|---|")
    for key, value in summary.items():
        print(f"| {key} | {value} |")
    for crash in crashes:
        print(f"crash input: {crash} (replay: python -m tests.fuzz.from_bytes --replay {crash})")
    print(f"full libFuzzer log: {LOG}")
    return 0 if not crashes and child.returncode == 0 else 1


def replay(path: Path) -> None:
    """Runs one input through the target outside the fuzzer, to see the traceback."""
    Target()(path.read_bytes())
    print(f"{path}: no failure")


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        run_child(sys.argv[3:])
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=int, default=60, help="time to fuzz (default 60)")
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS,
                        help=f"corpus directory, kept between runs (default {DEFAULT_CORPUS})")
    parser.add_argument("--no-native", action="store_true",
                        help="do not build the instrumented core; Python coverage only")
    parser.add_argument("--replay", type=Path, help="run one saved input and stop")
    options = parser.parse_args()
    if options.replay:
        replay(options.replay)
        return
    sys.exit(fuzz(options.seconds, options.corpus, not options.no_native))


if __name__ == "__main__":
    main()
