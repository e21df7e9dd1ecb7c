"""A city's own-named stations first: where a traveller names a city, a station inside its city
proper under another name (a district's station, a county seat) is planned only when clearly
better, and the itinerary's score says what it cost (`station_fit`)."""

from __future__ import annotations

from rules import TripRequest, plan
from rules.config import DEFAULT_RULES
from sources.models import SeatClass, Station
from tests.rules.factory import DAY, NOW, book, offer, seat

WUHAN = Station(telecode="WHN", name="武汉", city="武汉")
HANKOU = Station(telecode="HKN", name="汉口", city="武汉")
WUCHANG = Station(telecode="WCN", name="武昌", city="武汉")
CHANGSHA_SOUTH = Station(telecode="CWQ", name="长沙南", city="长沙")
SHENZHEN_NORTH = Station(telecode="IOQ", name="深圳北", city="深圳")
FUTIAN = Station(telecode="NZQ", name="福田", city="深圳")
SECOND = (seat(SeatClass.SECOND, 160.0),)
DEAR_SECOND = (seat(SeatClass.SECOND, 170.0),)

HALF_HOUR = DEFAULT_RULES.weights.station_fit


def _request(**fields: object) -> TripRequest:
    return TripRequest(
        origin="武汉", destination="长沙", depart_date=DAY, return_trip=False, **fields
    )


def _best(request: TripRequest, *offers) -> tuple[str, ...]:
    best = plan(request, book(*offers), now=NOW).best
    assert best is not None
    return best.train_numbers


def test_a_city_named_plain_is_left_from_its_own_station_unless_another_is_clearly_quicker():
    # No order said: 汉口 saves 15 minutes on 武汉's train, not enough for a station the
    # traveller did not name; saving an hour and a half, it is clearly better.
    own = offer("G1001", WUHAN, CHANGSHA_SOUTH, "09:00", "10:30", seats=SECOND)
    near = offer("G1003", HANKOU, CHANGSHA_SOUTH, "09:10", "10:25", seats=SECOND)
    far_quicker = offer("G1005", HANKOU, CHANGSHA_SOUTH, "09:10", "09:40", seats=SECOND)
    slow_own = offer("K1007", WUHAN, CHANGSHA_SOUTH, "09:00", "12:00", seats=SECOND)
    assert _best(_request(), own, near) == ("G1001",)
    assert _best(_request(), slow_own, far_quicker) == ("G1005",)


def test_the_alighting_end_counts_as_the_boarding_one_and_the_score_shows_the_cost():
    # 福田 is 10 minutes quicker: it stays among the alternatives, at half an hour's cost.
    to_futian = offer("G6011", CHANGSHA_SOUTH, FUTIAN, "07:00", "10:00", seats=SECOND)
    to_north = offer("G6013", CHANGSHA_SOUTH, SHENZHEN_NORTH, "08:10", "11:20", seats=SECOND)
    request = TripRequest(origin="长沙", destination="深圳", depart_date=DAY, return_trip=False)
    result = plan(request, book(to_futian, to_north), now=NOW)
    scores = {it.train_numbers: it.score for it in result.itineraries}
    assert result.best is not None and result.best.train_numbers == ("G6013",)
    assert scores[("G6013",)].station_fit == 0
    assert scores[("G6011",)].station_fit == HALF_HOUR > 0


def test_a_stated_order_keeps_its_objective_and_the_station_only_breaks_its_ties():
    quicker = offer("G1003", WUCHANG, CHANGSHA_SOUTH, "09:10", "10:20", seats=SECOND)
    own = offer("G1001", WUHAN, CHANGSHA_SOUTH, "09:00", "10:30", seats=SECOND)
    assert _best(_request(order="fastest"), quicker, own) == ("G1003",)
    # Same fare, both bookable: 最便宜 ties, and the city's own station wins the tie.
    assert _best(_request(order="cheapest"), quicker, own) == ("G1001",)
    dearer_own = offer("G1001", WUHAN, CHANGSHA_SOUTH, "09:00", "10:30", seats=DEAR_SECOND)
    assert _best(_request(order="cheapest"), quicker, dearer_own) == ("G1003",)


def test_a_trip_ranked_by_the_balanced_score_prefers_the_own_station_too():
    # A stay (the balanced score): the same 15 minutes saved at 汉口 are not worth it.
    back = offer("G1002", CHANGSHA_SOUTH, WUHAN, "17:00", "18:30", day=DAY, seats=SECOND)
    own = offer("G1001", WUHAN, CHANGSHA_SOUTH, "09:00", "10:30", seats=SECOND)
    near = offer("G1003", HANKOU, CHANGSHA_SOUTH, "09:10", "10:25", seats=SECOND)
    request = TripRequest(origin="武汉", destination="长沙", depart_date=DAY, return_date=DAY)
    best = plan(request, book(own, near, back), now=NOW).best
    assert best is not None and best.train_numbers[0] == "G1001"
    assert best.score.station_fit == 0


def test_a_station_the_traveller_named_is_theirs_whatever_its_name():
    near = offer("G1003", HANKOU, CHANGSHA_SOUTH, "09:10", "10:25", seats=SECOND)
    best = plan(_request(origin_station="汉口"), book(near), now=NOW).best
    assert best is not None and best.score.station_fit == 0
    # A city with no station named after it (open: every station will do) is no cost either.
    opened = _request(open_cities=frozenset({"武汉"}))
    assert plan(opened, book(near), now=NOW).best.score.station_fit == 0
