"""What operators see: metric values after a scripted sequence, the live exposition, request
ids and structured logs."""

from __future__ import annotations

import asyncio
import io
import json
import logging
import shutil

from app.observability.logs import JsonFormatter
from app.settings import Settings
from tests.app.apps import running, sample

FAST = {name: {"rate_per_s": 1000} for name in ("sandbox-12306", "sandbox-juhe")}
TICKETS = {"origin": "北京", "destination": "上海", "date": "2026-12-04"}


async def test_metric_values_match_a_scripted_sequence() -> None:
    async with running(Settings(source_overrides=FAST)) as (client, state):

        def m(name: str, **labels: str) -> float:
            return sample(state, name, **labels)

        # 1. A cold query: one miss, one attempt per source, a realtime answer. 12306's
        # session init is a request the site receives too, so it is counted.
        await client.get("/v1/tickets", params=TICKETS)
        assert m("railtrip_cache_requests_total", tier="memory", result="miss") == 1
        assert m("railtrip_source_requests_total", source="sandbox-12306", outcome="ok") == 2
        assert m("railtrip_source_requests_total", source="sandbox-juhe", outcome="ok") == 1
        assert m("railtrip_responses_total", endpoint="/v1/tickets", freshness="realtime") == 1

        # 2. The same query again: a memory hit, nothing upstream.
        await client.get("/v1/tickets", params=TICKETS)
        assert m("railtrip_cache_requests_total", tier="memory", result="hit") == 1
        assert m("railtrip_source_requests_total", source="sandbox-12306", outcome="ok") == 2
        assert m("railtrip_responses_total", endpoint="/v1/tickets", freshness="cached") == 1

        # 3. One source faulted: three attempts (two retries) fail, the other answers.
        await client.post("/sandbox/juhe/faults", json={"error_rate": 1})
        await client.get("/v1/tickets", params={**TICKETS, "date": "2026-12-05"})
        assert m("railtrip_source_requests_total", source="sandbox-juhe", outcome="error") == 3
        assert m("railtrip_source_requests_total", source="sandbox-12306", outcome="ok") == 3
        assert m("railtrip_degradations_total", kind="source_down") == 1
        assert m("railtrip_responses_total", endpoint="/v1/tickets", freshness="realtime") == 2
        # One timed attempt per request the source received: the first ok, then three errors.
        assert m("railtrip_source_request_duration_seconds_count", source="sandbox-juhe") == 4

        # 4. A plan that needs the fallback (no direct train 哈尔滨→厦门).
        await client.post("/sandbox/juhe/faults", json={"error_rate": 0})
        r = await client.post(
            "/v1/plan", json={"text": "12月5日从哈尔滨去厦门", "today": "2026-12-01"}
        )
        assert r.status_code == 200
        assert m("railtrip_intent_parse_total", parser="rules", outcome="ok") == 1
        assert m("railtrip_agent_state_total", state="FALLBACK") >= 1
        assert m("railtrip_agent_state_total", state="PARSE_INTENT") == 1
        assert m("railtrip_agent_steps_count", mode="state_machine") == 1
        steps = r.json()["agent"]["steps"]
        assert m("railtrip_agent_steps_sum", mode="state_machine") == steps
        assert (
            m("railtrip_http_requests_total", endpoint="/v1/plan", method="POST", status="200") == 1
        )


async def test_live_metrics_exposition_passes_promtool_check_metrics() -> None:
    promtool = shutil.which("promtool")  # a missing one fails, never skips: `make test` installs it
    assert promtool is not None, "promtool is not on PATH: `make test` installs it"
    async with running(Settings(source_overrides=FAST)) as (client, _):
        await client.get("/v1/tickets", params=TICKETS)
        await client.post("/v1/plan", json={"text": "后天从北京去上海", "today": "2026-12-01"})
        exposition = (await client.get("/metrics")).text
    assert "railtrip_cache_requests_total" in exposition
    proc = await asyncio.create_subprocess_exec(
        promtool,
        "check",
        "metrics",
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )
    output, _ = await asyncio.wait_for(proc.communicate(exposition.encode()), timeout=60)
    assert proc.returncode == 0, output.decode()


async def test_redis_up_is_absent_without_redis_and_present_with_it(redis_url: str) -> None:
    async with running() as (client, _):
        assert "railtrip_redis_up" not in (await client.get("/metrics")).text
    async with running(Settings(redis_url=redis_url)) as (client, _):
        assert "railtrip_redis_up 1.0" in (await client.get("/metrics")).text


async def test_request_id_is_accepted_or_generated_and_returned() -> None:
    async with running() as (client, _):
        given = await client.get("/healthz", headers={"X-Request-ID": "trace-abc-123"})
        fresh = await client.get("/healthz")
    assert given.headers["x-request-id"] == "trace-abc-123"
    assert len(fresh.headers["x-request-id"]) == 32


async def test_one_json_log_line_per_request_and_the_request_id_reaches_source_logs() -> None:
    buffer = io.StringIO()
    handler = logging.StreamHandler(buffer)
    handler.setFormatter(JsonFormatter())
    logger = logging.getLogger("railtrip")
    logger.addHandler(handler)
    try:
        async with running(Settings(source_overrides=FAST)) as (client, _):
            await client.post("/sandbox/juhe/faults", json={"error_rate": 1})
            await client.get("/v1/tickets", params=TICKETS, headers={"X-Request-ID": "req-42"})
    finally:
        logger.removeHandler(handler)
    lines = [json.loads(line) for line in buffer.getvalue().splitlines()]
    request = next(x for x in lines if x["msg"] == "request" and x.get("request_id") == "req-42")
    assert request["endpoint"] == "/v1/tickets" and request["status"] == 200
    assert request["freshness"] == "realtime" and request["latency_ms"] >= 0
    assert request["sources"] == {"sandbox-12306": "ok", "sandbox-juhe": "error"}
    upstream = [
        x for x in lines if x["logger"] == "railtrip.sources" and x.get("source") == "sandbox-juhe"
    ]
    assert upstream and all(x.get("request_id") == "req-42" for x in upstream)


async def test_readyz_reports_each_dependency() -> None:
    async with running(Settings(source_overrides=FAST)) as (client, _):
        body = (await client.get("/readyz")).json()
    assert body["redis"] == "disabled" and body["llm"] == "disabled"
    assert body["sources"] == {"sandbox-12306": "ok", "sandbox-juhe": "ok"}
