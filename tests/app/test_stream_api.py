"""`POST /v1/plan/stream` and `/v1/chat/stream` against uvicorn on a free port.

Every vendor request of the sandbox waits on a gate the test opens (its latency sleep is
injected), so "as it happens" and "a disconnect stops the upstream work" are shown by
what has arrived while the gate is shut, never by how long anything took.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx

from tests.app.apps import running, upstream_requests
from tests.app.served import Event, GatedSleep, gated_runtime, served, served_settings, sse_events

TEXT = "12月4日从北京去上海"
TODAY = "2026-12-01"
PLAN_STATES = ["PARSE_INTENT", "QUERY_TICKETS", "EVALUATE_OPTIONS", "GENERATE_PLAN"]
# Nothing times out while a test holds the gate: no deadline decides what a test sees.
PATIENT: dict[str, Any] = {"query_deadline_s": 600.0}


def patient_settings() -> Any:
    """No timeout fires while the gate is shut; one failure would open a source's breaker."""
    settings = served_settings(**PATIENT)
    overrides = {
        name: {**knobs, "timeout_s": 60.0, "retries": 0, "breaker_failures": 1}
        for name, knobs in settings.source_overrides.items()
    }
    return served_settings(**PATIENT, source_overrides=overrides)


def vendor_requests(state: Any) -> int:
    return sum(faults.requests_total for faults in state.sandbox_faults.values())


async def collect(client: httpx.AsyncClient, path: str, body: dict[str, Any]) -> list[Event]:
    async with client.stream("POST", path, json=body) as response:
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("text/event-stream")
        return [event async for event in sse_events(response)]


async def test_steps_arrive_while_the_run_is_still_querying_then_the_plan_then_done() -> None:
    sleep = GatedSleep()
    async with served(patient_settings(), gated_runtime(sleep)) as server:
        for faults in server.state.sandbox_faults.values():
            faults.update(latency_ms=1)  # every vendor request now waits on the gate
        vendors = len(server.state.sandbox_faults)
        async with (
            httpx.AsyncClient(base_url=server.url, timeout=60) as client,
            client.stream(
                "POST", "/v1/plan/stream", json={"text": TEXT, "today": TODAY}
            ) as response,
        ):
            events = sse_events(response)
            first = await anext(events)
            # The parse step is out while every vendor still holds its query.
            assert first.event == "progress"
            assert json.loads(first.data)["state"] == "PARSE_INTENT"
            await sleep.until(lambda: sleep.waiting >= vendors)
            sleep.gate.set()
            rest = [event async for event in events]
    names = [e.event for e in rest]
    assert names == ["progress"] * 3 + ["plan", "done"]
    progress = [json.loads(first.data)] + [json.loads(e.data) for e in rest[:3]]
    assert [p["state"] for p in progress] == PLAN_STATES
    assert [p["step"] for p in progress] == [1, 2, 3, 4]
    assert progress[0]["message"] == "已理解：北京→上海，12月4日出发"
    assert progress[1]["message"].startswith("查询到 ")
    assert progress[1]["message"].endswith(f"趟列车，{vendors} 个来源")
    plan = json.loads(rest[3].data)
    assert plan["itinerary"] is not None
    assert [(t["step"], t["state"], t["next"]) for t in plan["agent"]["trace"]] == [
        (p["step"], p["state"], p["next"]) for p in progress
    ]
    assert json.loads(rest[4].data) == {}


async def test_plan_event_is_the_plan_endpoint_body() -> None:
    body = {"text": TEXT, "today": TODAY}
    async with served() as server, httpx.AsyncClient(base_url=server.url) as client:
        events = await collect(client, "/v1/plan/stream", body)
    # A separate app on the same clock: the same live data, not the first one's cache.
    async with running(served_settings()) as (plain, _):
        expected = (await plain.post("/v1/plan", json=body)).json()
    plans = [json.loads(e.data) for e in events if e.event == "plan"]
    assert plans == [expected]
    assert expected["freshness"] == "realtime"


