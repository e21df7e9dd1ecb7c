"""Every relaxation path of the agent on the embedded default (sandbox vendors in-process):
each stated constraint is met by the itinerary, or named in `relaxed` and said in the summary."""

from __future__ import annotations

import pytest

from app.evaluation.honesty import check_leg_constraints
from tests.app.agent.harness import TODAY, running_app

SLEEPERS = ["premium_sleeper", "soft_sleeper", "emu_sleeper", "hard_sleeper"]
CASES = [
    (
        "明天凌晨3点前从北京南出发去上海虹桥",
        {"origin": "北京南", "destination": "上海虹桥", "depart_window": "00:00-03:00"},
        {"depart_window"},
    ),
    (
        "明天从上海虹桥到杭州东，要卧铺",
        {"origin": "上海虹桥", "destination": "杭州东", "seat_classes": SLEEPERS},
        {"seat_classes"},
    ),
    (
        "周五南宁东到桂林北，只坐高铁",
        {"origin": "南宁东", "destination": "桂林北", "train_types": ["G"]},
        {"train_types"},
    ),
    (
        "后天北京西到西安北，不坐高铁",
        {"origin": "北京西", "destination": "西安北", "exclude_train_types": ["G"]},
        {"exclude_train_types"},
    ),
    (
        "明天从北京去上海，预算40块",
        {"origin": "北京", "destination": "上海", "budget": 40},
        {"budget"},
    ),
    (
        "明天北京到上海，不要无座，两个人",
        {
            "origin": "北京",
            "destination": "上海",
            "exclude_seat_classes": ["no_seat"],
            "passengers": 2,
        },
        set(),
    ),
    (
        "周六从广州去深圳玩一天，晚上回广州",
        {"origin": "广州", "destination": "深圳", "return_window": "18:00-23:59"},
        {"return_window"},
    ),
]


@pytest.mark.parametrize(("text", "constraints", "may_relax"), CASES)
async def test_constraint_is_met_or_openly_relaxed(text, constraints, may_relax):
    async with running_app() as (client, _):
        response = await client.post("/v1/plan", json={"text": text, "today": TODAY})
    assert response.status_code == 200
    reply = response.json()
    assert reply["understood"], "every plan reply reads back what was understood"
    itinerary = reply["itinerary"]
    assert itinerary is not None, reply["summary"]
    relaxed = {item["constraint"]: item for item in reply["relaxed"]}
    assert set(relaxed) <= may_relax
    for name, met in check_leg_constraints(constraints, itinerary).items():
        assert met or name in relaxed, f"{name} silently unmet: {reply['summary']}"
    for item in relaxed.values():
        assert item["reason"] in reply["summary"] and item["offered"] in reply["summary"]
