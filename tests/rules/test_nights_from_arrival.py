"""Nights said (住两晚) are slept at the destination: counted from the day the ride there
arrives, so a night train out sends the ride home as many days later; a day home said is kept."""

from __future__ import annotations

import datetime as dt

from rules import LegKey, TripRequest, plan
from rules.legs import required_legs, stay_follow_legs
from sources.models import SeatClass
from tests.rules.factory import BEIJING_WEST, DAY, NOW, XIAN_NORTH, book, offer, seat

BERTHS = (seat(SeatClass.HARD_SLEEPER, 150.0), seat(SeatClass.HARD_SEAT, 80.0))


def _day(n: int) -> dt.date:
    return DAY + dt.timedelta(days=n)


def _trip(*, from_arrival: bool = True, nights: int = 2) -> TripRequest:
    return TripRequest(
        origin="北京",
        destination="西安",
        depart_date=DAY,
        return_date=_day(nights),
        stay_from_arrival=from_arrival,
    )


def _homes(*days: int) -> list:
    return [
        offer(f"Z{20 + n}", XIAN_NORTH, BEIJING_WEST, "10:00", "20:00", day=_day(n), seats=BERTHS)
        for n in days
    ]


def _nights(itinerary) -> int:
    there = [leg for leg in itinerary.legs if leg.segment == 0][-1]
    home = [leg for leg in itinerary.legs if leg.segment == 1][0]
    return (home.depart_at.date() - there.arrive_at.date()).days


def test_a_night_train_out_sends_the_ride_home_a_day_later():
    entries = book(
        offer("T1", BEIJING_WEST, XIAN_NORTH, "20:00", "08:00", seats=BERTHS), *_homes(2, 3)
    )
    result = plan(_trip(), entries, now=NOW)
    assert result.best is not None
    assert result.best.train_numbers == ("T1", "Z23")
    assert all(_nights(it) == 2 for it in result.itineraries)


def test_a_ride_arriving_the_same_day_keeps_the_dated_ride_home():
    entries = book(offer("G1", BEIJING_WEST, XIAN_NORTH, "08:00", "13:00"), *_homes(2, 3))
    result = plan(_trip(), entries, now=NOW)
    assert result.best is not None and result.best.train_numbers == ("G1", "Z22")
    assert all(_nights(it) == 2 for it in result.itineraries)


def test_each_ride_out_is_paired_with_its_own_ride_home():
    entries = book(
        offer("G1", BEIJING_WEST, XIAN_NORTH, "08:00", "13:00"),
        offer("T1", BEIJING_WEST, XIAN_NORTH, "20:00", "08:00", seats=BERTHS),
        *_homes(2, 3),
    )
    result = plan(_trip(), entries, now=NOW)
    pairs = {it.train_numbers for it in result.itineraries}
    assert ("T1", "Z22") not in pairs and ("G1", "Z23") not in pairs
    assert all(_nights(it) == 2 for it in result.itineraries)


def test_with_no_ride_home_on_the_later_day_the_dated_one_is_kept():
    entries = book(offer("T1", BEIJING_WEST, XIAN_NORTH, "20:00", "08:00", seats=BERTHS))
    entries.update(book(*_homes(2)))
    result = plan(_trip(), entries, now=NOW)
    assert result.best is not None and result.best.train_numbers == ("T1", "Z22")


def test_a_day_home_said_is_not_moved_by_a_night_train():
    entries = book(
        offer("T1", BEIJING_WEST, XIAN_NORTH, "20:00", "08:00", seats=BERTHS), *_homes(2, 3)
    )
    result = plan(_trip(from_arrival=False), entries, now=NOW)
    assert result.best is not None and result.best.train_numbers == ("T1", "Z22")


def test_the_later_rides_home_are_asked_for_the_days_rides_there_arrive():
    request = _trip(nights=3)
    there = required_legs(request)[0]
    offers = {
        there: (
            offer("T1", BEIJING_WEST, XIAN_NORTH, "20:00", "08:00", seats=BERTHS),
            offer("G1", BEIJING_WEST, XIAN_NORTH, "08:00", "13:00"),
        )
    }
    assert stay_follow_legs(request, offers) == [LegKey("西安", "北京", _day(4))]
    assert stay_follow_legs(_trip(from_arrival=False, nights=3), offers) == []
