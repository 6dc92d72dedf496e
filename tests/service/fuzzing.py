"""schemathesis against the served API: the settings the suite and the long run share.

The long run (docs/reliability.md), both stores one after the other:

    python -m tests.service.fuzzing --max-examples 300

It serves the API as the tests do (a real `python -m service`, on Redis database 14 and on
the embedded store), runs `schemathesis run --checks all` against each, and prints each
run's summary and counts; the exit status is 0 only if no run found anything.
"""

import argparse
import re
import subprocess
import sys
import time
from pathlib import Path

CONFIG = Path(__file__).with_name("schemathesis.toml")
# Small AI budgets: the fuzzer creates AI seats and asks for suggestions by the hundred.
# Rate limits off: the fuzzer is one client address creating thousands of games, and 429s
# (documented, and tested in test_api_limits) would keep it from the rest of the API.
FUZZED_ENV = {"ACCESS_LOG": "0", "AI_MAX_ITERATIONS": "50", "AI_MAX_TIME_MS": "10",
              "RATE_LIMIT_CREATES_PER_MINUTE": "0", "RATE_LIMIT_MOVES_PER_SECOND": "0"}
# An event stream answers until its game is over, so a request-and-response fuzzer would
# wait on it; tests/service/test_api_events.py covers it.
NOT_FUZZED = ["--exclude-path-regex", "/events$"]


def schemathesis_run(url: str, *options: str, timeout: float = 300) -> subprocess.CompletedProcess:
    """`schemathesis run` with every check against the API served at url."""
    return subprocess.run(
        [sys.executable, "-m", "schemathesis.cli", "--config-file", str(CONFIG), "run",
         f"{url}/schema/openapi.json", "--checks", "all", "--workers", "1",
         "--generation-database", "none", *NOT_FUZZED, *options],
        capture_output=True, text=True, timeout=timeout)


def summary_of(run: subprocess.CompletedProcess) -> str:
    return run.stdout[run.stdout.rfind("SUMMARY"):]


def counts(summary: str) -> tuple[int, int]:
    """Cases generated and cases passed, as the summary states them."""
    found = re.search(r"(\d+) generated, (\d+) (?:passed|found)", summary)
    return (int(found[1]), int(found[2])) if found else (0, 0)


def main() -> None:
    from tests.service.conftest import STORES
    from tests.service.servers import server

    parser = argparse.ArgumentParser(description="The long schemathesis run, on both stores")
    parser.add_argument("--max-examples", type=int, default=300)
    args = parser.parse_args()
    clean = True
    for store in sorted(STORES):
        started = time.monotonic()
        with server({**STORES[store], **FUZZED_ENV}) as running:
            run = schemathesis_run(running.url, "--max-examples", str(args.max_examples),
                                   timeout=3600)
        summary = summary_of(run)
        generated, _ = counts(summary)
        print(f"== {store} store: exit {run.returncode}, {generated} cases,"
              f" {time.monotonic() - started:.0f} s\n{summary}", flush=True)
        clean = clean and run.returncode == 0
    sys.exit(0 if clean else 1)


if __name__ == "__main__":
    main()
