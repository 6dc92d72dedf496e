"""A webhook seat's decision: the bot is asked over HTTP and its answer checked.

The seats the server plays (service.games.robots) are AI seats and webhook seats: a seat
bound, when its game was made, to a bot with a webhook. For each decision of such a seat,
the replica driving the game asks here: the call is claimed first in the live store
(`webhook:{<game>}:<version>:<seat>`, kept until the call's deadline has passed), so of
the replicas that drive one game at once only one calls the bot for one decision; the
others leave it to that one, and should it die, the seat's turn clock (or the next read
of the game, for a game without one) drives the seat again once the claim has lapsed.
The move is then committed by compare-and-set like an AI's, so it is made once.

What is sent (docs/arena.md, "Webhook bots"): the seat's game exactly as GET
/v1/games/{id} shows it to that seat (its view and legal moves), with the game's id, the
version, the seat and the deadline; signed (service.webhooks.signing). What must come
back: `{"move": <one of the legal moves>}` by the deadline. Anything else is a failure,
named in a word, that the seat's clock policy answers (Robots.fall_to_policy).
"""

import logging
import math
import time
from typing import Any

import msgspec

import core
from service.games.bodies import game_body
from service.games.sessions import Session, Sessions
from service.http.instants import iso_time
from service.store import Documents, keys
from service.webhooks.caller import Caller
from service.webhooks.decision import WebhookDecision
from service.webhooks.metrics import WEBHOOK_STATS
from service.webhooks.storage import WebhookBook, now_ms

log = logging.getLogger("service.webhooks")

CLAIM_SLACK_SECONDS = 2  # a claim outlives its call's deadline by this much


class WebhookDriver:
    def __init__(self, book: WebhookBook, caller: Caller, store: Documents) -> None:
        self.book = book
        self.caller = caller
        self.store = store

    async def seats(self, player_ids: list[str | None]) -> list[int]:
        """The seats of a new game whose player has a webhook (Sessions marks them)."""
        registered = await self.book.registered([p for p in player_ids if p is not None])
        return [seat for seat, player in enumerate(player_ids) if player in registered]

    async def ask(self, session: Session, seat: int) -> dict[str, Any] | str | None:
        """The move seat's bot answers, legal now; or why there is none (a failure's
        name); None if another replica is asking it this decision."""
        turn_deadline = session.meta.deadline(seat)
        deadline = time.time() + self.caller.timeout
        if turn_deadline is not None:
            deadline = min(deadline, turn_deadline)
        if deadline <= time.time():
            return self._failed(session, seat, "late", None)
        claim = keys.webhook_call(session.game_id, session.record.version, seat)
        ttl = math.ceil(deadline - time.time()) + CLAIM_SLACK_SECONDS
        if not await self.store.doc_swap(claim, None, b"1", ttl):
            return None
        player = session.meta.player(seat)
        webhook = None if player is None else await self.book.get(player)
        if webhook is None:
            return self._failed(session, seat, "no-webhook", None)
        delivery = f"{session.game_id}:{session.record.version}:{seat}"
        body = msgspec.json.encode(WebhookDecision(
            type="decision", delivery=delivery, game_id=session.game_id,
            version=session.record.version, seat=seat, deadline=iso_time(deadline),
            game=game_body(Sessions.view(session, seat))))
        outcome = await self.caller.call(webhook.url, webhook.secrets(now_ms()), body,
                                         deadline, delivery)
        if outcome.failure is not None:
            return self._failed(session, seat, outcome.failure, outcome.seconds)
        move = outcome.answer.get("move") if isinstance(outcome.answer, dict) else None
        if not isinstance(move, dict):
            return self._failed(session, seat, "malformed", outcome.seconds)
        try:
            session.state.clone().apply(seat, move)
        except (core.IllegalMove, ValueError, TypeError, KeyError):
            return self._failed(session, seat, "illegal", outcome.seconds)
        WEBHOOK_STATS.record("answered", outcome.seconds)
        return move

    @staticmethod
    def _failed(session: Session, seat: int, failure: str, seconds: float | None) -> str:
        WEBHOOK_STATS.record(failure, seconds)
        log.info("webhook of seat %s of game %s at version %s: %s", seat, session.game_id,
                 session.record.version, failure)
        return failure
