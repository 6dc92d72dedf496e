"""The errors of webhooks' routes."""

from service.http.errors import ApiError


class WebhookRefused(ApiError):
    """A webhook URL this server will not call (its allow-list), or a webhook for a
    player that is not a bot; the message says why."""
    status = 422
    type = "webhook-refused"
    when = ", a webhook URL this server does not call (`webhook-refused`)"
    when_order = 45


class WebhookNotFound(ApiError):
    """The key's player has no webhook."""
    status = 404
    type = "webhook-not-found"
    when = ", the player has no webhook (`webhook-not-found`)"
    when_order = 75
