"""An outlying station for a stated hour: where the city proper keeps the trip only by giving
up the hours said, and a station of the same prefecture outside it keeps every one of them,
that station is planned (and said), not another hour; a wish about the train itself is never
traded for it."""

from __future__ import annotations

import datetime as dt

from rules import TripRequest, plan
from rules.relax import minimal_relaxation, outlying_keeps_windows, relaxed_between
from rules.texts import NOTE_OUTLYING_WINDOW
from sources.models import Station
from tests.rules.factory import DAY, HONGQIAO, NOW, book, offer

JINHUA = Station(telecode="JBH", name="金华", city="金华")
YIWU = Station(telecode="YWH", name="义乌", city="金华")  # 金华's, a town of its own
AFTER_WORK = (dt.time(18, 30), dt.time(23, 59))


def _to_jinhua(**fields: object) -> TripRequest:
    values: dict[str, object] = {
        "origin": "上海",
        "destination": "金华",
        "depart_date": DAY,
        "return_trip": False,
        "depart_window": AFTER_WORK,
    }
    values.update(fields)
    return TripRequest.model_validate(values)


def test_an_hour_said_is_kept_at_an_outlying_station_of_the_place_not_moved():
    entries = book(
        offer("G1", HONGQIAO, JINHUA, "14:00", "15:40"),
        offer("G7", HONGQIAO, YIWU, "19:10", "20:40"),
    )
    request = _to_jinhua()
    assert plan(request, entries, now=NOW).best is None, "the city proper has a train: no gap"
    found = minimal_relaxation(request, entries, now=NOW)
    assert found is not None and found[1] == ("depart_window",)
    kept = outlying_keeps_windows(request, entries, now=NOW, dropped=found[1])
    assert kept is not None
    result = plan(kept, entries, now=NOW)
    assert result.best is not None and result.best.train_numbers == ("G7",)
    assert relaxed_between(request, kept) == [], "nothing said is given up"
    note = NOTE_OUTLYING_WINDOW.format(station="义乌", city="金华")
    assert note in result.notes


def test_a_wish_about_the_train_is_not_traded_for_an_outlying_station():
    # Only a D train after work, and 金华 has a G at two: 义乌's evening D keeps both, but
    # the type gives way at the city proper too, so the city proper stays.
    entries = book(
        offer("G1", HONGQIAO, JINHUA, "14:00", "15:40"),
        offer("D7", HONGQIAO, YIWU, "19:10", "20:40"),
    )
    request = _to_jinhua(train_types=frozenset({"D"}))
    found = minimal_relaxation(request, entries, now=NOW)
    assert found is not None and "train_types" in found[1]
    assert outlying_keeps_windows(request, entries, now=NOW, dropped=found[1]) is None


def test_no_outlying_station_where_none_keeps_the_hour_or_a_station_was_named():
    early = book(
        offer("G1", HONGQIAO, JINHUA, "14:00", "15:40"),
        offer("G7", HONGQIAO, YIWU, "16:10", "17:40"),
    )
    request = _to_jinhua()
    assert outlying_keeps_windows(request, early, now=NOW, dropped=("depart_window",)) is None
    late = book(
        offer("G1", HONGQIAO, JINHUA, "14:00", "15:40"),
        offer("G7", HONGQIAO, YIWU, "19:10", "20:40"),
    )
    named = _to_jinhua(destination_station="金华")
    assert outlying_keeps_windows(named, late, now=NOW, dropped=("depart_window",)) is None


def test_no_change_of_trains_is_made_to_reach_an_outlying_station():
    nanjing = Station(telecode="NKH", name="南京南", city="南京")
    entries = book(
        offer("G1", HONGQIAO, JINHUA, "14:00", "15:40"),
        offer("G3", HONGQIAO, nanjing, "19:00", "19:40"),
        offer("D5", nanjing, YIWU, "20:00", "20:40"),
    )
    request = _to_jinhua()
    opened = request.model_copy(update={"open_cities": frozenset({"金华"})})
    assert plan(opened, entries, now=NOW).best is not None, "a change would reach 义乌"
    assert outlying_keeps_windows(request, entries, now=NOW, dropped=("depart_window",)) is None
