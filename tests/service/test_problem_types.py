"""Each error says, in its class, its status, its problem type, its words in the
document's description of that status and the client's sentence for it
(service/http/errors.py); the document and the client are made from the classes."""

import subprocess
import sys

import pytest

from service.app import create_app
from service.http.openapi import PROBLEM_JSON
from service.http.problem_types import (
    ERROR_MODULES,
    SENTENCES_JS,
    description,
    errors,
    sentences_js,
)

DESCRIBED = [error for error in errors() if "when" in vars(error)]


@pytest.fixture(scope="module")
def document() -> dict:
    return create_app().openapi_schema.to_schema()


def test_every_error_response_of_the_document_is_described_by_the_errors_of_its_status(
        document):
    checked = set()
    for operations in document["paths"].values():
        for operation in operations.values():
            for status, response in operation.get("responses", {}).items():
                if PROBLEM_JSON in response.get("content", {}):
                    assert response["description"] == description(int(status)), status
                    checked.add(int(status))
    assert {400, 401, 403, 404, 409, 413, 422, 429, 503} <= checked


def test_a_status_is_described_by_its_errors_fragments_in_their_order():
    assert description(403) == (
        "The player key given opens no player (`unknown-player`), or the key's player may"
        " not do this: stop another player's series (`not-series-owner`) or seat another"
        " person's player in a series (`forbidden-contestant`)")


def test_no_two_fragments_of_a_status_claim_the_same_place():
    places = [(error.status, error.when_order) for error in DESCRIBED]
    assert len(places) == len(set(places)), sorted(places)


def test_the_description_of_a_status_names_every_type_it_describes():
    for error in DESCRIBED:
        assert f"`{error.type}`" in description(error.status), error.__name__


def test_errors_of_one_type_agree_on_its_status_and_sentence():
    by_type: dict[str, list] = {}
    for error in errors():
        by_type.setdefault(error.type, []).append(error)
    for slug, same in by_type.items():
        assert len({getattr(error, "status", None) for error in same}) == 1, slug
        assert len({error.sentence for error in same} - {None}) <= 1, slug


def test_the_clients_sentences_are_the_ones_the_errors_give():
    assert SENTENCES_JS.read_text() == sentences_js(), \
        "stale: python -m service.http.problem_types --js"


def test_the_clients_sentences_are_said_per_type_in_english():
    js = sentences_js()
    assert '"seat-taken": "This seat has just been taken.",' in js
    assert '"ticket-not-found"' not in js  # no sentence: the client shows the detail


def test_every_module_that_defines_an_error_is_read_before_the_document_is_made():
    create_app()  # imports every module the app answers from
    assert {error.__module__ for error in errors()} <= \
        {module.__name__ for module in ERROR_MODULES}


def test_the_error_base_imports_no_domain():
    loaded = subprocess.run(
        [sys.executable, "-c", "import sys, service.http.errors; print(*sorted(sys.modules))"],
        capture_output=True, text=True, check=True).stdout.split()
    assert [name for name in loaded if name.startswith("service")] == \
        ["service", "service.http", "service.http.errors"]
