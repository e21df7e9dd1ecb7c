"""Towns keyed as places of their own (`rules.towns`): 苏州→昆山 is a trip between two
places of one prefecture, planned from 苏州's city proper to 昆山's own stations."""

from __future__ import annotations

from rules import LegKey, TripRequest, plan
from rules.journeys import best_journey
from rules.model import Town
from rules.schedule import ScheduleIndex, ask_for, index_of
from rules.towns import offers_in_towns, same_place
from sources.models import Station
from sources.stations import Place
from tests.rules.factory import BEIJING, BEIJING_SOUTH, DAY, NOW, book, offer
from tests.rules.timetables import timetable_of

SUZHOU_NORTH = Station(telecode="OHH", name="苏州北", city="苏州")
ZHANGJIAGANG = Station(telecode="ZGH", name="张家港", city="苏州")
KUNSHAN = Station(telecode="KSH", name="昆山", city="苏州")
KUNSHAN_SOUTH = Station(telecode="KNH", name="昆山南", city="苏州")
TAICANG = Station(telecode="TCH", name="太仓", city="苏州")
KUNSHAN_TOWN = Town(name="昆山", codes=frozenset({"KSH", "KNH"}))

G1 = offer("G1", SUZHOU_NORTH, KUNSHAN_SOUTH, "08:00", "08:15")
K2 = offer("K2", ZHANGJIAGANG, KUNSHAN, "07:00", "08:00")


def _place(name: str, city: str, *stations: Station, is_city: bool = False) -> Place:
    return Place(
        name=name,
        city=city,
        telecode=stations[0].telecode,
        is_city=is_city,
        stations=stations,
    )


def _request() -> TripRequest:
    return TripRequest(
        origin="苏州",
        destination="昆山",
        depart_date=DAY,
        return_trip=False,
        towns=(KUNSHAN_TOWN,),
        open_cities=frozenset({"昆山"}),
    )


def test_a_city_and_a_town_of_its_prefecture_are_two_places_the_same_place_is_one():
    suzhou = _place("苏州", "苏州", SUZHOU_NORTH, ZHANGJIAGANG, KUNSHAN, is_city=True)
    kunshan = _place("昆山", "苏州", KUNSHAN, KUNSHAN_SOUTH)
    assert not same_place(suzhou, kunshan)
    assert not same_place(kunshan, _place("太仓", "苏州", TAICANG))
    assert same_place(kunshan, _place("昆山南", "苏州", KUNSHAN_SOUTH))
    beijing = _place("北京", "北京", BEIJING, BEIJING_SOUTH, is_city=True)
    assert same_place(beijing, _place("北京南", "北京", BEIJING_SOUTH))


def test_a_towns_stations_carry_the_town_as_their_city():
    relabelled = offers_in_towns((G1, K2), (KUNSHAN_TOWN,))
    assert [(o.origin_station.city, o.destination_station.city) for o in relabelled] == [
        ("苏州", "昆山"),
        ("苏州", "昆山"),
    ]
    assert offers_in_towns((G1,), ()) == (G1,)


def test_the_plan_boards_in_the_city_proper_and_alights_at_the_town():
    result = plan(_request(), book(*offers_in_towns((G1, K2), (KUNSHAN_TOWN,))), now=NOW)
    assert result.best is not None, result.failures
    (leg,) = result.best.legs
    assert (leg.train_number, leg.origin_station.name, leg.destination_station.name) == (
        "G1",
        "苏州北",
        "昆山南",
    )


def test_the_timetable_keys_the_town_by_its_own_name_in_a_view_of_its_own():
    timetable = timetable_of(G1, K2)
    view = index_of(timetable, (KUNSHAN_TOWN,))
    assert view.by_city["昆山"] == ("KNH", "KSH")
    assert "KNH" not in view.by_city["苏州"]
    journey = best_journey(view, ask_for(_request(), view, NOW, objective="fastest"))
    assert journey is not None
    assert journey.trains(view) == ("G1",)
    assert journey.legs(view, DAY) == (LegKey("苏州", "昆山", DAY),)
    # The shared index is untouched: 昆山 is still 苏州's there.
    assert "昆山" not in ScheduleIndex(timetable).by_city
    assert "昆山" not in index_of(timetable).by_city
