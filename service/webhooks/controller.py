"""/v1/players/me/webhook: a bot's webhook, set, read, removed, its secret rotated."""

from litestar import Controller, HttpMethod, Response, delete, get, post, put, route

from service.http.instants import iso_ms
from service.http.openapi import problems
from service.players.storage import Player
from service.webhooks.bodies import SecretRotation, WebhookBody, WebhookSpec
from service.webhooks.registry import WebhookRegistry
from service.webhooks.storage import Webhook


def webhook_body(webhook: Webhook, secret: str | None = None) -> WebhookBody:
    return WebhookBody(url=webhook.url, secret=secret,
                       previous_secret_until=iso_ms(webhook.previous_until_ms)
                       if webhook.previous_secret is not None else None,
                       updated_at=iso_ms(webhook.updated_ms) or "")


class WebhookController(Controller):
    path = "/v1/players/me/webhook"
    tags = ["arena"]

    @route("/", http_method=HttpMethod.OPTIONS, include_in_schema=False, sync_to_thread=False)
    def allowed(self) -> Response[None]:
        """What the webhook allows. Litestar's own OPTIONS answer is made with the route's
        first handler and lists only its method, though all three are served."""
        return Response(None, status_code=204,
                        headers={"Allow": "DELETE, GET, HEAD, OPTIONS, PUT"})

    @get("/", responses=problems(401, 404, 503),
         summary="The key's bot's webhook (its secret is never shown again)")
    async def show(self, me: Player, webhooks: WebhookRegistry) -> WebhookBody:
        return webhook_body(await webhooks.get(me.id))

    @put("/", responses=problems(400, 401, 413, 422, 503),
         summary="Set the key's bot's webhook URL; a new webhook's secret is shown this once")
    async def set(self, data: WebhookSpec, me: Player, webhooks: WebhookRegistry) -> WebhookBody:
        webhook, secret = await webhooks.put(me.id, me.kind, data.url)
        return webhook_body(webhook, secret)

    @delete("/", status_code=204, responses=problems(401, 404, 503),
            summary="Remove the key's bot's webhook: its seats in games made since are its own")
    async def remove(self, me: Player, webhooks: WebhookRegistry) -> None:
        await webhooks.delete(me.id)

    @post("/secret", status_code=200, responses=problems(400, 401, 404, 413, 503),
          summary="A new signing secret, shown this once; the previous one signs a while too")
    async def rotate(self, data: SecretRotation, me: Player,
                     webhooks: WebhookRegistry) -> WebhookBody:
        webhook, secret = await webhooks.rotate(me.id, data.previous_valid_seconds * 1000)
        return webhook_body(webhook, secret)
