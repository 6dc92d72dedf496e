"""The signature of a webhook call, which the bot checks before it trusts the body.

    Crab-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>." + raw body)>

One `v1=` per secret in force: the current one, and after a rotation the previous one
until it lapses, so a bot updated a little after the rotation still checks every call.
A bot recomputes the HMAC over the raw bytes it received, compares in constant time with
any `v1=`, and refuses a `t` more than 5 minutes from its clock (a replayed call).
"""

import hashlib
import hmac

HEADER = "Crab-Signature"
SECRET_PREFIX = "crab_whsec_"   # so a webhook's secret is told at a glance (and by scanners)
TOLERANCE_SECONDS = 300


def signature(secret: str, timestamp: int, body: bytes) -> str:
    return hmac.new(secret.encode(), b"%d." % timestamp + body, hashlib.sha256).hexdigest()


def header(secrets: list[str], timestamp: int, body: bytes) -> str:
    return ",".join([f"t={timestamp}", *(f"v1={signature(secret, timestamp, body)}"
                                         for secret in secrets)])


def verify(secret: str, value: str, body: bytes, now: float) -> bool:
    """Whether the header value signs body with secret, at a time within the tolerance."""
    fields = [item.partition("=") for item in value.split(",")]
    stamps = [v for k, _, v in fields if k == "t"]
    if len(stamps) != 1 or not stamps[0].isdigit():
        return False
    timestamp = int(stamps[0])
    if abs(now - timestamp) > TOLERANCE_SECONDS:
        return False
    expected = signature(secret, timestamp, body)
    return any(hmac.compare_digest(expected, v) for k, _, v in fields if k == "v1")
