"""The OpenAPI document is a contract a client can be generated from: valid OpenAPI 3.1,
every reference resolving, every error documented as problem+json, closed request bodies
and no response typed as a free-form object."""

from collections.abc import Iterator
from typing import Any

import pytest
from openapi_spec_validator import validate

PROBLEM = "application/problem+json"
# What each game operation can answer (service/controllers); a new status must be added here
# and to the document together.
STATUSES = {
    ("post", "/v1/games"): {"201", "400", "413", "422", "429", "503"},
    ("get", "/v1/games/{game_id}"): {"200", "304", "401", "404", "503"},
    ("get", "/v1/games/{game_id}/legal-moves"): {"200", "304", "401", "404", "503"},
    ("get", "/v1/games/{game_id}/history"): {"200", "304", "401", "404", "503"},
    ("post", "/v1/games/{game_id}/moves"): {"200", "400", "401", "404", "409", "413", "422",
                                            "429", "503"},
    ("post", "/v1/games/{game_id}/suggest"): {"200", "400", "401", "404", "409", "413",
                                              "422", "429", "503"},
    ("get", "/ready"): {"200", "503"},
}


@pytest.fixture(scope="module")
def document(api) -> dict[str, Any]:
    import httpx
    return httpx.get(f"{api.url}/schema/openapi.json").json()


def operations(document) -> Iterator[tuple[str, str, dict[str, Any]]]:
    for path, methods in document["paths"].items():
        for method, operation in methods.items():
            yield method, path, operation


def resolve(document, ref: str) -> Any:
    assert ref.startswith("#/"), ref
    node = document
    for part in ref[2:].split("/"):
        node = node[part.replace("~1", "/").replace("~0", "~")]
    return node


def walk(node, path="$") -> Iterator[tuple[str, dict[str, Any]]]:
    """Every JSON object in node, with where it is."""
    if isinstance(node, dict):
        yield path, node
        for key, value in node.items():
            yield from walk(value, f"{path}/{key}")
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from walk(value, f"{path}/{index}")


def schemas_reachable(document, schema) -> Iterator[tuple[str, dict[str, Any]]]:
    """Every subschema of schema, following $refs (each referenced schema once)."""
    seen: set[str] = set()
    pending = [("$", schema)]
    while pending:
        where, node = pending.pop()
        for path, found in walk(node, where):
            yield path, found
            ref = found.get("$ref")
            if isinstance(ref, str) and ref not in seen:
                seen.add(ref)
                pending.append((ref, resolve(document, ref)))


def is_typed_map(schema) -> bool:
    """A genuine map (card -> copies): every value has a type of its own."""
    values = schema.get("additionalProperties")
    return isinstance(values, dict) and bool(values) and "properties" not in schema


def test_the_document_is_valid_openapi_3_1(document):
    assert document["openapi"].startswith("3.1")
    validate(document)


def test_every_reference_resolves(document):
    refs = [node["$ref"] for _, node in walk(document) if isinstance(node.get("$ref"), str)]
    assert len(refs) > 50
    for ref in refs:
        assert isinstance(resolve(document, ref), dict), ref


def test_every_game_operation_lists_each_status_it_can_answer(document):
    listed = {(method, path): set(operation["responses"])
              for method, path, operation in operations(document)}
    for key, statuses in STATUSES.items():
        assert listed[key] == statuses, key


def test_generic_statuses_are_listed_wherever_they_can_happen(document):
    for method, path, operation in operations(document):
        responses = operation["responses"]
        if "requestBody" in operation:
            assert {"400", "413"} <= set(responses), (method, path)
        if "{game_id}" in path:
            assert "404" in responses, (method, path)
        if operation.get("security"):
            assert "401" in responses, (method, path)
        if "401" in responses:  # a token is taken: the document says which scheme
            assert operation.get("security"), (method, path)


def test_every_error_is_documented_as_problem_json_with_the_problem_schema(document):
    errors = 0
    for method, path, operation in operations(document):
        for status, response in operation["responses"].items():
            if int(status) >= 400:
                errors += 1
                assert set(response.get("content", {})) == {PROBLEM}, (method, path, status)
                assert response["content"][PROBLEM]["schema"] == {
                    "$ref": "#/components/schemas/Problem"}
                assert response["description"], (method, path, status)
    assert errors >= 25
    problem = document["components"]["schemas"]["Problem"]["properties"]
    assert {"type", "title", "status", "detail", "instance", "legal_moves",
            "current_version"} <= set(problem)


def test_not_modified_has_no_body(document):
    for method, path, operation in operations(document):
        if "304" in operation["responses"]:
            assert "content" not in operation["responses"]["304"], path


def test_metrics_are_documented_as_prometheus_text(document):
    content = document["paths"]["/metrics"]["get"]["responses"]["200"]["content"]
    assert [media.split(";")[0] for media in content] == ["text/plain"]


def test_seat_tokens_are_a_bearer_scheme_required_for_moves_optional_for_reads(document):
    assert document["components"]["securitySchemes"]["seatToken"] == {
        "type": "http", "scheme": "bearer", "description": document["components"][
            "securitySchemes"]["seatToken"]["description"]}
    paths = document["paths"]
    assert paths["/v1/games/{game_id}/moves"]["post"]["security"] == [{"seatToken": []}]
    assert paths["/v1/games/{game_id}"]["get"]["security"] == [{}, {"seatToken": []}]


def test_request_bodies_are_closed_objects(document):
    bodies = 0
    for method, path, operation in operations(document):
        if "requestBody" not in operation:
            continue
        schema = operation["requestBody"]["content"]["application/json"]["schema"]
        for where, node in schemas_reachable(document, schema):
            if node.get("type") == "object" and not is_typed_map(node):
                bodies += 1
                assert node.get("additionalProperties") is False, (method, path, where)
    assert bodies >= 10  # the create, move and budget bodies, their options and every move


def test_no_response_schema_is_a_free_form_object(document):
    checked = 0
    for method, path, operation in operations(document):
        for status, response in operation["responses"].items():
            for media, content in response.get("content", {}).items():
                for where, node in schemas_reachable(document, content["schema"]):
                    checked += 1
                    assert node != {}, (method, path, status, where)  # an untyped value
                    if node.get("type") == "object":
                        assert "properties" in node or is_typed_map(node), (path, where)
                    assert node.get("additionalProperties") not in (True, {}), (path, where)
                    if node.get("type") == "array":
                        assert node.get("items") not in (None, {}, True), (path, where)
    assert checked > 500


def test_the_create_response_links_each_seat_token_to_the_game_reads(document):
    links = document["paths"]["/v1/games"]["post"]["responses"]["201"]["links"]
    read = links["ReadAsSeat1"]
    assert read["parameters"] == {"path.game_id": "$response.body#/id",
                                  "header.Authorization":
                                      "Bearer {$response.body#/seats/1/token}"}
    assert read["operationId"] == document["paths"]["/v1/games/{game_id}"]["get"]["operationId"]
    play = document["paths"]["/v1/games/{game_id}/legal-moves"]["get"]["responses"]["200"][
        "links"]["PlayFirstLegalMove"]
    assert play["requestBody"]["move"] == "$response.body#/legal_moves/0"
