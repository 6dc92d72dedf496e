"""schemathesis' plain CLI against the served API on both stores: every check and phase,
no configuration and no hooks of ours, so it knows only what the document says.

Bounded to seconds here; the long run (thousands of cases, the same command) is
`python -m tests.service.fuzzing`, whose counts docs/reliability.md records.
"""

import re
from collections.abc import Iterator

import httpx
import pytest

from tests.service.conftest import STORES
from tests.service.fuzzing import FUZZED_ENV, counts, failures_of, schemathesis_run, summary_of
from tests.service.servers import Server, server

pytestmark = pytest.mark.fuzz  # minutes: `python -m pytest -m fuzz`, and .ci/run

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
    for phase in ("Coverage", "Fuzzing", "Stateful"):  # Examples: none are in the document
        assert f"✅ {phase}" in summary or failures_of(run), summary  # (the floor's only)
    generated, passed = counts(summary)
    if failures_of(run):  # "N generated, 1 found 1 unique failures": the floor's only
        passed = generated
    assert generated == passed > 1000, summary
    document = httpx.get(f"{fuzzed.url}/schema/openapi.json").json()
    assert_no_operation_lacks_a_way_to_its_data(run, document)


def warned(run, title: str) -> list[tuple[str, str]]:
    """The operations (method, path) a warning block of the run lists."""
    start = run.stdout.find(f"\n{title}")
    if start < 0:
        return []
    block = run.stdout[start + 1:]
    block = block[:block.find("\n\n", block.find("💡"))]
    return [(method.lower(), path) for method, path in
            re.findall(r"^\s+- (GET|POST|PATCH|PUT|DELETE) (\S+)", block, re.MULTILINE)]


def assert_no_operation_lacks_a_way_to_its_data(run, document: dict) -> None:
    """What the run's warnings may still say, and why nothing more.

    "Missing test data" (only 404s) lists operations whose data another operation makes;
    none may be there because no link leads to it (the document's links reach every such
    operation: test_contract_document.py); what is left is the random walk's budget
    ("never reached") or its choices ("the linked data was not usable": a game's rematch
    asked before its end), which a longer run settles (docs/reliability.md).

    "Authentication failed" (only 401/403): schemathesis 4 computes it from the unit phases
    alone (cli/commands/run/warnings.py, _check_warnings), whose requests carry no
    credential a server made (a seat's token, a player's key) unless one is configured,
    which a plain run does not; links, which carry them, act in the stateful phase only.
    So it may list operations that take a credential, and no other."""
    assert "No links point to" not in run.stdout, run.stdout[-6000:]
    for method, path in warned(run, "Authentication failed"):
        security = document["paths"][path][method].get("security", [])
        assert {"seatToken": []} in security or {"playerKey": []} in security, (method, path)


def conformance_floor(run, failure: str) -> bool:
    """The one disagreement between schemathesis and the conformance floor: a move out of
    turn, valid by the schema, is refused with 422 `illegal-move`, which
    ../shared/conformance/http_flow.py requires and positive_data_acceptance (ST202) calls a
    valid request rejected (docs/reliability.md). So is a webhook URL the operator's
    allow-list refuses, or a webhook given to a human player (422 `webhook-refused`: what
    the server may call, and who may be called, no schema can say). Only those are let
    through: every ST202 response the run shows must be such a refusal."""
    found = re.fullmatch(r"❌ ST202 Schema-valid request rejected: (\d+)", failure)
    if not found:
        return False
    rejected = re.findall(r"\[(\d{3})\] [^\n]*:\n\n\s*`(\{[^`]*\})`", run.stdout)
    refusals = [body for status, body in rejected if status == "422" and (
        ('"type":"/problems/illegal-move"' in body and '/moves"' in body)
        or ('"type":"/problems/webhook-refused"' in body and '"/v1/players' in body))]
    return len(refusals) == len(rejected) >= int(found[1])


def test_every_link_the_cli_follows_resolves(fuzzed):
    """No link names a seat the game lacks or a field the response may not carry."""
    run = schemathesis_run(fuzzed.url, "--max-examples", "60", "--seed", SEED,
                           "--phases", "stateful")
    assert "Failed to extract data" not in run.stdout, run.stdout[-6000:]
    covered = re.search(r"API Links:\s+(\d+) covered", run.stdout)
    assert covered and int(covered[1]) >= 5, run.stdout[-3000:]
