"""Objectives: each order finds its own best route, whatever the balanced score prefers."""

from __future__ import annotations

import datetime as dt
from types import SimpleNamespace

from rules import TripRequest, plan
from rules.config import DEFAULT_RULES
from rules.objective import CHANGE_WORTH, change_cost, dominated, night_minutes
from rules.options import Ride, epoch_minutes
from sources.models import SeatClass, Station
from tests.rules.factory import (
    BEIJING_SOUTH,
    BEIJING_WEST,
    DAY,
    HONGQIAO,
    NANJING_SOUTH,
    NOW,
    book,
    offer,
    seat,
)

CHEAP = (seat(SeatClass.SECOND, 50.0),)
DEAR = (seat(SeatClass.SECOND, 2000.0),)


def _one_way(**fields: object) -> TripRequest:
    return TripRequest(
        origin="北京", destination="上海", depart_date=DAY, return_trip=False, **fields
    )


def _trains(request: TripRequest, entries: dict) -> list[tuple[str, ...]]:
    result = plan(request, entries, now=NOW, limit=3)
    return [it.train_numbers for it in result.itineraries]


def test_fastest_takes_the_change_that_beats_a_slow_direct_and_cheapest_the_direct():
    entries = book(
        offer("D7", BEIJING_SOUTH, HONGQIAO, "08:00", "22:00", seats=CHEAP),
        offer("G1", BEIJING_SOUTH, NANJING_SOUTH, "08:00", "11:00"),
        offer("G2", NANJING_SOUTH, HONGQIAO, "11:30", "13:00"),
    )
    fastest = _trains(_one_way(order="fastest"), entries)
    cheapest = _trains(_one_way(order="cheapest"), entries)
    assert fastest[0] == ("G1", "G2")
    assert cheapest[0] == ("D7",)
    # Whatever the order, the other objective's best stays among the alternatives.
    assert ("D7",) in fastest and ("G1", "G2") in cheapest


def test_a_change_that_saves_less_than_it_is_worth_never_beats_the_direct():
    # G1 + G2 take 300 minutes: a change there is worth 2% of them (6 minutes), at most 30.
    worth = change_cost(300, 1)
    assert worth == 6 and change_cost(3000, 1) == CHANGE_WORTH

    def direct(saved: float) -> list[tuple[str, ...]]:
        arrive = dt.datetime(2026, 1, 1, 13, 0) + dt.timedelta(minutes=saved)
        entries = book(
            offer("G9", BEIJING_SOUTH, HONGQIAO, "08:00", arrive.strftime("%H:%M")),
            offer("G1", BEIJING_SOUTH, NANJING_SOUTH, "08:00", "11:00"),
            offer("G2", NANJING_SOUTH, HONGQIAO, "11:30", "13:00"),
        )
        return _trains(_one_way(order="fastest"), entries)

    assert direct(worth - 1)[0] == ("G9",)
    assert direct(worth + 10)[0] == ("G1", "G2")


def test_fastest_finds_the_quick_dear_partner_the_balanced_score_would_pass_over():
    entries = book(
        offer("G10", BEIJING_SOUTH, NANJING_SOUTH, "06:00", "09:00", seats=CHEAP),
        offer("G1", BEIJING_WEST, NANJING_SOUTH, "08:00", "10:00", seats=DEAR),
        offer("D1", NANJING_SOUTH, HONGQIAO, "10:30", "16:00", seats=CHEAP),
        offer("G3", NANJING_SOUTH, HONGQIAO, "11:00", "12:30", seats=DEAR),
    )
    assert _trains(_one_way(order="fastest"), entries)[0] == ("G1", "G3")
    # Fastest is the default of a one-way trip; a leisure trip takes the balanced score.
    assert _trains(_one_way(), entries)[0] == ("G1", "G3")
    assert _trains(_one_way(leisure=True), entries)[0] == ("G10", "D1")


