"""schemathesis' plain CLI against the served API on both stores: every check and phase,
no configuration and no hooks of ours, so it knows only what the document says.

Bounded to seconds here; the long run (thousands of cases, the same command) is
`python -m tests.service.fuzzing`, whose counts docs/reliability.md records.
"""

import re
from collections.abc import Iterator

import pytest

from tests.service.conftest import STORES
from tests.service.fuzzing import FUZZED_ENV, counts, failures_of, schemathesis_run, summary_of
from tests.service.servers import Server, server

SEED = "20261201"


@pytest.fixture(scope="module", params=sorted(STORES))
def fuzzed(request) -> Iterator[Server]:
    with server({**STORES[request.param], **FUZZED_ENV}) as running:
        yield running


def test_the_plain_schemathesis_cli_finds_nothing_on_every_phase(fuzzed):
    run = schemathesis_run(fuzzed.url, "--max-examples", "20", "--seed", SEED)
    summary = summary_of(run)
    assert failures_of(run) == [], run.stdout[-6000:]
    for phase in ("Coverage", "Fuzzing", "Stateful"):  # Examples: none are in the document
        assert f"✅ {phase}" in summary, summary
    generated, passed = counts(summary)
    assert generated == passed > 1000, summary


def test_every_link_the_cli_follows_resolves(fuzzed):
    """No link names a seat the game lacks or a field the response may not carry."""
    run = schemathesis_run(fuzzed.url, "--max-examples", "60", "--seed", SEED,
                           "--phases", "stateful")
    assert "Failed to extract data" not in run.stdout, run.stdout[-6000:]
    covered = re.search(r"API Links:\s+(\d+) covered", run.stdout)
    assert covered and int(covered[1]) >= 5, run.stdout[-3000:]
