"""Webhooks' parts: the book of bots' webhooks in the SQL database, the outbound caller
within the operator's limits, the driver that asks a bot each decision of its seats (the
games' robots take it), and the routes that register a webhook."""

from dataclasses import dataclass

from service.config import Settings
from service.parts import Part, Provided
from service.sql.database import Database
from service.store import Documents
from service.webhooks.caller import Caller
from service.webhooks.controller import WebhookController
from service.webhooks.destinations import Destinations
from service.webhooks.driver import WebhookDriver
from service.webhooks.registry import WebhookRegistry
from service.webhooks.storage import WebhookBook


@dataclass(frozen=True)
class WebhookParts:
    registry: WebhookRegistry
    driver: WebhookDriver

    @staticmethod
    def build(settings: Settings, store: Documents, database: Database) -> "WebhookParts":
        book, destinations = WebhookBook(database), Destinations.of(settings)
        caller = Caller(destinations, settings.webhook_timeout_ms, settings.webhook_max_bytes,
                        settings.webhook_max_concurrent)
        return WebhookParts(WebhookRegistry(book, destinations),
                            WebhookDriver(book, caller, store))

    def part(self) -> Part:
        return Part(routes=[WebhookController],
                    provides={"webhooks": Provided(self.registry, after="players")})

    def caller_part(self) -> Part:
        """The caller's connections, closed after everything that may call (the app
        stops its parts in reverse: this one goes first in the list)."""
        return Part(stop=[self.driver.caller.close])
