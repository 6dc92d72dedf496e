"""Traces with OpenTelemetry: off unless the standard OTEL_* variables turn them on.

On when OTEL_TRACES_EXPORTER is `otlp` (OTLP over HTTP, to OTEL_EXPORTER_OTLP_ENDPOINT or
OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) or `console`, or when one of those endpoints is set
without it; off when neither is, when OTEL_TRACES_EXPORTER is `none`, or when
OTEL_SDK_DISABLED is true. Everything else (OTEL_SERVICE_NAME, OTEL_RESOURCE_ATTRIBUTES,
OTEL_TRACES_SAMPLER and its argument, the exporter's headers and timeouts, the batch
processor's sizes) is read by the SDK itself, as its documentation says.

What a trace shows: each request as a server span (the ASGI instrumentation, named by
its route template, with the caller's `traceparent` continued), and inside it the spans
of the work a game does: `game.view`, `game.move`, `ai.turn`, the store's Lua scripts
(`store.script`), the event fan-out's read of new versions (`events.fan_out`) and the
archive's batches (`archive.batch`), each with the game's id (`crab.game_id`); the redis
and SQLAlchemy instrumentations add the other Redis commands and every SQL statement.
What it never shows: a request's query string (an event stream's token may be there),
its headers, a Redis command's arguments (the instrumentation writes `EVALSHA ? ?`) or a
SQL statement's parameters; the game's state, seed and cards are never an attribute.

Off, it costs a test of one global per span site (`span()` answers a shared context
manager that does nothing): measured in docs/benchmarks.md.
"""

import contextlib
from contextlib import AbstractContextManager
import logging
import os
from collections.abc import Mapping
from typing import Any

from litestar.types import ASGIApp, Receive, Scope, Send

log = logging.getLogger("service.replica.tracing")

_NOTHING = contextlib.nullcontext()
_tracer: Any = None  # opentelemetry's Tracer once tracing is on
_QUERY = "service.query_string"  # where the query string waits while the tracer looks


def wanted(env: Mapping[str, str] = os.environ) -> str | None:
    """The exporter the OTEL_* variables ask for (`otlp`, `console`), or None: off."""
    if env.get("OTEL_SDK_DISABLED", "").strip().lower() == "true":
        return None
    exporter = env.get("OTEL_TRACES_EXPORTER", "").strip().lower()
    if exporter in ("otlp", "console"):
        return exporter
    if exporter == "" and (env.get("OTEL_EXPORTER_OTLP_ENDPOINT")
                           or env.get("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT")):
        return "otlp"
    return None


def start(env: Mapping[str, str] = os.environ, exporter: Any = None) -> bool:
    """Turns tracing on in this process if the OTEL_* variables ask for it (or exporter,
    a SpanExporter, is given: tests); whether it is on. Once per process."""
    global _tracer
    if _tracer is not None:
        return True
    kind = wanted(env)
    if kind is None and exporter is None:
        return False
    from opentelemetry import trace
    from opentelemetry.instrumentation.redis import RedisInstrumentor
    from opentelemetry.instrumentation.sqlalchemy import SQLAlchemyInstrumentor
    from opentelemetry.sdk.resources import OTELResourceDetector, Resource
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import BatchSpanProcessor, SimpleSpanProcessor

    resource = Resource.create({"service.name": env.get("OTEL_SERVICE_NAME") or "crab-engines"}
                               ).merge(OTELResourceDetector().detect())
    provider = TracerProvider(resource=resource)
    if exporter is not None:
        provider.add_span_processor(SimpleSpanProcessor(exporter))
    elif kind == "console":
        from opentelemetry.sdk.trace.export import ConsoleSpanExporter
        provider.add_span_processor(BatchSpanProcessor(ConsoleSpanExporter()))
    else:
        from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
        provider.add_span_processor(BatchSpanProcessor(OTLPSpanExporter()))
    trace.set_tracer_provider(provider)
    RedisInstrumentor().instrument(tracer_provider=provider)
    # Every engine made from now on (the archive's: service.sql.database) has its
    # statements traced, never their parameters. The instrumentation declares SQLAlchemy
    # below 2.1 and would do nothing on 2.1; its engine events are 2.1's too (the test
    # of tests/service/test_tracing.py sees the archive's statements).
    SQLAlchemyInstrumentor().instrument(tracer_provider=provider, skip_dep_check=True)
    _tracer = trace.get_tracer("crab-engines")
    log.info("tracing on (%s exporter)", "given" if exporter is not None else kind)
    return True


def stop() -> None:
    """Sends the spans still waiting (at the worker's shutdown)."""
    if _tracer is not None:
        from opentelemetry import trace
        provider = trace.get_tracer_provider()
        if hasattr(provider, "force_flush"):
            provider.force_flush()


def on() -> bool:
    return _tracer is not None


def span(name: str, game_id: str | None = None, **attributes: Any) -> AbstractContextManager:
    """A span named name around a block (with crab.game_id and crab.<attribute>), or, with
    tracing off, a context manager that does nothing."""
    if _tracer is None:
        return _NOTHING
    if game_id is not None:
        attributes["game_id"] = game_id
    return _tracer.start_as_current_span(
        name, attributes={f"crab.{key}": value for key, value in attributes.items()})


def traced_asgi(app: ASGIApp) -> ASGIApp:
    """app inside OpenTelemetry's ASGI middleware (server spans; `traceparent` continued),
    which is shown the request without its query string: a stream's token may be there."""
    from opentelemetry.instrumentation.asgi import OpenTelemetryMiddleware

    async def unveiled(scope: Scope, receive: Receive, send: Send) -> None:
        if _QUERY in scope:
            scope["query_string"] = scope.pop(_QUERY)
        await app(scope, receive, send)

    traced = OpenTelemetryMiddleware(unveiled, exclude_spans=["receive", "send"])

    async def veiled(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope.get("query_string"):
            # (in place: what the application leaves in its scope is read after it returns)
            scope[_QUERY], scope["query_string"] = scope["query_string"], b""
        await traced(scope, receive, send)

    return veiled


def name_request(scope: Scope) -> None:
    """Names the request's server span by its route template (never the raw path)."""
    if _tracer is not None:
        from opentelemetry import trace
        current = trace.get_current_span()
        route = scope.get("path_template", "unmatched")
        current.update_name(f"{scope['method']} {route}")
        current.set_attribute("http.route", route)

