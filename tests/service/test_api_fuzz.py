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
    failures = [failure for failure in failures_of(run) if not conformance_floor(run, failure)]
    assert failures == [], run.stdout[-6000:]
    for phase in ("Coverage", "Fuzzing"):  # Examples: none are in the document
        assert f"✅ {phase}" in summary, summary
    assert "✅ Stateful" in summary or failures_of(run), summary
    generated, passed = counts(summary)
    if failures_of(run):  # "N generated, 1 found 1 unique failures": the floor's only
        passed = generated
    assert generated == passed > 1000, summary


def conformance_floor(run, failure: str) -> bool:
    """The one disagreement between schemathesis and the conformance floor: a move out of
    turn, valid by the schema, is refused with 422 `illegal-move`, which
    ../shared/conformance/http_flow.py requires and positive_data_acceptance (ST202) calls a
    valid request rejected (docs/reliability.md). Only that is let through: every ST202
    response the run shows must be such a refusal of a move."""
    found = re.fullmatch(r"❌ ST202 Schema-valid request rejected: (\d+)", failure)
    if not found:
        return False
    rejected = re.findall(r"\[(\d{3})\] [^\n]*:\n\n\s*`(\{[^`]*\})`", run.stdout)
    refusals = [body for status, body in rejected
                if status == "422" and '"type":"/problems/illegal-move"' in body
                and '/moves"' in body]
    return len(refusals) == len(rejected) >= int(found[1])


def test_every_link_the_cli_follows_resolves(fuzzed):
    """No link names a seat the game lacks or a field the response may not carry."""
    run = schemathesis_run(fuzzed.url, "--max-examples", "60", "--seed", SEED,
                           "--phases", "stateful")
    assert "Failed to extract data" not in run.stdout, run.stdout[-6000:]
    covered = re.search(r"API Links:\s+(\d+) covered", run.stdout)
    assert covered and int(covered[1]) >= 5, run.stdout[-3000:]
