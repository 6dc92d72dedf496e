"""An OTLP/HTTP receiver of traces on loopback, in the test's process: what a collector
would be given, decoded from the protobuf the service's exporter sends."""

import gzip
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
    ExportTraceServiceRequest,
    ExportTraceServiceResponse,
)


@dataclass
class Span:
    name: str
    trace_id: str
    span_id: str
    parent_id: str
    kind: int
    attributes: dict[str, object] = field(default_factory=dict)
    service: str = ""  # the resource's service.name: which replica sent it
    links: list[tuple[str, str]] = field(default_factory=list)  # (trace id, span id)


def _value(any_value) -> object:
    kind = any_value.WhichOneof("value")
    if kind == "array_value":
        return [_value(item) for item in any_value.array_value.values]
    return getattr(any_value, kind) if kind else None


class Receiver:
    """Listens on a free loopback port for POST /v1/traces; spans() lists what came.
    A context manager: the server stops at the end of the block."""

    def __init__(self) -> None:
        self._spans: list[Span] = []
        self._lock = threading.Lock()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802
                body = self.rfile.read(int(self.headers["Content-Length"]))
                if self.headers.get("Content-Encoding") == "gzip":
                    body = gzip.decompress(body)
                receiver._add(ExportTraceServiceRequest.FromString(body))
                answer = ExportTraceServiceResponse().SerializeToString()
                self.send_response(200)
                self.send_header("Content-Type", "application/x-protobuf")
                self.send_header("Content-Length", str(len(answer)))
                self.end_headers()
                self.wfile.write(answer)

            def log_message(self, format: str, *args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.endpoint = f"http://127.0.0.1:{self.server.server_address[1]}"
        self._thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self._thread.start()

    def _add(self, request: ExportTraceServiceRequest) -> None:
        with self._lock:
            for resource in request.resource_spans:
                service = {item.key: _value(item.value)
                           for item in resource.resource.attributes}.get("service.name", "")
                for scope in resource.scope_spans:
                    for span in scope.spans:
                        self._spans.append(Span(
                            span.name, span.trace_id.hex(), span.span_id.hex(),
                            span.parent_span_id.hex(), span.kind,
                            {item.key: _value(item.value) for item in span.attributes},
                            str(service), [(link.trace_id.hex(), link.span_id.hex())
                                           for link in span.links]))

    def spans(self) -> list[Span]:
        with self._lock:
            return list(self._spans)

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()

    def __enter__(self) -> "Receiver":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
