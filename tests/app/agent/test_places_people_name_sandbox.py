"""Places as people name them, through the real app and the sandbox: an old city name, a
landmark inside a city and a scenic area without a station each end at the station travellers
take, said openly where it is not the place named."""

from __future__ import annotations

from typing import Any

import pytest

from tests.app.agent.harness import TODAY, running_app


async def _plan(text: str) -> dict[str, Any]:
    async with running_app() as (client, _):
        response = await client.post("/v1/plan", json={"text": text, "today": TODAY})
        assert response.status_code == 200
        return response.json()


@pytest.mark.parametrize(
    ("text", "city"),
    [
        ("12月5号从锦城去渝州，一个人", "重庆"),
        ("12月5号上海出发去看漓江，两个人", "桂林"),
        ("12月5号从杭州去瘦西湖，一个大人", "扬州"),
    ],
)
async def test_a_city_named_by_an_old_name_or_a_landmark_is_planned_there(
    text: str, city: str
) -> None:
    body = await _plan(text)
    assert body["itinerary"] is not None, body["summary"]
    assert body["itinerary"]["legs"][-1]["destination_station"]["city"] == city


@pytest.mark.parametrize(
    ("text", "place", "station"),
    [
        ("12月5号从南宁去友谊关，一个人", "友谊关", "凭祥"),
        ("12月5号从北京去少林寺，两个人", "少林寺", "郑州"),
        ("12月5号从西宁去可可西里", "可可西里", "格尔木"),
    ],
)
async def test_a_scenic_area_without_a_station_is_planned_at_the_one_people_take(
    text: str, place: str, station: str
) -> None:
    body = await _plan(text)
    assert body["itinerary"] is not None, body["summary"]
    assert body["itinerary"]["legs"][-1]["destination_station"]["city"] == station or (
        body["itinerary"]["legs"][-1]["destination_station"]["name"] == station
    )
    assert any(f"{place}没有火车站" in w and station in w for w in body["warnings"])


async def test_a_scenic_area_said_from_its_nearest_station_is_planned_at_the_next() -> None:
    # 少林寺 lies between 郑州 and 洛阳: from 郑州, the train goes to 洛阳.
    body = await _plan("12月5号郑州出发去少林寺，一个人")
    assert body["itinerary"] is not None, body["summary"]
    assert body["itinerary"]["legs"][-1]["destination_station"]["city"] == "洛阳"
