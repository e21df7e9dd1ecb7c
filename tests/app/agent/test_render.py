"""The CLI's plan table (`app.render.render_plan`) on real `/v1/plan` answers."""

from __future__ import annotations

from app.cli.render import render_plan
from tests.app.agent.harness import TODAY, running_app


async def test_plan_renders_summary_legs_days_totals_and_freshness() -> None:
    async with running_app() as (client, _):
        payload = (
            await client.post(
                "/v1/plan", json={"text": "12月4日从北京去上海玩三天，预算2000", "today": TODAY}
            )
        ).json()
    text = render_plan(payload)
    lines = text.splitlines()
    assert lines[0] == payload["summary"]
    for leg in payload["itinerary"]["legs"]:
        assert any(leg["train_number"] in line and "二等座" in line for line in lines)
    assert any(line.startswith("去程") for line in lines)
    assert any(line.startswith("返程") for line in lines)
    assert "日程" in lines
    assert any(line.startswith("合计  ¥") and "在预算内" in line for line in lines)
    assert any(line.startswith("数据  实时 (realtime)") for line in lines)


async def test_a_question_renders_without_a_table() -> None:
    async with running_app() as (client, _):
        payload = (
            await client.post("/v1/plan", json={"text": "下周末去上海", "today": TODAY})
        ).json()
    text = render_plan(payload)
    assert text.splitlines()[0] == "请问您从哪个城市出发？"
    assert "车次" not in text
    assert "数据  不可用 (unavailable)" in text


def test_transfers_and_next_day_arrivals_are_marked() -> None:
    station = {"telecode": "CWQ", "name": "长沙南", "city": "长沙"}
    leg = {
        "train_number": "Z1",
        "origin_station": {"telecode": "BXP", "name": "北京西", "city": "北京"},
        "destination_station": station,
        "depart_at": "2026-12-04T20:00:00+08:00",
        "arrive_at": "2026-12-05T08:00:00+08:00",
        "seat_class": "hard_sleeper",
        "unit_price": 300.0,
        "passengers": 2,
        "price": 600.0,
        "freshness": "cached",
        "segment": 0,
    }
    payload = {
        "summary": "s",
        "itinerary": {
            "legs": [leg],
            "transfers": [
                {"station": station, "to_station": station, "minutes": 30, "same_station": True}
            ],
            "stays": [],
            "days": [],
            "total_price": 600.0,
            "budget": None,
            "within_budget": None,
        },
        "freshness": "cached",
        "sources": [],
        "warnings": ["w"],
    }
    text = render_plan(payload)
    assert "08:00+1" in text and "硬卧" in text and "2×¥300" in text and "缓存" in text
    assert "换乘  长沙南 同站换乘，30分钟" in text
    assert text.endswith("! w")
