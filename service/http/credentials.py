"""The secrets a client holds (a seat's token, a player's key): how they are made, how the
server keeps them (their SHA-256 only), and how a request carries them."""

import hashlib
import secrets

from litestar.types import Scope

from service.http.headers import first_header


class NotBearer(ValueError):
    """An Authorization header that is not `Bearer <secret>`."""


def new_secret() -> str:
    """A new unguessable secret (256 bits, URL-safe)."""
    return secrets.token_urlsafe(32)


def secret_hash(secret: str) -> str:
    """What the server keeps of a secret: its SHA-256, in hex."""
    return hashlib.sha256(secret.encode()).hexdigest()


def bearer(scope: Scope) -> str | None:
    """The secret of the request's `Authorization: Bearer <secret>` header; None without
    the header, NotBearer if it is there but says something else."""
    header = first_header(scope, b"authorization")
    if header is None:
        return None
    scheme, _, secret = header.partition(" ")
    if scheme.lower() != "bearer" or not secret.strip():
        raise NotBearer("the Authorization header must be 'Bearer <secret>'")
    return secret.strip()
