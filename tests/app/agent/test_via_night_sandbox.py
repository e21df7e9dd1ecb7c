"""A night train into a stop on the way, through the real app and the sandbox: the nights
said at the stop are counted from the morning it arrives, not from the evening it left."""

from __future__ import annotations

import datetime as dt

from tests.app.agent.harness import TODAY, running_app


async def test_a_night_at_a_stop_reached_by_a_night_train_is_the_night_after_it_arrives() -> None:
    async with running_app() as (client, _):
        response = await client.post(
            "/v1/plan",
            json={"text": "12月7号从哈尔滨去上海，路上在北京住一晚，坐卧铺过去", "today": TODAY},
        )
    assert response.status_code == 200
    body = response.json()
    assert body["itinerary"] is not None, body["summary"]
    legs = body["itinerary"]["legs"]
    into = [leg for leg in legs if leg["destination_station"]["name"].startswith("北京")][0]
    onward = [leg for leg in legs if leg["origin_station"]["name"].startswith("北京")][0]
    arrived = dt.datetime.fromisoformat(into["arrive_at"]).date()
    left = dt.datetime.fromisoformat(onward["depart_at"]).date()
    assert (left - arrived).days == 1, (into["arrive_at"], onward["depart_at"])
