"""Draws the commit-to-delivery latency histogram of an events_bench.py run as a PNG.

    python loadtests/plot_events_latency.py [loadtest-results/events_bench.json]
        [--png docs/images/events-latency.png]

Needs matplotlib (pip install -e ".[plot]").
"""

import argparse
import json
from pathlib import Path

import matplotlib

matplotlib.use("Agg")  # files only, no display
import matplotlib.pyplot as plt  # noqa: E402

GOAL_MS = 50.0


def percentile(values: list[float], pct: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * pct / 100))]


def plot(result: dict, png: Path) -> None:
    figure, axes = plt.subplots(figsize=(8, 4.5), dpi=110)
    low, high = 0.1, max(max(result["raw_from_sent_ms"]), GOAL_MS * 2)
    bins = [low * (high / low) ** (i / 60) for i in range(61)]  # even on a log axis
    for key, label, colour in (("raw_from_sent_ms", "from the POST sent", "tab:blue"),
                               ("raw_from_response_ms", "from the POST's response", "tab:orange")):
        values = [max(v, low) for v in result[key]]
        axes.hist(values, bins=bins, alpha=0.55, color=colour,
                  label=f"{label}: p50 {percentile(result[key], 50):.1f} ms,"
                        f" p99 {percentile(result[key], 99):.1f} ms")
    axes.axvline(GOAL_MS, color="tab:red", linestyle="--", label=f"goal: p99 < {GOAL_MS:g} ms")
    axes.set_xscale("log")
    axes.set_xlabel("commit-to-delivery latency (ms, log scale; the first bin holds <= 0.1 ms)")
    axes.set_ylabel("events")
    axes.set_title(f"{result['streams']} event streams on 2 replicas, {result['moves']} moves at"
                   f" {result['rate']:g}/s\n{result['date']}, load average after"
                   f" {result['load_average_after'][0]:.1f} (shared 2-core machine)", fontsize=10)
    axes.legend(fontsize=8)
    figure.tight_layout()
    png.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(png)
    print(f"wrote {png}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("result", type=Path, nargs="?",
                        default=Path("loadtest-results/events_bench.json"))
    parser.add_argument("--png", type=Path, default=Path("docs/images/events-latency.png"))
    args = parser.parse_args()
    plot(json.loads(args.result.read_text()), args.png)


if __name__ == "__main__":
    main()
