"""Conditional reads: an ETag per version and viewer, and 304 for a client that has it.

A game's representation for one viewer changes only with its version, so the pair names
it; a polling client that sends `If-None-Match` costs one store round trip and no JSON.
"""

from litestar import Request, Response

from service.http.headers import first_header


def etag(version: int, seat: int | None) -> str:
    return f'"{version}.{"s" if seat is None else seat}"'


def is_current(request: Request, tag: str) -> bool:
    """True if the request's If-None-Match names tag (or `*`)."""
    header = first_header(request.scope, b"if-none-match")
    if header is None:
        return False
    names = [name.strip().removeprefix("W/") for name in header.split(",")]
    return "*" in names or tag in names


def cache_headers(tag: str) -> dict[str, str]:
    # private: the body depends on the Authorization header, which shared caches must not
    # mix up; no-cache: revalidate every time (the 304 makes that cheap).
    return {"ETag": tag, "Cache-Control": "private, no-cache", "Vary": "Authorization"}


def not_modified(tag: str) -> Response[None]:
    return Response(None, status_code=304, headers=cache_headers(tag))