def test_latest_finds_the_latest_feeder_though_a_cheaper_one_scores_better():
    arrive_by = (dt.time(0, 0), dt.time(18, 0))
    entries = book(
        offer("G1", BEIJING_SOUTH, NANJING_SOUTH, "08:00", "10:00", seats=CHEAP),
        offer("G5", BEIJING_WEST, NANJING_SOUTH, "12:00", "14:00", seats=DEAR),
        offer("G2", NANJING_SOUTH, HONGQIAO, "15:00", "16:30"),
    )
    request = _one_way(order="latest", arrive_window=arrive_by)
    assert _trains(request, entries)[0] == ("G5", "G2")


NIGHT = (
    seat(SeatClass.HARD_SLEEPER, 169.0),
    seat(SeatClass.HARD_SEAT, 99.0),
)
XIAN = Station(telecode="XAY", name="西安", city="西安")
BEIJING_STATION = Station(telecode="BJP", name="北京", city="北京")


def test_cheapest_takes_the_seat_of_a_night_ride_unless_a_berth_was_asked():
    entries = book(offer("Z19", BEIJING_STATION, XIAN, "20:00", "08:00", seats=NIGHT))

    def classes(**fields: object) -> list[SeatClass]:
        request = TripRequest(
            origin="北京", destination="西安", depart_date=DAY, return_trip=False, **fields
        )
        result = plan(request, entries, now=NOW)
        return [leg.seat_class for leg in result.itineraries[0].legs]

    assert classes(order="cheapest") == [SeatClass.HARD_SEAT]
    assert classes() == [SeatClass.HARD_SLEEPER]  # no order: the berth is the night's bed
    berths = frozenset({SeatClass.HARD_SLEEPER, SeatClass.SOFT_SLEEPER})
    assert classes(order="cheapest", seat_classes=berths) == [SeatClass.HARD_SLEEPER]


def test_a_leisure_trip_never_gives_an_afternoon_there_for_a_yuan():
    saturday, sunday = DAY, DAY + dt.timedelta(days=1)
    morning = (seat(SeatClass.SECOND, 101.0),)
    evening = (seat(SeatClass.SECOND, 100.0),)
    entries = book(
        offer("G11", BEIJING_SOUTH, HONGQIAO, "07:00", "11:30", seats=morning),
        offer("G13", BEIJING_SOUTH, HONGQIAO, "17:00", "21:30", seats=evening),
        offer("G12", HONGQIAO, BEIJING_SOUTH, "14:00", "18:30", day=sunday, seats=evening),
        offer("G14", HONGQIAO, BEIJING_SOUTH, "18:00", "22:30", day=sunday, seats=morning),
    )

    def trains(leisure: bool) -> tuple[str, ...]:
        request = TripRequest(
            origin="北京",
            destination="上海",
            depart_date=saturday,
            return_date=sunday,
            leisure=leisure,
        )
        return plan(request, entries, now=NOW).itineraries[0].train_numbers

    assert trains(leisure=True) == ("G11", "G14")
    # Without it, the yuan decides (the hours on the train are the same).
    assert trains(leisure=False) != ("G11", "G14")


def test_a_day_out_counts_waking_hours_only():
    # A sleeper there before dawn and one home after midnight buy no hours anyone spends
    # there: the day trip rides the daytime trains, cheaper night ones notwithstanding.
    cheap = (seat(SeatClass.HARD_SLEEPER, 60.0),)
    dear = (seat(SeatClass.SECOND, 140.0),)
    entries = book(
        offer("K1", BEIJING_SOUTH, HONGQIAO, "00:10", "04:15", seats=cheap),
        offer("G1", BEIJING_SOUTH, HONGQIAO, "06:30", "08:00", seats=dear),
        offer("G2", HONGQIAO, BEIJING_SOUTH, "20:30", "22:00", seats=dear),
        offer("K2", HONGQIAO, BEIJING_SOUTH, "23:49", "04:00", seats=cheap),
    )
    request = TripRequest(
        origin="北京", destination="上海", depart_date=DAY, return_date=DAY, leisure=True
    )
    assert plan(request, entries, now=NOW).itineraries[0].train_numbers == ("G1", "G2")


