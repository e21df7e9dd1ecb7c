"""Metrics that say what their HELP says: answers by kind, route templates for every route,
and a circuit gauge that reads the same breaker state as /readyz."""

from __future__ import annotations

import httpx

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
