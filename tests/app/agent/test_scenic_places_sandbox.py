"""Scenic places without a station, through the real app and the sandbox: one served station
near it is planned and said; with several and the trip otherwise known, the nearest is planned
and said; with several and the trip still open, a traveller who goes on with the trip without
answering which is planned at the one offered, said openly, and one who turns it down is not."""

from __future__ import annotations

from typing import Any

from tests.app.agent.harness import TODAY, running_app


async def _chat(*texts: str) -> dict[str, Any]:
    async with running_app() as (client, _):
        body: dict[str, Any] = {}
        for text in texts:
            payload: dict[str, Any] = {"text": text, "today": TODAY}
            if body:
                payload["session_id"] = body["session_id"]
            response = await client.post("/v1/chat", json=payload)
            assert response.status_code == 200
            body = response.json()
    return body


async def test_a_scenic_place_with_one_station_near_it_is_planned_there() -> None:
    body = await _chat("12月5号从兰州去莫高窟，两个人")
    assert body["itinerary"] is not None, body["summary"]
    assert body["itinerary"]["legs"][-1]["destination_station"]["name"] == "敦煌"
    assert any("莫高窟没有火车站" in w and "敦煌" in w for w in body["warnings"])


async def test_going_on_with_the_trip_takes_the_station_offered() -> None:
    first = await _chat("想去元阳梯田看看，从昆明出发")
    assert "元阳梯田没有火车站" in first["clarify_question"]
    body = await _chat("想去元阳梯田看看，从昆明出发", "12月5号走，两个大人")
    assert body["itinerary"] is not None, body["summary"]
    assert body["itinerary"]["legs"][-1]["destination_station"]["name"] == "建水"
    assert any("元阳梯田没有火车站，已按最近的火车站建水" in w for w in body["warnings"])


async def test_turning_the_offer_down_plans_nothing_there() -> None:
    # Offered while the day is still open (a known day plans at the nearest at once).
    body = await _chat("想从上海去周庄逛逛", "不要", "12月5号走")
    assert body["itinerary"] is None
    assert not any("已按最近的火车站" in w for w in body["warnings"])


async def test_several_stations_near_and_the_day_known_plans_at_the_nearest_naming_the_rest() -> (
    None
):
    body = await _chat("我们俩12月5号想从哈尔滨坐火车去雪乡玩")
    assert body["itinerary"] is not None, body["summary"]
    assert body["clarify_question"] is None
    assert body["itinerary"]["legs"][-1]["destination_station"]["name"] == "亚布力西"
    assert any(
        w.startswith("雪乡没有火车站，已按最近的火车站亚布力西") and "海林" in w
        for w in body["warnings"]
    ), body["warnings"]


async def test_a_place_whose_own_station_sells_nothing_that_day_is_planned_at_its_usual_one() -> (
    None
):
    # 凤凰 (凤凰古城) has a station of its own, with no train from 长沙 on the network: the
    # station travellers take to it (吉首) is planned and said, not any station of the
    # prefecture the scores prefer (龙山北 is 150 km off).
    body = await _chat("12月5号从长沙去凤凰，一个人")
    assert body["itinerary"] is not None, body["summary"]
    assert body["itinerary"]["legs"][-1]["destination_station"]["name"] == "吉首"
    assert any("凤凰古城站这天没有从长沙过去的车次" in w and "吉首" in w for w in body["warnings"])
    assert not body["relaxed"]


def test_the_usual_stations_of_a_scant_station_are_known_to_the_directory() -> None:
    from app.intent.places import SCANT_STATION_PLACES
    from sources.stations import default_directory

    directory = default_directory()
    for place, stations in SCANT_STATION_PLACES.items():
        assert directory.by_name(place) is not None
        assert stations and all(directory.by_name(name) is not None for name in stations)


def test_no_place_filed_as_without_a_station_has_one_in_the_station_list() -> None:
    # A place that gains a station (长白山, 敦白 line) is a scant-station place: as a
    # no-station place its name is swallowed by the station table and the trip loses its end.
    from app.intent.places import NON_STATION_PLACES
    from sources.stations import default_directory

    directory = default_directory()
    stationed = [p for p in NON_STATION_PLACES if directory.by_name(p) or p in directory.cities()]
    assert stationed == []


async def test_the_station_with_a_train_of_the_kind_said_comes_first() -> None:
    # 高铁 only: 吉首 (the usual station) sees no G train from 长沙, 怀化南 does; taking 吉首
    # would relax the kind of train though a station near 凤凰 meets it.
    body = await _chat("12月5号从长沙坐高铁去凤凰，一个人")
    assert body["itinerary"] is not None, body["summary"]
    legs = body["itinerary"]["legs"]
    assert legs[-1]["destination_station"]["name"] == "怀化南"
    assert all(leg["train_number"].startswith("G") for leg in legs)
    assert not body["relaxed"]
    assert any("怀化南" in w for w in body["warnings"])


async def test_the_station_with_a_train_in_the_hours_said_comes_first() -> None:
    # 下班后 from 长沙: no train reaches 吉首 in the evening, the high-speed trains reach
    # 怀化南 the same evening; the nights said there stay whole.
    body = await _chat("12月4号下班后从长沙去凤凰，一个人，12月6号回")
    assert body["itinerary"] is not None, body["summary"]
    legs = body["itinerary"]["legs"]
    assert legs[0]["destination_station"]["name"] == "怀化南"
    assert legs[0]["arrive_at"].startswith("2026-12-04")
    assert any("怀化南" in w for w in body["warnings"])


async def test_a_mountain_whose_own_station_sells_nothing_is_reached_by_its_railhead() -> None:
    # 长白山 has a station of its own with no train from 沈阳 on the network: the high-speed
    # railhead travellers take (安图西, else 敦化) is planned and said, not a question.
    body = await _chat("12月6号从沈阳坐高铁去长白山，两个人")
    assert body["itinerary"] is not None, body["summary"]
    legs = body["itinerary"]["legs"]
    assert legs[-1]["destination_station"]["name"] in {"安图西", "敦化"}
    assert not body["relaxed"]
    assert any(legs[-1]["destination_station"]["name"] in w for w in body["warnings"])
