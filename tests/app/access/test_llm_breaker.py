"""The LLM behind a breaker: failing or hanging calls open it, and while it is open plans go
straight to the offline parser (counted, `parser: rules`, said in the reply)."""

from __future__ import annotations

import asyncio

import httpx
import pytest

from app.access import texts as access_texts
from app.settings import Settings
from tests.app.apps import running, sample
from tests.llm_wire import LLM_URL

pytestmark = pytest.mark.httpx_mock(assert_all_responses_were_requested=False)

PLAN = {"text": "后天从北京去上海", "today": "2026-12-01"}
LLM = {"llm_api_key": "test-key", "llm_base_url": "http://llm.test/v1"}


async def plan_parsers(client: httpx.AsyncClient, times: int) -> list[tuple[str, bool]]:
    out = []
    for _ in range(times):
        r = await client.post("/v1/plan", json=PLAN)
        assert r.status_code == 200, r.text[:300]
        body = r.json()
        assert body["itinerary"] is not None, body["summary"]
        out.append((body["parser"], access_texts.LLM_CIRCUIT_OPEN in body["warnings"]))
    return out


async def test_model_timeouts_open_the_breaker_and_later_plans_skip_the_model(httpx_mock):
    httpx_mock.add_exception(httpx.ReadTimeout("model too slow"), url=LLM_URL, is_reusable=True)
    settings = Settings(**LLM, llm_breaker_failures=2)
    async with running(settings) as (client, state):
        assert await plan_parsers(client, 3) == [
            ("rules", False),
            ("rules", False),
            ("rules", True),
        ]
        assert len(httpx_mock.get_requests(url=LLM_URL)) == 2
        assert sample(state, "railtrip_degradations_total", kind="llm_circuit_open") == 1
        fallbacks = sample(state, "railtrip_intent_parse_total", parser="llm", outcome="fallback")
        assert fallbacks == 3


async def test_a_hanging_model_is_cut_at_its_share_of_the_plan_deadline_then_skipped(httpx_mock):
    never = asyncio.Event()

    async def hang(request: httpx.Request) -> httpx.Response:
        await never.wait()  # a model that accepts the request and never answers
        raise AssertionError("unreachable")

    httpx_mock.add_callback(hang, url=LLM_URL, is_reusable=True)
    # The model gets half the plan deadline (0.1 s of 0.2 s), whatever its own timeout says.
    settings = Settings(**LLM, llm_timeout_s=30, plan_deadline_s=0.2, llm_breaker_failures=2)
    async with running(settings) as (client, state):
        assert await plan_parsers(client, 3) == [
            ("rules", False),
            ("rules", False),
            ("rules", True),
        ]
        assert len(httpx_mock.get_requests(url=LLM_URL)) == 2
        assert state.intent_parser._llm.breaker.state == "open"  # type: ignore[union-attr]


async def test_tool_mode_shares_the_breaker_and_does_not_ask_a_model_it_has_opened(httpx_mock):
    httpx_mock.add_exception(httpx.ReadTimeout("model too slow"), url=LLM_URL, is_reusable=True)
    settings = Settings(**LLM, agent_mode="llm_tools", llm_breaker_failures=1)
    async with running(settings) as (client, state):
        r = await client.post("/v1/plan", json=PLAN)
        assert r.status_code == 200
        body = r.json()
        assert body["parser"] == "rules" and body["itinerary"] is not None
        # The intent parse timed out and opened the breaker; tool mode then never called.
        assert len(httpx_mock.get_requests(url=LLM_URL)) == 1
        assert body["agent"]["mode"] == "state_machine"
