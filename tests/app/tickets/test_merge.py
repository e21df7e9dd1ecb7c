"""One offer per ride across sources."""

from __future__ import annotations

import datetime as dt

from app.tickets.merge import merge_offers
from sources.models import SHANGHAI, FareKind, Seat, SeatClass, SeatStatus
from tests.app.tickets.fakes import offer

EARLY = dt.datetime(2026, 12, 1, 8, 0, tzinfo=SHANGHAI)
LATE = EARLY + dt.timedelta(minutes=2)


def second(status: SeatStatus, available: int | None, price: float | None) -> Seat:
    return Seat(seat_class=SeatClass.SECOND, status=status, available=available, price=price)


def test_same_ride_from_two_sources_becomes_one_offer_listing_both() -> None:
    merged = merge_offers([[offer(source="a")], [offer(source="b")]])
    assert len(merged) == 1
    assert merged[0].sources == ("a", "b")


def test_status_comes_from_the_newest_answer_and_a_missing_price_from_the_other() -> None:
    old = offer(source="a", fetched_at=EARLY, second=second(SeatStatus.AVAILABLE, 9, 553.0))
    new = offer(source="b", fetched_at=LATE, second=second(SeatStatus.SOLD_OUT, 0, None))
    (merged,) = merge_offers([[old], [new]])
    seat = merged.seat(SeatClass.SECOND)
    assert seat is not None
    assert (seat.status, seat.available, seat.price) == (SeatStatus.SOLD_OUT, 0, 553.0)
    assert merged.sources == ("a", "b")  # source priority order, not freshness order


def test_different_rides_stay_apart_and_are_sorted_by_departure() -> None:
    merged = merge_offers([[offer("G3", hour=11), offer("G1", hour=7)], [offer("G2", hour=9)]])
    assert [o.train_number for o in merged] == ["G1", "G2", "G3"]


def test_a_ride_priced_for_students_takes_no_price_from_an_adult_only_source() -> None:
    student = offer(source="rail", fetched_at=EARLY, second=second(SeatStatus.AVAILABLE, 9, 415.0))
    student = student.model_copy(update={"fare": FareKind.STUDENT})
    adult = offer(source="juhe", fetched_at=LATE, second=second(SeatStatus.AVAILABLE, 3, 553.0))
    (merged,) = merge_offers([[student], [adult]])
    seat = merged.seat(SeatClass.SECOND)
    assert seat is not None
    assert merged.fare is FareKind.STUDENT
    assert (seat.available, seat.price) == (3, 415.0), "the newer count, the student's fare"


def test_adult_rides_merge_their_prices_as_before() -> None:
    a = offer(source="a", fetched_at=LATE, second=second(SeatStatus.AVAILABLE, 3, None))
    b = offer(source="b", fetched_at=EARLY, second=second(SeatStatus.AVAILABLE, 9, 553.0))
    (merged,) = merge_offers([[a], [b]])
    assert merged.fare is FareKind.ADULT and merged.seat(SeatClass.SECOND).price == 553.0
