"""schemathesis' plain CLI against the served API: what the suite and the long run share.

The long run (docs/reliability.md), both stores one after the other:

    python -m tests.service.fuzzing --max-examples 300

It serves the API as the tests do (a real `python -m service`, on Redis database 14 and on
the embedded store) and runs `schemathesis run <url>/schema/openapi.json --checks all`
against each with no configuration and no hooks: only the document. It prints each run's
summary and counts; the exit status is 0 only if no run found anything.
"""

import argparse
import re
import subprocess
import sys
import time

# Small AI budgets: the fuzzer creates AI seats and asks for suggestions by the hundred.
# Rate limits off: the fuzzer is one client address creating thousands of games, and 429s
# (documented, and tested in test_api_limits) would keep it from the rest of the API.
# One-second clocks may be asked for, as the document of such a server then says.
FUZZED_ENV = {"ACCESS_LOG": "0", "AI_MAX_ITERATIONS": "50", "AI_MAX_TIME_MS": "10",
              "RATE_LIMIT_CREATES_PER_MINUTE": "0", "RATE_LIMIT_MOVES_PER_SECOND": "0",
              "TURN_SECONDS_MIN": "1"}
# An event stream answers until its game is over; schemathesis reads a stream until it
# ends, sends enough events or the request times out, so a short timeout keeps a run on
# live games fast. Nothing else this API does takes a second with the budgets above.
REQUEST_TIMEOUT = "1"


def schemathesis_run(url: str, *options: str, timeout: float = 600) -> subprocess.CompletedProcess:
    """The plain `schemathesis run` with every check against the API served at url."""
    return subprocess.run(
        [sys.executable, "-m", "schemathesis.cli", "run", f"{url}/schema/openapi.json",
         "--checks", "all", "--workers", "1", "--request-timeout", REQUEST_TIMEOUT,
         "--generation-database", "none", "--no-color", *options],
        capture_output=True, text=True, timeout=timeout)


def summary_of(run: subprocess.CompletedProcess) -> str:
    return run.stdout[run.stdout.rfind("SUMMARY"):]


def failures_of(run: subprocess.CompletedProcess) -> list[str]:
    """Each failure the run reports (its check's code and title), empty if none."""
    found = re.search(r"\nFailures:\n(.*?)\n\n", summary_of(run), re.S)
    return [line.strip() for line in found[1].splitlines()] if found else []


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
