"""`POST /v1/chat` on the sandbox, one kind of turn each: the party as it grows, a class for
the ride home alone, exclusions that accumulate, a named train found too dear, a side question
and a return said with hours only. The plans are checked against the sandbox's own answer."""

from __future__ import annotations

from typing import Any

from tests.app.agent.harness import running_app  # today: Tuesday 2026-12-01
from tests.app.test_chat_changes import segments, talk


def fares(leg: dict[str, Any]) -> dict[str, int]:
    return {fare["type"]: fare["count"] for fare in leg["fares"]}


async def test_a_grandparent_named_through_the_child_is_priced_as_an_adult() -> None:
    async with running_app() as (client, _):
        _, second = await talk(client, "12月5日一家三口从南京去上海，孩子5岁", "孩子奶奶也去")
    assert second["intent"]["passengers"] == 4 and second["intent"]["children"] == [5]
    assert all(fares(leg) == {"adult": 3, "child_free": 1} for leg in second["itinerary"]["legs"])
    assert "3名成人" in second["understood"]


async def test_a_classmate_who_is_also_a_student_rides_on_a_student_ticket() -> None:
    async with running_app() as (client, _):
        _, second = await talk(client, "12月5日从天津去北京，学生票", "再加一个同学，也是学生")
    assert (second["intent"]["passengers"], second["intent"]["students"]) == (2, 2)
    assert all(fares(leg) == {"student": 2} for leg in second["itinerary"]["legs"])
    assert "2张学生票" in second["understood"]


async def test_a_class_for_the_ride_home_alone_is_booked_on_that_ride_only() -> None:
    async with running_app() as (client, _):
        *_, fourth = await talk(
            client, "12月7日上海去北京，八点前出发", "12月9日晚上回", "回程换成卧铺"
        )
    legs = segments(fourth)
    assert [leg["seat_class"] for leg in legs[0]] != [], "the outbound is planned"
    assert all(not leg["seat_class"].endswith("sleeper") for leg in legs[0])
    home = legs[max(legs)]
    assert all(leg["seat_class"].endswith("sleeper") for leg in home)
    assert home[0]["depart_at"][11:13] >= "18", "the evening asked for stays"
    assert "返程卧铺" in fourth["understood"]


async def test_exclusions_accumulate_and_standing_is_no_seat_refused() -> None:
    async with running_app() as (client, _):
        *_, kept = await talk(
            client, "12月5日从北京回哈尔滨，预算三百", "不要无座", "不要夜车，也不要硬座"
        )
        _, refused = await talk(client, "12月5日从北京回哈尔滨，预算三百", "不要夜车，也不要硬座")
    assert kept["intent"]["exclude_seat_classes"] == ["hard_seat", "no_seat"]
    assert kept["intent"]["no_overnight"] is True
    # The day train's hard seat is refused, and standing in its car is no substitute: the
    # berth fits the budget.
    assert refused["intent"]["exclude_seat_classes"] == ["hard_seat"]
    classes = {leg["seat_class"] for leg in refused["itinerary"]["legs"]}
    assert classes and not classes & {"hard_seat", "no_seat"} and refused["relaxed"] == []


async def test_ordinary_trains_wished_for_rule_out_every_emu() -> None:
    async with running_app() as (client, _):
        _, second = await talk(client, "12月5日从天津去北京", "坐普通火车，不坐高铁")
    assert second["intent"]["exclude_train_types"] == ["G", "D", "C"]
    assert all(leg["train_number"][0] not in "GDC" for leg in second["itinerary"]["legs"])


async def test_a_named_train_too_dear_gives_way_to_any_train_at_the_budget() -> None:
    async with running_app() as (client, _):
        first, _, third = await talk(
            client, "12月5号的G1帮我看看", "要两张", "太贵了，两个人总共五百以内"
        )
    assert first["itinerary"]["legs"][0]["train_number"] == "G1"
    assert third["intent"]["train_numbers"] == []
    assert (third["intent"]["origin"], third["intent"]["destination"]) == ("北京", "上海")
    assert third["itinerary"]["total_price"] <= 500 and third["relaxed"] == []


async def test_a_question_about_the_destination_is_declined_and_the_trip_goes_on() -> None:
    async with running_app() as (client, _):
        first, asked, third = await talk(
            client, "12月5日从南京去上海", "上海那边有什么好玩的", "晚上回南京"
        )
    assert asked["itinerary"] is None and asked["intent"] == first["intent"]
    legs = segments(third)
    assert len(legs) == 2, "a return said with hours only comes back the same day"
    assert legs[max(legs)][0]["depart_at"].startswith("2026-12-05")
    assert legs[max(legs)][0]["depart_at"][11:13] >= "18"
