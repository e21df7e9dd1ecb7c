"""Passenger types over HTTP (issue 23 item 7, reply side; issue 22 items 4, 5): each leg of a
plan priced per passenger, the wishes read back, `fare` on `GET /v1/tickets` and the precheck."""

from __future__ import annotations

from typing import Any

from tests.app.agent.harness import TODAY, running_app
from tests.app.apps import running

DAY = "2026-12-04"
TICKETS = {"origin": "北京", "destination": "上海", "date": DAY}


def fares_of(leg: dict[str, Any]) -> dict[str, tuple[int, float, float]]:
    return {f["type"]: (f["count"], f["unit_price"], f["price"]) for f in leg["fares"]}


async def test_a_family_plan_prices_each_leg_per_passenger_and_says_so() -> None:
    async with running_app() as (client, _):
        response = await client.post(
            "/v1/plan",
            json={
                "text": "12月4日两个大人带一个3岁小孩和一个8岁的孩子从北京到上海",
                "today": TODAY,
            },
        )
    body = response.json()
    assert body["intent"]["passengers"] == 4
    assert body["intent"]["children"] == [3, 8] and body["intent"]["students"] == 0
    assert "2名成人" in body["understood"] and "3岁儿童" in body["understood"]
    legs = body["itinerary"]["legs"]
    for leg in legs:
        fares = fares_of(leg)
        adult = leg["unit_price"]
        assert fares["adult"][0] == 2 and fares["adult"][1] == adult
        assert fares["child_free"] == (1, 0.0, 0.0)
        assert fares["child"][0] == 1 and abs(fares["child"][1] - adult / 2) <= 0.5
        assert abs(sum(f[2] for f in fares.values()) - leg["price"]) < 0.01
    assert abs(body["itinerary"]["total_price"] - sum(leg["price"] for leg in legs)) < 0.01
    assert "免费" in body["summary"] and "儿童票" in body["summary"]


async def test_a_student_rides_on_the_student_fare_and_the_reply_says_whose_prices() -> None:
    async with running_app() as (client, _):
        response = await client.post(
            "/v1/plan", json={"text": "12月4日北京到上海 二等座 学生票", "today": TODAY}
        )
    body = response.json()
    assert body["intent"]["students"] == 1
    assert "学生" in body["understood"]
    leg = body["itinerary"]["legs"][0]
    ((kind, (count, unit, price)),) = fares_of(leg).items()
    assert (kind, count) == ("student", 1)
    assert unit < leg["unit_price"] and price == leg["price"]
    assert "聚合数据只报成人票价" in body["summary"]


async def test_a_party_of_adults_keeps_the_plain_price() -> None:
    async with running_app() as (client, _):
        response = await client.post(
            "/v1/plan", json={"text": "12月4日北京到上海 我们三个人", "today": TODAY}
        )
    leg = response.json()["itinerary"]["legs"][0]
    assert leg["fares"] == [] and leg["price"] == leg["unit_price"] * 3


async def test_a_berth_wish_is_said_as_not_guaranteed() -> None:
    async with running_app() as (client, _):
        response = await client.post(
            "/v1/plan", json={"text": "12月4日晚上北京到上海 软卧下铺", "today": TODAY}
        )
    body = response.json()
    assert body["intent"]["berth"] == "lower"
    assert "下铺（不保证）" in body["understood"]
    if body["itinerary"]:
        assert "无法指定铺位" in body["summary"]


async def test_no_overnight_is_met_or_relaxed_in_the_open() -> None:
    async with running_app() as (client, _):
        response = await client.post(
            "/v1/plan", json={"text": "12月4日北京到上海 不坐夜车", "today": TODAY}
        )
    body = response.json()
    assert body["intent"]["no_overnight"] is True and "不坐夜车" in body["understood"]
    for leg in body["itinerary"]["legs"]:
        assert leg["depart_at"][:10] == leg["arrive_at"][:10]


async def test_the_intent_endpoint_carries_the_new_fields() -> None:
    async with running_app() as (client, _):
        response = await client.post(
            "/v1/intent/parse",
            json={
                "text": "周末北京去天津玩 当天来回 我和老公带两个孩子 越便宜越好",
                "today": TODAY,
            },
        )
    body = response.json()["intent"]
    assert body["children"] == [None, None] and body["passengers"] == 4
    assert body["order"] == "cheapest" and body["leisure"] is True


async def test_tickets_take_a_fare_and_refuse_an_unknown_one_by_name() -> None:
    async with running() as (client, _):
        student = await client.get("/v1/tickets", params={**TICKETS, "fare": "student"})
        bad = await client.get("/v1/tickets", params={**TICKETS, "fare": "senior"})
    assert student.status_code == 200
    assert student.json()["query"]["fare"] == "student"
    assert {o["fare"] for o in student.json()["offers"]} <= {"adult", "student"}
    assert bad.status_code == 422 and bad.json()["field"] == "fare"


async def test_the_precheck_accepts_student_passengers() -> None:
    async with running() as (client, _):
        offers = (await client.get("/v1/tickets", params={**TICKETS, "fare": "student"})).json()[
            "offers"
        ]
        pick = next(
            (o, s)
            for o in offers
            for s in o["seats"]
            if s["seat_class"] == "second" and s["status"] == "available" and s["price"]
        )
        response = await client.post(
            "/v1/bookings/precheck",
            json={
                "train_number": pick[0]["train_number"],
                "date": DAY,
                "origin": "北京",
                "destination": "上海",
                "seat_class": "second",
                "fare": "student",
            },
        )
    body = response.json()
    assert response.status_code == 200, body
    assert body["fare"] == "student" and body["price"] is not None
