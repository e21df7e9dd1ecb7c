"""`POST /v1/plan` end to end through the ASGI app on the embedded sandbox (fixed clock)."""

from __future__ import annotations

import re

import pytest

from app.agent import texts
from app.agent.summary import train_numbers_in
from tests.app.agent.harness import TODAY, metric, running_app
from tests.app.apps import running

EVERY_FIELD = {
    "intent",
    "itinerary",
    "alternatives",
    "summary",
    "freshness",
    "sources",
    "agent",
    "warnings",
    "clarify_question",
    "understood",
    "relaxed",
}
LEG_FIELDS = {
    "train_number",
    "origin_station",
    "destination_station",
    "depart_at",
    "arrive_at",
    "seat_class",
    "unit_price",
    "passengers",
    "price",
    "freshness",
}


async def test_direct_trip_is_planned_from_live_offers_with_a_template_summary() -> None:
    async with running_app() as (client, state):
        response = await client.post(
            "/v1/plan", json={"text": "下周五从北京去上海玩三天，预算两千左右", "today": TODAY}
        )
    assert response.status_code == 200
    body = response.json()
    assert EVERY_FIELD <= set(body)
    itinerary = body["itinerary"]
    assert LEG_FIELDS <= set(itinerary["legs"][0])
    assert {"legs", "transfers", "stays", "days", "total_price", "budget", "within_budget"} <= set(
        itinerary
    )
    assert [leg["origin_station"]["city"] for leg in itinerary["legs"]] == ["北京", "上海"]
    assert itinerary["within_budget"] is True and itinerary["budget"] == 2000
    assert body["summary"].startswith(
        "已按「北京→上海 · 12月11日–13日 · 预算2000元」为你安排：去程 G"
    )
    trains = [leg["train_number"] for leg in itinerary["legs"]]
    assert set(train_numbers_in(body["summary"])) == set(trains)
    assert body["freshness"] == "realtime"
    assert {s["name"] for s in body["sources"]} == {"sandbox-12306", "sandbox-juhe"}
    assert body["agent"]["mode"] == "state_machine"
    assert [s["state"] for s in body["agent"]["trace"]] == [
        "PARSE_INTENT",
        "QUERY_TICKETS",
        "EVALUATE_OPTIONS",
        "GENERATE_PLAN",
    ]
    assert body["agent"]["steps"] == 4
    assert metric(state, "railtrip_responses_total", endpoint="/v1/plan", freshness="realtime") == 1


async def test_route_without_a_direct_train_is_planned_with_a_transfer_at_a_hub() -> None:
    async with running_app() as (client, _):
        response = await client.post(
            "/v1/plan", json={"text": "12月4日从哈尔滨去厦门玩三天", "today": TODAY}
        )
    body = response.json()
    itinerary = body["itinerary"]
    assert itinerary is not None
    assert itinerary["transfers"], "a change of train is part of the plan"
    outbound = [leg for leg in itinerary["legs"] if leg["segment"] == 0]
    assert len(outbound) == 2
    assert outbound[0]["destination_station"]["city"] == outbound[1]["origin_station"]["city"]
    assert outbound[-1]["destination_station"]["city"] == "厦门"
    assert texts.VIA_TRANSFER in body["summary"] and "换乘" in body["summary"]
    fallback = [s for s in body["agent"]["trace"] if s["state"] == "FALLBACK"]
    # the best hub first, the next one only if needed; never other days or relaxations
    stages = [s["detail"] for s in fallback]
    assert stages[0] == "transfer" and set(stages) <= {"transfer", "more_hubs"}


async def test_traveller_named_train_that_does_not_run_is_rejected_and_alternatives_offered() -> (
    None
):
    async with running_app() as (client, state):
        response = await client.post(
            "/v1/plan", json={"text": "12月4日从北京到上海，我要坐G9999", "today": TODAY}
        )
    body = response.json()
    assert body["itinerary"] is not None
    assert "G9999" not in body["summary"]
    assert "G9999" not in [leg["train_number"] for leg in body["itinerary"]["legs"]]
    assert any("G9999不在北京→上海 12月4日的实时查询结果中" in w for w in body["warnings"])
    assert any(re.match(r"可选车次：G\d+", w) for w in body["warnings"])
    assert metric(state, "railtrip_invented_train_rejections_total", origin="user") == 1