def test_a_stay_said_by_its_days_is_not_spent_on_a_night_train():
    # 周六去周日回: a sleeper leaving Saturday night arrives Sunday and leaves no night there,
    # however much hotel it saves; asked for a berth, the night on board is the choice.
    saturday, sunday = DAY, DAY + dt.timedelta(days=1)
    sleeper = (seat(SeatClass.HARD_SLEEPER, 104.5), seat(SeatClass.HARD_SEAT, 61.5))
    entries = book(
        offer("6857", BEIJING_SOUTH, HONGQIAO, "09:42", "18:28", seats=CHEAP),
        offer("T42", BEIJING_SOUTH, HONGQIAO, "23:12", "06:50", seats=sleeper),
        offer("4651", HONGQIAO, BEIJING_SOUTH, "13:45", "21:23", day=sunday, seats=sleeper),
    )
    request = TripRequest(
        origin="北京", destination="上海", depart_date=saturday, return_date=sunday
    )
    assert plan(request, entries, now=NOW).itineraries[0].train_numbers == ("6857", "4651")
    berth = request.model_copy(update={"seat_classes": frozenset({SeatClass.HARD_SLEEPER})})
    assert plan(berth, entries, now=NOW).itineraries[0].train_numbers[0] == "T42"
    evening = request.model_copy(update={"depart_window": (dt.time(20, 0), dt.time(23, 59))})
    assert plan(evening, entries, now=NOW).itineraries[0].train_numbers[0] == "T42"


JINHUA = Station(telecode="RNH", name="金华", city="金华")
YIWU = Station(telecode="YWH", name="义乌", city="金华")
HANGZHOU_EAST = Station(telecode="HGH", name="杭州东", city="杭州")


def test_an_outlying_station_only_where_the_city_proper_has_no_journey_at_all():
    request = TripRequest(origin="金华", destination="上海", depart_date=DAY, return_trip=False)
    from_yiwu = offer("G7", YIWU, HONGQIAO, "08:00", "09:40")
    via_hangzhou = (
        offer("G21", JINHUA, HANGZHOU_EAST, "08:00", "08:50"),
        offer("G23", HANGZHOU_EAST, HONGQIAO, "09:20", "10:10"),
    )
    # A city-proper journey exists (with a change): 义乌's direct train is not taken.
    result = plan(request, book(from_yiwu, *via_hangzhou), now=NOW)
    assert all(it.legs[0].origin_station == JINHUA for it in result.itineraries)
    assert not any("义乌" in note for note in result.notes)
    # None exists: the outlying station is planned, and said.
    result = plan(request, book(from_yiwu), now=NOW)
    assert result.itineraries[0].legs[0].origin_station == YIWU
    assert any("义乌" in note for note in result.notes)


def test_cheapest_takes_a_seat_a_few_yuan_less_even_far_down_the_class_fallback():
    # As 上海→南京 on the sandbox: a night train's hard seat (¥35, three steps below its
    # berth) beats an evening train's hard seat (¥40); no class penalty outweighs the order.
    night = (seat(SeatClass.HARD_SLEEPER, 71.5), seat(SeatClass.HARD_SEAT, 35.0))
    day = (seat(SeatClass.HARD_SEAT, 40.0),)
    entries = book(
        offer("Z164", BEIJING_STATION, XIAN, "20:08", "22:55", seats=day),
        offer("1228", BEIJING_STATION, XIAN, "20:20", "00:24", seats=night),
    )
    request = TripRequest(
        origin="北京", destination="西安", depart_date=DAY, return_trip=False, order="cheapest"
    )
    result = plan(request, entries, now=NOW)
    assert result.itineraries[0].train_numbers == ("1228",)
    assert result.itineraries[0].total_price == 35.0


def test_a_relaxed_window_takes_the_train_nearest_it_not_the_quickest_of_the_day():
    # 成都→峨眉山 早上 (06:00-09:00) with no direct train in it: 09:30 (89 min), not 15:22
    # (75 min), though the one-way default order is the quickest.
    entries = book(
        offer("C6303", BEIJING_SOUTH, HONGQIAO, "09:30", "10:59"),
        offer("C6257", BEIJING_SOUTH, HONGQIAO, "15:22", "16:37"),
    )
    relaxed = _one_way(rank_window=(dt.time(6, 0), dt.time(9, 0)))
    assert _trains(relaxed, entries)[0] == ("C6303",)
    assert _trains(_one_way(), entries)[0] == ("C6257",), "no window said: the quickest"


