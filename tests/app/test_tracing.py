"""Traces (optional): one trace per plan with a span per upstream request, none on cache hits.

The SDK's in-memory exporter stands in for an OTLP collector; the app is the real one, its
sandbox vendors mounted on the shared httpx client that tracing instruments.
"""

from __future__ import annotations

import threading
from collections import defaultdict
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import httpx
import pytest
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest
from opentelemetry.sdk.trace import ReadableSpan, TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from opentelemetry.trace import SpanKind

from app.main import create_app
from app.runtime import Runtime
from app.services import Services
from app.settings import Settings
from tests.clocks import FakeTime

TODAY = "2026-12-01"
SOURCES = ("sandbox-12306", "sandbox-juhe")
FAST = {name: {"rate_per_s": 1000} for name in SOURCES}


@pytest.fixture
def exporter() -> Iterator[InMemorySpanExporter]:
    yield InMemorySpanExporter()


@asynccontextmanager
async def traced_app(
    exporter: InMemorySpanExporter,
) -> AsyncIterator[tuple[httpx.AsyncClient, Services]]:
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    time = FakeTime()
    app = create_app(
        Settings(source_overrides=FAST),
        Runtime(clock=time.now, monotonic=time.monotonic, sleep=time.sleep),
        tracer_provider=provider,
    )
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://railtrip") as client:
            yield client, app.state.services
    provider.shutdown()


def traces(spans: tuple[ReadableSpan, ...]) -> dict[int, list[ReadableSpan]]:
    by_trace: dict[int, list[ReadableSpan]] = defaultdict(list)
    for span in spans:
        assert span.context is not None
        by_trace[span.context.trace_id].append(span)
    return dict(by_trace)


def reached(state: Services) -> int:
    """Requests the sandbox vendors themselves received (every path: 12306's cookie page too)."""
    return sum(faults.requests_total for faults in state.sandbox_faults.values())


async def test_each_plan_is_one_trace_with_a_span_per_upstream_request(exporter) -> None:
    async with traced_app(exporter) as (client, state):
        plans = []
        for text in ("12月5日北京到上海", "12月6日北京到南京"):
            before = reached(state)
            exporter.clear()
            reply = await client.post("/v1/plan", json={"text": text, "today": TODAY})
            assert reply.status_code == 200 and reply.json()["itinerary"] is not None
            plans.append((exporter.get_finished_spans(), reached(state) - before))

    for spans, upstream in plans:
        (trace,) = traces(spans).values()  # one trace per plan
        (server,) = [s for s in trace if s.kind is SpanKind.SERVER]
        assert server.name == "POST /v1/plan" and server.parent is None
        assert server.attributes is not None
        assert server.attributes["http.response.status_code"] == 200
        clients = [s for s in trace if s.kind is SpanKind.CLIENT]
        # One CLIENT span per request a sandbox vendor received, all inside the plan.
        assert upstream > 0 and len(clients) == upstream
        hosts = {httpx.URL(str((s.attributes or {})["http.url"])).host for s in clients}
        assert hosts == {"sandbox-12306.internal", "sandbox-juhe.internal"}
        assert all(s.parent is not None for s in clients)


async def test_a_cached_ticket_answer_opens_no_span(exporter) -> None:
    query = {"origin": "北京", "destination": "上海", "date": "2026-12-04"}
    async with traced_app(exporter) as (client, state):
        assert (await client.get("/v1/tickets", params=query)).json()["freshness"] == "realtime"
        exporter.clear()
        assert (await client.get("/v1/tickets", params=query)).json()["freshness"] == "cached"
        assert exporter.get_finished_spans() == ()
        hits = state.metrics.registry.get_sample_value(
            "railtrip_cache_requests_total", {"tier": "memory", "result": "hit"}
        )
        assert hits == 1


async def test_tracing_is_off_without_an_endpoint() -> None:
    app = create_app(Settings())
    async with app.router.lifespan_context(app):
        assert app.state.services.tracer_provider is None
        assert not getattr(app.state.services.http, "_is_instrumented_by_opentelemetry", False)


class _Collector(BaseHTTPRequestHandler):
    """An OTLP/HTTP traces endpoint on loopback that keeps what it receives."""

    received: list[bytes] = []

    def do_POST(self) -> None:  # noqa: N802 (http.server's naming)
        body = self.rfile.read(int(self.headers["Content-Length"]))
        type(self).received.append(body)
        self.send_response(200)
        self.send_header("Content-Type", "application/x-protobuf")
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args: object) -> None:
        return


async def test_with_an_endpoint_configured_spans_are_exported_over_otlp() -> None:
    _Collector.received = []
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Collector)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        endpoint = f"http://127.0.0.1:{server.server_address[1]}/v1/traces"
        time = FakeTime()
        app = create_app(
            Settings(source_overrides=FAST, otel_endpoint=endpoint),
            Runtime(clock=time.now, monotonic=time.monotonic, sleep=time.sleep),
        )
        async with app.router.lifespan_context(app):
            transport = httpx.ASGITransport(app=app)
            async with httpx.AsyncClient(transport=transport, base_url="http://railtrip") as c:
                reply = await c.post("/v1/plan", json={"text": "12月5日北京到上海", "today": TODAY})
                assert reply.status_code == 200
        # Leaving the lifespan shut the provider down, which flushed the batch exporter.
    finally:
        server.shutdown()
        thread.join(timeout=30)
    spans, services = [], set()
    for body in _Collector.received:
        export = ExportTraceServiceRequest.FromString(body)
        for resource_spans in export.resource_spans:
            attributes = {a.key: a.value.string_value for a in resource_spans.resource.attributes}
            services.add(attributes["service.name"])
            spans += [s for scope in resource_spans.scope_spans for s in scope.spans]
    assert services == {"railtrip"}
    names = [s.name for s in spans]
    assert names.count("POST /v1/plan") == 1 and names.count("GET") >= 2
    assert len({s.trace_id for s in spans}) == 1
