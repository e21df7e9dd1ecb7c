"""Overload over HTTP: a full source queue answers 503 `overloaded` with Retry-After at once,
counted in `railtrip_rejections_total`, never as `unavailable` nor as the sources' failure."""

from __future__ import annotations

import asyncio

import httpx

from app.main import create_app
from app.runtime import Runtime
from app.settings import Settings
from tests.app.apps import sample, upstream_requests
from tests.clocks import FakeTime

ONE_SLOW_SOURCE = Settings(
    sources=["sandbox-12306"],
    source_overrides={"sandbox-12306": {"concurrency": 1, "queue_limit": 1, "rate_per_s": 100}},
)


def tickets(day: int) -> dict[str, str]:
    return {"origin": "北京", "destination": "上海", "date": f"2026-12-0{day}"}


async def test_a_query_beyond_the_source_queue_is_503_overloaded_with_retry_after():
    time = FakeTime()
    gate = asyncio.Event()

    async def gated_sleep(seconds: float) -> None:
        await gate.wait()  # the sandbox's latency: held until the test lets go

    app = create_app(
        ONE_SLOW_SOURCE, Runtime(clock=time.now, monotonic=time.monotonic, sleep=gated_sleep)
    )
    async with app.router.lifespan_context(app):
        state = app.state.services
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://railtrip") as client:
            knobs = await client.post("/sandbox/12306/faults", json={"latency_ms": 1})
            assert knobs.status_code == 200
            admitted = [
                asyncio.create_task(client.get("/v1/tickets", params=tickets(day)))
                for day in (2, 3)
            ]
            admission = state.sources[0].admission
            for _ in range(10_000):
                if admission.inside == 2:
                    break
                await asyncio.sleep(0)
            assert admission.inside == 2

            vendor = state.sandbox_faults["12306"]
            reached_before = vendor.requests_total
            refused = await client.get("/v1/tickets", params=tickets(4))
            assert vendor.requests_total == reached_before  # it never went upstream
            assert refused.status_code == 503
            body = refused.json()
            assert body["code"] == "overloaded" and body["reason"] == "overloaded"
            assert int(refused.headers["retry-after"]) >= 1
            assert "所有数据源均无响应" not in body["message"]
            assert sample(state, "railtrip_rejections_total", reason="overloaded") == 1
            # Labelled with the route it was refused on, never `unmatched`.
            http = {"endpoint": "/v1/tickets", "method": "GET", "status": "503"}
            assert sample(state, "railtrip_http_requests_total", **http) == 1
            assert (
                sample(
                    state,
                    "railtrip_responses_total",
                    endpoint="/v1/tickets",
                    freshness="unavailable",
                )
                == 0
            )

            gate.set()
            served = await asyncio.gather(*admitted)
            assert [r.status_code for r in served] == [200, 200]
            assert [r.json()["freshness"] for r in served] == ["realtime", "realtime"]
            assert upstream_requests(state, "sandbox-12306") >= 2


async def test_a_plan_whose_own_leg_was_refused_is_503_overloaded_not_a_failed_plan():
    time = FakeTime()
    gate = asyncio.Event()

    async def gated_sleep(seconds: float) -> None:
        await gate.wait()

    settings = Settings(
        sources=["sandbox-12306"],
        source_overrides={"sandbox-12306": {"concurrency": 1, "queue_limit": 0, "rate_per_s": 100}},
    )
    app = create_app(settings, Runtime(clock=time.now, monotonic=time.monotonic, sleep=gated_sleep))
    async with app.router.lifespan_context(app):
        state = app.state.services
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://railtrip") as client:
            await client.post("/sandbox/12306/faults", json={"latency_ms": 1})
            held = asyncio.create_task(client.get("/v1/tickets", params=tickets(2)))
            admission = state.sources[0].admission
            for _ in range(10_000):
                if admission.inside == 1:
                    break
                await asyncio.sleep(0)
            intent = {
                "kind": "plan_trip",
                "origin": "北京",
                "destination": "上海",
                "date_start": "2026-12-04",
                "return_trip": False,
            }
            refused = await client.post("/v1/plan", json={"intent": intent})
            assert refused.status_code == 503, refused.text[:300]
            assert refused.json()["code"] == "overloaded"
            assert "retry-after" in refused.headers
            assert sample(state, "railtrip_rejections_total", reason="overloaded") == 1
            gate.set()
            assert (await held).status_code == 200
