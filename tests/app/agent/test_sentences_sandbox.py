"""Sentences as travellers say them, planned through the real app and the sandbox (issue 22):
districts and nicknames planned as the places they name, the conventional trains as a kind,
and a wish no ride can meet said openly."""

from __future__ import annotations

from typing import Any

from tests.app.agent.harness import TODAY, running_app


async def _plan(text: str, today: str = TODAY) -> dict[str, Any]:
    async with running_app() as (client, _):
        response = await client.post("/v1/plan", json={"text": text, "today": today})
    assert response.status_code == 200
    body: dict[str, Any] = response.json()
    return body


def _ends(body: dict[str, Any]) -> tuple[str, str]:
    legs = body["itinerary"]["legs"]
    return legs[0]["origin_station"]["city"], legs[-1]["destination_station"]["name"]


async def test_a_district_and_a_nickname_are_the_places_they_name() -> None:
    body = await _plan("12月6号从浦东去苏州工业园区")
    assert body["itinerary"] is not None, body["summary"]
    assert _ends(body) == ("上海", "苏州园区")
    body = await _plan("12月5号从蓉城去山城")
    assert body["itinerary"] is not None, body["summary"]
    assert body["itinerary"]["legs"][-1]["destination_station"]["city"] == "重庆"
    assert "成都→重庆" in body["understood"]


async def test_an_ordinary_train_offered_for_an_emu_wish_is_relaxed_in_the_open() -> None:
    # 凭祥 is served by ordinary trains only (5517, 5511): the EMU wish is relaxed in the open.
    body = await _plan("12月5号南宁去凭祥 有动车吗")
    assert body["itinerary"] is not None, body["summary"]
    relaxed = {r["constraint"]: r for r in body["relaxed"]}
    assert "train_types" in relaxed
    assert relaxed["train_types"]["offered"] == "普客"
