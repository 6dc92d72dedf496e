"""Webhook calls in the replica's metrics: how many ended how, and how long they took.

prometheus-client's own metrics, so that one scrape sums every worker (multiprocess mode,
service.replica.exposition): a call takes milliseconds, so the lock and the shared write
of each update (a few microseconds) cost nothing worth batching, unlike a request's
(service.replica.observe).
"""

from typing import get_args

from prometheus_client import Counter, Histogram

from service.webhooks.bodies import WebhookFailure

BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)  # seconds

# What a decision asked of a webhook ends in: a legal move answered, or why not.
OUTCOMES = ("answered", *get_args(WebhookFailure))

DECISIONS = Counter("crab_webhook_decisions", "Decisions asked of webhook bots, by how they ended",
                    ["outcome"])
DURATIONS = Histogram("crab_webhook_call_duration_seconds",
                      "Time from a webhook call's start to its outcome", buckets=BUCKETS)


class WebhookStats:
    def __init__(self) -> None:
        for outcome in OUTCOMES:  # every outcome scraped from the start, at 0
            DECISIONS.labels(outcome)

    def record(self, outcome: str, seconds: float | None = None) -> None:
        DECISIONS.labels(outcome).inc()
        if seconds is not None:
            DURATIONS.observe(seconds)


WEBHOOK_STATS = WebhookStats()
