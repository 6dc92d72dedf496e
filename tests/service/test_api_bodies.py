"""Every request body a client can send gets a 4xx problem+json, never a 500, and changes
nothing: hostile nesting, huge numbers, invalid UTF-8, repeated keys, wrong top levels."""

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from service.http.decoding import MalformedBody, _check_shape
from tests.service.play import auth, create, tokens_of
from tests.service.test_api_errors import assert_problem, snapshot

DEEP = 5000  # the 10 KB body of the issue: 5,000 nested arrays

# name -> (body, problem type, words the detail says)
HOSTILE_BODIES = {  # as sent to POST /v1/games/{id}/moves, whose `move` is free-form JSON
    "5,000 nested arrays": (b"[" * DEEP + b"]" * DEEP, "invalid-request",
                            "Expected `object`, got `array`"),
    "5,000 nested arrays in the move": (b'{"move": {"a": ' + b"[" * DEEP + b"]" * DEEP + b"}}",
                                        "malformed-request", "nested more than 32"),
    "33 levels of objects": (b'{"move": ' + b'{"a":' * 32 + b"1" + b"}" * 32 + b"}",
                             "malformed-request", "nested more than 32"),
    "a 5,000-digit integer": (b'{"move": {"n": ' + b"9" * 5000 + b"}}", "invalid-request",
                              "Integer value out of range"),
    "a float beyond double": (b'{"move": {"n": 1e999}}', "invalid-request",
                              "Number out of range"),
    "NaN": (b'{"move": {}, "expected_version": NaN}', "malformed-request", "not valid JSON"),
    "invalid UTF-8": (b'{"move": {"type": "\xff\xfe"}}', "malformed-request", "UTF-8"),
    "a lone surrogate escape": (b'{"move": {"type": "\\ud800"}}', "malformed-request", ""),
    "a repeated key": (b'{"move": {"type": "pass"}, "move": {"type": "pass"}}',
                       "malformed-request", "key 'move' more than once"),
    "a repeated key in a nested object": (b'{"move": {"type": "pass", "type": "select"}}',
                                          "malformed-request", "key 'type' more than once"),
    "a repeated key, once spelled with an escape": (
        b'{"move": {"type": "pass", "\\u0074ype": "select"}}', "malformed-request",
        "key 'type' more than once"),
    "a repeated key whose first value holds colons": (
        b'{"move": {"type": "a:b:c", "type": "pass"}}', "malformed-request",
        "key 'type' more than once"),
    "a repeated key whose last value is an escaped colon": (  # as many colons decoded
        b'{"move": {"type": "pass", "type": "\\u003a"}}', "malformed-request",
        "key 'type' more than once"),
    "a repeated key, once with a space before its colon": (
        b'{"move": {"type": "pass", "type" : "select"}}', "malformed-request",
        "key 'type' more than once"),
    "trailing bytes": (b'{"move": {}} {}', "malformed-request", "trailing characters"),
    "a byte-order mark": (b'\xef\xbb\xbf{"move": {}}', "malformed-request", "not valid JSON"),
    "an empty body": (b"", "malformed-request", "body is empty"),
    "null": (b"null", "invalid-request", "Expected `object`, got `null`"),
    "a string": (b'"move"', "invalid-request", "Expected `object`, got `str`"),
    "a number": (b"42", "invalid-request", "Expected `object`, got `int`"),
    "an array": (b"[]", "invalid-request", "Expected `object`, got `array`"),
}


@pytest.fixture
def game(client):
    created = create(client, "cup-the-crab", 3, seed=4, options={"first_player": 0})
    return created, tokens_of(created), f"/v1/games/{created['id']}"


@pytest.mark.parametrize("name", HOSTILE_BODIES)
def test_a_hostile_body_is_a_400_problem_that_says_why_and_changes_nothing(client, game, name):
    body, problem_type, words = HOSTILE_BODIES[name]
    created, tokens, path = game
    before = snapshot(client, created)
    response = client.post(f"{path}/moves", content=body, headers={
        **auth(tokens[0]), "Content-Type": "application/json"})
    assert words in assert_problem(response, 400, problem_type)["detail"]
    for url in ("/v1/games", f"{path}/suggest"):  # other schemas: a 400 all the same
        response = client.post(url, content=body, headers={
            **auth(tokens[0]), "Content-Type": "application/json"})
        assert response.status_code == 400 and response.json()["detail"], response.text
    assert snapshot(client, created) == before


def test_a_move_nested_32_levels_deep_reaches_the_game(client, game):
    _, tokens, path = game
    nested: list = []
    for _ in range(29):                     # the body, the move and its 30 lists: 32 levels
        nested = [nested]
    response = client.post(f"{path}/moves", json={"move": {"type": nested}},
                           headers=auth(tokens[0]))
    assert "unknown move type" in assert_problem(response, 422, "illegal-move")["detail"]


def test_the_server_logs_no_traceback_for_hostile_bodies(api, client, game):
    _, tokens, path = game
    for body, _, _ in HOSTILE_BODIES.values():
        client.post(f"{path}/moves", content=body, headers=auth(tokens[0]))
    assert "Traceback" not in api.output() and "RecursionError" not in api.output()


class _Repeated(Exception):
    pass


def _refusing_repeats(pairs: list) -> dict:
    if len({key for key, _ in pairs}) != len(pairs):
        raise _Repeated
    return dict(pairs)


# JSON texts built to fool a count of colons: keys and strings with colons, escaped ones
# (\u003a is a colon, \u0061 an "a"), objects nested in arrays and objects.
_KEYS = st.sampled_from(["a", "b", "a:b", ":", "\\u003a", "\\u0061"])
_SCALARS = st.sampled_from(['1', '"x"', '":"', '"a:b:"', '"\\u003a"', 'null', '[]', '{}'])


def _objects(values: st.SearchStrategy) -> st.SearchStrategy:
    return st.lists(st.tuples(_KEYS, values), max_size=4).map(
        lambda pairs: "{" + ", ".join(f'"{key}": {value}' for key, value in pairs) + "}")


_VALUES = st.recursive(_SCALARS, lambda values: _objects(values) | st.lists(values, max_size=3)
                       .map(lambda items: "[" + ", ".join(items) + "]"), max_leaves=10)


@settings(max_examples=500, deadline=None)
@given(_objects(_VALUES))
def test_a_body_is_refused_for_a_repeated_key_exactly_when_an_object_repeats_one(text):
    body = text.encode()
    try:
        json.loads(body, object_pairs_hook=_refusing_repeats)
        repeats = False
    except _Repeated:
        repeats = True
    try:
        _check_shape(body)
        refused = False
    except MalformedBody:
        refused = True
    assert refused == repeats
