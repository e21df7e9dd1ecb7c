"""`POST /v1/chat` on the sandbox: a time bound said for the ride home (晚上九点前能到广州,
周日下午回来) is carried to the return leg and read back, never dropped or put on the outbound."""

from __future__ import annotations

from tests.app.agent.harness import TODAY, running_app  # today: Tuesday 2026-12-01
from tests.app.test_chat_changes import segments, talk


async def test_a_return_turn_with_an_arrive_by_bound_lands_the_ride_home_before_it() -> None:
    async with running_app() as (client, _):
        _, second = await talk(client, "下周六从广州去长沙", "周一回来，晚上九点前能到广州就行")
    intent = second["intent"]
    assert intent["date_start"] == "2026-12-12" and intent["date_end"] == "2026-12-14"
    assert intent["arrive_window"] is None, "the bound is the ride home's, not the outbound's"
    assert intent["return_arrive_window"]["end"] == "21:00:00"
    legs = segments(second)
    home = legs[max(legs)]
    assert home[-1]["arrive_at"].startswith("2026-12-14")
    assert home[-1]["arrive_at"][11:16] <= "21:00", "arrives before the bound"
    assert "返程21:00前到" in second["understood"]
    assert not second.get("relaxed")


async def test_one_sentence_carries_the_return_depart_window_and_arrive_by() -> None:
    async with running_app() as (client, _):
        (reply,) = await talk(client, "周五从北京去上海，周日下午回来，晚上十点前到家")
    intent = reply["intent"]
    assert intent["return_window"]["start"] == "12:00:00"
    assert intent["return_arrive_window"]["end"] == "22:00:00"
    assert intent["arrive_window"] is None
    legs = segments(reply)
    home = legs[max(legs)]
    assert "12" <= home[0]["depart_at"][11:13] < "18", "leaves in the afternoon asked for"
    assert home[-1]["arrive_at"].startswith("2026-12-06")
    assert home[-1]["arrive_at"][11:16] <= "22:00"
    assert "返程22:00前到" in reply["understood"]


async def test_an_unmeetable_arrive_by_for_the_ride_home_is_relaxed_in_the_open() -> None:
    async with running_app() as (client, _):
        response = await client.post(
            "/v1/plan", json={"text": "周五从北京去上海，周日回来，早上五点前到家", "today": TODAY}
        )
    assert response.status_code == 200
    reply = response.json()
    assert reply["intent"]["return_arrive_window"]["end"] == "05:00:00"
    relaxed = {item["constraint"]: item for item in reply["relaxed"]}
    assert set(relaxed) == {"return_arrive_window"}, reply["summary"]
    item = relaxed["return_arrive_window"]
    assert item["requested"] == "返程05:00前到"
    assert item["reason"] in reply["summary"] and item["offered"] in reply["summary"]
    legs = segments(reply)
    assert legs[max(legs)][0]["depart_at"].startswith("2026-12-06"), "the day home is kept"
