"""Bodies of webhooks: registering one, what is shown of it, rotating its secret."""

from typing import Annotated, Literal

import msgspec

from service.webhooks.destinations import MAX_URL

# An http:// or https:// URL of printable ASCII without spaces (a class that JSON Schema's
# regexes and Python's read alike); whether this server calls it is its allow-list's to say
# (422 webhook-refused with the reason).
WebhookUrl = Annotated[str, msgspec.Meta(min_length=8, max_length=MAX_URL,
                                         pattern=r"^[hH][tT][tT][pP][sS]?://[!-~]+$")]


# Why a webhook seat's decision fell to its clock's policy (docs/arena.md, "Webhook bots"):
# the `webhook` of its history entry, and a label of the metrics.
WebhookFailure = Literal["refused", "unreachable", "redirect", "status", "too-large",
                         "malformed", "late", "busy", "illegal", "no-webhook"]


class WebhookSpec(msgspec.Struct, forbid_unknown_fields=True):
    """A bot's webhook: the URL the server POSTs each of its seats' decisions to
    (POST /v1/players with `webhook`, PUT /v1/players/me/webhook)."""
    url: WebhookUrl


class SecretRotation(msgspec.Struct, forbid_unknown_fields=True):
    """POST /v1/players/me/webhook/secret: a new secret; the previous one signs too for
    `previous_valid_seconds` (0: stops at once), time to deploy the new one."""
    previous_valid_seconds: Annotated[int, msgspec.Meta(ge=0, le=86_400)] = 3600


class WebhookBody(msgspec.Struct, kw_only=True):
    """A bot's webhook. `secret` (crab_whsec_...) is shown once, in the answer that made
    it (the webhook's registration or a rotation), null in every other; the calls are
    signed with it (docs/arena.md, "Webhook bots")."""
    url: str
    secret: str | None
    previous_secret_until: str | None   # the previous secret signs too until then
    updated_at: str
