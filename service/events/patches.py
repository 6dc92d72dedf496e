"""What changed between two JSON documents, as a JSON Patch (RFC 6902), and applying one.

The delta events of an event stream (`?delta=true`) carry the viewer's game body as a
patch against the body of the version before. The patch is computed from two bodies
that were both already redacted for that viewer, so it says nothing that the viewer's
two whole bodies would not.

Only what the bodies need: objects are compared key by key, lists of equal length item
by item, anything else (a list that grew or shrank, a value of another type) is
replaced whole. Operations: `add`, `remove`, `replace`; paths are JSON Pointers (RFC
6901) into the game body.
"""

from typing import Any


def _pointer(path: str, key: str | int) -> str:
    if isinstance(key, int):
        return f"{path}/{key}"
    return f"{path}/{key.replace('~', '~0').replace('/', '~1')}"


def diff(before: Any, after: Any, path: str = "") -> list[dict[str, Any]]:
    """The operations that turn before into after."""
    ops: list[dict[str, Any]] = []
    _diff(before, after, path, ops)
    return ops


def _diff(before: Any, after: Any, path: str, ops: list[dict[str, Any]]) -> None:
    if before == after and type(before) is type(after):
        return
    if isinstance(before, dict) and isinstance(after, dict):
        for key, value in after.items():
            if key in before:
                _diff(before[key], value, _pointer(path, key), ops)
            else:
                ops.append({"op": "add", "path": _pointer(path, key), "value": value})
        for key in before:
            if key not in after:
                ops.append({"op": "remove", "path": _pointer(path, key)})
    elif isinstance(before, list) and isinstance(after, list) and len(before) == len(after):
        for index, (old, new) in enumerate(zip(before, after)):
            _diff(old, new, _pointer(path, index), ops)
    else:
        ops.append({"op": "replace", "path": path, "value": after})


def _unescape(token: str) -> str:
    return token.replace("~1", "/").replace("~0", "~")


def apply(document: Any, ops: list[dict[str, Any]]) -> Any:
    """document with ops applied (in place where it can be; the result is returned)."""
    for op in ops:
        tokens = [_unescape(token) for token in op["path"].split("/")[1:]]
        if not tokens:
            document = op["value"]
            continue
        parent = document
        for token in tokens[:-1]:
            parent = parent[int(token)] if isinstance(parent, list) else parent[token]
        last: str | int = int(tokens[-1]) if isinstance(parent, list) else tokens[-1]
        if op["op"] == "remove":
            del parent[last]
        elif op["op"] == "add" and isinstance(parent, list):
            parent.insert(last, op["value"])
        else:
            parent[last] = op["value"]
    return document