def test_an_hour_said_around_takes_the_train_nearest_it_not_the_quickest_of_its_window():
    # 北京→上海 八点左右 (07:00-09:00): 07:58 is meant, not 07:05 for being a quarter faster,
    # nor a cheaper 08:40 half an hour off the hour.
    entries = book(
        offer("G1", BEIJING_SOUTH, HONGQIAO, "07:05", "11:20"),
        offer("G3", BEIJING_SOUTH, HONGQIAO, "07:58", "12:30"),
        offer("G5", BEIJING_SOUTH, HONGQIAO, "08:40", "13:10", seats=CHEAP),
    )
    around = _one_way(
        depart_window=(dt.time(7, 0), dt.time(9, 0)),
        rank_window=(dt.time(7, 30), dt.time(8, 30)),
    )
    assert _trains(around, entries)[0] == ("G3",)
    said_order = around.model_copy(update={"order": "fastest"})
    assert _trains(said_order, entries)[0] == ("G1",), "an order said outright still rules"


def test_a_city_proper_train_the_wishes_rule_out_is_no_gap_for_an_outlying_station():
    # 大理→丽江 by D in the morning: K9625 leaves 大理 at 18:28, D8788 leaves 鹤庆 (filed under
    # 大理, 100 km away). The wishes are not traded for a station the traveller never named.
    request = TripRequest(
        origin="金华",
        destination="上海",
        depart_date=DAY,
        return_trip=False,
        train_types=frozenset({"D"}),
    )
    evening_k = offer("K47", JINHUA, HONGQIAO, "18:28", "21:15")
    morning_d = offer("D8", YIWU, HONGQIAO, "08:00", "09:40")
    result = plan(request, book(evening_k, morning_d), now=NOW)
    assert result.itineraries == ()
    # Without the wish, the city proper's own train.
    relaxed = request.model_copy(update={"train_types": frozenset()})
    assert plan(relaxed, book(evening_k, morning_d), now=NOW).best.train_numbers == ("K47",)


def test_a_berth_boarded_at_midnight_is_the_nights_bed_like_one_boarded_before_it():
    # The last day on sale (元旦 + 2) sells only the 00:00 trains home: a berth on one is a
    # night train's berth, not a seat at a forbidden hour.
    midnight = offer("2728", XIAN, BEIJING_STATION, "00:00", "07:04", seats=NIGHT)
    entries = book(midnight)
    request = TripRequest(origin="西安", destination="北京", depart_date=DAY, return_trip=False)
    best = plan(request, entries, now=NOW).best
    assert best is not None and [leg.seat_class for leg in best.legs] == [SeatClass.HARD_SLEEPER]
    short = book(offer("K1039", XIAN, BEIJING_STATION, "02:15", "05:03", seats=NIGHT))
    assert plan(request, short, now=NOW).best is None, "a short ride in the small hours is no bed"


def test_the_first_train_is_never_a_feeder_to_a_later_train_from_the_same_station():
    # 最早一班: D1 at 06:00 to 南京南 only to board G5 there, which left 北京南 at 08:00 and
    # reaches 上海虹桥 at the same time; G5 is the first train worth taking. A change that
    # really arrives first (G7 → G8 before any direct) is kept.
    entries = book(
        offer("D1", BEIJING_SOUTH, NANJING_SOUTH, "06:00", "09:30"),
        offer("G5", NANJING_SOUTH, HONGQIAO, "11:30", "13:00"),
        offer("G5", BEIJING_SOUTH, HONGQIAO, "08:00", "13:00"),
    )
    assert _trains(_one_way(order="earliest"), entries)[0] == ("G5",)
    sooner = book(
        offer("G7", BEIJING_SOUTH, NANJING_SOUTH, "06:00", "09:00"),
        offer("G8", NANJING_SOUTH, HONGQIAO, "09:30", "11:00"),
        offer("G5", BEIJING_SOUTH, HONGQIAO, "08:00", "13:00"),
    )
    assert _trains(_one_way(order="earliest"), sooner)[0] == ("G7", "G8")


