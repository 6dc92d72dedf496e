"""A CPU burner for measuring the suite on a busy machine (docs/reliability.md, "The test
suite on a busy machine"): one process that takes a share of one core, spinning for that
share of every 30 ms and sleeping the rest (it reports what it took when stopped).

    nice -n 0 python -m tests.burn --share 0.67 &   # two thirds of a core
"""

import argparse
import os
import signal
import time

PERIOD = 0.03  # seconds: short, so the load is steady at the scheduler's scale
STARTED = time.monotonic()


def burn(share: float) -> None:
    """Each period: spins until it has had share of it in CPU time (not wall time: on a
    busy machine the spin is preempted), then sleeps what is left of the period."""
    while True:
        end, cpu = time.monotonic() + PERIOD, time.process_time()
        while time.process_time() - cpu < PERIOD * share:
            pass
        time.sleep(max(0.0, end - time.monotonic()))


def report(*_: object) -> None:
    """On SIGTERM or Ctrl-C: the CPU this process took, and over how long."""
    times = os.times()
    used, wall = times.user + times.system, time.monotonic() - STARTED
    print(f"burned {used:.0f} s of CPU in {wall:.0f} s: {used / wall:.2f} of a core", flush=True)
    raise SystemExit(0)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--share", type=float, default=0.67, help="of one core, 0 to 1")
    share = parser.parse_args().share
    signal.signal(signal.SIGTERM, report)
    signal.signal(signal.SIGINT, report)
    burn(share)
