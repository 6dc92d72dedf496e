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

A move is one trace across replicas: the commit's notice carries the move's span as a
W3C `traceparent` (`origin()`), and the fan-out that reads the new version on any replica
is a child of it; the archive's entry carries it too, and each game's record in an
archive batch is a child span of the move that ended the game (`archive.game`, linked to
its batch, which links back to every game's move). The notice's and the entry's field is
sent only while tracing is on, and every reader ignores a field it does not expect, so
that replicas of the release before this one, which read two fields and three, must be
gone before tracing is turned on (docs/configuration.md, "Traces").

Off, it costs a test of one global per span site (`span()` answers a shared context
manager that does nothing): measured in docs/benchmarks.md.
"""

import contextlib
import logging
import os
import re
from collections.abc import Iterable, Mapping
from contextlib import AbstractContextManager
from typing import Any

from litestar.types import ASGIApp, Receive, Scope, Send

log = logging.getLogger("service.replica.tracing")

_NOTHING = contextlib.nullcontext()
_tracer: Any = None  # opentelemetry's Tracer once tracing is on
_QUERY = "service.query_string"  # where the query string waits while the tracer looks
_TRACEPARENT = re.compile(r"00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})")


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


def span(name: str, game_id: str | None = None, *, parent: str = "",
         linked: Iterable[str] = (), **attributes: Any) -> AbstractContextManager:
    """A span named name around a block (with crab.game_id and crab.<attribute>), or, with
    tracing off, a context manager that does nothing. parent: the origin() of the work
    this block does on another's behalf, which the span continues (else the current
    span's); linked: origins of further work it does (an archive batch's games)."""
    if _tracer is None:
        return _NOTHING
    if game_id is not None:
        attributes["game_id"] = game_id
    from opentelemetry import trace
    from opentelemetry.trace import Link
    context = (trace.set_span_in_context(trace.NonRecordingSpan(remote))
               if (remote := _remote(parent)) is not None else None)
    links = [Link(found) for found in map(_remote, linked) if found is not None]
    return _tracer.start_as_current_span(
        name, context=context, links=links,
        attributes={f"crab.{key}": value for key, value in attributes.items()})


def started(name: str, origins: Mapping[str, str]) -> list[Any]:
    """For each game id -> origin (a traceparent, or '' for none): a span named name
    with crab.game_id, continuing origin's trace and linked to the current span, started
    now and left for end(): work done for several traces at once (an archive batch)."""
    if _tracer is None:
        return []
    from opentelemetry import trace
    from opentelemetry.trace import Link
    batch = trace.get_current_span().get_span_context()
    return [_tracer.start_span(name, context=trace.set_span_in_context(
                trace.NonRecordingSpan(remote)),
            links=[Link(batch)] if batch.is_valid else [],
            attributes={"crab.game_id": game_id})
            for game_id, parent in origins.items() if (remote := _remote(parent)) is not None]


def end(spans: list[Any]) -> None:
    for started_span in spans:
        started_span.end()


def origin() -> str:
    """The current span as a W3C traceparent, for work done elsewhere on its behalf (a
    commit's notice, a finished game's archive entry): '' when tracing is off."""
    if _tracer is None:
        return ""
    from opentelemetry import trace
    found = trace.get_current_span().get_span_context()
    if not found.is_valid:
        return ""
    return f"00-{found.trace_id:032x}-{found.span_id:016x}-{int(found.trace_flags):02x}"


def _remote(traceparent: str) -> Any:
    """The span context a traceparent names, or None (empty or malformed: the store's
    fields are another replica's writing, read with care)."""
    if not traceparent or (found := _TRACEPARENT.fullmatch(traceparent)) is None:
        return None
    from opentelemetry.trace import SpanContext, TraceFlags
    remote = SpanContext(int(found[1], 16), int(found[2], 16), is_remote=True,
                         trace_flags=TraceFlags(int(found[3], 16)))
    return remote if remote.is_valid else None


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

