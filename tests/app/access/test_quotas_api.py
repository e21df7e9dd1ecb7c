"""Per-client quotas at the HTTP boundary: request rate (429, Retry-After, RateLimit-*),
resetting; shared by two app instances on one Redis; a per-process fallback when Redis is
down; the refresh=true budget; the daily LLM budget handing a client to the offline parser."""

from __future__ import annotations

import logging
import socket

import pytest

from app.access import texts as access_texts
from app.settings import Settings
from tests.app.apps import running, sample
from tests.clocks import FakeTime
from tests.llm_wire import LLM_URL, completion, intent_json

STATIONS = "/v1/stations?q=北京"
TICKETS = {"origin": "北京", "destination": "上海", "date": "2026-12-04"}


async def test_over_the_rate_is_429_with_retry_after_and_ratelimit_fields_then_resets():
    time = FakeTime()
    async with running(Settings(client_rate_per_s=1.0, client_burst=2), time) as (client, state):
        first = await client.get(STATIONS)
        assert first.status_code == 200
        assert first.headers["ratelimit-limit"] == "2"
        assert first.headers["ratelimit-remaining"] == "1"
        assert (await client.get(STATIONS)).status_code == 200

        refused = await client.get(STATIONS)
        assert refused.status_code == 429
        assert refused.json()["code"] == "quota_exceeded"
        assert refused.json()["reason"] == "quota"
        assert refused.headers["retry-after"] == "1"
        assert refused.headers["ratelimit-remaining"] == "0"
        assert refused.headers["ratelimit-reset"] == "1"
        assert sample(state, "railtrip_rejections_total", reason="quota") == 1

        time.advance(1.0)
        assert (await client.get(STATIONS)).status_code == 200


async def test_probes_are_never_rate_limited():
    async with running(Settings(client_rate_per_s=1.0, client_burst=1)) as (client, _):
        statuses = [(await client.get("/healthz")).status_code for _ in range(5)]
        assert statuses == [200] * 5


async def test_two_instances_on_one_redis_share_one_client_budget(redis_url):
    # One request per 100 s after a burst of 2: Redis's real clock cannot refill it mid-test.
    settings = Settings(redis_url=redis_url, client_rate_per_s=0.01, client_burst=2)
    async with running(settings) as (a, _), running(settings) as (b, b_state):
        assert (await a.get(STATIONS)).status_code == 200
        assert (await b.get(STATIONS)).status_code == 200
        refused = await a.get(STATIONS)
        assert refused.status_code == 429
        assert 60 <= int(refused.headers["retry-after"]) <= 100
        assert (await b.get(STATIONS)).status_code == 429
        assert sample(b_state, "railtrip_rejections_total", reason="quota") == 1


def _dead_redis_url() -> str:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"redis://127.0.0.1:{port}/0"


async def test_with_redis_down_quotas_apply_per_process_and_the_switch_is_logged_once(caplog):
    caplog.set_level(logging.INFO, logger="railtrip.access")
    settings = Settings(redis_url=_dead_redis_url(), client_rate_per_s=1.0, client_burst=2)
    async with running(settings) as (client, state):
        statuses = [(await client.get(STATIONS)).status_code for _ in range(4)]
        assert statuses == [200, 200, 429, 429]
        assert sample(state, "railtrip_degradations_total", kind="quota_local") == 4
    switched = [r for r in caplog.records if "per-process quotas apply" in r.getMessage()]
    assert len(switched) == 1


async def test_refresh_true_has_its_own_small_budget():
    async with running(Settings(client_refresh_per_min=1.0)) as (client, state):
        fresh = {**TICKETS, "refresh": "true"}
        statuses = [(await client.get("/v1/tickets", params=fresh)).status_code for _ in range(4)]
        assert statuses == [200, 200, 200, 429]
        assert (await client.get("/v1/tickets", params=TICKETS)).status_code == 200
        assert sample(state, "railtrip_rejections_total", reason="quota") == 1


LLM = {"llm_api_key": "test-key", "llm_base_url": "http://llm.test/v1"}
PLAN = {"text": "后天从北京去上海", "today": "2026-12-01"}


def model_reply() -> dict:
    body = intent_json(
        kind="query_tickets", origin="北京", destination="上海", date_start="2026-12-03"
    )
    return completion(body)


@pytest.mark.httpx_mock(assert_all_responses_were_requested=False)
@pytest.mark.parametrize("store", ["memory", "redis"])
async def test_the_daily_llm_budget_hands_the_client_to_the_offline_parser(
    httpx_mock, store, request
):
    httpx_mock.add_response(url=LLM_URL, json=model_reply(), is_reusable=True)
    redis = {"redis_url": request.getfixturevalue("redis_server").url} if store == "redis" else {}
    settings = Settings(**LLM, **redis, client_llm_per_day=2)
    async with running(settings) as (client, state):
        if state.redis is not None:
            async for stale in state.redis.scan_iter("railtrip:quota:llm:v1:*"):
                await state.redis.delete(stale)
        parsers = []
        for _ in range(3):
            r = await client.post("/v1/plan", json=PLAN)
            assert r.status_code == 200, r.text[:300]
            parsers.append(
                (r.json()["parser"], access_texts.LLM_DAILY_BUDGET_SPENT in r.json()["warnings"])
            )
        assert parsers == [("llm", False), ("llm", False), ("rules", True)]
        assert len(httpx_mock.get_requests(url=LLM_URL)) == 2
        assert sample(state, "railtrip_degradations_total", kind="llm_quota") == 1
        if store == "redis":
            (key,) = [k async for k in state.redis.scan_iter("railtrip:quota:llm:v1:*")]
            # FakeTime stands at 08:00 in Shanghai: the counter dies at midnight, 16 h away.
            assert 16 * 3600 - 60 <= await state.redis.ttl(key) <= 16 * 3600
