"""Registering webhooks: each URL checked against the allow-list before it is kept, for
bots only; the secret shown once."""

from typing import Any

from service.webhooks.destinations import Destinations, Refused
from service.webhooks.errors import WebhookNotFound, WebhookRefused
from service.webhooks.storage import Webhook, WebhookBook, new_row


class WebhookRegistry:
    def __init__(self, book: WebhookBook, destinations: Destinations) -> None:
        self.book = book
        self.destinations = destinations

    async def checked(self, url: str, kind: str) -> str:
        """url if a player of kind may have it as its webhook: its form, its host's name
        and every address that name resolves to now; WebhookRefused otherwise. The
        addresses are checked again at every call: a name's may change."""
        if kind != "bot":
            raise WebhookRefused(f"a webhook plays a bot's seats: this player is a {kind}"
                                 " (POST /v1/players with kind bot)")
        try:
            destination = self.destinations.checked_url(url)
            await self.destinations.resolve(destination.host, destination.port)
        except Refused as refused:
            raise WebhookRefused(str(refused)) from None
        return destination.url

    def new_row(self, player_id: str, url: str) -> tuple[dict[str, Any], str]:
        """A new webhook's row (for the player's creation, in its transaction), its secret."""
        return new_row(player_id, url)

    async def put(self, player_id: str, kind: str, url: str) -> tuple[Webhook, str | None]:
        return await self.book.put(player_id, await self.checked(url, kind))

    async def get(self, player_id: str) -> Webhook:
        found = await self.book.get(player_id)
        if found is None:
            raise WebhookNotFound("this player has no webhook (PUT /v1/players/me/webhook)")
        return found

    async def rotate(self, player_id: str, previous_for_ms: int) -> tuple[Webhook, str]:
        rotated = await self.book.rotate(player_id, previous_for_ms)
        if rotated is None:
            raise WebhookNotFound("this player has no webhook (PUT /v1/players/me/webhook)")
        return rotated

    async def delete(self, player_id: str) -> None:
        if not await self.book.delete(player_id):
            raise WebhookNotFound("this player has no webhook")
