"""Bots' webhooks in the SQL database: the URL and the signing secrets of each.

The secret is made by the server and shown once, in the answer that made it (registering
the webhook, or rotating its secret); no other answer or log line shows it.
"""

import secrets as random
import time
from dataclasses import dataclass
from typing import Any

from sqlalchemy import delete, select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from service.sql.database import Database, insert
from service.sql.schema import webhooks
from service.webhooks.signing import SECRET_PREFIX


def new_webhook_secret() -> str:
    return SECRET_PREFIX + random.token_urlsafe(32)


def now_ms() -> int:
    return int(time.time() * 1000)


@dataclass(frozen=True)
class Webhook:
    player_id: str
    url: str
    secret: str
    previous_secret: str | None
    previous_until_ms: int | None
    updated_ms: int

    def secrets(self, at_ms: int) -> list[str]:
        """The secrets that sign a call made at at_ms: the current one, and the previous
        one while it is in force."""
        previous = self.previous_secret is not None and self.previous_until_ms is not None \
            and at_ms < self.previous_until_ms
        return [self.secret, self.previous_secret] if previous else [self.secret]  # type: ignore[list-item]


def new_row(player_id: str, url: str) -> tuple[dict[str, Any], str]:
    """A webhook's row and its new secret."""
    secret = new_webhook_secret()
    return {"player_id": player_id, "url": url, "secret": secret, "previous_secret": None,
            "previous_until_ms": None, "updated_ms": now_ms()}, secret


class WebhookBook:
    def __init__(self, database: Database) -> None:
        self.database = database

    async def get(self, player_id: str) -> Webhook | None:
        async def run(conn: AsyncConnection) -> Any:
            return (await conn.execute(select(webhooks).where(
                webhooks.c.player_id == player_id))).first()

        row = await self.database.run(run)
        return None if row is None else Webhook(**row._mapping)

    async def put(self, player_id: str, url: str) -> tuple[Webhook, str | None]:
        """Sets the player's webhook URL: the webhook, and its secret if this made it
        (a webhook that existed keeps its secrets)."""
        row, secret = new_row(player_id, url)

        async def run(conn: AsyncConnection) -> bool:
            async with conn.begin():
                made = await conn.execute(insert(conn.dialect.name, webhooks)
                                          .values(**row).on_conflict_do_nothing())
                if made.rowcount:
                    return True
                await conn.execute(update(webhooks).where(webhooks.c.player_id == player_id)
                                   .values(url=url, updated_ms=now_ms()))
                return False

        made = await self.database.run(run)
        found = await self.get(player_id)
        assert found is not None
        return found, secret if made else None

    async def rotate(self, player_id: str, previous_for_ms: int) -> tuple[Webhook, str] | None:
        """A new secret for the player's webhook (None: it has none); the previous one
        keeps signing for previous_for_ms."""
        secret, now = new_webhook_secret(), now_ms()

        async def run(conn: AsyncConnection) -> int:
            async with conn.begin():
                return (await conn.execute(
                    update(webhooks).where(webhooks.c.player_id == player_id).values(
                        previous_secret=webhooks.c.secret,
                        previous_until_ms=now + previous_for_ms if previous_for_ms else None,
                        secret=secret, updated_ms=now))).rowcount

        if not await self.database.run(run):
            return None
        found = await self.get(player_id)
        return None if found is None else (found, secret)

    async def delete(self, player_id: str) -> bool:
        async def run(conn: AsyncConnection) -> int:
            async with conn.begin():
                return (await conn.execute(delete(webhooks).where(
                    webhooks.c.player_id == player_id))).rowcount

        return bool(await self.database.run(run))

    async def registered(self, player_ids: list[str]) -> set[str]:
        """Which of these players have a webhook."""
        async def run(conn: AsyncConnection) -> Any:
            return (await conn.execute(select(webhooks.c.player_id).where(
                webhooks.c.player_id.in_(player_ids)))).all()

        return {row.player_id for row in await self.database.run(run)} if player_ids else set()
