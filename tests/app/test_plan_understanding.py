"""`/v1/plan` and `/v1/chat` read back what they understood, ask about typos with the station
directory's suggestions, and validate a structured intent like the tickets query."""

from __future__ import annotations

import pytest

from tests.app.agent.harness import TODAY, running_app

INTENT = {"origin": "北京", "destination": "上海", "date_start": "2026-12-04"}


async def test_plan_reply_reads_back_the_constraints_it_understood() -> None:
    async with running_app() as (client, _):
        response = await client.post(
            "/v1/plan",
            json={"text": "12月10日广州到长沙，不要硬座，预算每人800", "today": TODAY},
        )
    body = response.json()
    assert body["understood"].startswith("12月10日 广州→长沙")
    assert "1人" in body["understood"] and "不要硬座" in body["understood"]
    assert "预算每人800元" in body["understood"]
    assert isinstance(body["relaxed"], list)


async def test_chat_reply_carries_understood_and_relaxed() -> None:
    async with running_app() as (client, _):
        response = await client.post("/v1/chat", json={"text": "明天北京到上海，最早一班"})
    body = response.json()
    assert "北京→上海" in body["understood"] and "最早一班" in body["understood"]
    assert body["relaxed"] == [] or all("constraint" in r for r in body["relaxed"])


async def test_a_misspelt_place_is_asked_about_with_the_directory_suggestion() -> None:
    async with running_app() as (client, _):
        response = await client.post("/v1/plan", json={"text": "明天从北就去上海", "today": TODAY})
    body = response.json()
    assert body["itinerary"] is None
    assert "您是指北京吗？" in body["clarify_question"]


async def test_an_impossible_train_number_is_reported_not_dropped() -> None:
    async with running_app() as (client, _):
        response = await client.post(
            "/v1/plan", json={"text": "明天北京到上海G99999", "today": TODAY}
        )
    body = response.json()
    assert body["intent"]["invalid_train_numbers"] == ["G99999"]
    assert any("G99999" in w for w in body["warnings"])


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"intent": INTENT | {"origin": "北惊"}}, "intent.origin"),
        ({"intent": INTENT | {"date_end": "2026-12-01"}}, "intent.date_end"),
        ({"intent": INTENT, "text": "北京到上海"}, "intent"),
        ({"intent": INTENT | {"via": [{"city": "南京"}] * 9}}, "intent.via"),
        (
            {"intent": INTENT | {"via": [{"city": "南京", "nights": 40}], "nights": 30}},
            "intent.nights",
        ),
    ],
)
async def test_a_structured_intent_is_validated_like_the_tickets_query(body, field) -> None:
    async with running_app() as (client, _):
        response = await client.post("/v1/plan", json=body | {"today": TODAY})
    assert response.status_code == 422
    error = response.json()
    assert error["field"] == field and error["code"] and error["message"]


async def test_unknown_station_in_an_intent_comes_with_suggestions() -> None:
    async with running_app() as (client, _):
        response = await client.post(
            "/v1/plan", json={"intent": INTENT | {"origin": "北惊"}, "today": TODAY}
        )
    assert "北京" in response.json()["suggestions"]


async def test_understood_and_relaxed_are_in_the_openapi_reply_models() -> None:
    async with running_app() as (client, _):
        schema = (await client.get("/openapi.json")).json()
    schemas = schema["components"]["schemas"]
    for reply in ("PlanReply", "ChatReply"):
        assert {"understood", "relaxed"} <= set(schemas[reply]["properties"])
    assert set(schemas["Relaxed"]["properties"]) == {"constraint", "requested", "offered", "reason"}
    intent = schemas["TravelIntent"]["properties"]
    for name in (
        "exclude_seat_classes",
        "exclude_train_types",
        "seat_classes",
        "return_window",
        "arrive_date",
        "order",
        "invalid_train_numbers",
        "out_of_scope_topics",
    ):
        assert name in intent
