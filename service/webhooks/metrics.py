"""Webhook calls in the worker's metrics: how many ended how, and how long they took.

Counted in plain numbers on the event loop's thread and made into Prometheus families
when /metrics is read, as the requests' own (service.replica.observe).
"""

import bisect
from collections.abc import Iterator
from typing import get_args

from prometheus_client import REGISTRY
from prometheus_client.core import CounterMetricFamily, HistogramMetricFamily, Metric

from service.webhooks.bodies import WebhookFailure

BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)  # seconds

# What a decision asked of a webhook ends in: a legal move answered, or why not.
OUTCOMES = ("answered", *get_args(WebhookFailure))


class WebhookStats:
    def __init__(self) -> None:
        self.outcomes = dict.fromkeys(OUTCOMES, 0)
        self.counts = [0] * (len(BUCKETS) + 1)
        self.total = 0.0

    def record(self, outcome: str, seconds: float | None = None) -> None:
        self.outcomes[outcome] = self.outcomes.get(outcome, 0) + 1
        if seconds is not None:
            self.counts[bisect.bisect_left(BUCKETS, seconds)] += 1
            self.total += seconds

    def collect(self) -> Iterator[Metric]:
        calls = CounterMetricFamily("crab_webhook_decisions",
                                    "Decisions asked of webhook bots, by how they ended",
                                    labels=["outcome"])
        for outcome, count in self.outcomes.items():
            calls.add_metric([outcome], count)
        cumulative, buckets = 0, []
        for bound, count in zip([*map(str, BUCKETS), "+Inf"], self.counts):
            cumulative += count
            buckets.append((bound, cumulative))
        duration = HistogramMetricFamily("crab_webhook_call_duration_seconds",
                                         "Time from a webhook call's start to its outcome")
        duration.add_metric([], buckets, self.total)
        yield calls
        yield duration


WEBHOOK_STATS = WebhookStats()
REGISTRY.register(WEBHOOK_STATS)
