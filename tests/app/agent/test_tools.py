"""Tool-calling mode against a scripted model on the chat-completions wire format.

The scripts live in tests/fixtures/llm_tools/ (one JSON list of completions each); the model
endpoint is mocked with pytest-httpx, while the sandbox vendors stay on their ASGI transport.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import httpx
import pytest
from pytest_httpx import HTTPXMock

from app.agent import texts
from app.main import create_app
from app.runtime import Runtime
from tests.app.agent.harness import NOW, TODAY, metric, running_app, settings
from tests.clocks import FakeTime

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "llm_tools"
LLM_URL = "http://llm.test/v1/chat/completions"
TOOL_MODE = {
    "agent_mode": "llm_tools",
    "llm_base_url": "http://llm.test/v1",
    "llm_api_key": "sk-test-not-a-placeholder",
    "llm_model": "test-model",
}
# A structured intent, so the only model traffic is the tool loop under test.
INTENT = {
    "origin": "北京",
    "destination": "上海",
    "date_start": "2026-12-04",
    "return_trip": False,
    "budget": 2000,
}


def script(httpx_mock: HTTPXMock, name: str, *, reusable: bool = False) -> None:
    for completion in json.loads((FIXTURES / name).read_text(encoding="utf-8")):
        httpx_mock.add_response(url=LLM_URL, method="POST", json=completion, is_reusable=reusable)


def sent(httpx_mock: HTTPXMock) -> list[dict[str, Any]]:
    return [json.loads(request.content) for request in httpx_mock.get_requests(url=LLM_URL)]


async def plan(**overrides: Any) -> tuple[dict[str, Any], Any]:
    async with running_app(**(TOOL_MODE | overrides)) as (client, state):
        response = await client.post("/v1/plan", json={"intent": INTENT, "today": TODAY})
    assert response.status_code == 200
    return response.json(), state


async def test_model_that_calls_tools_correctly_gets_a_validated_itinerary(
    httpx_mock: HTTPXMock,
) -> None:
    script(httpx_mock, "well_behaved.json")
    body, state = await plan()
    assert body["agent"]["mode"] == "llm_tools"
    assert body["itinerary"] is not None
    assert body["summary"] == "推荐乘坐G5次列车，二等座有票，在预算内。"
    requests = sent(httpx_mock)
    assert len(requests) == 3
    assert [t["function"]["name"] for t in requests[0]["tools"]] == [
        "search_tickets",
        "find_transfers",
        "build_itinerary",
    ]
    # The assistant's call is written back, and its id is answered by a tool message.
    history = requests[1]["messages"]
    assert history[-2]["role"] == "assistant"
    assert history[-2]["tool_calls"][0]["id"] == "call_1"
    assert history[-1] == {
        "role": "tool",
        "tool_call_id": "call_1",
        "content": history[-1]["content"],
    }
    offers = json.loads(history[-1]["content"])["offers"]
    assert "G5" in [o["train_number"] for o in offers]
    built = json.loads(requests[2]["messages"][-1]["content"])
    assert built["itineraries"][0]["trains"] == [
        leg["train_number"] for leg in body["itinerary"]["legs"]
    ]
    trace = [(s["state"], s["detail"]) for s in body["agent"]["trace"]]
    assert trace[:4] == [
        ("PARSE_INTENT", "北京→上海 2026-12-04"),
        ("LLM_TOOLS", "search_tickets"),
        ("LLM_TOOLS", "build_itinerary"),
        ("LLM_TOOLS", "final text"),
    ]
    assert [s for s, _ in trace[4:]] == ["QUERY_TICKETS", "EVALUATE_OPTIONS", "GENERATE_PLAN"]
    assert metric(state, "railtrip_llm_tokens_total", model="test-model", kind="prompt") == 300


async def test_unknown_tool_is_answered_with_an_error_and_the_plan_still_comes_from_rules(
    httpx_mock: HTTPXMock,
) -> None:
    script(httpx_mock, "unknown_tool.json")
    body, _ = await plan()
    answer = sent(httpx_mock)[1]["messages"][-1]
    assert answer["role"] == "tool" and answer["tool_call_id"] == "call_1"
    assert "unknown tool 'book_ticket'" in json.loads(answer["content"])["error"]
    assert body["itinerary"] is not None
    assert body["summary"] == "已根据查询结果为您规划好行程。"


async def test_model_that_never_stops_calling_tools_is_cut_at_the_bound_and_rules_finish(
    httpx_mock: HTTPXMock,
) -> None:
    script(httpx_mock, "never_stops.json", reusable=True)
    body, _ = await plan(agent_max_steps=10)
    assert body["agent"]["steps"] == 10
    assert len(sent(httpx_mock)) == 6, "1 parse step + 6 model requests + 3 steps to finish"
    assert texts.LLM_STEP_BOUND in body["warnings"]
    assert body["itinerary"] is not None
    assert body["summary"].startswith("已按「北京→上海 · 12月4日 · 预算2000元」为你安排")


async def test_final_text_naming_a_train_not_in_the_results_is_discarded_and_counted(
    httpx_mock: HTTPXMock,
) -> None:
    script(httpx_mock, "invented_train.json")
    body, state = await plan()
    assert "G9999" not in body["summary"]
    assert body["summary"].startswith("已按「北京→上海")
    assert texts.LLM_TEXT_DISCARDED in body["warnings"]
    assert body["itinerary"] is not None
    assert metric(state, "railtrip_invented_train_rejections_total", origin="llm") == 1


async def test_model_failure_hands_the_turn_to_the_state_machine(httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(url=LLM_URL, method="POST", status_code=500, json={"error": "boom"})
    body, state = await plan()
    assert body["agent"]["mode"] == "state_machine"
    assert body["itinerary"] is not None
    assert texts.LLM_FAILED in body["warnings"]
    failed = body["agent"]["trace"][1]
    assert failed["state"] == "LLM_TOOLS" and failed["error"].startswith("InternalServerError")
    assert metric(state, "railtrip_degradations_total", kind="llm_fallback") == 1


@pytest.mark.parametrize("max_steps", [1, 2, 3])
async def test_a_bound_too_small_for_tools_still_ends_with_a_clear_answer(
    httpx_mock: HTTPXMock, max_steps: int
) -> None:
    body, _ = await plan(agent_max_steps=max_steps)
    # the bound counts decisions: fetching and evaluating what one asked for are not
    execution = ("QUERY_TICKETS", "EVALUATE_OPTIONS")
    decisions = {s["step"] for s in body["agent"]["trace"] if s["state"] not in execution}
    assert len(decisions) <= max_steps
    assert body["summary"]
    assert sent(httpx_mock) == [], "no model request once the bound leaves no room for one"


async def test_a_model_call_whose_client_left_never_leaves_the_breaker_probing(
    httpx_mock: HTTPXMock,
) -> None:
    # The breaker's half-open probe was a tool-mode call, and its caller went away mid-call:
    # the probe slot must come back, or the model is never asked again until a restart.
    time = FakeTime()
    completions = json.loads((FIXTURES / "well_behaved.json").read_text(encoding="utf-8"))
    asked, calls = asyncio.Event(), []

    async def model(request: Any) -> Any:
        calls.append(request)
        if len(calls) == 1:
            return httpx.Response(500, json={"error": "boom"})  # opens the breaker
        if len(calls) == 2:  # the half-open probe: hangs until its caller leaves
            asked.set()
            await asyncio.Event().wait()
        return httpx.Response(200, json=completions[len(calls) - 3])

    httpx_mock.add_callback(model, url=LLM_URL, method="POST", is_reusable=True)
    conf = settings(**TOOL_MODE, llm_breaker_failures=1, llm_breaker_cooldown_s=30)
    app = create_app(conf, Runtime(clock=lambda: NOW, monotonic=time.monotonic))
    request = {"intent": INTENT, "today": TODAY}
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://t") as client:
            first = await client.post("/v1/plan", json=request)
            assert first.json()["agent"]["mode"] == "state_machine"  # the model failed
            time.advance(31)
            left = asyncio.create_task(client.post("/v1/plan", json=request))
            await asyncio.wait_for(asked.wait(), 10)
            left.cancel()  # the client disconnected mid-call
            await asyncio.gather(left, return_exceptions=True)
            time.advance(31)
            third = await client.post("/v1/plan", json=request)
    assert third.json()["agent"]["mode"] == "llm_tools", "the model is asked again"
    assert third.json()["itinerary"] is not None
