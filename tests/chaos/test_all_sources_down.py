"""Every source down for a while, then back: stale copies, honest `unavailable`, breakers heal."""

from __future__ import annotations

import asyncio
import time

import pytest

from app.runtime import Runtime
from app.settings import Settings
from tests.chaos.conftest import NOW, assert_honest_freshness, running, sample, ticket_params

pytestmark = pytest.mark.chaos

SOURCES = ("sandbox-12306", "sandbox-juhe")
FAST_BREAKERS = {
    name: {"breaker_failures": 3, "breaker_cooldown_s": 0.2, "rate_per_s": 100.0}
    for name in SOURCES
}


COOLDOWN_S = 30.0
"""The breakers' cool-down in the outage test: longer than any scheduling delay of a loaded
machine, so the breakers are still open when /readyz is asked; the test then moves the
replica's monotonic clock past it instead of waiting."""


class SkipAheadClock:
    """Real monotonic time plus what the test skipped: every wait stays real (timeouts,
    sleeps, the vendors' latency) but the breakers' cool-down ends when the test says."""

    def __init__(self) -> None:
        self.skipped = 0.0

    def __call__(self) -> float:
        return time.monotonic() + self.skipped


async def set_faults(client, vendor: str, **knobs: float) -> None:
    response = await client.post(f"/sandbox/{vendor}/faults", json=knobs)
    assert response.status_code == 200, response.text


async def test_outage_serves_stale_then_unavailable_and_breakers_close_after_recovery():
    """Seen queries come back `cached` with their offers, unseen ones `unavailable`; once the
    vendors heal and the short cool-down passes, /readyz says ok and answers are live again."""
    overrides = {
        name: {**knobs, "breaker_cooldown_s": COOLDOWN_S} for name, knobs in FAST_BREAKERS.items()
    }
    monotonic = SkipAheadClock()
    runtime = Runtime(clock=lambda: NOW, monotonic=monotonic)
    async with running(Settings(source_overrides=overrides), runtime) as (app, client):
        seen = [ticket_params(i) for i in range(3)]
        unseen = [ticket_params(i) for i in range(3, 6)]
        before = {}
        for params in seen:
            response = await client.get("/v1/tickets", params=params)
            assert response.status_code == 200
            assert response.json()["freshness"] == "realtime"
            before[tuple(params.values())] = response.json()["offers"]

        for vendor in ("12306", "juhe"):
            await set_faults(client, vendor, error_rate=1.0)

        for params in seen:
            response = await client.get("/v1/tickets", params={**params, "refresh": "true"})
            assert response.status_code == 200
            body = response.json()
            assert_honest_freshness(body)
            assert body["freshness"] == "cached"
            assert body["offers"] == before[tuple(params.values())]
            assert all(s["status"] != "ok" for s in body["sources"])
            assert body["warnings"]
        for params in unseen:
            response = await client.get("/v1/tickets", params=params)
            assert response.status_code == 200
            body = response.json()
            assert_honest_freshness(body)
            assert body["freshness"] == "unavailable"
            assert {s["freshness"] for s in body["sources"]} == {"unavailable"}

        # Readiness is "this replica can serve": it still serves stale copies and honest
        # unavailable answers, so it stays ready and says which sources are out.
        ready = await client.get("/readyz")
        assert ready.status_code == 200
        assert ready.json()["status"] == "degraded"
        assert set(ready.json()["sources"].values()) <= {"open-circuit", "half-open-circuit"}
        assert sample(app, "railtrip_degradations_total", kind="stale_cache") >= len(seen)
        for name in SOURCES:
            assert (
                sample(app, "railtrip_source_requests_total", source=name, outcome="circuit_open")
                > 0
            ), "an open breaker should have refused calls during the outage"

        for vendor in ("12306", "juhe"):
            await set_faults(client, vendor, error_rate=0.0)

        # The cool-down ends; poll, bounded, until the half-open probes have gone out.
        monotonic.skipped += COOLDOWN_S
        deadline = time.monotonic() + 5.0
        body = None
        while time.monotonic() < deadline:
            response = await client.get("/v1/tickets", params={**unseen[0], "refresh": "true"})
            assert response.status_code == 200
            body = response.json()
            if all(s["status"] == "ok" for s in body["sources"]):
                break
            await asyncio.sleep(0.05)
        assert body is not None and body["freshness"] == "realtime", body
        assert [s["freshness"] for s in body["sources"]] == ["realtime", "realtime"]
        assert body["offers"]

        ready = await client.get("/readyz")
        assert ready.status_code == 200
        assert ready.json()["sources"] == dict.fromkeys(SOURCES, "ok")
        for name in SOURCES:
            assert sample(app, "railtrip_source_circuit_state", source=name) == 0


async def test_plan_during_a_full_outage_is_cached_for_seen_routes_and_explained_for_unseen():
    """A plan built during the outage from what was fetched before says so on every leg;
    a route nobody asked for before gets no itinerary and a reason, never a 5xx."""
    settings = Settings(source_overrides=FAST_BREAKERS)
    async with running(settings) as (_, client):
        seen = {"text": "后天从北京去上海", "today": "2026-12-01"}
        unseen = {"text": "后天从成都去重庆", "today": "2026-12-01"}
        live = await client.post("/v1/plan", json=seen)
        assert live.status_code == 200 and live.json()["itinerary"] is not None
        assert live.json()["freshness"] == "realtime"

        for vendor in ("12306", "juhe"):
            await set_faults(client, vendor, error_rate=1.0)

        cached = await client.post("/v1/plan", json=seen)
        assert cached.status_code == 200
        body = cached.json()
        assert body["freshness"] == "cached"
        assert body["itinerary"] is not None
        assert {leg["freshness"] for leg in body["itinerary"]["legs"]} == {"cached"}
        assert body["warnings"]

        nothing = await client.post("/v1/plan", json=unseen)
        assert nothing.status_code == 200
        body = nothing.json()
        assert body["itinerary"] is None
        assert body["freshness"] == "unavailable"
        assert body["summary"] and body["warnings"]
