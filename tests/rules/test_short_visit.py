"""A visit cut short rather than a trip elsewhere: where no trip of the day leaves the usual
hours at the place (当天往返 to a remote place with one train each way), two hours there are
planned and said; where one does, the usual hours are kept."""

from __future__ import annotations

from rules import TripRequest, plan
from rules.config import DEFAULT_RULES
from rules.texts import hours_minutes
from rules.validate import OfferIndex, validate
from sources.models import Station
from tests.rules.factory import BEIJING_WEST, DAY, NOW, book, offer

SCENIC = Station(telecode="AIP", name="野三坡", city="保定")


def _day_trip() -> TripRequest:
    return TripRequest(origin="北京", destination="保定", depart_date=DAY, return_date=DAY)


def test_a_day_trip_with_only_two_hours_there_is_planned_and_said():
    entries = book(
        offer("6437", BEIJING_WEST, SCENIC, "07:30", "11:05"),
        offer("6438", SCENIC, BEIJING_WEST, "13:20", "17:10"),
    )
    result = plan(_day_trip(), entries, now=NOW)
    assert result.best is not None and result.best.train_numbers == ("6437", "6438")
    assert any("野三坡" in note and "2小时15分" in note for note in result.notes)
    index = OfferIndex(o for entry in entries.values() for o in entry.offers)
    assert validate(result.best, index) == []


def test_the_usual_hours_there_win_where_a_trip_leaves_them():
    entries = book(
        offer("6437", BEIJING_WEST, SCENIC, "07:30", "11:05"),
        offer("6438", SCENIC, BEIJING_WEST, "13:20", "17:10"),
        offer("6440", SCENIC, BEIJING_WEST, "16:20", "20:10"),
    )
    result = plan(_day_trip(), entries, now=NOW)
    assert result.itineraries
    assert all("6438" not in it.train_numbers for it in result.itineraries)
    assert not any("只能停留" in note for note in result.notes)


def test_under_the_shortest_visit_there_is_no_trip():
    entries = book(
        offer("6437", BEIJING_WEST, SCENIC, "07:30", "11:05"),
        offer("6438", SCENIC, BEIJING_WEST, "12:30", "16:10"),
    )
    assert plan(_day_trip(), entries, now=NOW).best is None
    assert DEFAULT_RULES.short_visit < DEFAULT_RULES.min_stay


def test_hours_and_minutes_read_as_people_say_them():
    assert [hours_minutes(m) for m in (134, 120, 45)] == ["2小时14分", "2小时", "45分"]
