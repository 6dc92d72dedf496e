"""Request bodies decoded strictly, straight from the bytes into the handler's struct.

Litestar decodes JSON into Python objects, then converts them to the handler's `data` type
in msgspec's lax mode (where `"2"` is 2). The API promises strict decoding, so this request
class decodes the body once with msgspec in strict mode into that type; Litestar's
conversion then receives the finished struct and passes it through unchanged.

Strict is about types, not about how a number is spelled: JSON has one number type, and
JSON Schema (hence the OpenAPI document) counts `2.0` as the integer 2. msgspec refuses a
float where an int is declared, so a body it refuses is decoded once more with integral
numbers read as ints; only bodies that were going to be refused pay for that.

Two more refusals keep every body a client can send a 4xx (docs/reliability.md): JSON
nested deeper than MAX_DEPTH (no body of this API nests beyond 4 levels; the free-form
fields, a move or options, could otherwise carry thousands), and an object with a repeated
key, refused rather than read last-wins, so that no two parsers read one body differently.
"""

import json
import math
from decimal import Decimal
from typing import Any
from urllib.parse import parse_qsl

import msgspec
from litestar import Request
from litestar.exceptions import ClientException, ValidationException
from litestar.types import Empty

MAX_DEPTH = 32


class MalformedBody(ClientException):
    """A body that is not JSON, or is nested too deeply to be any request of this API."""


def _depth(body: bytes) -> int:
    """How deeply arrays and objects nest in a valid JSON body (brackets inside strings
    are skipped), without recursion."""
    depth = deepest = 0
    in_string = escaped = False
    for byte in body:
        if in_string:
            if escaped:
                escaped = False
            elif byte == 0x5C:            # backslash
                escaped = True
            elif byte == 0x22:            # closing quote
                in_string = False
        elif byte == 0x22:
            in_string = True
        elif byte in b"[{":
            depth += 1
            deepest = max(deepest, depth)
        elif byte in b"]}":
            depth -= 1
    return deepest


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    obj = dict(pairs)
    if len(obj) != len(pairs):
        seen: set[str] = set()
        repeated = next(key for key, _ in pairs if key in seen or seen.add(key))
        raise MalformedBody(f"a JSON object in the request body has the key {repeated!r}"
                            " more than once; each key may appear only once")
    return obj


def _integral_as_int(literal: str) -> int | float:
    """A JSON number with a fraction or exponent: an int if it is a whole number.

    Only numbers a double can hold are considered, so `1e999999999` stays a float (and is
    refused) instead of becoming an int of a billion digits."""
    approximate = float(literal)
    if math.isfinite(approximate):
        exact = Decimal(literal)
        if exact == exact.to_integral_value():
            return int(exact)
    return approximate


_NUMBERS_AS_SCHEMA_READS_THEM = msgspec.json.Decoder(float_hook=_integral_as_int)


def _colons(value: Any) -> int:
    """The colons a JSON text of value has: one per key of every object, and those inside
    its strings."""
    if isinstance(value, str):
        return value.count(":")
    if isinstance(value, dict):
        return sum(1 + key.count(":") + _colons(item) for key, item in value.items())
    if isinstance(value, list):
        return sum(_colons(item) for item in value)
    return 0


def _may_repeat_a_key(body: bytes) -> bool:
    """False only if no object of the (valid) JSON body repeats a key. A body's colons are
    its objects' pairs and the colons inside its strings; decoded, a repeated key's
    earlier pairs are gone (the last wins), so the decoded value has fewer. Exact unless
    a string escapes a character (\\u003a is a colon the text does not show): then the
    full check. A sixth of the cost of parsing with a hook for every object."""
    if b"\\u" in body:
        return True
    try:
        return _colons(msgspec.json.decode(body)) != body.count(b":")
    except msgspec.MsgspecError:  # a number msgspec reads only with a hook: the full check
        return True


def _check_shape(body: bytes) -> None:
    """MalformedBody if a JSON body nests too deeply or repeats a key in an object."""
    if body.count(b"[") + body.count(b"{") > MAX_DEPTH and _depth(body) > MAX_DEPTH:
        raise MalformedBody(f"the request body is nested more than {MAX_DEPTH} levels deep")
    if body.count(b":") > 1 and _may_repeat_a_key(body):  # a repeat needs two colons
        try:
            json.loads(body, object_pairs_hook=_unique_keys)
        except (ValueError, RecursionError) as error:  # msgspec read it: not expected
            raise MalformedBody(f"the request body is not valid JSON: {error}") from None


class StrictRequest(Request):
    async def json(self) -> Any:
        if self._json is Empty:
            self._json = self._decode(await self.body())
        return self._json

    def _decode(self, body: bytes) -> Any:
        field = self.route_handler.parsed_data_field
        if field is None:
            raise MalformedBody("this operation takes no request body")
        if not body:
            raise MalformedBody("the request body is empty: send a JSON object")
        try:
            try:
                value = msgspec.json.decode(body, type=field.annotation, strict=True)
            except msgspec.ValidationError as refused:
                if "got `float`" not in str(refused):  # only a float where an int is due
                    raise
                plain = _NUMBERS_AS_SCHEMA_READS_THEM.decode(body)
                value = msgspec.convert(plain, field.annotation, strict=True)
        except msgspec.ValidationError as error:
            raise ValidationException(extra=[{"message": str(error)}]) from None
        except msgspec.DecodeError as error:
            raise MalformedBody(f"the request body is not valid JSON: {error}") from None
        except RecursionError:
            raise MalformedBody(f"the request body is nested more than {MAX_DEPTH} levels"
                                " deep") from None
        _check_shape(body)
        return value


async def refuse_repeated_parameters(request: Request) -> None:
    """A query parameter given twice is refused (400), as a repeated key in a body is: no
    parameter of this API is a list, and reading one of the two would be a guess.

    A coroutine because Litestar runs a plain function given as before_request in a worker
    thread: that hand-off made every request 95 us slower (loadtests/asgi_bench.py)."""
    query = request.scope.get("query_string", b"")
    if b"&" not in query:
        return
    seen: set[str] = set()
    for key, _ in parse_qsl(query.decode("latin-1"), keep_blank_values=True):
        if key in seen:
            raise ValidationException(extra=[{"message": f"the query parameter {key!r} is"
                                                         " given more than once", "key": key,
                                               "source": "query"}])
        seen.add(key)
