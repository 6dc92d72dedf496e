"""A request header read straight from the ASGI scope.

Litestar's `request.headers` builds a case-insensitive multidict of every header the first
time it is read; the game endpoints read one or two, so they scan the scope's list, whose
names the server has already lowercased (ASGI).
"""

from litestar.types import Scope


def first_header(scope: Scope, name: bytes) -> str | None:
    """The first value of the header called name (lowercase), as Litestar reads it."""
    for key, value in scope["headers"]:
        if key == name:
            return value.decode("latin-1")
    return None
