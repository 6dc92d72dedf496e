"""schemathesis against the served API on both stores: every check, every phase, and a
stateful run that follows the document's links from a new game to its moves.

Bounded to seconds here; the long run (thousands of cases, the same configuration) is
the command docs/reliability.md gives with its counts.
"""

import collections
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import hypothesis
import pytest
import schemathesis
from hypothesis.errors import Flaky
from schemathesis.config import SchemathesisConfig

from tests.service.conftest import STORES
from tests.service.servers import Server, server

CONFIG = Path(__file__).with_name("schemathesis.toml")
# Small AI budgets: the fuzzer creates AI seats and asks for suggestions by the hundred.
FUZZED_ENV = {"ACCESS_LOG": "0", "AI_MAX_ITERATIONS": "50", "AI_MAX_TIME_MS": "10"}
# Links after which the client keeps sending the token it used (see service/openapi.py:
# a link cannot name the Authorization header of the request it comes from).
SAME_SEAT_LINKS = {"PlayFirstLegalMove", "PlayNextLegalMove", "LegalMovesAfter",
                   "SuggestNext"}


@pytest.fixture(scope="module", params=sorted(STORES))
def fuzzed(request) -> Iterator[Server]:
    with server({**STORES[request.param], **FUZZED_ENV}) as running:
        yield running


def schemathesis_run(url: str, *options: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "schemathesis.cli", "--config-file", str(CONFIG), "run",
         f"{url}/schema/openapi.json", "--checks", "all", "--workers", "1",
         "--generation-database", "none", *options],
        capture_output=True, text=True, timeout=300)


def test_schemathesis_with_every_check_and_phase_finds_nothing(fuzzed):
    run = schemathesis_run(fuzzed.url, "--max-examples", "10", "--seed", "20261130")
    summary = run.stdout[run.stdout.rfind("SUMMARY"):]
    assert run.returncode == 0, run.stdout[-6000:]
    assert "❌" not in summary and "🚫" not in summary, summary
    for phase in ("Coverage", "Fuzzing", "Stateful"):  # Examples: none are in the document
        assert f"✅ {phase}" in summary, summary
    generated = re.search(r"(\d+) generated, (\d+) passed", summary)
    assert generated and generated.group(1) == generated.group(2), summary
    assert int(generated.group(1)) > 200


def test_stateful_fuzzing_follows_the_links_from_a_new_game_to_legal_moves(fuzzed):
    """A client that follows the links with its seat's token plays real moves, and every
    response on the way passes every check."""
    config = SchemathesisConfig.from_str(CONFIG.read_text() + '\n[generation]\nmode = "positive"\n')
    schema = schemathesis.openapi.from_url(f"{fuzzed.url}/schema/openapi.json", config=config)
    play = schema.include(path_regex=r"^/v1/games(/\{game_id\}/(legal-moves|moves))?$")
    answered: collections.Counter = collections.Counter()
    failures: list[str] = []

    class SameSeat(play.as_state_machine()):  # type: ignore[misc]
        authorization: dict[str, str] = {}  # case id -> the Authorization it was sent with

        def step(self, input):
            link = input.transition and re.search(r"\] (\w+) ->", input.transition.id)[1]
            token = input.transition and self.authorization.get(input.transition.parent_id)
            if link in SAME_SEAT_LINKS and token:
                input.case.headers = {**(input.case.headers or {}), "Authorization": token}
            sent = {k.lower(): v for k, v in (input.case.headers or {}).items()}
            if "authorization" in sent:
                self.authorization[input.case.id] = sent["authorization"]
            output = super().step(input)
            answered[link or "root", input.case.operation.label,
                     output.response.status_code] += 1
            return output

        def validate_response(self, response, case, **kwargs):
            try:
                super().validate_response(response, case, **kwargs)
            except Exception as error:  # kept: Hypothesis may report a replay as Flaky
                failures.append(f"{case.operation.label}: {error}")
                raise

    settings = hypothesis.settings(max_examples=20, stateful_step_count=15, deadline=None,
                                   database=None, derandomize=True,
                                   suppress_health_check=list(hypothesis.HealthCheck))
    try:
        SameSeat.run(settings=settings)
    except Flaky:  # the server's state made a replay differ; failures are checked below
        pass
    assert failures == []
    played = answered["PlayFirstLegalMove", "POST /v1/games/{game_id}/moves", 200]
    created = answered["root", "POST /v1/games", 201]
    assert created >= 3 and played >= 1, answered
