"""Whole trips, not segments alone: a short list never loses the only trip that chains or fits
the budget, a stop of the trip is a visit (not a change of trains), an arrival window means a
day, and a night at a hub is planned where nothing connects the same day (pure)."""

from __future__ import annotations

import datetime as dt

from rules import DEFAULT_RULES, LegKey, TripRequest, ViaStop, plan
from rules.budget import shortlist
from rules.config import HUB_STOP_MAX_WAIT, MIN_STAY
from rules.model import CONNECTION_TOO_SHORT, NO_CONNECTION, OVER_BUDGET
from rules.options import expected_arrival
from rules.planner import _segment
from rules.relax import minimal_relaxation
from rules.validate import validate
from sources.models import SeatClass, Station
from tests.rules.factory import (
    BEIJING_SOUTH,
    BEIJING_WEST,
    CHENGDU_EAST,
    DAY,
    HONGQIAO,
    NANJING_SOUTH,
    NOW,
    WUHAN,
    XIAN_NORTH,
    book,
    empty,
    high_speed_seats,
    night_at_nanjing,
    offer,
    seat,
)

NEXT_DAY = DAY + dt.timedelta(days=1)
SLEEPERS = (seat(SeatClass.HARD_SLEEPER, 300.0), seat(SeatClass.HARD_SEAT, 160.0))


def offers_of(entries: dict) -> list:
    return [o for entry in entries.values() for o in entry.offers]


def day_trip_book(*late_returns) -> dict:
    """Out 07:00→12:00, then six cheap, well-ranked returns that all leave before arriving."""
    early = [
        offer(f"G{20 + hour}", HONGQIAO, BEIJING_SOUTH, f"{hour:02d}:00", f"{hour + 4:02d}:30",
              seats=high_speed_seats(100))
        for hour in range(6, 12)
    ]  # fmt: skip
    out = offer("G1", BEIJING_SOUTH, HONGQIAO, "07:00", "12:00", seats=high_speed_seats(500))
    return book(out, *early, *late_returns)


def day_trip(**changes: object) -> TripRequest:
    fields: dict[str, object] = {
        "origin": "北京",
        "destination": "上海",
        "depart_date": DAY,
        "nights": 0,
    }
    fields.update(changes)
    return TripRequest.model_validate(fields)


def return_routes(request: TripRequest, entries: dict) -> list:
    key = LegKey("上海", "北京", DAY)
    return _segment(1, key, entries, {}, request, DEFAULT_RULES, NOW, 0).routes


def test_the_only_return_that_connects_is_found_though_the_short_list_cut_it():
    late = offer("G50", HONGQIAO, BEIJING_SOUTH, "18:00", "22:30", seats=high_speed_seats(900))
    entries = day_trip_book(late)
    request = day_trip()
    cut = shortlist(return_routes(request, entries), DEFAULT_RULES)
    assert "G50" not in {n for route in cut for n in route.trains}  # the mechanism at stake
    result = plan(request, entries, now=NOW)
    best = result.best
    assert best is not None, result.failures
    assert best.train_numbers == ("G1", "G50")
    assert validate(best, offers_of(entries)) == []


def test_the_only_berth_within_budget_is_found_though_the_short_list_cut_it():
    fast = offer("G50", HONGQIAO, BEIJING_SOUTH, "18:00", "22:30", seats=high_speed_seats(900))
    berth = offer("Z52", HONGQIAO, BEIJING_SOUTH, "21:00", "07:00", seats=SLEEPERS)
    entries = day_trip_book(fast, berth)
    request = day_trip(budget=850, seat_classes=frozenset())
    cut = shortlist(return_routes(request, entries), DEFAULT_RULES)
    assert "Z52" not in {n for route in cut for n in route.trains}
    best = plan(request, entries, now=NOW).best
    assert best is not None
    assert best.train_numbers == ("G1", "Z52")
    assert best.total_price == 500 + 300 and best.within_budget is True
    # Without the berth the budget cannot be met, and the failure says so with the cheapest.
    result = plan(request, day_trip_book(fast), now=NOW)
    assert result.best is None
    assert [f.code for f in result.failures] == [OVER_BUDGET]
    assert "1400" in result.failures[0].message


