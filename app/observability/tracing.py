"""Optional OpenTelemetry traces: one trace per plan or chat request, a span per upstream call.

Off by default. With `RAILTRIP_OTEL_ENDPOINT` (an OTLP/HTTP traces URL such as
`http://collector:4318/v1/traces`) the lifespan builds a tracer provider that exports there
in batches; tests pass their own provider (the SDK's in-memory exporter) to `create_app`.

What is traced, and why only that:
- The request middleware opens a SERVER span (`request_span`) for the routes that declare
  `traced` (the planning routes, app/policy.py). Their work fans out to sources and maybe a
  model: what a trace is for.
- The shared httpx client is instrumented with `HTTPXClientInstrumentor.instrument_client`,
  so every upstream request (sandbox vendors mounted in-process, 12306, Juhe, the
  LLM endpoint) is a CLIENT span under the request that caused it. The global
  `HTTPXClientInstrumentor().instrument()` patches `httpx.AsyncClient` construction and
  would miss the sandbox mounts, which are transports of an already-built client.
- Nothing else: `/v1/tickets` answered from the cache makes no upstream call and opens no
  span; any other route costs the middleware nothing, tracing on or off.
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Any

import httpx
from starlette.types import Scope

from app.observability.redaction import MASK, SECRET_HEADERS, redact

if TYPE_CHECKING:
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.trace import Span

    from app.settings import Settings

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
    """A CLIENT span for every request the shared client sends, mounts included, its URL
    with keys masked (Juhe's key rides in the query string)."""
    from opentelemetry.instrumentation.httpx import HTTPXClientInstrumentor

    async def masked_url(span: Span, request: Any) -> None:
        if not span.is_recording():
            return
        url = request.url
        if isinstance(url, tuple):  # the raw form: (scheme, host, port, target)
            scheme, host, port, target = url
            url = f"{scheme.decode()}://{host.decode()}:{port}{target.decode()}"
        shown = redact(str(url))
        for attribute in URL_ATTRIBUTES:
            span.set_attribute(attribute, shown)
        # Captured headers (OTEL_INSTRUMENTATION_HTTP_CAPTURE_HEADERS_CLIENT_REQUEST) that
        # carry credentials are masked too, whatever the sanitize list says.
        recorded = getattr(span, "attributes", None) or {}
        for name in SECRET_HEADERS:
            if f"http.request.header.{name}" in recorded:
                span.set_attribute(f"http.request.header.{name}", (MASK,))

    HTTPXClientInstrumentor.instrument_client(
        client, tracer_provider=provider, request_hook=masked_url
    )


URL_ATTRIBUTES = ("url.full", "http.url")
"""Where the instrumentation writes a request's URL (new and old semantic conventions)."""


def request_span(scope: Scope) -> AbstractContextManager[Span] | None:
    """A SERVER span for this request while tracing is on, else None.

    The request middleware asks only for the routes that declare `traced` (app/policy.py), so
    the cache-hit path stays uninstrumented (no extra ASGI layer).
    """
    provider = getattr(getattr(scope["app"].state, "services", None), "tracer_provider", None)
    if provider is None:
        return None
    from opentelemetry.trace import SpanKind

    method, path = scope["method"], scope["path"]
    return provider.get_tracer(TRACER_NAME).start_as_current_span(
        f"{method} {path}",
        kind=SpanKind.SERVER,
        attributes={"http.request.method": method, "http.route": path},
    )


def end_request_span(span: Span, status: int) -> None:
    """Record the answer's status on the request's span (ERROR for a 5xx)."""
    from opentelemetry.trace import Status, StatusCode

    span.set_attribute("http.response.status_code", status)
    if status >= 500:
        span.set_status(Status(StatusCode.ERROR))
