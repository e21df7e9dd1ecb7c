"""A named station's window: where a stated deadline (or departure window) cannot be met at the
station the traveller named but can be at the other stations of its city proper, the station
gives way, not the time; the ride home still uses the named station, and a town of its own
(not the city proper) keeps the old order: its window gives way first."""

from __future__ import annotations

import datetime as dt

from rules import TripRequest, plan
from rules.relax import minimal_relaxation, relaxed_between, stated
from sources.models import Station
from tests.rules.factory import DAY, HONGQIAO, NOW, book, offer

HANGZHOU = Station(telecode="HZH", name="杭州", city="杭州")
HANGZHOU_EAST = Station(telecode="HGH", name="杭州东", city="杭州")
HANGZHOU_SOUTH = Station(telecode="XHH", name="杭州南", city="杭州")
FUYANG = Station(telecode="FEH", name="富阳", city="杭州")  # a town of its own, 30 km out
BY_TEN = (dt.time(0, 0), dt.time(10, 0))
NINE_TO_TEN = (dt.time(9, 0), dt.time(10, 0))


def _to_hangzhou_south(**fields: object) -> TripRequest:
    values: dict[str, object] = {
        "origin": "上海",
        "destination": "杭州",
        "destination_station": "杭州南",
        "depart_date": DAY,
        "return_trip": False,
        "arrive_window": BY_TEN,
        "open_cities": frozenset({"杭州"}),  # as the agent sets it for a named station
    }
    values.update(fields)
    return TripRequest.model_validate(values)


def test_a_deadline_missed_at_the_named_station_sends_the_traveller_to_its_city_not_later():
    entries = book(
        offer("G7501", HONGQIAO, HANGZHOU_SOUTH, "11:00", "12:00"),
        offer("G7503", HONGQIAO, HANGZHOU_EAST, "08:30", "09:30"),
    )
    request = _to_hangzhou_south()
    assert plan(request, entries, now=NOW).best is None
    found = minimal_relaxation(request, entries, now=NOW)
    assert found is not None and found[1] == ("destination",)
    best = plan(found[0], entries, now=NOW).best
    assert best is not None and best.train_numbers == ("G7503",)
    assert relaxed_between(request, found[0]) == ["destination"]


def test_the_time_still_gives_way_where_no_station_of_the_city_meets_it():
    entries = book(
        offer("G7501", HONGQIAO, HANGZHOU_SOUTH, "11:00", "12:00"),
        offer("G7503", HONGQIAO, HANGZHOU_EAST, "10:30", "11:30"),
    )
    found = minimal_relaxation(_to_hangzhou_south(), entries, now=NOW)
    assert found is not None and found[1] == ("arrive_window",)
    assert plan(found[0], entries, now=NOW).best.train_numbers == ("G7501",)


def test_given_up_the_station_means_the_city_proper_not_a_town_of_the_prefecture():
    entries = book(
        offer("G7501", HONGQIAO, HANGZHOU_SOUTH, "11:00", "12:00"),
        offer("K7505", HONGQIAO, FUYANG, "07:00", "08:00"),
        offer("G7507", HONGQIAO, HANGZHOU, "08:00", "09:50"),
    )
    found = minimal_relaxation(_to_hangzhou_south(), entries, now=NOW)
    assert found is not None and found[1] == ("destination",)
    assert plan(found[0], entries, now=NOW).best.train_numbers == ("G7507",)


def test_a_named_boarding_station_gives_way_before_its_departure_window():
    request = TripRequest(
        origin="杭州",
        origin_station="杭州南",
        destination="上海",
        depart_date=DAY,
        return_trip=False,
        depart_window=NINE_TO_TEN,
        open_cities=frozenset({"杭州"}),
    )
    entries = book(
        offer("G7502", HANGZHOU_SOUTH, HONGQIAO, "13:00", "14:00"),
        offer("G7504", HANGZHOU_EAST, HONGQIAO, "09:20", "10:20"),
    )
    assert stated(request) == ["origin", "depart_window"]
    found = minimal_relaxation(request, entries, now=NOW)
    assert found is not None and found[1] == ("origin",)
    assert plan(found[0], entries, now=NOW).best.train_numbers == ("G7504",)


def test_a_town_named_keeps_the_old_order_its_window_gives_way_first():
    town = _to_hangzhou_south(destination_station="富阳")
    assert stated(town) == ["arrive_window", "destination"]
    assert stated(_to_hangzhou_south()) == ["destination", "arrive_window"]


def test_the_ride_home_still_leaves_from_the_station_named():
    # Back the next day: from 杭州南 as named, though 杭州东's train home is quicker.
    back_day = DAY + dt.timedelta(days=1)
    entries = book(
        offer("G7501", HONGQIAO, HANGZHOU_SOUTH, "11:00", "12:00"),
        offer("G7503", HONGQIAO, HANGZHOU_EAST, "08:30", "09:30"),
        offer("G7510", HANGZHOU_SOUTH, HONGQIAO, "15:00", "16:10", day=back_day),
        offer("G7512", HANGZHOU_EAST, HONGQIAO, "15:00", "15:45", day=back_day),
    )
    request = _to_hangzhou_south(return_trip=True, return_date=back_day)
    found = minimal_relaxation(request, entries, now=NOW)
    assert found is not None and found[1] == ("destination",)
    best = plan(found[0], entries, now=NOW).best
    assert best is not None and best.train_numbers == ("G7503", "G7510")
    # No train home from it at all: the whole city, as before.
    gone = {k: v for k, v in entries.items() if k.date != back_day}
    gone |= book(offer("G7512", HANGZHOU_EAST, HONGQIAO, "15:00", "15:45", day=back_day))
    found = minimal_relaxation(request, gone, now=NOW)
    assert found is not None and plan(found[0], gone, now=NOW).best.train_numbers == (
        "G7503",
        "G7512",
    )


def test_given_up_the_named_station_the_citys_namesake_comes_before_its_other_stations():
    # 杭州东 arrives sooner, but once 杭州南 is given up the city's own 杭州 is tried first;
    # only where it cannot meet the deadline either does the rest of the city proper.
    entries = book(
        offer("G7501", HONGQIAO, HANGZHOU_SOUTH, "11:00", "12:00"),
        offer("G7503", HONGQIAO, HANGZHOU_EAST, "08:00", "08:50"),
        offer("K7509", HONGQIAO, HANGZHOU, "07:30", "09:40"),
    )
    request = _to_hangzhou_south()
    found = minimal_relaxation(request, entries, now=NOW)
    assert found is not None and found[1] == ("destination",)
    assert found[0].destination_station == "杭州"
    assert plan(found[0], entries, now=NOW).best.train_numbers == ("K7509",)
    assert relaxed_between(request, found[0]) == ["destination"]
    late = book(
        offer("G7501", HONGQIAO, HANGZHOU_SOUTH, "11:00", "12:00"),
        offer("G7503", HONGQIAO, HANGZHOU_EAST, "08:00", "08:50"),
        offer("K7509", HONGQIAO, HANGZHOU, "09:30", "11:40"),
    )
    found = minimal_relaxation(request, late, now=NOW)
    assert found is not None and plan(found[0], late, now=NOW).best.train_numbers == ("G7503",)
