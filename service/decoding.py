"""Request bodies decoded strictly, straight from the bytes into the handler's struct.

Litestar decodes JSON into Python objects, then converts them to the handler's `data` type
in msgspec's lax mode (where `"2"` is 2). The API promises strict decoding, so this request
class decodes the body once with msgspec in strict mode into that type; Litestar's
conversion then receives the finished struct and passes it through unchanged.

Two more refusals keep every body a client can send a 4xx (docs/reliability.md): JSON
nested deeper than MAX_DEPTH (no body of this API nests beyond 4 levels; the free-form
fields, a move or options, could otherwise carry thousands), and an object with a repeated
key, refused rather than read last-wins, so that no two parsers read one body differently.
"""

import json
from typing import Any

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


def _check_shape(body: bytes) -> None:
    """MalformedBody if a JSON body nests too deeply or repeats a key in an object."""
    if body.count(b"[") + body.count(b"{") > MAX_DEPTH and _depth(body) > MAX_DEPTH:
        raise MalformedBody(f"the request body is nested more than {MAX_DEPTH} levels deep")
    if body.count(b":") > 1:  # a repeated key needs two of them
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
            value = msgspec.json.decode(body, type=field.annotation, strict=True)
        except msgspec.ValidationError as error:
            raise ValidationException(extra=[{"message": str(error)}]) from None
        except msgspec.DecodeError as error:
            raise MalformedBody(f"the request body is not valid JSON: {error}") from None
        except RecursionError:
            raise MalformedBody(f"the request body is nested more than {MAX_DEPTH} levels"
                                " deep") from None
        _check_shape(body)
        return value