def test_dominated_routes_are_changes_beaten_on_both_clocks_by_fewer_changes():
    def route(depart: int, arrive: int, changes: int) -> SimpleNamespace:
        return SimpleNamespace(depart=depart, arrive=arrive, rides=(None,) * (changes + 1))

    routes = [
        route(300, 1000, 1),  # leaves earlier, arrives with the direct: beaten
        route(420, 1000, 0),  # the direct
        route(420, 1000, 1),  # same clocks as the direct, one change more: beaten
        route(360, 900, 1),  # arrives first: kept
        route(480, 1100, 0),  # leaves later, arrives later: kept
        route(400, 1200, 0),  # a slower direct: the clock of the order decides, not this
        route(200, 1300, 2),  # two changes, beaten by the one-change route at 360
    ]
    beaten = dominated(routes)  # type: ignore[arg-type]
    assert beaten == [True, False, True, False, False, False, True]


def _ride(number: str, depart: str, arrive: str, seat_class: SeatClass) -> Ride:
    train = offer(number, BEIJING_SOUTH, HONGQIAO, depart, arrive, seats=(seat(seat_class, 90.0),))
    return Ride(
        offer=train,
        seat_class=seat_class,
        unit_price=90.0,
        fallback=0,
        scarcity=0.0,
        depart=epoch_minutes(train.depart_at),
        arrive=epoch_minutes(train.arrive_at),
        freshness="realtime",
        required=False,
    )


def test_night_minutes_count_the_hours_awake_between_eleven_and_six() -> None:
    assert night_minutes(_ride("K1", "22:30", "01:00", SeatClass.HARD_SEAT), DEFAULT_RULES) == 120
    assert night_minutes(_ride("K3", "04:10", "07:00", SeatClass.HARD_SEAT), DEFAULT_RULES) == 110
    assert night_minutes(_ride("D5", "08:00", "12:00", SeatClass.SECOND), DEFAULT_RULES) == 0
    # A berth through the night to the morning is the night's bed, not a night awake.
    berth = _ride("Z7", "21:00", "07:30", SeatClass.HARD_SLEEPER)
    assert night_minutes(berth, DEFAULT_RULES) == 0
    assert night_minutes(_ride("Z9", "21:00", "07:30", SeatClass.HARD_SEAT), DEFAULT_RULES) == 420


def test_night_hours_lifted_rank_the_fewest_first_unless_an_order_was_said() -> None:
    # Nothing else runs: 02:00 arrives soonest, 05:00 keeps the traveller's night.
    entries = book(
        offer("K1", BEIJING_SOUTH, HONGQIAO, "02:00", "04:00", seats=CHEAP),
        offer("K3", BEIJING_SOUTH, HONGQIAO, "05:00", "07:40", seats=CHEAP),
    )
    lifted = _one_way(allow_night=True, night_lifted=True)
    assert _trains(lifted, entries)[0] == ("K3",)
    said = _one_way(allow_night=True, night_lifted=True, order="earliest_arrival")
    assert _trains(said, entries)[0] == ("K1",)


def test_an_hour_said_around_takes_the_train_nearest_it_not_the_quickest_either_side():
    # 9点左右 (08:00-10:00, ranked around 08:30-09:30): 09:05 (89 min), not 08:02 (75 min).
    entries = book(
        offer("C6303", BEIJING_SOUTH, HONGQIAO, "09:05", "10:34"),
        offer("C6257", BEIJING_SOUTH, HONGQIAO, "08:02", "09:17"),
    )
    around = _one_way(
        depart_window=(dt.time(8, 0), dt.time(10, 0)), rank_window=(dt.time(8, 30), dt.time(9, 30))
    )
    assert _trains(around, entries)[0] == ("C6303",)
