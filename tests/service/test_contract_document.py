"""The OpenAPI document is a contract a client can be generated from: valid OpenAPI 3.1,
every reference resolving, every error documented as problem+json, closed request bodies
and no response typed as a free-form object."""

from collections.abc import Iterator
from typing import Any

import pytest
from openapi_spec_validator import validate

import core
import core.ai

PROBLEM = "application/problem+json"
# What each game operation can answer (each domain's controller.py); a new status must be added here
# and to the document together.
STATUSES = {
    ("post", "/v1/games"): {"201", "400", "403", "413", "422", "429", "503"},
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


def test_the_metrics_are_no_route_of_the_api(document):
    """They are served on the operators' own port (docs/configuration.md), not to clients."""
    assert not [path for path in document["paths"] if "metrics" in path]


def test_seat_tokens_are_a_bearer_scheme_a_spectator_may_go_without(document):
    """A spectator's reads work without a token, a seat's actions answer 401 without one:
    OpenAPI cannot say the second, so every seat operation lists the token as optional."""
    assert document["components"]["securitySchemes"]["seatToken"] == {
        "type": "http", "scheme": "bearer", "description": document["components"][
            "securitySchemes"]["seatToken"]["description"]}
    paths = document["paths"]
    for path, method in (("/v1/games/{game_id}/moves", "post"), ("/v1/games/{game_id}", "get"),
                         ("/v1/games/{game_id}/suggest", "post")):
        assert paths[path][method]["security"] == [{}, {"seatToken": []}]
        assert "401" in paths[path][method]["responses"]


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


def test_the_create_response_links_the_seats_every_game_has_to_their_moves(document):
    links = document["paths"]["/v1/games"]["post"]["responses"]["201"]["links"]
    fewest = min(min(counts) for counts in core.PLAYERS.values())
    as_seat = {name for name in links if "AsSeat" in name}
    assert {name.rsplit("AsSeat", 1)[1] for name in as_seat} == {str(s) for s in range(fewest)}
    legal = links["LegalMovesAsSeat1"]
    assert legal["parameters"] == {"path.game_id": "$response.body#/id",
                                   "header.Authorization":
                                       "Bearer {$response.body#/seats/1/token}"}
    assert legal["operationId"] == \
        document["paths"]["/v1/games/{game_id}/legal-moves"]["get"]["operationId"]


def test_links_pass_the_seats_token_on_to_its_moves_and_suggestions(document):
    paths = document["paths"]
    play = paths["/v1/games/{game_id}/legal-moves"]["get"]["responses"]["200"][
        "links"]["PlayFirstLegalMove"]
    assert play["requestBody"]["move"] == "$response.body#/legal_moves/0"
    after_move = paths["/v1/games/{game_id}/moves"]["post"]["responses"]["200"]["links"]
    for link in (play, after_move["PlayNextLegalMove"], after_move["SuggestNext"]):
        assert link["parameters"]["header.Authorization"] == "$request.header.Authorization"
    for path, method in (("/v1/games/{game_id}/legal-moves", "get"),
                         ("/v1/games/{game_id}/moves", "post")):
        declared = {p["name"] for p in paths[path][method]["parameters"] if p["in"] == "header"}
        assert "Authorization" in declared  # a link may only name a declared header


def test_a_new_game_is_one_schema_per_game_and_player_count(document):
    schemas = document["components"]["schemas"]
    variants = [resolve(document, ref["$ref"]) for ref in schemas["CreateGame"]["oneOf"]]
    assert {(v["properties"]["game"]["const"], v["properties"]["players"]["const"])
            for v in variants} == {(game, n) for game in core.GAMES for n in core.PLAYERS[game]}
    for variant in variants:
        players = variant["properties"]["players"]["const"]
        seats = variant["properties"]["seats"]["anyOf"][0]
        assert seats["minItems"] == seats["maxItems"] == players
        options = variant["properties"]["options"]["anyOf"][0]
        assert set(options["properties"]) == set(core.OPTIONS[variant["properties"]["game"][
            "const"]])
        first = options["properties"]["first_player"]["anyOf"][0]
        assert first["maximum"] == players - 1


def test_budgets_are_exactly_one_kind_within_this_servers_caps(document):
    budget = document["components"]["schemas"]["Budget"]
    kinds = {}
    for ref in budget["oneOf"]:
        variant = resolve(document, ref["$ref"])
        (kind,) = variant["required"]
        kinds[kind] = variant["properties"][kind]
        assert all(variant["properties"][other] == {"type": "null"}
                   for other in ("level", "iterations", "time_ms") if other != kind)
    assert kinds["iterations"]["maximum"] == 20_000 and kinds["time_ms"]["maximum"] == 2_000
    assert kinds["level"]["maximum"] == max(core.ai.LEVELS)


def test_every_operation_that_needs_what_another_makes_is_the_target_of_a_link(document):
    """An id in the path, a seat's token or a player's key: some operation makes each, and
    a link from it says how to pass it on, so that a client (or a stateful fuzzer) that
    follows only the document reaches every operation with real data."""
    targets: dict[str, list[dict[str, Any]]] = {}
    for _, _, operation in operations(document):
        for response in operation["responses"].values():
            for link in response.get("links", {}).values():
                targets.setdefault(link["operationId"], []).append(link)
    for method, path, operation in operations(document):
        needs_id = "{" in path
        needs_key = {"playerKey": []} in operation.get("security", [])
        if not needs_id and not needs_key:
            continue
        found = targets.get(operation["operationId"], [])
        assert found, f"no link leads to {method.upper()} {path}"
        if needs_key:
            assert any("header.Authorization" in link["parameters"] for link in found), path


def test_no_link_reads_an_id_out_of_a_page_that_may_be_empty(document):
    for method, path, operation in operations(document):
        for response in operation["responses"].values():
            for name, link in response.get("links", {}).items():
                expressions = [*link["parameters"].values(),
                               *link.get("requestBody", {}).values()]
                paged = [e for e in expressions if isinstance(e, str) and "/games/0/" in e]
                assert not paged, (method, path, name)
