"""schemathesis against the served API on both stores: every check, every phase, and a
stateful run that follows the document's links from a new game to its moves.

Bounded to seconds here; the long run (thousands of cases, the same settings) is
`python -m tests.service.fuzzing`, whose counts docs/reliability.md records.
"""

import collections
import re
from collections.abc import Iterator

import hypothesis
import pytest
import schemathesis
from hypothesis.errors import Flaky
from schemathesis.config import SchemathesisConfig

from tests.service.conftest import STORES
from tests.service.fuzzing import CONFIG, FUZZED_ENV, counts, schemathesis_run, summary_of
from tests.service.servers import Server, server
# Links after which the client keeps sending the token it used (see service/openapi.py:
# a link cannot name the Authorization header of the request it comes from).
SAME_SEAT_LINKS = {"PlayFirstLegalMove", "PlayNextLegalMove", "LegalMovesAfter",
                   "SuggestNext"}


@pytest.fixture(scope="module", params=sorted(STORES))
def fuzzed(request) -> Iterator[Server]:
    with server({**STORES[request.param], **FUZZED_ENV}) as running:
        yield running


def test_schemathesis_with_every_check_and_phase_finds_nothing(fuzzed):
    run = schemathesis_run(fuzzed.url, "--max-examples", "10", "--seed", "20261130")
    summary = summary_of(run)
    assert run.returncode == 0, run.stdout[-6000:]
    assert "❌" not in summary and "🚫" not in summary, summary
    for phase in ("Coverage", "Fuzzing", "Stateful"):  # Examples: none are in the document
        assert f"✅ {phase}" in summary, summary
    generated, passed = counts(summary)
    assert generated == passed > 200, summary


def test_stateful_fuzzing_follows_the_links_from_a_new_game_to_legal_moves(fuzzed):
    """A client that follows the links with its seat's token plays real moves, and every
    response on the way passes every check."""
    config = SchemathesisConfig.from_str(CONFIG.read_text() + '\n[generation]\nmode = "positive"\n')
    schema = schemathesis.openapi.from_url(f"{fuzzed.url}/schema/openapi.json", config=config)
    play = schema.include(path_regex=r"^/v1/games(/\{game_id\}/(legal-moves|moves))?$").exclude(
        method="GET", path="/v1/games")  # the waiting list: its links lead elsewhere
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
