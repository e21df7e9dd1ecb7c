"""The planner's own rules, kept over the sandbox network (the real app, cold, on a fixed
clock): an outlying station only where the city proper has no journey that day, a stop at a
hub only where no journey with regular changes exists. Each pair is one the search once broke
the rule on (the optimality bench), or one where the rule's exception is the only way."""

from __future__ import annotations

from typing import Any

from rules.config import MAX_CONNECTION, in_city_proper
from sources.models import Station
from tests.app.agent.harness import TODAY, running_app


async def _plan(intent: dict[str, Any]) -> dict[str, Any]:
    async with running_app() as (client, _):
        fields = {"return_trip": False, "passengers": 1, **intent}
        response = await client.post("/v1/plan", json={"intent": fields, "today": TODAY})
        assert response.status_code == 200
        return response.json()


def _ends(reply: dict[str, Any]) -> tuple[Station, Station]:
    legs = reply["itinerary"]["legs"]
    return (
        Station.model_validate(legs[0]["origin_station"]),
        Station.model_validate(legs[-1]["destination_station"]),
    )


def _waits(reply: dict[str, Any]) -> list[float]:
    return [t["minutes"] for t in reply["itinerary"]["transfers"]]


async def test_the_city_proper_is_boarded_wherever_it_has_a_journey_that_day():
    # No train joins 汕头 and 衢州; from 汕头's own station a change at 潮汕 and one at 福州
    # do (the first search boarded at 潮阳, an outlying station of the prefecture).
    reply = await _plan(
        {"origin": "汕头", "destination": "衢州", "date_start": "2026-12-05", "order": "fastest"}
    )
    assert reply["itinerary"] is not None, reply["summary"]
    board, alight = _ends(reply)
    assert in_city_proper(board) and in_city_proper(alight)
    assert not any("外围车站" in w for w in reply["warnings"])


async def test_an_outlying_station_is_boarded_and_said_where_the_city_proper_has_no_journey():
    # 乐东's own station runs no train that reaches 蒙自 that day, with changes or without;
    # 尖峰, a town of the prefecture, does.
    reply = await _plan({"origin": "乐东", "destination": "蒙自", "date_start": "2026-12-03"})
    assert reply["itinerary"] is not None, reply["summary"]
    board, _ = _ends(reply)
    assert board.city == "乐东" and not in_city_proper(board)
    assert any(board.name in w and "外围车站" in w for w in reply["warnings"]), reply["warnings"]


async def test_changes_are_regular_wherever_a_journey_with_regular_changes_runs():
    # No train joins 天门 and 德阳; the first search waited 342 minutes at 常州.
    reply = await _plan({"origin": "天门", "destination": "德阳", "date_start": "2026-12-08"})
    assert reply["itinerary"] is not None, reply["summary"]
    assert reply["itinerary"]["transfers"]
    assert all(wait <= MAX_CONNECTION for wait in _waits(reply))


async def test_a_stop_at_a_hub_is_planned_only_where_no_regular_change_joins_the_ends():
    # 万宁→佳木斯 crosses the country: no journey of up to two regular changes runs that day.
    reply = await _plan({"origin": "万宁", "destination": "佳木斯", "date_start": "2026-12-03"})
    assert reply["itinerary"] is not None, reply["summary"]
    assert any(wait > MAX_CONNECTION for wait in _waits(reply))
