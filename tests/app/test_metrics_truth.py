"""Metrics that say what their HELP says: answers by kind, route templates for every route,
and a circuit gauge that reads the same breaker state as /readyz."""

from __future__ import annotations

import httpx
from prometheus_client.parser import text_string_to_metric_families

from app.access import hash_key
from app.main import create_app
from app.settings import Settings
from tests.app.apps import running, sample
from tests.clocks import FakeTime

TODAY = "2026-12-01"
# Two attempts open the breaker; no retries, so each query is one attempt.
BRITTLE = {"breaker_failures": 2, "breaker_cooldown_s": 30, "retries": 0, "rate_per_s": 1000}
OVERRIDES = {"sandbox-12306": BRITTLE, "sandbox-juhe": {"rate_per_s": 1000}}


def http_count(state: object, endpoint: str, method: str, status: str) -> float:
    labels = {"endpoint": endpoint, "method": method, "status": status}
    return sample(state, "railtrip_http_requests_total", **labels)  # type: ignore[arg-type]


async def test_clarifications_and_refusals_are_answers_without_freshness() -> None:
    async with running(Settings(source_overrides=OVERRIDES)) as (client, state):
        asked = await client.post("/v1/plan", json={"text": "我想去上海玩", "today": TODAY})
        refused = await client.post("/v1/plan", json={"text": "帮我写一篇游记", "today": TODAY})
        planned = await client.post("/v1/plan", json={"text": "12月5日北京到上海", "today": TODAY})
        invalid = await client.post("/v1/plan", json={"today": TODAY})
    assert asked.json()["clarify_question"] and refused.json()["itinerary"] is None
    assert planned.json()["itinerary"] is not None and invalid.status_code == 422

    def answers(kind: str) -> float:
        return sample(state, "railtrip_answers_total", endpoint="/v1/plan", kind=kind)

    assert [answers(k) for k in ("clarification", "refusal", "tickets", "error")] == [1, 1, 1, 1]
    # Only the plan carried tickets: one realtime answer, no unavailable ones.
    assert sample(state, "railtrip_responses_total", endpoint="/v1/plan", freshness="realtime") == 1
    assert (
        sample(state, "railtrip_responses_total", endpoint="/v1/plan", freshness="unavailable") == 0
    )


async def test_every_route_is_labelled_by_its_template() -> None:
    async with running() as (client, state):
        assert (await client.get("/docs")).status_code == 200
        assert (await client.get("/openapi.json")).status_code == 200
        faults = await client.post("/sandbox/12306/faults", json={"error_rate": 5})
        assert faults.status_code == 422
        assert (await client.get("/no/such/path")).status_code == 404
        assert (await client.get("/v1/plan")).status_code == 405
    assert http_count(state, "/docs", "GET", "200") == 1
    assert http_count(state, "/openapi.json", "GET", "200") == 1
    assert http_count(state, "/sandbox/{vendor}/faults", "POST", "422") == 1
    assert http_count(state, "/v1/plan", "GET", "405") == 1
    assert http_count(state, "unmatched", "GET", "404") == 1


async def test_circuit_gauge_shows_half_open_after_the_cool_down_like_readyz() -> None:
    time = FakeTime()
    async with running(Settings(source_overrides=OVERRIDES), time=time) as (client, state):

        def gauge() -> float:
            return sample(state, "railtrip_source_circuit_state", source="sandbox-12306")

        assert gauge() == 0
        await client.post("/sandbox/12306/faults", json={"error_rate": 1})
        for day in ("2026-12-04", "2026-12-05"):
            query = {"origin": "北京", "destination": "上海", "date": day}
            assert (await client.get("/v1/tickets", params=query)).status_code == 200
        assert (await client.get("/readyz")).json()["sources"]["sandbox-12306"] == "open-circuit"
        assert gauge() == 2
        # Nothing calls the breaker during the cool-down; a scrape alone must see it change.
        time.advance(31)
        scraped = (await client.get("/metrics")).text
        assert 'railtrip_source_circuit_state{source="sandbox-12306"} 1.0' in scraped
        assert (await client.get("/readyz")).json()["sources"]["sandbox-12306"] == (
            "half-open-circuit"
        )


async def test_a_mounted_app_is_labelled_by_its_mount_path() -> None:
    async def mounted(scope, receive, send) -> None:  # a bare ASGI app, as /mcp will be
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"ok"})

    app = create_app(Settings())
    app.mount("/mcp", mounted)
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://railtrip") as client:
            assert (await client.post("/mcp/")).status_code == 200
        assert http_count(app.state.services, "/mcp", "POST", "200") == 1


