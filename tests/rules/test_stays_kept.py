"""A night said at a stop is spent there: the next ride leaves in the morning of the day the
stay ends, not in its small hours on a berth (only a stay nobody said may be had so)."""

from __future__ import annotations

import datetime as dt

from rules import LegKey, TripRequest, ViaStop, plan
from rules.texts import NOTE_STAY_CUT_SHORT
from sources.models import SeatClass
from tests.rules.factory import (
    BEIJING_WEST,
    DAY,
    NOW,
    WUHAN,
    ZHENGZHOU_EAST,
    book,
    offer,
    seat,
)

NEXT = DAY + dt.timedelta(days=1)
BERTHS = (seat(SeatClass.HARD_SLEEPER, 120.0), seat(SeatClass.HARD_SEAT, 60.0))


def _through_zhengzhou(*onward: str) -> dict[LegKey, object]:
    rides = {
        "K1": offer("K1", ZHENGZHOU_EAST, WUHAN, "00:40", "06:50", day=NEXT, seats=BERTHS),
        "G2": offer("G2", ZHENGZHOU_EAST, WUHAN, "08:10", "10:20", day=NEXT),
    }
    return book(
        offer("G1", BEIJING_WEST, ZHENGZHOU_EAST, "13:00", "15:30"),
        *(rides[number] for number in onward),
    )


def _trip(*, said: bool) -> TripRequest:
    return TripRequest(
        origin="北京",
        destination="武汉",
        depart_date=DAY,
        return_trip=False,
        via=(ViaStop("郑州", 1, said=said),),
    )


def test_after_a_night_said_at_a_stop_the_next_ride_leaves_in_the_morning():
    result = plan(_trip(said=True), _through_zhengzhou("K1", "G2"), now=NOW)
    assert result.itineraries
    assert all("K1" not in it.train_numbers for it in result.itineraries)
    assert result.best is not None and result.best.train_numbers == ("G1", "G2")


def test_a_stay_nobody_said_may_be_had_on_a_berth():
    result = plan(_trip(said=False), _through_zhengzhou("K1"), now=NOW)
    assert result.best is not None and result.best.train_numbers == ("G1", "K1")
    assert not any(note.startswith("郑州→武汉") for note in result.notes)


def test_a_small_hours_ride_is_said_when_it_is_the_only_one_after_the_stay():
    result = plan(_trip(said=True), _through_zhengzhou("K1"), now=NOW)
    assert result.best is not None and result.best.train_numbers == ("G1", "K1")
    assert any("凌晨" in note and "郑州" in note for note in result.notes)
    assert NOTE_STAY_CUT_SHORT.count("{city}") == 1


def test_the_ride_home_after_the_nights_at_the_destination_leaves_in_the_morning():
    # 最便宜: a seat in the small hours is the traveller's own choice of price over sleep,
    # but not over the night said.
    request = TripRequest(
        origin="北京", destination="郑州", depart_date=DAY, nights=1, order="cheapest"
    )
    entries = book(
        offer("G1", BEIJING_WEST, ZHENGZHOU_EAST, "13:00", "15:30"),
        offer("Z3", ZHENGZHOU_EAST, BEIJING_WEST, "01:10", "07:00", day=NEXT, seats=BERTHS),
        offer("G4", ZHENGZHOU_EAST, BEIJING_WEST, "18:00", "20:30", day=NEXT),
    )
    result = plan(request, entries, now=NOW)
    assert result.itineraries
    assert all("Z3" not in it.train_numbers for it in result.itineraries)


def test_the_earliest_train_home_asked_for_leaves_whenever_it_leaves():
    # 回程要最早的 after the nights there: the first train home, small hours or not.
    entries = book(
        offer("G1", BEIJING_WEST, ZHENGZHOU_EAST, "13:00", "15:30"),
        offer("K9", ZHENGZHOU_EAST, BEIJING_WEST, "04:40", "10:50", day=NEXT, seats=BERTHS),
        offer("G9", ZHENGZHOU_EAST, BEIJING_WEST, "08:10", "10:40", day=NEXT),
    )
    request = TripRequest(origin="北京", destination="郑州", depart_date=DAY, return_date=NEXT)

    def home(**fields: object) -> str:
        best = plan(request.model_copy(update=fields), entries, now=NOW).best
        assert best is not None
        return best.train_numbers[-1]

    assert home() == "G9"
    assert home(return_order="earliest", return_allow_night=True) == "K9"
