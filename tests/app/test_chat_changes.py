"""`POST /v1/chat` on the sandbox: each turn is a change to the trip under discussion, and
`understood` never says 往返 without the ride home."""

from __future__ import annotations

from typing import Any

import httpx

from app.intent import texts as intent_texts
from tests.app.agent.harness import TODAY, running_app  # today: Tuesday 2026-12-01


async def talk(client: httpx.AsyncClient, *texts: str) -> list[dict[str, Any]]:
    """One conversation: each text a turn on the same session; the replies in order."""
    replies: list[dict[str, Any]] = []
    session: str | None = None
    for text in texts:
        body: dict[str, Any] = {"text": text, "today": TODAY}
        if session:
            body["session_id"] = session
        response = await client.post("/v1/chat", json=body)
        assert response.status_code == 200, response.text
        replies.append(response.json())
        session = replies[-1]["session_id"]
    return replies


def segments(reply: dict[str, Any]) -> dict[int, list[dict[str, Any]]]:
    found: dict[int, list[dict[str, Any]]] = {}
    for leg in reply["itinerary"]["legs"]:
        found.setdefault(leg.get("segment", 0), []).append(leg)
    return found


async def test_a_return_turn_adds_the_ride_home_and_keeps_the_outbound() -> None:
    async with running_app() as (client, _):
        first, second = await talk(client, "12月5日从北京去上海", "周一晚上回来")
    assert first["intent"]["date_start"] == "2026-12-05"
    assert second["intent"]["date_start"] == "2026-12-05", "the outbound stays"
    assert second["intent"]["date_end"] == "2026-12-07", "the Monday after that Saturday"
    legs = segments(second)
    assert len(legs) == 2
    assert legs[0][0]["depart_at"].startswith("2026-12-05")
    home = legs[max(legs)]
    assert home[0]["depart_at"].startswith("2026-12-07")
    assert home[0]["depart_at"][11:13] >= "18", "the evening asked for"
    assert "往返" in second["understood"]


async def test_a_corrected_destination_keeps_the_date_and_the_wishes() -> None:
    async with running_app() as (client, _):
        _, second = await talk(client, "12月4日从北京去上海，不要无座", "不对，是去杭州")
    intent = second["intent"]
    assert (intent["origin"], intent["destination"]) == ("北京", "杭州")
    assert intent["date_start"] == "2026-12-04" and intent["exclude_seat_classes"] == ["no_seat"]
    last = second["itinerary"]["legs"][-1]
    assert last["destination_station"]["city"] == "杭州"
    assert second["itinerary"]["legs"][0]["depart_at"].startswith("2026-12-04")


async def test_a_side_question_is_declined_and_the_next_turn_changes_the_same_trip() -> None:
    async with running_app() as (client, _):
        _, declined, third = await talk(
            client, "12月4日从北京去上海", "上海那边冷不冷", "再加一个人"
        )
    assert declined["itinerary"] is None
    assert declined["summary"] == intent_texts.refusal("weather")
    assert declined["intent"]["destination"] == "上海"
    assert third["intent"]["passengers"] == 2
    assert third["intent"]["date_start"] == "2026-12-04"
    assert all(leg["passengers"] == 2 for leg in third["itinerary"]["legs"])


async def test_a_new_origin_and_destination_start_a_new_trip() -> None:
    async with running_app() as (client, _):
        _, second = await talk(
            client, "12月4日从北京去上海，两个人，最便宜的", "另外12月6日我一个人从上海去杭州"
        )
    intent = second["intent"]
    assert (intent["origin"], intent["destination"]) == ("上海", "杭州")
    assert intent["passengers"] == 1 and intent["order"] is None
    assert second["itinerary"]["legs"][0]["depart_at"].startswith("2026-12-06")


async def test_too_dear_replans_the_same_trip_at_its_cheapest() -> None:
    async with running_app() as (client, _):
        first, second = await talk(client, "12月4日从北京去上海", "太贵了")
    assert second["intent"]["order"] == "cheapest"
    assert second["intent"]["date_start"] == "2026-12-04"
    assert second["itinerary"]["total_price"] <= first["itinerary"]["total_price"]


async def test_understood_never_says_a_round_trip_the_plan_does_not_make() -> None:
    async with running_app() as (client, _):
        _, second = await talk(client, "12月4日从北京去上海", "12月20日回来")
    assert second["itinerary"] is not None
    assert len(segments(second)) == 1, "12月20日 is not on sale yet"
    assert "往返" not in second["understood"]
    assert "返程未能安排" in second["understood"], "what was heard is still read back"


async def test_too_early_replans_after_the_departure_shown() -> None:
    async with running_app() as (client, _):
        first, second = await talk(client, "12月5日从北京去上海", "太早了")
    shown = first["itinerary"]["legs"][0]["depart_at"]
    assert first["intent"]["shown"]["depart_at"] == shown[11:19]
    later = second["itinerary"]["legs"][0]["depart_at"]
    assert later[:10] == "2026-12-05" and later[11:16] > shown[11:16]


async def test_asking_for_the_return_without_a_day_asks_the_day_and_keeps_the_outbound() -> None:
    async with running_app() as (client, _):
        first, asked, third = await talk(client, "12月5日从北京去上海", "那回程呢", "周日")
    assert asked["itinerary"] is None, "nothing to plan until the day back is said"
    assert asked["clarify_question"] == intent_texts.ASK_RETURN_DATE
    assert "往返" not in asked["understood"] and "返程日期待定" in asked["understood"]
    assert len(segments(third)) == 2 and "往返" in third["understood"]
    out = first["itinerary"]["legs"][0]
    assert segments(third)[0][0]["depart_at"][:10] == out["depart_at"][:10], "the outbound stays"
    assert segments(third)[1][0]["depart_at"].startswith("2026-12-06")