def test_a_stop_without_a_night_is_a_visit_of_a_few_hours_not_a_change_of_trains():
    out = offer("G7", BEIJING_SOUTH, NANJING_SOUTH, "07:00", "10:30")
    hurried = offer("G7101", NANJING_SOUTH, HONGQIAO, "10:56", "12:10")  # 26 minutes in 南京
    visit = offer("G7103", NANJING_SOUTH, HONGQIAO, "13:40", "14:50")  # 190 minutes
    request = TripRequest(
        origin="北京",
        destination="上海",
        depart_date=DAY,
        via=(ViaStop("南京", 0),),
        return_trip=False,
    )
    best = plan(request, book(out, hurried, visit), now=NOW).best
    assert best is not None
    assert best.train_numbers == ("G7", "G7103")
    nanjing = best.stays[0]
    assert nanjing.city == "南京" and nanjing.leave_at is not None
    assert nanjing.leave_at - nanjing.arrive_at >= dt.timedelta(minutes=MIN_STAY)
    # Only the 26-minute "visit" left: no trip, and the validator rejects one made by hand.
    result = plan(request, book(out, hurried), now=NOW)
    assert result.best is None
    assert [f.code for f in result.failures] == [NO_CONNECTION]
    second = best.legs[1].model_copy(
        update={
            "train_number": "G7101",
            "depart_at": hurried.depart_at,
            "arrive_at": hurried.arrive_at,
        }
    )
    rushed = best.model_copy(update={"legs": (best.legs[0], second)})
    assert [v.code for v in validate(rushed, [out, hurried])] == [CONNECTION_TOO_SHORT]


def test_an_arrival_window_without_a_day_means_the_day_of_departure():
    noon = (dt.time(0, 0), dt.time(12, 0))
    morning = (dt.time(6, 0), dt.time(10, 0))
    evening = (dt.time(19, 0), dt.time(23, 0))
    assert expected_arrival(DAY, None, noon) == DAY
    assert expected_arrival(DAY, (dt.time(6), dt.time(9)), noon) == DAY
    assert expected_arrival(DAY, evening, morning) == NEXT_DAY  # 晚上走、早上到
    assert expected_arrival(DAY, evening, None) is None


def test_a_next_day_arrival_is_planned_only_when_the_day_is_relaxed_in_the_open():
    entries = book(
        offer("Z69", BEIJING_WEST, XIAN_NORTH, "13:00", "11:00", seats=SLEEPERS),  # next day
    )
    request = TripRequest(
        origin="北京",
        destination="西安",
        depart_date=DAY,
        return_trip=False,
        arrive_window=(dt.time(0, 0), dt.time(12, 0)),
        arrive_date=expected_arrival(DAY, None, (dt.time(0, 0), dt.time(12, 0))),
        allow_night=True,
    )
    assert plan(request, entries, now=NOW).best is None
    found = minimal_relaxation(request, entries, now=NOW)
    assert found is not None
    relaxed, dropped = found
    assert dropped == ("arrive_date",)
    best = plan(relaxed, entries, now=NOW).best
    assert best is not None and best.legs[0].arrive_at.date() == NEXT_DAY
    # On a day a ride arrives in time, it is the one planned.
    same_day = offer("G87", BEIJING_WEST, XIAN_NORTH, "06:30", "11:00")
    best = plan(request, book(*offers_of(entries), same_day), now=NOW).best
    assert best is not None and best.train_numbers == ("G87",)


def two_change_book(*, same_day_partner: bool) -> dict:
    """北京→武汉→西安→成都 where the last change is a night at 西安 unless a partner exists."""
    entries = book(
        offer("G501", BEIJING_WEST, WUHAN, "08:00", "12:30"),
        offer("D2201", WUHAN, XIAN_NORTH, "13:30", "18:00"),
        offer("D1901", XIAN_NORTH, CHENGDU_EAST, "08:30", "12:40", day=NEXT_DAY),
        *(
            [offer("D1903", XIAN_NORTH, CHENGDU_EAST, "19:00", "23:00", day=DAY)]
            if same_day_partner
            else []
        ),
    )
    for key in (LegKey("西安", "成都", DAY), LegKey("武汉", "西安", NEXT_DAY)):
        entries.setdefault(key, empty(key)[key])
    return entries | empty(LegKey("北京", "成都", DAY), LegKey("武汉", "成都", DAY))