async def test_out_of_scope_request_is_refused_politely_with_no_itinerary() -> None:
    async with running_app() as (client, _):
        response = await client.post("/v1/plan", json={"text": "帮我写一篇游记", "today": TODAY})
    assert response.status_code == 200
    body = response.json()
    assert body["itinerary"] is None
    assert body["summary"].startswith("抱歉，我目前只能帮您查询火车票和规划铁路行程")
    assert body["intent"]["kind"] == "out_of_scope"


async def test_missing_origin_is_a_clarifying_question() -> None:
    async with running_app() as (client, _):
        response = await client.post(
            "/v1/plan", json={"text": "下周末去上海，预算2000", "today": TODAY}
        )
    body = response.json()
    assert body["itinerary"] is None
    assert body["clarify_question"] == "请问您从哪个城市出发？"
    assert body["summary"] == body["clarify_question"]
    assert [s["state"] for s in body["agent"]["trace"]] == ["PARSE_INTENT", "CLARIFY"]


async def test_structured_intent_is_planned_without_parsing_text() -> None:
    intent = {
        "origin": "北京",
        "destination": "上海",
        "date_start": "2026-12-04",
        "return_trip": False,
    }
    async with running_app() as (client, _):
        response = await client.post("/v1/plan", json={"intent": intent, "today": TODAY})
    body = response.json()
    assert body["itinerary"] is not None and len(body["itinerary"]["legs"]) == 1


async def test_second_identical_request_is_served_from_cache_and_says_so() -> None:
    payload = {"text": "12月4日从北京到上海", "today": TODAY}
    async with running_app() as (client, state):
        await client.post("/v1/plan", json=payload)
        body = (await client.post("/v1/plan", json=payload)).json()
    assert body["freshness"] == "cached"
    assert texts.CACHED_PLAN in body["warnings"]
    assert {leg["freshness"] for leg in body["itinerary"]["legs"]} == {"cached"}
    assert metric(state, "railtrip_responses_total", endpoint="/v1/plan", freshness="cached") == 1


async def test_all_sources_down_with_nothing_cached_gives_no_itinerary_and_says_why() -> None:
    async with running_app() as (client, _):
        for vendor in ("12306", "juhe"):
            r = await client.post(f"/sandbox/{vendor}/faults", json={"error_rate": 1.0})
            assert r.status_code == 200
        response = await client.post(
            "/v1/plan", json={"text": "12月4日从北京到上海", "today": TODAY}
        )
    assert response.status_code == 200
    body = response.json()
    assert body["itinerary"] is None
    assert body["freshness"] == "unavailable"
    assert "暂时无法获取北京→上海 12月4日的余票信息" in body["summary"]
    assert body["summary"] in body["warnings"]


@pytest.mark.parametrize(
    ("payload", "field"),
    [
        ({"text": ""}, "text"),
        ({"text": "   "}, "text"),
        ({"text": "北" * 1001}, "text"),
        ({}, "text"),
        ({"text": "北京到上海", "today": "2026-13-01"}, "today"),
        ({"text": "北京到上海", "today": 20261201}, "today"),
        ({"text": "北京到上海", "intent": {"passengers": 0}}, "intent.passengers"),
        ({"text": "北京到上海", "extra": 1}, "extra"),
        ({"intent": {"date_start": "2026-12-04", "date_end": "2027-12-04"}}, "intent"),
    ],
)
async def test_bad_input_is_422_naming_the_field(payload: dict[str, object], field: str) -> None:
    async with running_app() as (client, _):
        response = await client.post("/v1/plan", json=payload)
    assert response.status_code == 422
    assert response.json()["field"] == field


async def test_a_plan_without_any_data_says_so_and_never_that_there_are_no_trains() -> None:
    async with running() as (client, state):
        faults = state.sandbox_faults
        faults["12306"].update(error_rate=1.0, transfer_error_rate=1.0)
        faults["juhe"].update(error_rate=1.0)
        reply = (
            await client.post(
                "/v1/plan", json={"text": "12月6日从北京去上海", "today": "2026-12-01"}
            )
        ).json()
    assert reply["freshness"] == "unavailable" and reply["itinerary"] is None
    assert "没有查到车次" not in reply["summary"] and "没能为" not in reply["summary"]
    assert "暂时无法获取" in reply["summary"] and "这不代表没有车次" in reply["summary"]
    assert "稍后再试" in reply["summary"]
