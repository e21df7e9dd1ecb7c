"""Places as travellers name them, through the real app and the sandbox (issue 22 items 1
and 2): a county-level city is planned to its own station, never relaxed to its prefecture
while a train to it is on sale; a town's stations all count; a typo's suggestion answered
in chat keeps the trip."""

from __future__ import annotations

from typing import Any

from tests.app.agent.harness import TODAY, running_app


async def _plan(text: str) -> dict[str, Any]:
    async with running_app() as (client, _):
        response = await client.post("/v1/plan", json={"text": text, "today": TODAY})
    assert response.status_code == 200
    body: dict[str, Any] = response.json()
    return body


def _ends(body: dict[str, Any]) -> tuple[str, str]:
    legs = body["itinerary"]["legs"]
    return legs[0]["origin_station"]["name"], legs[-1]["destination_station"]["name"]


async def test_a_county_level_city_is_its_own_station_not_its_prefecture() -> None:
    # 漠河 is filed under 加格达奇; K7041 goes on from 加格达奇 to 漠河.
    body = await _plan("12月5号哈尔滨去漠河 硬卧 一个人")
    assert body["itinerary"] is not None, body["summary"]
    assert _ends(body)[1] == "漠河"
    assert [r for r in body["relaxed"] if r["constraint"] == "destination"] == []
    assert "哈尔滨→漠河" in body["understood"]


async def test_the_origin_is_the_county_level_city_too() -> None:
    body = await _plan("12月5号从漠河回哈尔滨 硬座")
    assert body["itinerary"] is not None, body["summary"]
    assert _ends(body)[0] == "漠河"
    assert [r for r in body["relaxed"] if r["constraint"] == "origin"] == []


async def test_every_station_of_a_town_counts_and_no_train_type_is_falsely_relaxed() -> None:
    # 昆山 is 昆山 and 昆山南 (under 苏州): the G trains stop at 昆山南.
    body = await _plan("12月8号从南京去昆山 高铁 上午")
    assert body["itinerary"] is not None, body["summary"]
    assert _ends(body)[1] in ("昆山", "昆山南")
    assert body["itinerary"]["legs"][0]["train_number"].startswith("G")
    assert [r for r in body["relaxed"] if r["constraint"] == "train_types"] == []


async def test_a_typo_by_sound_is_planned_and_said() -> None:
    body = await _plan("后天郑洲到洛阳")
    assert body["itinerary"] is not None, body["summary"]
    assert "郑州→洛阳" in body["understood"]
    assert any("郑洲" in w and "郑州" in w for w in body["warnings"])


async def test_a_homophone_of_a_major_city_in_the_route_is_planned_and_said() -> None:
    # 无憾 shares no character with 武汉, but after 从 it can only be the capital it sounds like.
    body = await _plan("明天从无憾去北京，两个人，上午")
    assert body["itinerary"] is not None, body["summary"]
    assert body["understood"].startswith("12月2日 武汉→北京，2人")
    assert any("无憾" in w and "武汉" in w for w in body["warnings"])


async def test_answering_the_place_suggestion_keeps_the_trip() -> None:
    async with running_app() as (client, _):
        # 吴希 sounds like 无锡, no capital and no character kept: asked, not assumed.
        first = (
            await client.post(
                "/v1/chat", json={"text": "明天从吴希去北京，两个人，上午", "today": TODAY}
            )
        ).json()
        assert "您是指无锡吗" in first["summary"]
        second = (
            await client.post(
                "/v1/chat",
                json={"session_id": first["session_id"], "text": "是无锡", "today": TODAY},
            )
        ).json()
    assert second["itinerary"] is not None, second["summary"]
    assert second["understood"].startswith("12月2日 无锡→北京，2人")
    assert _ends(second)[0].startswith("无锡")


async def test_a_town_with_stations_in_two_places_is_asked_and_the_answer_keeps_the_date() -> None:
    # From 北京 the day's trains do not tell 河口北 (蒙自) from 河口南 (兰州): asked.
    async with running_app() as (client, _):
        first = (
            await client.post("/v1/chat", json={"text": "周六从北京去河口", "today": TODAY})
        ).json()
        assert "河口南、河口北" in first["summary"]
        second = (
            await client.post(
                "/v1/chat",
                json={"session_id": first["session_id"], "text": "河口北", "today": TODAY},
            )
        ).json()
    assert second["itinerary"] is not None, second["summary"]
    assert second["understood"].startswith("12月5日 北京→河口北")
    assert _ends(second)[1] == "河口北"


async def test_a_town_with_stations_in_two_places_is_the_one_the_origin_has_trains_to() -> None:
    # 河口北 is reached from 昆明 (红河, 云南), 河口南 from 西宁 (兰州, 甘肃): no question.
    said = (("12月5号昆明出发到河口，一个人", "河口北"), ("5号从西宁到河口", "河口南"))
    for text, station in said:
        body = await _plan(text)
        assert body["itinerary"] is not None, body["summary"]
        assert _ends(body)[1] == station
        assert body["clarify_question"] is None
        assert any(station in w and "河口南、河口北" in w for w in body["warnings"])


async def test_a_place_within_one_city_is_that_city_said_openly() -> None:
    # 鼓浪屿 has no station and its nearest ones are both 厦门's; 长隆 is a landmark of 广州.
    island = await _plan("12月5号从杭州去鼓浪屿玩")
    assert island["itinerary"] is not None, island["summary"]
    assert _ends(island)[1].startswith("厦门")
    assert any("鼓浪屿" in w for w in island["warnings"])
    park = await _plan("12月5号从深圳去长隆 两大一小 孩子5岁")
    assert park["itinerary"] is not None, park["summary"]
    assert _ends(park)[1].startswith("广州")
