"""What one plan request may cost and assume: a client `today` near the server's only, the
sale window always the server's, at most 8 via stops, and a deadline on ticket queries."""

from __future__ import annotations

import datetime as dt

import pytest

from app.agent import texts as agent_texts
from app.agent.machine import MAX_LEG_QUERIES
from app.agent.trip import trip_request
from app.intent.model import TravelIntent, ViaStop
from app.settings import Settings
from rules.limits import MAX_VIA_STOPS
from sources.stations import curated_directory
from tests.app.apps import running, sample, upstream_requests
from tests.clocks import FakeTime

# FakeTime stands at 2026-12-01 08:00 in Shanghai; the sale window ends 2026-12-16.
CITIES = ["南京", "杭州", "苏州", "无锡", "常州", "宁波", "合肥", "济南", "天津", "武汉"]


def intent(**fields: object) -> dict[str, object]:
    return {"kind": "plan_trip", "origin": "北京", "destination": "上海", **fields}


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/v1/plan", {"text": "后天北京到上海", "today": "2026-11-20"}),
        ("/v1/chat", {"text": "后天北京到上海", "today": "2027-01-01"}),
        ("/v1/intent/parse", {"text": "后天北京到上海", "today": "2026-12-03"}),
        ("/v1/plan/stream", {"text": "后天北京到上海", "today": "2026-11-20"}),
        ("/v1/chat/stream", {"text": "后天北京到上海", "today": "2026-12-05"}),
    ],
)
async def test_a_client_today_more_than_a_day_from_the_servers_is_422_naming_today(path, body):
    async with running() as (client, _):
        r = await client.post(path, json=body)
        assert r.status_code == 422, r.text
        assert r.json()["field"] == "today"


async def test_a_client_today_a_day_off_is_accepted_for_relative_dates():
    async with running() as (client, _):
        r = await client.post(
            "/v1/intent/parse", json={"text": "明天北京到上海", "today": "2026-11-30"}
        )
        assert r.status_code == 200
        assert r.json()["intent"]["date_start"] == "2026-12-01"


async def test_the_sale_window_is_the_servers_whatever_today_the_client_sends():
    async with running() as (client, state):
        # Client says 12-02: by its count 12-17 is on sale; by the server's it is not.
        body = {"intent": intent(date_start="2026-12-17", return_trip=False), "today": "2026-12-02"}
        r = await client.post("/v1/plan", json=body)
        assert r.status_code == 200
        reply = r.json()
        assert reply["itinerary"] is None
        assert "尚未开售" in reply["clarify_question"]
        assert upstream_requests(state, "sandbox-12306") == 0


async def test_a_plan_with_too_many_via_stops_is_refused_and_eight_stay_within_the_budget():
    too_many = [{"city": city, "nights": 0} for city in CITIES]
    eight = too_many[:MAX_VIA_STOPS]
    # What is counted is the number of queries, not their pace: at the default 5/s the ~25
    # queries per source cost 4 s of real waiting (the spacing has its own test).
    unpaced = {name: {"rate_per_s": 1000} for name in ("sandbox-12306", "sandbox-juhe")}
    async with running(Settings(source_overrides=unpaced)) as (client, state):
        r = await client.post(
            "/v1/plan",
            json={"intent": intent(date_start="2026-12-04", return_trip=False, via=too_many)},
        )
        assert r.status_code == 422 and r.json()["field"] == "intent.via"
        r = await client.post(
            "/v1/plan",
            json={"intent": intent(date_start="2026-12-04", return_trip=False, via=eight)},
        )
        assert r.status_code == 200
        # Each ticket query asks each source once (retries aside): the budget bounds both.
        # (juhe: 12306's adapter also sets up its session once, which is not a query.)
        assert 0 < upstream_requests(state, "sandbox-juhe") <= MAX_LEG_QUERIES


def test_a_parsed_trip_with_too_many_stops_keeps_the_first_eight_and_says_so():
    stops = [ViaStop(city=city, nights=0) for city in CITIES]
    warnings: list[str] = []
    request = trip_request(
        TravelIntent(origin="北京", destination="上海", date_start=dt.date(2026, 12, 4), via=stops),
        curated_directory(),
        today=dt.date(2026, 12, 1),
        warnings=warnings,
    )
    assert len(request.via) == MAX_VIA_STOPS
    assert agent_texts.VIA_CAPPED.format(n=len(CITIES), max=MAX_VIA_STOPS) in warnings


async def test_past_the_plan_deadline_no_further_ticket_query_is_made():
    time = FakeTime()
    async with running(time=time) as (client, state):
        state.agent.deadline_s = 0.0  # the deadline has passed before the first query
        r = await client.post("/v1/plan", json={"intent": intent(date_start="2026-12-04")})
        assert r.status_code == 200
        reply = r.json()
        assert reply["itinerary"] is None
        assert agent_texts.PLAN_DEADLINE.format(seconds=0.0) in reply["warnings"]
        assert sample(state, "railtrip_cache_requests_total", tier="memory", result="miss") == 0