async def test_a_client_that_disconnects_cancels_the_run_and_its_upstream_queries() -> None:
    sleep = GatedSleep()
    async with served(patient_settings(), gated_runtime(sleep)) as server:
        for faults in server.state.sandbox_faults.values():
            faults.update(latency_ms=1)
        vendors = len(server.state.sandbox_faults)
        async with (
            httpx.AsyncClient(base_url=server.url, timeout=60) as client,
            client.stream(
                "POST", "/v1/plan/stream", json={"text": TEXT, "today": TODAY}
            ) as response,
        ):
            first = await anext(sse_events(response))
            assert json.loads(first.data)["state"] == "PARSE_INTENT"
            await sleep.until(lambda: sleep.waiting >= vendors)
            received = vendor_requests(server.state)
        # The client is gone: every vendor request it caused is cancelled where it waits.
        await sleep.until(lambda: sleep.cancelled >= vendors and sleep.waiting == 0)
        sleep.gate.set()
        for _ in range(50):  # let anything still scheduled run (no real time passes)
            await asyncio.sleep(0)
        after = vendor_requests(server.state)
        registry = server.state.metrics.registry
        evaluated = registry.get_sample_value(
            "railtrip_agent_state_total", {"state": "EVALUATE_OPTIONS"}
        )
        attempts = sum(
            upstream_requests(server.state, source.name) for source in server.state.sources
        )
        readiness = {source.name: source.readiness() for source in server.state.sources}
    assert received == vendors
    assert attempts == vendors  # each abandoned attempt reached its source and is counted ...
    assert set(readiness.values()) == {"ok"}  # ... but a client leaving is no source failure
    assert sleep.cancelled == vendors
    assert after == received  # no retry, no later step reached a vendor
    assert not evaluated  # the run stopped at its query step


async def test_stream_refuses_bad_input_with_the_plan_endpoints_json_error() -> None:
    async with served() as server, httpx.AsyncClient(base_url=server.url) as client:
        empty = await client.post("/v1/plan/stream", json={})
        blank = await client.post("/v1/plan/stream", json={"text": "  "})
        session = await client.post("/v1/chat/stream", json={"text": TEXT, "session_id": "x!"})
    assert empty.status_code == 422
    assert empty.json()["field"] == "text"
    assert blank.status_code == 422 and blank.json()["field"] == "text"
    assert session.status_code == 422 and session.json()["field"] == "session_id"
    assert {empty.json()["code"], session.json()["code"]} == {"invalid_input"}


async def test_chat_stream_asks_then_continues_the_session(redis_url: str) -> None:
    settings = served_settings(redis_url=redis_url)
    async with served(settings) as server, httpx.AsyncClient(base_url=server.url) as client:
        first = await collect(
            client, "/v1/chat/stream", {"text": "下周末，预算2000", "today": TODAY}
        )
        asked = json.loads(first[-2].data)
        second = await collect(
            client,
            "/v1/chat/stream",
            {"session_id": asked["session_id"], "text": "北京到上海", "today": TODAY},
        )
    assert [e.event for e in first] == ["progress", "progress", "plan", "done"]
    assert json.loads(first[0].data)["message"] == "需要补充信息"
    assert asked["clarify_question"] == "请问您从哪个城市出发，想去哪里？"
    answered = json.loads(second[-2].data)
    assert second[-2].event == "plan" and second[-1].event == "done"
    assert answered["session_id"] == asked["session_id"]
    assert answered["itinerary"] is not None
    assert answered["intent"]["budget"] == 2000


async def test_a_run_that_raises_ends_the_stream_with_an_error_event_not_a_broken_body() -> None:
    async with served() as server, httpx.AsyncClient(base_url=server.url) as client:

        async def broken(*_: object) -> None:
            raise RuntimeError("agent bug")

        server.state.agent.run = broken  # type: ignore[method-assign,assignment]
        events = await collect(client, "/v1/plan/stream", {"text": TEXT, "today": TODAY})
    assert [e.event for e in events] == ["error", "done"]
    assert json.loads(events[0].data) == {
        "code": "internal",
        "message": "规划服务暂时出错，请稍后再试。",
    }
