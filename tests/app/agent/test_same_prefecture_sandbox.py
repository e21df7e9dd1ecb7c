"""A city and a town of the same prefecture are two places (苏州 and 昆山, 成都 and 都江堰):
planned through the real app and the sandbox, boarding in the city proper at the city end
and at the town's own stations at the other; the same place twice is still refused."""

from __future__ import annotations

from typing import Any

from rules.config import in_city_proper
from sources.models import Station
from tests.app.agent.harness import TODAY, running_app


async def _plan(text: str) -> dict[str, Any]:
    async with running_app() as (client, _):
        response = await client.post("/v1/plan", json={"text": text, "today": TODAY})
    assert response.status_code == 200
    body: dict[str, Any] = response.json()
    return body


def _segment(body: dict[str, Any], segment: int) -> list[dict[str, Any]]:
    return [leg for leg in body["itinerary"]["legs"] if leg["segment"] == segment]


def _proper(station: dict[str, Any], city: str) -> bool:
    """The station is in `city`'s city proper (the plan may name the town end as its city)."""
    return station["city"] == city and in_city_proper(Station.model_validate(station))


async def test_a_city_to_a_town_of_its_prefecture_is_planned() -> None:
    body = await _plan("12月5号从苏州去昆山")
    assert body["itinerary"] is not None, (body["summary"], body["clarify_question"])
    out = _segment(body, 0)
    assert _proper(out[0]["origin_station"], "苏州"), out[0]
    assert out[-1]["destination_station"]["name"] in ("昆山", "昆山南"), out[-1]
    assert "苏州→昆山" in body["understood"]


async def test_the_ride_home_boards_at_the_town_and_alights_in_the_city_proper() -> None:
    body = await _plan("12月5号从苏州去昆山，12月6号回")
    assert body["itinerary"] is not None, (body["summary"], body["clarify_question"])
    home = _segment(body, 1)
    assert home[0]["origin_station"]["name"] in ("昆山", "昆山南"), home[0]
    assert _proper(home[-1]["destination_station"], "苏州"), home[-1]


async def test_a_town_to_its_prefecture_city_is_planned() -> None:
    body = await _plan("12月5号从昆山去苏州")
    assert body["itinerary"] is not None, (body["summary"], body["clarify_question"])
    out = _segment(body, 0)
    assert out[0]["origin_station"]["name"] in ("昆山", "昆山南"), out[0]
    assert _proper(out[-1]["destination_station"], "苏州"), out[-1]


async def test_chengdu_to_dujiangyan_is_planned() -> None:
    body = await _plan("12月5号从成都去都江堰")
    assert body["itinerary"] is not None, (body["summary"], body["clarify_question"])
    out = _segment(body, 0)
    assert _proper(out[0]["origin_station"], "成都"), out[0]
    assert out[-1]["destination_station"]["name"].startswith("都江堰"), out[-1]


async def test_the_same_place_twice_is_still_refused() -> None:
    body = await _plan("12月5号从北京去北京南")
    assert body["itinerary"] is None
    assert body["clarify_question"] == "出发地和目的地都在北京，请问您想去哪里？"
