"""`validate` and `check_train_numbers`: nothing invented, mistimed or mispriced gets through."""

from __future__ import annotations

import datetime as dt

from rules import Itinerary, TripRequest, check_train_numbers, plan, validate
from rules.model import (
    CONNECTION_TOO_LONG,
    CONNECTION_TOO_SHORT,
    NO_SEATS,
    NOT_CHRONOLOGICAL,
    OVER_BUDGET,
    PRICE_MISMATCH,
    STATION_MISMATCH,
    TIME_MISMATCH,
    UNKNOWN_TRAIN,
)
from sources.models import SeatClass, SeatStatus
from tests.rules.factory import (
    BEIJING_SOUTH,
    DAY,
    HONGQIAO,
    NANJING_SOUTH,
    NOW,
    book,
    offer,
    seat,
)

DAY2 = DAY + dt.timedelta(days=2)
OFFERS = [
    offer("G1", BEIJING_SOUTH, HONGQIAO, "09:00", "13:28"),
    offer("G1", BEIJING_SOUTH, NANJING_SOUTH, "09:00", "12:10"),
    offer("G2", HONGQIAO, BEIJING_SOUTH, "17:00", "21:28", day=DAY2),
    offer("G101", BEIJING_SOUTH, NANJING_SOUTH, "08:00", "11:30"),
    offer("G7003", NANJING_SOUTH, HONGQIAO, "12:10", "13:20"),
    offer(
        "G5",
        BEIJING_SOUTH,
        HONGQIAO,
        "10:00",
        "14:28",
        seats=[seat(SeatClass.SECOND, 553.0, 0, SeatStatus.SOLD_OUT)],
    ),
]


def planned(**changes: object) -> Itinerary:
    fields: dict[str, object] = {
        "origin": "北京",
        "destination": "上海",
        "depart_date": DAY,
        "nights": 2,
        "budget": 2000,
        "required_trains": ("G1",),
    }
    fields.update(changes)
    best = plan(TripRequest.model_validate(fields), book(*OFFERS), now=NOW).best
    assert best is not None
    return best


def with_leg(itinerary: Itinerary, index: int, **changes: object) -> Itinerary:
    legs = list(itinerary.legs)
    legs[index] = legs[index].model_copy(update=changes)
    return itinerary.model_copy(update={"legs": tuple(legs)})


def codes(itinerary: Itinerary) -> list[str]:
    return [v.code for v in validate(itinerary, OFFERS)]


def test_engine_itinerary_validates_clean():
    assert validate(planned(), OFFERS) == []


def test_llm_plan_naming_an_invented_train_is_rejected_as_unknown():
    fake = with_leg(planned(), 0, train_number="G99999")
    (violation,) = validate(fake, OFFERS)
    assert violation.code == UNKNOWN_TRAIN and violation.train_number == "G99999"
    assert [v.code for v in check_train_numbers(["G1", "g99999 "], OFFERS)] == [UNKNOWN_TRAIN]
    assert check_train_numbers([" g1", "G2"], OFFERS) == []


def test_real_train_on_the_wrong_day_is_unknown():
    best = planned()
    leg = best.legs[0]
    shifted = with_leg(
        best,
        0,
        depart_at=leg.depart_at + dt.timedelta(days=1),
        arrive_at=leg.arrive_at + dt.timedelta(days=1),
    )
    assert UNKNOWN_TRAIN in codes(shifted)


def test_real_train_between_other_stations_is_a_station_mismatch():
    assert STATION_MISMATCH in codes(with_leg(planned(), 1, origin_station=NANJING_SOUTH))


def test_times_must_equal_the_offer():
    leg = planned().legs[0]
    late = with_leg(planned(), 0, arrive_at=leg.arrive_at + dt.timedelta(minutes=5))
    assert codes(late) == [TIME_MISMATCH]


def test_prices_must_equal_the_offer_and_add_up():
    assert codes(with_leg(planned(), 0, unit_price=500.0, price=500.0)) == [
        PRICE_MISMATCH,
        PRICE_MISMATCH,
    ]
    assert codes(planned().model_copy(update={"total_price": 10.0})) == [PRICE_MISMATCH]


def test_sold_out_or_missing_class_has_no_seats():
    assert NO_SEATS in codes(with_leg(planned(), 0, seat_class=SeatClass.NO_SEAT))
    sold = planned(required_trains=("G5",), seat_class=SeatClass.FIRST)
    assert NO_SEATS not in codes(sold)
    g5 = next(o for o in OFFERS if o.train_number == "G5")
    forced = with_leg(
        sold,
        0,
        train_number="G5",
        depart_at=g5.depart_at,
        arrive_at=g5.arrive_at,
        seat_class=SeatClass.SECOND,
        unit_price=553.0,
        price=553.0,
    )
    assert NO_SEATS in codes(forced)


def test_claiming_to_fit_a_budget_that_it_exceeds_is_over_budget():
    best = planned()
    assert best.within_budget is True
    assert codes(best.model_copy(update={"budget": 100.0})) == [OVER_BUDGET]


def test_connections_must_respect_minimum_and_maximum():
    best = planned(
        return_trip=False, required_trains=("G101",), budget=None
    )  # G101 → G7003 via 南京南
    assert best.train_numbers == ("G101", "G7003")
    assert validate(best, OFFERS) == []
    tight = OFFERS + [offer("G7009", NANJING_SOUTH, HONGQIAO, "11:40", "12:50")]
    quick = with_leg(
        best,
        1,
        train_number="G7009",
        depart_at=tight[-1].depart_at,
        arrive_at=tight[-1].arrive_at,
    )
    assert [v.code for v in validate(quick, tight)] == [CONNECTION_TOO_SHORT]
    # A stop at the hub of up to a day is allowed (where nothing connects sooner); longer not.
    next_day = DAY + dt.timedelta(days=1)
    stop_offer = offer("G7011", NANJING_SOUTH, HONGQIAO, "11:00", "12:10", day=next_day)
    stop = with_leg(
        best,
        1,
        train_number="G7011",
        depart_at=stop_offer.depart_at,
        arrive_at=stop_offer.arrive_at,
    )
    assert validate(stop, OFFERS + [stop_offer]) == []
    slow_offer = offer("G7013", NANJING_SOUTH, HONGQIAO, "12:00", "13:10", day=next_day)
    slow = with_leg(
        best,
        1,
        train_number="G7013",
        depart_at=slow_offer.depart_at,
        arrive_at=slow_offer.arrive_at,
    )
    assert [v.code for v in validate(slow, OFFERS + [slow_offer])] == [CONNECTION_TOO_LONG]


def test_legs_out_of_order_are_not_chronological():
    best = planned()
    swapped = best.model_copy(update={"legs": best.legs[::-1]})
    assert NOT_CHRONOLOGICAL in codes(swapped)
