"""The constraint-honesty checker: pure verdicts on recorded replies, then a smoke run of the
real app on the embedded default (sandbox vendors in-process, clock set to each case's day)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from app.evaluation.harness import PLANS_DIR, PlanCase, load_plan_cases
from app.evaluation.honesty import judge, run_honesty
from app.settings import Settings

BJS = {"telecode": "VNP", "name": "北京南", "city": "北京"}
SHQ = {"telecode": "AOH", "name": "上海虹桥", "city": "上海"}
CASE = PlanCase(
    "t-1",
    dt.date(2026, 12, 1),
    "明天北京到上海，不要无座",
    {
        "constraints": {
            "origin": "北京",
            "destination": "上海",
            "date_start": "2026-12-02",
            "exclude_seat_classes": ["no_seat"],
        }
    },
)


def _offer(number: str, seats: list[tuple[str, int | None, float]]) -> dict[str, Any]:
    return {
        "train_number": number,
        "origin_station": BJS,
        "destination_station": SHQ,
        "depart_at": "2026-12-02T09:00:00+08:00",
        "arrive_at": "2026-12-02T13:28:00+08:00",
        "duration_min": 268,
        "seats": [
            {"seat_class": c, "status": "available", "available": n, "price": p}
            for c, n, p in seats
        ],
    }


def _reply(seat_class: str, relaxed: list[str] = ()) -> dict[str, Any]:
    leg = {
        "train_number": "G1",
        "origin_station": BJS,
        "destination_station": SHQ,
        "depart_at": "2026-12-02T09:00:00+08:00",
        "arrive_at": "2026-12-02T13:28:00+08:00",
        "seat_class": seat_class,
        "unit_price": 553.0,
        "passengers": 1,
        "price": 553.0,
        "segment": 0,
    }
    return {
        "itinerary": {"legs": [leg], "total_price": 553.0},
        "relaxed": [{"constraint": c} for c in relaxed],
        "summary": "",
        "warnings": [],
    }


def test_a_met_constraint_is_met():
    offers = [_offer("G1", [("second", None, 553.0)])]
    assert judge(CASE, _reply("second"), offers).outcome == "met"


def test_an_unmet_constraint_not_named_is_a_silent_violation():
    offers = [_offer("G1", [("no_seat", None, 553.0)])]
    verdict = judge(CASE, _reply("no_seat"), offers)
    assert verdict.outcome == "silent" and "exclude_seat_classes" in verdict.detail


def test_a_named_relaxation_the_offers_contradict_is_a_silent_violation():
    offers = [_offer("G1", [("no_seat", None, 553.0), ("second", 3, 553.0)])]
    verdict = judge(CASE, _reply("no_seat", ["exclude_seat_classes"]), offers)
    assert verdict.outcome == "silent" and "an offer met it" in verdict.detail


def test_a_named_relaxation_the_offers_justify_is_open():
    offers = [_offer("G1", [("no_seat", None, 553.0), ("second", 0, 553.0)])]
    verdict = judge(CASE, _reply("no_seat", ["exclude_seat_classes"]), offers)
    assert verdict.outcome == "relaxed"


def test_no_itinerary_is_no_plan_with_the_reason():
    reply = {"itinerary": None, "summary": "抱歉，没能找到合适的行程", "relaxed": []}
    verdict = judge(CASE, reply, [])
    assert verdict.outcome == "no_plan" and "抱歉" in verdict.detail


async def test_smoke_suite_on_the_embedded_default_has_no_silent_violation():
    cases = load_plan_cases(PLANS_DIR / "honesty_smoke.jsonl")
    # The sandbox's own rate limits would make the test wait for real; lift them.
    fast = {"rate_per_s": 1000.0}
    settings = Settings(
        _env_file=None,
        source_overrides={"sandbox-12306": fast, "sandbox-juhe": fast},
        plan_deadline_s=60,  # a wall-clock bound, tested on its own; not what is judged here
    )
    report = await run_honesty(cases, settings)
    counts = report.counts()
    assert len(report.verdicts) == len(cases)
    assert counts["silent"] == 0, [v for v in report.verdicts if v.outcome == "silent"]
    assert counts["no_plan"] == 0
