"""The travellers suite's checker, rule by rule, on hand-made replies and offer lists.

Every rule of BRIEF.md's "How the checker judges" is shown holding and failing. The offers
stand in for `/v1/tickets`: `book_for` answers each query the verdict asks with the offers
between those stations (names or telecodes) on that date, as the endpoint would.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import io
import json
from pathlib import Path
from typing import Any

import pytest

from app.evaluation import plans, travellers
from app.evaluation.expectations import Offer, SeatOffer
from app.evaluation.journeys import read_trip
from app.evaluation.verdicts import (
    Answer,
    Book,
    Verdict,
    judge,
    needed_queries,
    observed_outcome,
)

DAY = "2026-12-02"
STATIONS = {
    "北京南": ("VNP", "北京"),
    "北京": ("BJP", "北京"),
    "上海虹桥": ("AOH", "上海"),
    "上海": ("SHH", "上海"),
    "南京南": ("NKH", "南京"),
    "杭州东": ("HGH", "杭州"),
}
BJ = ["北京南", "北京"]
SH = ["上海虹桥", "上海"]


def station(name: str) -> dict[str, str]:
    code, city = STATIONS[name]
    return {"telecode": code, "name": name, "city": city}


def at(clock: str, day: str = DAY) -> str:
    return f"{day}T{clock}:00+08:00"


def leg(
    train: str,
    origin: str = "北京南",
    destination: str = "上海虹桥",
    depart: str = "08:00",
    arrive: str = "12:30",
    *,
    day: str = DAY,
    arrive_day: str | None = None,
    seat: str = "second",
    unit: float = 500.0,
    passengers: int = 1,
    segment: int = 0,
    fares: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    raw = {
        "train_number": train,
        "origin_station": station(origin),
        "destination_station": station(destination),
        "depart_at": at(depart, day),
        "arrive_at": at(arrive, arrive_day or day),
        "seat_class": seat,
        "unit_price": unit,
        "passengers": passengers,
        "price": unit * passengers,
        "freshness": "realtime",
        "segment": segment,
    }
    if fares is not None:
        raw["fares"] = fares
    return raw


def reply(
    *legs: dict[str, Any],
    understood: str = "",
    relaxed: tuple[tuple[str, str], ...] = (),
    summary: str = "已为你安排",
    clarify: str | None = None,
    intent: dict[str, Any] | None = None,
) -> dict[str, Any]:
    itinerary = (
        {"legs": list(legs), "total_price": sum(raw["price"] for raw in legs)} if legs else None
    )
    return {
        "intent": intent or {"kind": "plan_trip", "out_of_scope_topics": []},
        "itinerary": itinerary,
        "summary": summary,
        "warnings": [],
        "clarify_question": clarify,
        "understood": understood,
        "relaxed": [
            {"constraint": name, "requested": "", "offered": "", "reason": reason}
            for name, reason in relaxed
        ],
    }


def offer(
    train: str,
    origin: str = "北京南",
    destination: str = "上海虹桥",
    depart: str = "08:00",
    arrive: str = "12:30",
    *,
    day: str = DAY,
    arrive_day: str | None = None,
    seats: tuple[tuple[str, str, int | None, float], ...] = (("second", "available", None, 500.0),),
) -> Offer:
    start = dt.datetime.fromisoformat(at(depart, day))
    end = dt.datetime.fromisoformat(at(arrive, arrive_day or day))
    return Offer(
        train_number=train,
        origin=origin,
        origin_code=STATIONS[origin][0],
        destination=destination,
        destination_code=STATIONS[destination][0],
        depart=start,
        arrive=end,
        minutes=int((end - start).total_seconds() // 60),
        seats=tuple(SeatOffer(*seat) for seat in seats),
    )


def book_for(expect: dict[str, Any], answer: dict[str, Any], offers: list[Offer]) -> Book:
    """What `/v1/tickets` would answer to every query the verdict asks."""

    def matches(place: str, name: str) -> bool:
        return place in (name, STATIONS[name][0], STATIONS[name][1])

    return {
        query: Answer(
            tuple(
                o
                for o in offers
                if matches(query.origin, o.origin)
                and matches(query.destination, o.destination)
                and o.depart.date() == query.date
            )
        )
        for query in needed_queries(expect, answer)
    }


def verdict_of(expect: dict[str, Any], answer: dict[str, Any], offers: list[Offer]) -> Verdict:
    return judge(expect, answer, book_for(expect, answer, offers))


G1 = offer("G1", depart="08:00", arrive="12:30")
G7 = offer("G7", depart="19:00", arrive="23:30")
G1_LEG = leg("G1", depart="08:00", arrive="12:30")


# -- stated expectations, relaxations --------------------------------------------------------


def test_a_met_constraint_is_right() -> None:
    expect = {"outbound": {"from": BJ, "to": SH, "date": DAY, "depart_after": "18:00"}}
    answer = reply(leg("G7", depart="19:00", arrive="23:30"))
    verdict = verdict_of(expect, answer, [G1, G7])
    assert verdict.right, verdict.failures


def test_an_unmet_constraint_not_named_in_relaxed_is_wrong() -> None:
    expect = {"outbound": {"from": BJ, "to": SH, "depart_after": "18:00"}}
    verdict = verdict_of(expect, reply(G1_LEG), [G1, G7])
    assert not verdict.right
    assert verdict.failures == ["outbound.depart_after: departs 08:00 (G1)"]


def test_an_unmet_constraint_named_when_no_direct_train_meets_it_is_an_honest_relaxation() -> None:
    expect = {"outbound": {"from": BJ, "to": SH, "depart_after": "22:00"}}
    answer = reply(G1_LEG, relaxed=(("depart_window", "没有22点后的车"),))
    verdict = verdict_of(expect, answer, [G1, G7])
    assert verdict.right, verdict.failures
    assert verdict.honest_relaxations == ["outbound.depart_after relaxed as 'depart_window'"]


def test_a_relaxation_claimed_while_a_direct_train_meets_it_is_false() -> None:
    expect = {"outbound": {"from": BJ, "to": SH, "depart_after": "18:00"}}
    answer = reply(G1_LEG, relaxed=(("depart_window", "没有18点后的车"),))
    verdict = verdict_of(expect, answer, [G1, G7])
    assert not verdict.right
    assert not verdict.failures
    assert "G7" in verdict.false_relaxations[0]


def test_the_other_constraints_of_the_journey_decide_whether_a_relaxation_is_honest() -> None:
    # G7 leaves late enough, but it is a G train and the traveller excluded G trains.
    expect = {
        "outbound": {"from": BJ, "to": SH, "depart_after": "18:00", "exclude_train_types": ["G"]}
    }
    answer = reply(leg("D5", depart="08:00"), relaxed=(("depart_window", "无"),))
    assert verdict_of(expect, answer, [G7, offer("D5")]).right


def test_a_train_without_seats_for_the_party_does_not_meet_a_constraint() -> None:
    expect = {"outbound": {"from": BJ, "to": SH, "depart_after": "18:00"}, "passengers": 3}
    full = offer("G7", depart="19:00", seats=(("second", "available", 2, 500.0),))
    answer = reply(leg("G1", passengers=3), relaxed=(("depart_window", "18点后无票"),))
    assert verdict_of(expect, answer, [G1, full]).right
    roomy = offer("G7", depart="19:00", seats=(("second", "available", 3, 500.0),))
    assert verdict_of(expect, answer, [G1, roomy]).false_relaxations


def test_seat_wishes_are_tested_on_the_seats_on_sale() -> None:
    expect = {"outbound": {"from": BJ, "to": SH, "seat_classes": ["hard_sleeper"]}}
    answer = reply(leg("Z1", seat="hard_seat"), relaxed=(("seat_class", "硬卧已售罄"),))
    sold = offer(
        "Z1",
        seats=(("hard_sleeper", "sold_out", 0, 300.0), ("hard_seat", "available", None, 150.0)),
    )
    assert verdict_of(expect, answer, [sold]).right
    on_sale = offer("Z1", seats=(("hard_sleeper", "available", 5, 300.0),))
    assert verdict_of(expect, answer, [on_sale]).false_relaxations


def test_seat_class_labels_in_cases_mean_the_api_names() -> None:
    expect = {"outbound": {"exclude_seat_classes": ["无座"]}}
    assert not verdict_of(expect, reply(leg("G1", seat="no_seat")), [G1]).right
    assert verdict_of(expect, reply(G1_LEG), [G1]).right


def test_a_relaxation_of_the_return_may_be_named_with_a_return_prefix() -> None:
    expect = {
        "outbound": {"from": BJ, "to": SH, "date": DAY},
        "return": {"date": "2026-12-04", "depart_after": "20:00"},
    }
    back = leg("G2", "上海虹桥", "北京南", "09:00", "13:30", day="2026-12-04", segment=1)
    answer = reply(G1_LEG, back, understood="往返", relaxed=(("return_window", "20点后无车"),))
    evening = offer("G8", "上海虹桥", "北京南", "21:00", "23:50", day="2026-12-04")
    assert verdict_of(
        expect, answer, [G1, offer("G2", "上海虹桥", "北京南", day="2026-12-04")]
    ).right
    assert verdict_of(expect, answer, [G1, evening]).false_relaxations
    # The outbound's window is not the return's.
    plain = reply(G1_LEG, back, understood="往返", relaxed=(("depart_after", "无"),))
    on_sale = offer("G2", "上海虹桥", "北京南", "09:00", "13:30", day="2026-12-04")
    assert verdict_of(expect, plain, [G1, on_sale]).right  # a plausible name for either journey
    # The outbound's own window and date are not the return's.
    for outbound_name in ("depart_window", "date_start"):
        named = reply(G1_LEG, back, understood="往返", relaxed=((outbound_name, "无"),))
        assert not verdict_of(expect, named, [G1, on_sale]).right


def test_any_return_field_may_be_named_with_a_return_prefix() -> None:
    expect = {"return": {"exclude_seat_classes": ["no_seat"]}}
    back = leg(
        "G2", "上海虹桥", "北京南", "09:00", "13:30", day="2026-12-04", seat="no_seat", segment=1
    )
    answer = reply(
        G1_LEG, back, understood="往返", relaxed=(("return_exclude_seat_classes", "仅剩无座"),)
    )
    standing = offer(
        "G2", "上海虹桥", "北京南", day="2026-12-04", seats=(("no_seat", "available", None, 500.0),)
    )
    assert verdict_of(expect, answer, [G1, standing]).right
    other = reply(G1_LEG, back, understood="往返", relaxed=(("budget", "仅剩无座"),))
    assert not verdict_of(expect, other, [G1, standing]).right


def test_time_bounds_train_types_train_numbers_and_changes() -> None:
    assert not verdict_of({"outbound": {"depart_before": "07:00"}}, reply(G1_LEG), [G1]).right
    assert not verdict_of({"outbound": {"arrive_before": "12:00"}}, reply(G1_LEG), [G1]).right
    assert verdict_of({"outbound": {"arrive_after": "12:00"}}, reply(G1_LEG), [G1]).right
    by = {"outbound": {"arrive_by": "2026-12-02T12:00"}}
    assert not verdict_of(by, reply(G1_LEG), [G1]).right
    assert verdict_of({"outbound": {"train_types": ["G", "D"]}}, reply(G1_LEG), [G1]).right
    slow = reply(leg("1461"))
    assert not verdict_of({"outbound": {"exclude_train_types": ["P"]}}, slow, [offer("1461")]).right
    assert not verdict_of({"outbound": {"train_number": "G7"}}, reply(G1_LEG), [G1]).right
    change = reply(
        leg("G1", "北京南", "南京南", "08:00", "11:00"),
        leg("G9", "南京南", "上海虹桥", "11:30", "13:00"),
    )
    offers = [offer("G1", "北京南", "南京南"), offer("G9", "南京南", "上海虹桥", "11:30", "13:00")]
    assert not verdict_of({"outbound": {"max_changes": 0}}, change, offers + [G1]).right


def test_an_arrival_bound_is_a_clock_on_the_day_of_travel() -> None:
    # A night train arriving at 05:00 the next morning is not "before noon" on the day it
    # leaves, and it is after any hour of that day.
    night = reply(leg("K1", depart="22:00", arrive="05:00", arrive_day="2026-12-03"))
    k1 = offer("K1", depart="22:00", arrive="05:00", arrive_day="2026-12-03")
    assert not verdict_of({"outbound": {"arrive_before": "12:00"}}, night, [k1]).right
    assert verdict_of({"outbound": {"arrive_after": "23:00"}}, night, [k1]).right
    # …nor a better "latest departure" for a deadline on the day of travel.
    expect = {"outbound": {"arrive_before": "13:00", "order": "latest_depart"}}
    assert verdict_of(expect, reply(G1_LEG), [G1, k1]).right
    # A departure bound after the arrival's hour puts the arrival on the next morning
    # (晚上走早上到: depart_after 18:00, arrive_before 10:00).
    overnight = {"outbound": {"depart_after": "18:00", "arrive_before": "10:00"}}
    k2 = offer("K2", depart="22:00", arrive="11:00", arrive_day="2026-12-03")
    assert verdict_of(overnight, night, [k1]).right
    assert not verdict_of(
        overnight, reply(leg("K2", depart="22:00", arrive="11:00", arrive_day="2026-12-03")), [k2]
    ).right


def test_no_overnight_refuses_night_rides_and_nights_at_a_change() -> None:
    night = reply(leg("Z1", depart="21:00", arrive="07:00", arrive_day="2026-12-03"))
    z1 = offer("Z1", depart="21:00", arrive="07:00", arrive_day="2026-12-03")
    assert not verdict_of({"outbound": {"no_overnight": True}}, night, [z1]).right
    stop = reply(
        leg("G1", "北京南", "南京南", "18:00", "22:00"),
        leg("G9", "南京南", "上海虹桥", "07:00", "08:30", day="2026-12-03"),
    )
    offers = [
        offer("G1", "北京南", "南京南", "18:00", "22:00"),
        offer("G9", "南京南", "上海虹桥", "07:00", "08:30", day="2026-12-03"),
    ]
    assert not verdict_of({"outbound": {"no_overnight": True}}, stop, offers).right
    assert verdict_of({"outbound": {"no_overnight": True}}, reply(G1_LEG), [G1]).right


def test_the_date_must_be_the_one_asked() -> None:
    later = reply(leg("G1", day="2026-12-03"))
    offers = [offer("G1", day="2026-12-03")]
    assert not verdict_of({"outbound": {"date": DAY}}, later, offers).right
    assert verdict_of({"outbound": {"dates": [DAY, "2026-12-03"]}}, later, offers).right


# -- order -----------------------------------------------------------------------------------


CHEAP = offer(
    "K1", depart="10:00", arrive="22:00", seats=(("hard_seat", "available", None, 150.0),)
)


def test_cheapest_is_the_lowest_fare_on_sale_in_the_allowed_classes() -> None:
    expect = {"outbound": {"from": BJ, "to": SH, "order": "cheapest"}}
    verdict = verdict_of(expect, reply(G1_LEG), [G1, CHEAP])
    assert not verdict.right
    assert "K1" in verdict.failures[0]
    chosen = reply(leg("K1", depart="10:00", arrive="22:00", seat="hard_seat", unit=150.0))
    assert verdict_of(expect, chosen, [G1, CHEAP]).right


def test_cheapest_allows_one_percent() -> None:
    expect = {"outbound": {"order": "cheapest"}}
    near = offer("G3", depart="09:00", seats=(("second", "available", None, 496.0),))
    assert verdict_of(expect, reply(G1_LEG), [G1, near]).right
    cheaper = offer("G3", depart="09:00", seats=(("second", "available", None, 490.0),))
    assert not verdict_of(expect, reply(G1_LEG), [G1, cheaper]).right


def test_cheapest_ignores_sold_out_and_excluded_classes() -> None:
    expect = {"outbound": {"order": "cheapest", "exclude_seat_classes": ["hard_seat"]}}
    assert verdict_of(expect, reply(G1_LEG), [G1, CHEAP]).right
    sold = offer("K1", seats=(("hard_seat", "sold_out", 0, 150.0),))
    assert verdict_of({"outbound": {"order": "cheapest"}}, reply(G1_LEG), [G1, sold]).right


def test_order_compares_only_trains_meeting_the_other_constraints() -> None:
    expect = {"outbound": {"order": "cheapest", "train_types": ["G"]}}
    assert verdict_of(expect, reply(G1_LEG), [G1, CHEAP]).right


def test_an_order_on_a_one_way_trip_with_a_budget_compares_trains_within_it() -> None:
    # 600以内要最快的: a faster train over the budget is no better choice; one within it is.
    slow = reply(leg("K1", depart="08:00", arrive="20:00", seat="hard_seat", unit=150.0))
    dear_fast = offer(
        "G9", depart="09:00", arrive="12:00", seats=(("second", "available", None, 700.0),)
    )
    cheap_fast = offer(
        "G9", depart="09:00", arrive="12:00", seats=(("second", "available", None, 500.0),)
    )
    expect = {"outbound": {"order": "fastest"}, "budget_total": 600, "return": False}
    k1 = offer(
        "K1", depart="08:00", arrive="20:00", seats=(("hard_seat", "available", None, 150.0),)
    )
    assert verdict_of(expect, slow, [k1, dear_fast]).right
    assert not verdict_of(expect, slow, [k1, cheap_fast]).right


def test_earliest_latest_fastest_and_earliest_arrival() -> None:
    early = offer("G5", depart="06:00", arrive="11:00")
    fast = offer("G9", depart="09:00", arrive="12:00")
    offers = [G1, G7, early, fast]
    assert not verdict_of({"outbound": {"order": "earliest_depart"}}, reply(G1_LEG), offers).right
    assert not verdict_of({"outbound": {"order": "latest_depart"}}, reply(G1_LEG), offers).right
    assert not verdict_of({"outbound": {"order": "fastest"}}, reply(G1_LEG), offers).right
    assert not verdict_of({"outbound": {"order": "earliest_arrival"}}, reply(G1_LEG), offers).right
    assert verdict_of({"outbound": {"order": "earliest_depart"}}, reply(G1_LEG), [G1, G7]).right
    late = reply(leg("G7", depart="19:00", arrive="23:30"))
    assert verdict_of({"outbound": {"order": "latest_depart"}}, late, offers).right


def test_an_order_compares_trains_not_the_stations_one_train_calls_at() -> None:
    expect = {"outbound": {"from": BJ, "to": SH, "order": "latest_depart"}}
    same_later = offer("G7", "北京", "上海虹桥", depart="19:20", arrive="23:30")
    late = reply(leg("G7", depart="19:00", arrive="23:30"))
    assert verdict_of(expect, late, [G7, same_later]).right
    other_later = offer("G9", "北京", "上海虹桥", depart="19:20", arrive="23:50")
    assert not verdict_of(expect, late, [G7, other_later]).right
    # For price the plan's own train still counts: a cheaper class of it is a cheaper choice.
    two_classes = offer(
        "G7",
        depart="19:00",
        arrive="23:30",
        seats=(("first", "available", None, 800.0), ("second", "available", None, 500.0)),
    )
    dear = reply(leg("G7", depart="19:00", arrive="23:30", seat="first", unit=800.0))
    assert not verdict_of({"outbound": {"order": "cheapest"}}, dear, [two_classes]).right


def test_a_journey_with_changes_is_only_asked_that_no_direct_train_beats_it() -> None:
    change = reply(
        leg("G1", "北京南", "南京南", "08:00", "11:00", unit=300.0),
        leg("G9", "南京南", "上海虹桥", "11:20", "12:20", unit=100.0),
    )
    legs = [
        offer("G1", "北京南", "南京南", "08:00", "11:00"),
        offer("G9", "南京南", "上海虹桥", "11:20", "12:20"),
    ]
    slower = offer("G3", depart="07:00", arrive="12:00")  # 300 min against 260 door to door
    assert verdict_of({"outbound": {"order": "fastest"}}, change, [*legs, slower]).right
    faster = offer("G3", depart="08:30", arrive="12:30")  # 240 min
    assert not verdict_of({"outbound": {"order": "fastest"}}, change, [*legs, faster]).right
    cheaper = offer("G3", depart="08:30", seats=(("second", "available", None, 380.0),))
    assert not verdict_of({"outbound": {"order": "cheapest"}}, change, [*legs, cheaper]).right


# -- the party -------------------------------------------------------------------------------

FAMILY = {"party": {"adults": 2, "children": [3, 8]}}


def family_leg(fares: list[dict[str, Any]] | None, price: float = 1250.0) -> dict[str, Any]:
    raw = leg("G1", unit=500.0, passengers=3, fares=fares)
    raw["price"] = price
    return raw


def fares(*entries: tuple[str, int, float | None, float | None]) -> list[dict[str, Any]]:
    return [{"type": t, "count": c, "unit_price": u, "price": p} for t, c, u, p in entries]


RIGHT_FARES = fares(
    ("adult", 2, 500.0, 1000.0), ("child", 1, 250.0, 250.0), ("child_free", 1, 0, 0)
)


def test_a_family_plan_with_fares_per_passenger_type_is_right() -> None:
    answer = reply(family_leg(RIGHT_FARES), understood="2成人+2儿童（3岁、8岁）")
    verdict = verdict_of(FAMILY, answer, [G1])
    assert verdict.right, verdict.failures


def test_a_leg_without_fares_fails_a_party_with_children() -> None:
    answer = reply(family_leg(None), understood="2成人+2儿童")
    assert any("fares: missing" in f for f in verdict_of(FAMILY, answer, [G1]).failures)


@pytest.mark.parametrize(
    ("wrong", "said"),
    [
        (
            fares(("adult", 2, 500.0, 1000.0), ("child", 1, 300.0, 300.0), ("child_free", 1, 0, 0)),
            "half",
        ),
        (
            fares(
                ("adult", 2, 500.0, 1000.0), ("child", 1, 250.0, 250.0), ("child_free", 1, 0, 50)
            ),
            "child_free",
        ),
        (fares(("adult", 3, 500.0, 1500.0), ("child", 1, 250.0, 250.0)), "counts"),
        (fares(("adult", 2, 500.0, 1000.0), ("child", 2, 250.0, 500.0)), "counts"),
        (
            fares(("adult", 2, 500.0, 1000.0), ("child", 1, 250.0, 200.0), ("child_free", 1, 0, 0)),
            "sum",
        ),
    ],
)
def test_fares_are_checked_against_the_rules_and_the_party(
    wrong: list[dict[str, Any]], said: str
) -> None:
    answer = reply(family_leg(wrong), understood="2成人+2儿童")
    failures = verdict_of(FAMILY, answer, [G1]).failures
    assert any(said in f for f in failures), failures


def test_a_child_of_unknown_age_may_ride_free_or_at_child_fare() -> None:
    expect = {"party": {"adults": 1, "children": [None]}}
    for kind, unit in (("child", 250.0), ("child_free", 0.0)):
        entries = fares(("adult", 1, 500.0, 500.0), (kind, 1, unit, unit))
        answer = reply(family_leg(entries, price=500.0 + unit), understood="1成人带1个孩子")
        assert verdict_of(expect, answer, [G1]).right


def test_students_pay_at_most_the_adult_fare_and_are_read_back() -> None:
    expect = {"party": {"adults": 1, "students": 1}}
    good = fares(("adult", 1, 500.0, 500.0), ("student", 1, 375.0, 375.0))
    answer = reply(family_leg(good, price=875.0), understood="1成人+1学生")
    assert verdict_of(expect, answer, [G1]).right
    dear = fares(("adult", 1, 500.0, 500.0), ("student", 1, 520.0, 520.0))
    assert not verdict_of(
        expect, reply(family_leg(dear, price=1020.0), understood="1成人+1学生"), [G1]
    ).right
    unheard = reply(family_leg(good, price=875.0), understood="2人")
    assert any("students" in f for f in verdict_of(expect, unheard, [G1]).failures)


def test_understood_must_mention_the_children_even_without_a_plan() -> None:
    question = reply(clarify="请问从哪里出发？", understood="?→上海，2人")
    verdict = verdict_of({**FAMILY, "outcome": "clarify"}, question, [])
    assert verdict.failures == ["understood: no mention of the children ('?→上海，2人')"]


def test_a_party_of_adults_is_a_head_count_on_every_leg() -> None:
    expect = {"party": {"adults": 4}}
    assert not verdict_of(expect, reply(leg("G1", passengers=2)), [G1]).right
    assert verdict_of(expect, reply(leg("G1", passengers=4)), [G1]).right


# -- generic promises --------------------------------------------------------------------------


def test_understood_may_not_say_wangfan_without_a_return_journey() -> None:
    verdict = verdict_of({}, reply(G1_LEG, understood="12月2日 北京→上海，往返"), [G1])
    assert any("往返" in f for f in verdict.failures)
    back = leg("G2", "上海虹桥", "北京南", "09:00", "13:30", day="2026-12-04", segment=1)
    offers = [G1, offer("G2", "上海虹桥", "北京南", "09:00", "13:30", day="2026-12-04")]
    assert verdict_of({}, reply(G1_LEG, back, understood="往返"), offers).right


def test_a_leg_not_on_sale_for_its_own_stations_and_date_is_an_invented_train() -> None:
    verdict = verdict_of({}, reply(leg("G999")), [G1])
    assert verdict.failures == [
        "invented train: G999 北京南→上海虹桥 12-02 08:00→12-02 12:30 second is not on sale"
    ]
    elsewhere = offer("G1", "北京", "上海虹桥")  # the same number from another station
    assert not verdict_of({}, reply(G1_LEG), [elsewhere]).right


def test_a_refused_ticket_query_shows_the_leg_is_not_on_sale() -> None:
    answer = reply(G1_LEG)
    book = {query: Answer(error="422 not on sale yet") for query in needed_queries({}, answer)}
    assert "not on sale yet" in judge({}, answer, book).failures[0]


# -- outcomes and words ------------------------------------------------------------------------


def test_outcomes_are_read_from_the_reply_fields() -> None:
    assert observed_outcome(reply(G1_LEG)) == "plan"
    assert observed_outcome(reply(clarify="从哪里出发？")) == "clarify"
    refused = reply(
        summary="抱歉，暂时无法预订酒店。",
        intent={"kind": "out_of_scope", "out_of_scope_topics": ["hotel"]},
    )
    assert observed_outcome(refused) == "decline"
    in_chat = reply(summary="抱歉，我目前只能帮您查询火车票和规划铁路行程，暂时无法帮您预订酒店。")
    assert observed_outcome(in_chat) == "decline"
    assert observed_outcome(reply(summary="12月20日的车票尚未开售。")) == "no_plan"
    assert observed_outcome(reply(summary="")) == "silent"


def test_the_outcome_must_be_one_the_case_accepts() -> None:
    question = reply(clarify="从哪里出发？")
    assert not verdict_of({}, question, []).right  # a plan by default
    assert verdict_of({"outcome": ["plan", "clarify"]}, question, []).right
    assert not verdict_of({"outcome": "no_plan"}, question, []).right
    assert not verdict_of({"outcome": "decline"}, reply(summary="没有找到车次"), []).right


def test_says_any_looks_at_every_text_the_traveller_reads() -> None:
    past = reply(summary="无法安排", relaxed=(("date_start", "该日期已经过去"),))
    assert verdict_of({"outcome": "no_plan", "says_any": ["已经过去", "已过"]}, past, []).right
    assert not verdict_of({"outcome": "no_plan", "says_any": ["已过期"]}, past, []).right


def test_a_berth_wish_must_be_said_not_guaranteed() -> None:
    expect = {"berth_note": True}
    assert not verdict_of(expect, reply(G1_LEG), [G1]).right
    assert verdict_of(expect, reply(G1_LEG, summary="下铺无法保证，以实际出票为准"), [G1]).right
    elsewhere = "已为你安排卧铺。余票以实时查询为准，无法保证"
    assert not verdict_of(expect, reply(G1_LEG, summary=elsewhere), [G1]).right


# -- the trip: return, stays, via, budget ------------------------------------------------------

BACK = leg("G2", "上海虹桥", "北京南", "15:00", "19:30", day="2026-12-04", segment=1)
G2 = offer("G2", "上海虹桥", "北京南", "15:00", "19:30", day="2026-12-04")


def test_a_return_is_required_when_asked_and_refused_when_return_is_false() -> None:
    expect = {"outbound": {"from": BJ, "to": SH}, "return": {"date": "2026-12-04"}}
    missing = verdict_of(expect, reply(G1_LEG), [G1, G2])
    assert missing.failures == ["return: no return journey"]
    assert verdict_of({"return": False}, reply(G1_LEG), [G1]).right
    assert not verdict_of({"return": False}, reply(G1_LEG, BACK), [G1, G2]).right


def test_a_missing_return_named_in_relaxed_is_honest_only_without_trains_back() -> None:
    expect = {"outbound": {"from": BJ, "to": SH}, "return": {"date": "2026-12-04"}}
    answer = reply(G1_LEG, relaxed=(("return_trip", "返程无票"),))
    assert verdict_of(expect, answer, [G1]).right
    assert verdict_of(expect, answer, [G1, G2]).false_relaxations


def test_nights_and_hours_at_the_destination() -> None:
    trip = reply(G1_LEG, BACK, understood="往返")
    assert verdict_of(
        {"nights_at_destination": 2, "min_hours_at_destination": 48}, trip, [G1, G2]
    ).right
    assert not verdict_of({"nights_at_destination": 1}, trip, [G1, G2]).right
    assert not verdict_of({"min_hours_at_destination": 60}, trip, [G1, G2]).right


def test_nights_are_not_excused_by_the_return_time_window() -> None:
    expect = {"outbound": {"from": BJ, "to": SH}, "nights_at_destination": 1}
    back = leg("G2", "上海虹桥", "北京南", "15:00", "19:30", segment=1)
    trip = reply(G1_LEG, back, understood="往返", relaxed=(("return_window", "无"),))
    offers = [G1, offer("G2", "上海虹桥", "北京南", "15:00", "19:30")]
    assert verdict_of(expect, trip, offers).failures == ["nights_at_destination: 0 nights"]
    by_date = reply(G1_LEG, back, understood="往返", relaxed=(("date_end", "无"),))
    assert verdict_of(expect, by_date, offers).right


def test_a_stay_relaxation_is_false_when_a_pair_of_trains_gives_the_stay() -> None:
    expect = {"outbound": {"from": BJ, "to": SH}, "min_hours_at_destination": 60}
    trip = reply(G1_LEG, BACK, understood="往返", relaxed=(("stay", "没有更晚的返程"),))
    assert verdict_of(expect, trip, [G1, G2]).right
    late = offer("G8", "上海虹桥", "北京南", "21:00", "23:30", day="2026-12-04")
    assert verdict_of(expect, trip, [G1, G2, late]).right  # 56.5 hours: still short
    early = offer("G5", depart="00:30", arrive="05:00")  # 64 hours with G8
    assert verdict_of(expect, trip, [G1, G2, late, early]).false_relaxations


def test_budget_is_the_plan_total_and_a_budget_relaxation_needs_every_fare_above_it() -> None:
    expect = {"outbound": {"from": BJ, "to": SH}, "budget_total": 400}
    over = reply(G1_LEG, relaxed=(("budget", "最便宜的也要500元"),))
    assert verdict_of(expect, over, [G1]).right
    assert verdict_of(expect, over, [G1, CHEAP]).false_relaxations
    assert not verdict_of(expect, reply(G1_LEG), [G1]).right
    assert verdict_of({"budget_total": 600}, reply(G1_LEG), [G1]).right


def test_via_stops_are_checked_in_order_with_their_nights() -> None:
    expect = {"via": [{"at": ["南京南", "南京"], "nights": 1}], "outbound": {"to": SH}}
    stay = reply(
        leg("G1", "北京南", "南京南", "08:00", "11:00"),
        leg("G9", "南京南", "上海虹桥", "09:00", "10:30", day="2026-12-03", segment=1),
    )
    offers = [
        offer("G1", "北京南", "南京南", "08:00", "11:00"),
        offer("G9", "南京南", "上海虹桥", "09:00", "10:30", day="2026-12-03"),
    ]
    assert verdict_of(expect, stay, offers).right
    assert not verdict_of({**expect, "via": [{"at": ["南京南"], "nights": 2}]}, stay, offers).right
    assert not verdict_of(expect, reply(G1_LEG), [G1]).right


# -- the trip's shape ------------------------------------------------------------------------


def test_the_return_is_the_last_segment_ending_at_the_origin_city() -> None:
    legs = [
        leg("G1", "北京南", "上海虹桥"),
        leg("G2", "上海", "北京", "15:00", "19:30", day="2026-12-04", segment=1),
    ]
    trip = read_trip({"legs": legs})
    assert trip is not None and trip.back is not None
    assert [x.train_number for x in trip.back.legs] == ["G2"]
    onward = read_trip(
        {"legs": [legs[0], leg("G9", "上海虹桥", "杭州东", segment=1, day="2026-12-04")]}
    )
    assert onward is not None and onward.back is None


def test_the_outbound_runs_through_via_segments_to_the_destination_the_case_names() -> None:
    legs = [
        leg("G1", "北京南", "南京南", "08:00", "11:00"),
        leg("G9", "南京南", "上海虹桥", "09:00", "10:30", day="2026-12-03", segment=1),
    ]
    assert [x.train_number for x in read_trip({"legs": legs}).outbound.legs] == ["G1"]  # type: ignore[union-attr]
    named = read_trip({"legs": legs}, destination_names=SH)
    assert named is not None and [x.train_number for x in named.outbound.legs] == ["G1", "G9"]
    assert named.outbound.changes == 0


def test_needed_queries_ask_for_every_leg_and_for_the_journeys_whose_offers_decide() -> None:
    def asked(expect: dict[str, Any], answer: dict[str, Any]) -> set[tuple[str, str, str]]:
        return {
            (q.origin, q.destination, q.date.isoformat()) for q in needed_queries(expect, answer)
        }

    stated = {"from": BJ, "to": ["上海虹桥"], "dates": [DAY, "2026-12-03"]}
    journey = {(origin, "上海虹桥", day) for origin in BJ for day in (DAY, "2026-12-03")}
    leg_only = {("VNP", "AOH", DAY)}
    assert asked({"outbound": stated}, reply(G1_LEG)) == leg_only
    assert asked({"outbound": {**stated, "order": "fastest"}}, reply(G1_LEG)) == leg_only | journey
    # A miss the reply names needs the offers; one it does not name is wrong without them.
    late = {"outbound": {**stated, "depart_after": "18:00"}}
    named = reply(G1_LEG, relaxed=(("depart_window", "无"),))
    assert asked(late, named) == leg_only | journey
    assert asked(late, reply(G1_LEG, relaxed=(("budget", "无"),))) == leg_only
    assert asked({"outbound": stated}, reply(clarify="?")) == set()


# -- the suite around it -----------------------------------------------------------------------


def test_cases_are_loaded_by_split(tmp_path: Path) -> None:
    path = tmp_path / "cases.jsonl"
    lines = [
        {
            "id": "s-1",
            "today": "2026-12-01",
            "split": "dev",
            "classes": ["times"],
            "text": "a",
            "expect": {},
        },
        {
            "id": "d-1",
            "today": "2026-12-01",
            "split": "heldout",
            "turns": [{"text": "b", "expect": {}}] * 4,
        },
    ]
    path.write_text("\n".join(json.dumps(line) for line in lines) + "\n", encoding="utf-8")
    assert [c.id for c in travellers.load_cases([path])] == ["s-1", "d-1"]
    (heldout,) = travellers.load_cases([path], "heldout")
    assert heldout.dialogue and len(heldout.turns) == 4


def test_a_split_with_no_cases_says_so(tmp_path: Path) -> None:
    path = tmp_path / "cases.jsonl"
    line = {"id": "s-1", "today": "2026-12-01", "text": "a", "expect": {}}
    path.write_text(json.dumps(line) + "\n", encoding="utf-8")
    out = io.StringIO()
    assert travellers.main(path, out, verbose=False, split="heldout") == []
    assert "no cases of split heldout" in out.getvalue()


def test_split_and_json_are_refused_for_suites_without_them(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit):
        plans.main(["--suite", "honesty", "--split", "dev"])
    assert "--split and --json apply to --suite travellers" in capsys.readouterr().err


def test_two_real_cases_run_through_the_app_in_process(tmp_path: Path) -> None:
    path = tmp_path / "cases.jsonl"
    cases = [
        {
            "id": "e-1",
            "today": "2026-12-01",
            "split": "dev",
            "classes": ["other"],
            "text": "帮我订个上海的酒店",
            "expect": {"outcome": "decline"},
        },
        {
            "id": "e-2",
            "today": "2026-12-01",
            "split": "dev",
            "classes": ["places"],
            "text": "12月3日从北京去天津",
            "expect": {"outbound": {"to": ["天津", "天津西", "天津南"], "date": "2026-12-03"}},
        },
    ]
    path.write_text("\n".join(json.dumps(c, ensure_ascii=False) for c in cases), encoding="utf-8")
    out, results_path = io.StringIO(), tmp_path / "results.json"
    results = travellers.main(path, out, verbose=True, split="dev", json_path=results_path)
    assert [r.case.id for r in results] == ["e-1", "e-2"]
    assert results[0].turns[0].verdict.outcome == "decline"
    assert results[1].turns[0].verdict.outcome == "plan"
    assert "overall" in out.getvalue()
    written = json.loads(results_path.read_text(encoding="utf-8"))
    assert [r["id"] for r in written] == ["e-1", "e-2"]


def test_a_case_past_the_time_limit_is_reported_unjudged_and_counted_wrong() -> None:
    case = travellers.Case(
        id="slow-1",
        today=dt.date(2026, 12, 1),
        classes=("times",),
        split="dev",
        turns=(("12月3日从北京去天津", {"outbound": {"date": "2026-12-03"}}),),
        dialogue=False,
    )
    progress = io.StringIO()
    settings = travellers.eval_settings()
    results = asyncio.run(travellers.run_all([case], settings, progress, case_limit=0))
    (turn,) = results[0].turns
    assert not results[0].right
    assert turn.verdict.failures == ["unjudged: ran past 0 s"]
