"""Each leg priced per passenger (children, students), seats for those who need one, the
budget on the party's price, no overnight ride, and the earliest arrival (pure)."""

from __future__ import annotations

import datetime as dt

import pytest

from rules import LegKey, TripRequest, plan
from rules.party import ride_fares, seats_needed
from rules.relax import minimal_relaxation
from rules.validate import OfferIndex, validate
from sources.fare_rules import TicketKind
from sources.models import SeatClass
from tests.rules.factory import (
    BEIJING,
    BEIJING_SOUTH,
    DAY,
    HONGQIAO,
    NANJING_SOUTH,
    NOW,
    SHANGHAI_STATION,
    book,
    empty,
    high_speed_seats,
    offer,
    seat,
)

NEXT = DAY + dt.timedelta(days=1)
A, S, C, F = TicketKind.ADULT, TicketKind.STUDENT, TicketKind.CHILD, TicketKind.FREE_CHILD


def one_way(**changes: object) -> TripRequest:
    fields: dict[str, object] = {
        "origin": "北京",
        "destination": "上海",
        "depart_date": DAY,
        "return_trip": False,
    }
    return TripRequest.model_validate(fields | changes)


def test_a_family_pays_adult_half_and_nothing_per_ticket() -> None:
    request = one_way(passengers=4, party=(A, A, C, F))
    entries = book(offer("G1", BEIJING_SOUTH, HONGQIAO, "09:00", "13:28"))
    best = plan(request, entries, now=NOW).best
    assert best is not None
    leg = best.legs[0]
    fares = {f.type: (f.count, f.unit_price, f.price) for f in leg.fares}
    assert fares == {
        "adult": (2, 553.0, 1106.0),
        "child": (1, 276.5, 276.5),
        "child_free": (1, 0.0, 0.0),
    }
    assert leg.price == 1382.5 and best.total_price == 1382.5
    assert leg.passengers == 4 and leg.unit_price == 553.0
    index = OfferIndex(o for entry in entries.values() for o in entry.offers)
    assert not validate(best, index)


def test_students_pay_the_student_fare_only_where_it_applies() -> None:
    emu = offer("G1", BEIJING_SOUTH, HONGQIAO, "09:00", "13:28")
    request = one_way(passengers=1, party=(S,))
    second = ride_fares(request, emu, SeatClass.SECOND, 553.0)
    assert [(f.type, f.unit_price) for f in second] == [("student", 415.0)]  # 553 × 0.75
    business = ride_fares(request, emu, SeatClass.BUSINESS, 1747.5)
    assert [(f.type, f.unit_price) for f in business] == [("student", 1747.5)]
    slow = offer(
        "K101",
        BEIJING,
        SHANGHAI_STATION,
        "18:00",
        "09:00",
        seats=(seat(SeatClass.HARD_SLEEPER, 300.0), seat(SeatClass.HARD_SEAT, 160.0)),
    )
    berth = ride_fares(request, slow, SeatClass.HARD_SLEEPER, 300.0)
    assert [(f.type, f.unit_price) for f in berth] == [("student", 220.0)]  # 300 - 160/2


def test_a_free_child_needs_no_seat() -> None:
    request = one_way(passengers=3, party=(A, A, F))
    assert seats_needed(request) == 2
    entries = book(
        offer("G1", BEIJING_SOUTH, HONGQIAO, "09:00", "13:28", seats=high_speed_seats(left=2))
    )
    best = plan(request, entries, now=NOW).best
    assert best is not None and best.train_numbers == ("G1",)
    adults = one_way(passengers=3)
    assert plan(adults, entries, now=NOW).best is None  # three seats are not to be had


def test_the_budget_is_checked_on_the_partys_price() -> None:
    entries = book(offer("G1", BEIJING_SOUTH, HONGQIAO, "09:00", "13:28"))
    family = one_way(passengers=3, party=(A, C, F), budget=900.0)  # 553 + 276.5
    best = plan(family, entries, now=NOW).best
    assert best is not None and best.within_budget is True and best.total_price == 829.5
    adults = one_way(passengers=3, budget=900.0)
    assert plan(adults, entries, now=NOW).best is None


def test_a_party_lists_one_ticket_per_passenger() -> None:
    with pytest.raises(ValueError, match="one ticket per passenger"):
        one_way(passengers=3, party=(A, C))


def test_no_overnight_ride_is_taken_and_relaxed_only_in_the_open() -> None:
    night = offer(
        "D701",
        BEIJING,
        SHANGHAI_STATION,
        "21:00",
        "07:00",
        seats=(seat(SeatClass.EMU_SLEEPER, 700.0),),
    )
    day = offer("G3", BEIJING_SOUTH, HONGQIAO, "14:00", "18:30")
    request = one_way(no_overnight=True, allow_night=True, order="cheapest")
    best = plan(request, book(night, day), now=NOW).best
    assert best is not None and best.train_numbers == ("G3",)
    only_night = book(night)
    assert plan(request, only_night, now=NOW).best is None
    found = minimal_relaxation(request, only_night, now=NOW)
    assert found is not None and found[1] == ("no_overnight",)


def test_no_overnight_rules_out_a_change_that_spends_the_night_on_the_way() -> None:
    # 兰州→敦煌 on the sandbox: 23:20 into 张掖, on at 00:02, is a night on the road too.
    late = (seat(SeatClass.HARD_SEAT, 60.0),)
    first = offer("T295", BEIJING, NANJING_SOUTH, "20:42", "23:20", seats=late)
    night_on = offer(
        "Y670", NANJING_SOUTH, SHANGHAI_STATION, "00:02", "06:28", day=NEXT, seats=late
    )
    morning_on = offer("G7", NANJING_SOUTH, HONGQIAO, "07:10", "08:20", day=NEXT)
    request = one_way(no_overnight=True, allow_night=True, max_transfers=1)
    asked = empty(LegKey("北京", "上海", DAY), LegKey("南京", "上海", DAY))
    through = book(first, night_on) | asked
    assert plan(request.model_copy(update={"no_overnight": False}), through, now=NOW).best
    assert plan(request, through, now=NOW).best is None
    found = minimal_relaxation(request, through, now=NOW)
    assert found is not None and found[1] == ("no_overnight",)
    # A night at the hub is a night away too (不要过夜): only the open relaxation takes it.
    hub_night = book(first, morning_on) | asked
    assert plan(request, hub_night, now=NOW).best is None
    assert plan(request.model_copy(update={"no_overnight": False}), hub_night, now=NOW).best


def test_the_earliest_arrival_is_not_the_earliest_departure() -> None:
    slow = offer(
        "K1", BEIJING, SHANGHAI_STATION, "07:00", "19:00", seats=(seat(SeatClass.HARD_SEAT, 150.0),)
    )
    fast = offer("G5", BEIJING_SOUTH, HONGQIAO, "08:00", "12:30")
    request = one_way(order="earliest_arrival")
    best = plan(request, book(slow, fast), now=NOW).best
    assert best is not None and best.train_numbers == ("G5",)
    early = plan(one_way(order="earliest"), book(slow, fast), now=NOW).best
    assert early is not None and early.train_numbers == ("K1",)
