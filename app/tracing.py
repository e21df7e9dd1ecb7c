"""Optional OpenTelemetry traces: one trace per plan or chat request, a span per upstream call.

Off by default. With `RAILTRIP_OTEL_ENDPOINT` (an OTLP/HTTP traces URL such as
`http://collector:4318/v1/traces`) the lifespan builds a tracer provider that exports there
in batches; tests pass their own provider (the SDK's in-memory exporter) to `create_app`.

What is traced, and why only that:
- `TraceRequests` opens a SERVER span for the planning routes (`TRACED_PATHS`). Their work
  fans out to sources and maybe a model, which is what a trace is for.
- The shared httpx client is instrumented with `HTTPXClientInstrumentor.instrument_client`,
  so every upstream request (sandbox vendors mounted in-process, 12306, the partner, the
  LLM endpoint) is a CLIENT span under the request that caused it. The global
  `HTTPXClientInstrumentor().instrument()` patches `httpx.AsyncClient` construction and
  would miss the sandbox mounts, which are transports of an already-built client.
- Nothing else: `/v1/tickets` answered from the cache makes no upstream call and opens no
  span; without tracing configured the middleware is not even installed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import httpx
from starlette.types import ASGIApp, Message, Receive, Scope, Send

if TYPE_CHECKING:
    from opentelemetry.sdk.trace import TracerProvider

    from app.settings import Settings

TRACED_PATHS = frozenset({"/v1/plan", "/v1/chat", "/v1/plan/stream", "/v1/chat/stream"})
TRACER_NAME = "railtrip"


def otlp_tracer_provider(settings: Settings) -> TracerProvider | None:
    """A provider exporting over OTLP/HTTP to `settings.otel_endpoint`, or None when unset."""
    if not settings.otel_endpoint:
        return None
    from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
    from opentelemetry.sdk.resources import Resource
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import BatchSpanProcessor

    provider = TracerProvider(resource=Resource.create({"service.name": settings.otel_service}))
    provider.add_span_processor(
        BatchSpanProcessor(OTLPSpanExporter(endpoint=settings.otel_endpoint))
    )
    return provider


def instrument_http_client(client: httpx.AsyncClient, provider: TracerProvider) -> None:
    """A CLIENT span for every request the shared client sends, mounts included."""
    from opentelemetry.instrumentation.httpx import HTTPXClientInstrumentor

    HTTPXClientInstrumentor.instrument_client(client, tracer_provider=provider)


class TraceRequests:
    """A SERVER span around each request to a planning route; other routes pass untouched."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        provider = None
        if scope["type"] == "http" and scope["path"] in TRACED_PATHS:
            state = getattr(scope["app"].state, "rt", None)
            provider = getattr(state, "tracer_provider", None)
        if provider is None:
            await self.app(scope, receive, send)
            return
        from opentelemetry.trace import SpanKind, Status, StatusCode

        method, path = scope["method"], scope["path"]
        tracer = provider.get_tracer(TRACER_NAME)
        with tracer.start_as_current_span(f"{method} {path}", kind=SpanKind.SERVER) as span:
            span.set_attribute("http.request.method", method)
            span.set_attribute("http.route", path)

            async def send_traced(message: Message) -> None:
                if message["type"] == "http.response.start":
                    status = message["status"]
                    span.set_attribute("http.response.status_code", status)
                    if status >= 500:
                        span.set_status(Status(StatusCode.ERROR))
                await send(message)

            await self.app(scope, receive, send_traced)
