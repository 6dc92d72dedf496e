"""Request bodies are decoded here, so that no body a client can send gets past as a 500.

Litestar decodes a JSON body with msgspec before the schema is applied.  msgspec already
refuses invalid UTF-8, NaN, numbers beyond 64 bits, trailing bytes and lone surrogates
(Litestar turns that into a 400), but two things got through: a deeply nested body
raised RecursionError (a 500), and a repeated key silently kept its last value.  This
request class adds both checks to `Request.json()`, the one place every JSON body is
decoded; a refusal is a ClientException (400, problem+json "malformed-request").

No body of this API nests deeper than 4 levels, so MAX_DEPTH leaves room and still
keeps any decoded value small enough to walk, store and encode without recursion trouble.
"""

import json
from typing import Any

from litestar import Request
from litestar.exceptions import ClientException

MAX_DEPTH = 32


def _depth(value: Any) -> int:
    """How deeply arrays and objects nest in value (a scalar is 0), without recursion."""
    deepest, pending = 0, [(value, 0)]
    while pending:
        item, depth = pending.pop()
        if isinstance(item, (dict, list)):
            depth += 1
            deepest = max(deepest, depth)
            children = item.values() if isinstance(item, dict) else item
            pending.extend((child, depth) for child in children)
    return deepest


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    obj = dict(pairs)
    if len(obj) != len(pairs):
        seen: set[str] = set()
        repeated = next(key for key, _ in pairs if key in seen or seen.add(key))
        raise ClientException(f"JSON object has the key {repeated!r} more than once;"
                              " each key may appear only once")
    return obj


def check_body(body: bytes, value: Any) -> None:
    """Raises ClientException if value, decoded from body, nests too deep or repeats a key."""
    if body.count(b"[") + body.count(b"{") > MAX_DEPTH and _depth(value) > MAX_DEPTH:
        raise ClientException(f"JSON nests more than {MAX_DEPTH} levels deep")
    if body.count(b":") > 1:  # a repeated key needs two of them
        json.loads(body, object_pairs_hook=_unique_keys)


class CheckedJsonRequest(Request):
    """A Litestar request whose JSON body is checked for depth and repeated keys."""

    async def json(self) -> Any:
        try:
            value = await super().json()
        except RecursionError:  # nested beyond the interpreter's limit, hence beyond ours
            raise ClientException(f"JSON nests more than {MAX_DEPTH} levels deep") from None
        check_body(await self.body(), value)
        return value
