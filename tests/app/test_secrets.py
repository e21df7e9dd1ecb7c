"""Secrets never leave: with tracing on and every kind of secret configured (a Juhe key, the
LLM key, a Redis password), no span, log line or answer carries one, failures included."""

from __future__ import annotations

import logging

import httpx
import pytest
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from app.main import create_app
from app.observability.logs import JsonFormatter
from app.observability.redaction import MASK, redact, register_secrets
from app.runtime import Runtime
from app.settings import Settings
from tests.clocks import FakeTime
from tests.llm_wire import LLM_URL, completion, intent_json

JUHE_KEY = "juhe-9f8e7d6c5b4a39281706"
LLM_KEY = "sk-llm-0123456789abcdef"
REDIS_PASSWORD = "redis-pw-5551234"
SECRETS = (JUHE_KEY, LLM_KEY, REDIS_PASSWORD)
FAST = {"rate_per_s": 1000}


def test_keys_are_masked_by_name_and_by_value() -> None:
    register_secrets(["s3cr3t-value-42"])
    assert redact("GET https://apis.juhe.cn/q?key=abc123&date=1") == (
        f"GET https://apis.juhe.cn/q?key={MASK}&date=1"
    )
    assert (
        redact("?search_type=1&API_KEY=zz&token=t") == f"?search_type=1&API_KEY={MASK}&token={MASK}"
    )
    assert redact("redis://:pw@host:6379/0") == f"redis://:{MASK}@host:6379/0"
    assert (
        redact("failed with s3cr3t-value-42 and s3cr3t-value-42")
        == f"failed with {MASK} and {MASK}"
    )
    assert redact("s3cr3t-value-42".replace("-", "%2D")) != "s3cr3t-value-42"
    assert redact("monkey=1 keystone") == "monkey=1 keystone"  # only whole names


@pytest.mark.httpx_mock(assert_all_responses_were_requested=False)
async def test_no_secret_in_spans_logs_or_answers(httpx_mock, redis_server, caplog) -> None:
    httpx_mock.add_response(
        url=LLM_URL,
        json=completion(intent_json(origin="北京", destination="上海", date="2026-12-05")),
        is_reusable=True,
    )
    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    host, port = redis_server.url.split("//")[1].split("/")[0].split(":")
    settings = Settings(
        source_overrides={
            "sandbox-12306": FAST,
            "sandbox-juhe": {**FAST, "api_key": JUHE_KEY, "retries": 0},
        },
        llm_api_key=LLM_KEY,
        llm_base_url="http://llm.test/v1",
        redis_url=f"redis://:{REDIS_PASSWORD}@{host}:{port}/0",
    )
    time = FakeTime()
    app = create_app(
        settings,
        Runtime(clock=time.now, monotonic=time.monotonic, sleep=time.sleep),
        tracer_provider=provider,
    )
    answers: list[str] = []
    caplog.set_level(logging.DEBUG)
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://railtrip") as client:
            plan = {"text": "12月5日北京到上海", "today": "2026-12-01"}
            answers.append((await client.post("/v1/plan", json=plan)).text)
            # Juhe failing: its error text goes into the answer, its failure into the logs.
            faults = {"error_rate": 1.0}
            assert (await client.post("/sandbox/juhe/faults", json=faults)).status_code == 200
            for path in ("/v1/tickets?origin=北京&destination=南京&date=2026-12-06&refresh=true",):
                answers.append((await client.get(path)).text)
            answers.append((await client.post("/v1/plan", json=plan)).text)
            answers.append((await client.get("/readyz")).text)
    provider.shutdown()

    spans = exporter.get_finished_spans()
    juhe_spans = [
        s for s in spans if "sandbox-juhe" in str((s.attributes or {}).get("url.full", ""))
    ]
    assert juhe_spans, "the Juhe requests were traced"
    assert all(f"key={MASK}" in str((s.attributes or {})["url.full"]) for s in juhe_spans)
    shown = [
        repr(dict(s.attributes or {}))
        + s.name
        + repr([(e.name, dict(e.attributes or {})) for e in s.events])
        for s in spans
    ]
    formatter = JsonFormatter()
    lines = [formatter.format(record) for record in caplog.records]
    # A failure that prints what it was given (an exception quoting the URL and the keys).
    try:
        raise ConnectionError(f"{settings.redis_url} refused AUTH; tried {JUHE_KEY}, {LLM_KEY}")
    except ConnectionError:
        logging.getLogger("railtrip.redis").exception("redis at %s down", settings.redis_url)
    lines = [formatter.format(record) for record in caplog.records]
    assert any(f":{MASK}@" in line for line in lines)
    for secret in SECRETS:
        assert not [text for text in shown if secret in text], f"{secret} in a span"
        assert not [line for line in lines if secret in line], f"{secret} in a log line"
        assert not [text for text in answers if secret in text], f"{secret} in an answer"
