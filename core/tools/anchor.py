"""The core's random playouts against the C speed-of-light reference (`python -m core.tools.bench`).

The reference is `../shared/anchors/cupcrab_sol.c` beside the project (see the README
there): a plain C program that plays the same random Cup the Crab games.  It is built
with gcc into a cache directory outside the project (never committed) and run as a
subprocess.  Two comparisons, both in one run on the same machine:

- speed: our `core.random_playouts` games/s against its single-thread games/s for 2 to
  5 players, runs of the two taking turns (a busy spell of the machine hits both), as
  medians and their ratio;
- statistics: the mean score per seat, discards per game and tie rate of N random games
  of each, with the difference in standard errors (ours estimated from batches), so a
  change of the rules or of the random policy shows up.
"""

from __future__ import annotations

import hashlib
import math
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import core

GAME = "cup-the-crab"
PLAYERS = (2, 3, 4, 5)
SOURCE = Path(__file__).resolve().parents[3] / "shared" / "anchors" / "cupcrab_sol.c"
FLAGS = ["-std=c11", "-O3", "-march=x86-64-v3", "-pthread"]   # as the reference's README
Z_LIMIT = 4.0   # |difference| in standard errors above which a statistic is called off


def build(source: Path = SOURCE) -> Path | None:
    """The reference's binary, compiled once per source version; None without source."""
    if not source.is_file():
        return None
    digest = hashlib.sha256(source.read_bytes() + " ".join(FLAGS).encode()).hexdigest()[:16]
    binary = Path(tempfile.gettempdir()) / "crab-engines-anchor" / f"cupcrab_sol-{digest}"
    if not binary.exists():
        if shutil.which("gcc") is None:
            raise RuntimeError("the C reference needs gcc to build")
        binary.parent.mkdir(parents=True, exist_ok=True)
        partial = binary.with_suffix(".partial")
        subprocess.run(["gcc", *FLAGS, str(source), "-o", str(partial)], check=True)
        partial.rename(binary)
    return binary


def _table(output: str) -> dict[int, list[str]]:
    """The rows of the reference's output that start with a player count: columns."""
    rows = {}
    for line in output.splitlines():
        cells = [cell.strip() for cell in line.split("|")]
        if cells[0].isdigit():
            rows[int(cells[0])] = cells[1:]
    return rows


def reference_speed(binary: Path, seconds: float) -> dict[int, float]:
    """Its single-thread games/s per player count (one run of `bench seconds 1 1`)."""
    out = subprocess.run([str(binary), "bench", str(seconds), "1", "1"], check=True,
                         capture_output=True, text=True).stdout
    return {players: float(cells[0]) for players, cells in _table(out).items()}


def our_speed(players: int, seconds: float) -> float:
    """Our games/s: core.random_playouts sized to take about `seconds`."""
    games = 20_000
    while True:
        start = time.perf_counter()
        core.random_playouts(GAME, players, games, seed=1)
        elapsed = time.perf_counter() - start
        if elapsed >= seconds / 2:
            return games / elapsed
        games = int(games * seconds / max(elapsed, 1e-3))


def compare_speed(binary: Path, runs: int, seconds: float) -> None:
    ours: dict[int, list[float]] = {p: [] for p in PLAYERS}
    theirs: dict[int, list[float]] = {p: [] for p in PLAYERS}
    for run in range(runs):
        for players, rate in reference_speed(binary, seconds).items():
            theirs[players].append(rate)
        for players in PLAYERS:
            ours[players].append(our_speed(players, seconds))
        print(f"\r  run {run + 1}/{runs}", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    print(f"Cup the Crab random games against the C reference (median of {runs} runs"
          f" taking turns, one thread each):")
    print("| players | core games/s | reference games/s | ratio |")
    print("|---|---|---|---|")
    for players in PLAYERS:
        mine, ref = statistics.median(ours[players]), statistics.median(theirs[players])
        print(f"| {players} | {mine:,.0f} | {ref:,.0f} | {mine / ref:.2f} |", flush=True)


def our_stats(players: int, games: int, seed: int, batches: int = 20) -> dict[str, tuple]:
    """Our statistics as (mean, standard error) from batches of the same size."""
    size = games // batches
    runs = [core.random_playouts(GAME, players, size, seed=seed + batch,
                                 options={"first_player": 0}) for batch in range(batches)]
    values: dict[str, list[list[float]]] = {
        **{f"score {seat}": [[r["mean_score"][seat]] for r in runs] for seat in range(players)},
        "discards": [[r["mean_discards"]] for r in runs],
        "tie rate": [[r["tie_rate"]] for r in runs]}
    return {name: (statistics.fmean(v[0] for v in batch),
                   statistics.stdev(v[0] for v in batch) / math.sqrt(batches))
            for name, batch in values.items()}


def reference_stats(binary: Path, games: int, seed: int) -> dict[int, dict[str, float]]:
    out = subprocess.run([str(binary), "stats", str(games), str(seed)], check=True,
                         capture_output=True, text=True).stdout
    stats = {}
    for players, cells in _table(out).items():
        scores = [float(x) for x in cells[0].split()]
        stats[players] = {**{f"score {seat}": s for seat, s in enumerate(scores)},
                          "discards": float(cells[4]), "tie rate": float(cells[6])}
    return stats


def compare_stats(binary: Path, games: int, seed: int) -> bool:
    """Prints both sides' statistics; True if every difference is within Z_LIMIT errors."""
    theirs = reference_stats(binary, games, seed)
    print(f"Statistics of {games:,} random games per player count (first player seat 0),"
          f" core against the C reference; z = difference / its standard error:")
    print("| players | statistic | core | reference | z |")
    print("|---|---|---|---|---|")
    worst = 0.0
    for players in PLAYERS:
        for name, (mean, error) in our_stats(players, games, seed).items():
            ref = theirs[players][name]
            z = (mean - ref) / (error * math.sqrt(2)) if error else 0.0  # both sides vary alike
            worst = max(worst, abs(z))
            digits = 5 if name == "tie rate" else 3
            print(f"| {players} | {name} | {mean:.{digits}f} | {ref:.{digits}f} | {z:+.1f} |",
                  flush=True)
    verdict = worst <= Z_LIMIT
    print(f"largest |z|: {worst:.1f}: " + ("within sampling error" if verdict else
                                           f"over {Z_LIMIT}: the games differ"))
    return verdict