def test_a_night_at_a_hub_is_planned_where_no_same_day_connection_exists():
    entries = two_change_book(same_day_partner=False)
    request = TripRequest(
        origin="北京", destination="成都", depart_date=DAY, return_trip=False, budget=2000
    )
    result = plan(request, entries, now=NOW)
    best = result.best
    assert best is not None, result.failures
    assert best.train_numbers == ("G501", "D2201", "D1901")
    night = best.transfers[1]
    assert night.minutes == 14 * 60 + 30
    assert night.minutes <= HUB_STOP_MAX_WAIT
    xian = best.stays[0]
    assert xian.city == "西安" and xian.leave_at is not None
    assert xian.leave_at.date() == NEXT_DAY
    assert best.hotel_nights == 1 and best.sleeper_nights == 0
    assert "当日无可衔接的车次，在西安住一晚，次日08:30从西安北换乘D1901" in best.days[0].items
    assert len(best.days) == 2
    assert best.remaining_per_day == round((2000 - best.total_price) / 2, 2)
    assert validate(best, offers_of(entries)) == []


def test_a_same_day_connection_is_always_preferred_to_a_night_at_the_hub():
    entries = two_change_book(same_day_partner=True)
    request = TripRequest(origin="北京", destination="成都", depart_date=DAY, return_trip=False)
    result = plan(request, entries, now=NOW, limit=3)
    assert result.itineraries
    assert {it.train_numbers for it in result.itineraries} == {("G501", "D2201", "D1903")}
    assert all(it.hotel_nights == 0 for it in result.itineraries)


def test_a_one_change_trip_waits_overnight_at_the_hub_only_within_a_day():
    request, entries = night_at_nanjing()
    best = plan(request, entries, now=NOW).best
    assert best is not None
    assert best.train_numbers == ("G7", "G7001")
    assert best.hotel_nights == 1 and [s.city for s in best.stays] == ["南京", "上海"]
    # A wait beyond a day is no connection at all.
    late = book(
        offer("G7", BEIJING_SOUTH, NANJING_SOUTH, "07:00", "10:30"),
        offer("G7003", NANJING_SOUTH, HONGQIAO, "11:00", "12:10", day=NEXT_DAY),
    )
    late |= empty(LegKey("北京", "上海", DAY), LegKey("南京", "上海", DAY))
    result = plan(request, late, now=NOW)
    assert result.best is None
    assert [f.code for f in result.failures] == [NO_CONNECTION]


def test_an_overnight_first_ride_connects_the_next_day_though_the_hub_leg_was_asked_that_day_only():
    # The timetable's legs are asked on the day each ride leaves: 南京→上海 the next morning
    # only, never on the travel day.
    entries = book(
        offer("Z1", BEIJING_SOUTH, NANJING_SOUTH, "21:00", "05:30", seats=SLEEPERS),
        offer("G7001", NANJING_SOUTH, HONGQIAO, "06:10", "07:20", day=NEXT_DAY),
    )
    entries |= empty(LegKey("北京", "上海", DAY))
    request = TripRequest(origin="北京", destination="上海", depart_date=DAY, return_trip=False)
    best = plan(request, entries, now=NOW).best
    assert best is not None and best.train_numbers == ("Z1", "G7001")


def test_no_route_with_two_changes_takes_more_than_twice_the_quickest_direct_train():
    entries = two_change_book(same_day_partner=True)
    quick = offer("G89", BEIJING_WEST, CHENGDU_EAST, "12:00", "16:00")
    entries |= book(quick)
    request = TripRequest(origin="北京", destination="成都", depart_date=DAY, return_trip=False)
    routes = plan(request, entries, now=NOW, limit=3).itineraries
    # G89 takes 4 hours: a route with changes may take 8 at most.
    assert all(
        (it.legs[-1].arrive_at - it.legs[0].depart_at).total_seconds() <= 8 * 3600 for it in routes
    )
    assert all(len(it.legs) < 3 for it in routes)


def test_a_direct_train_to_an_outlying_station_caps_no_journey_to_the_city_proper():
    # 盐城→苏州: the one direct train runs to 张家港 (50 min), a town of the prefecture; the
    # city proper is reached by a change at 上海虹桥 in 2 h 57 - no tour of the direct one.
    yancheng = Station(telecode="AEH", name="盐城", city="盐城")
    zhangjiagang = Station(telecode="ZJH", name="张家港", city="苏州")
    suzhou_north = Station(telecode="OHH", name="苏州北", city="苏州")
    entries = book(
        offer("G7539", yancheng, zhangjiagang, "13:09", "13:59"),
        offer("G7501", yancheng, HONGQIAO, "13:09", "15:02"),
        offer("G1822", HONGQIAO, suzhou_north, "15:40", "16:05"),
    )
    request = TripRequest(
        origin="盐城", destination="苏州", depart_date=DAY, return_trip=False, order="fastest"
    )
    best = plan(request, entries, now=NOW).best
    assert best is not None and best.train_numbers == ("G7501", "G1822")