async def test_refusals_before_the_handler_are_labelled_with_the_route_they_were_for() -> None:
    key = "rt_label_test_5c1d"
    keyed = Settings(api_keys=[f"web:{hash_key(key)}"], client_rate_per_s=0.01, client_burst=1)
    async with running(keyed) as (client, state):
        assert (
            await client.get("/v1/trains/G1/stops", params={"date": "2026-12-04"})
        ).status_code == 401
        assert (await client.get("/no/such/path")).status_code == 401
        shown = {"X-API-Key": key}
        big = b"[" + b"1," * 40_000 + b"1]"
        assert (await client.post("/v1/plan", content=big, headers=shown)).status_code == 413
        assert (await client.get("/v1/stations?q=北京", headers=shown)).status_code == 429
        assert (await client.post("/mcp", json={}, headers=shown)).status_code == 429
    assert http_count(state, "/v1/trains/{train_number}/stops", "GET", "401") == 1
    assert http_count(state, "/v1/plan", "POST", "413") == 1
    assert http_count(state, "/v1/stations", "GET", "429") == 1
    assert http_count(state, "/mcp", "POST", "429") == 1
    # Only a path no route knows is `unmatched`, whatever refused it.
    assert http_count(state, "unmatched", "GET", "401") == 1
    # A refusal at an answering route is an answer that never came.
    assert sample(state, "railtrip_answers_total", endpoint="/v1/plan", kind="error") == 1


async def test_every_label_set_known_at_start_up_exists_at_zero_before_any_traffic() -> None:
    settings = Settings(source_overrides=OVERRIDES)
    async with running(settings) as (client, _):
        scraped = (await client.get("/metrics")).text
    samples = {
        (s.name, tuple(sorted(s.labels.items()))): s.value
        for family in text_string_to_metric_families(scraped)
        for s in family.samples
        if s.name.endswith("_total")
    }

    def at_zero(name: str, **labels: str) -> bool:
        return samples.get((name, tuple(sorted(labels.items())))) == 0

    for source in ("sandbox-12306", "sandbox-juhe"):
        for outcome in ("ok", "error", "timeout", "rate_limited", "circuit_open"):
            assert at_zero("railtrip_source_requests_total", source=source, outcome=outcome)
    for reason in ("overloaded", "quota", "unauthorized"):
        assert at_zero("railtrip_rejections_total", reason=reason)
    for kind in ("stale_cache", "redis_down", "llm_fallback", "source_down", "unavailable"):
        assert at_zero("railtrip_degradations_total", kind=kind)
    for result in ("hit", "miss", "stale"):
        assert at_zero("railtrip_cache_requests_total", tier="memory", result=result)
    # No Redis configured: no redis tier (the RedisDown alert keys on it).
    assert ("railtrip_cache_requests_total", (("result", "hit"), ("tier", "redis"))) not in samples
    for endpoint in ("/v1/tickets", "/v1/plan", "/v1/chat/stream", "/v1/bookings/precheck"):
        for kind in ("tickets", "clarification", "refusal", "error"):
            assert at_zero("railtrip_answers_total", endpoint=endpoint, kind=kind)
    for endpoint in ("/v1/trains/{train_number}/stops", "mcp:search_tickets", "mcp:plan_trip"):
        for freshness in ("realtime", "cached", "unavailable"):
            assert at_zero("railtrip_responses_total", endpoint=endpoint, freshness=freshness)
    for outcome in ("ok", "failed"):
        assert at_zero("railtrip_intent_parse_total", parser="rules", outcome=outcome)
    # No model configured: the LLM parser's outcomes are not invented.
    assert not any(
        name == "railtrip_intent_parse_total" and ("parser", "llm") in labels
        for name, labels in samples
    )


async def test_with_redis_and_a_model_their_label_sets_start_at_zero_too(redis_url) -> None:
    settings = Settings(redis_url=redis_url, llm_api_key="sk-test-0123456789abcdef")
    async with running(settings) as (_, state):
        for result in ("hit", "miss", "stale"):
            assert (
                state.metrics.registry.get_sample_value(
                    "railtrip_cache_requests_total", {"tier": "redis", "result": result}
                )
                == 0
            )
        for outcome in ("ok", "retried", "fallback"):
            assert (
                state.metrics.registry.get_sample_value(
                    "railtrip_intent_parse_total", {"parser": "llm", "outcome": outcome}
                )
                == 0
            )
        tokens = {"model": "deepseek-chat", "kind": "prompt"}
        assert state.metrics.registry.get_sample_value("railtrip_llm_tokens_total", tokens) == 0
