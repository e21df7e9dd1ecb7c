"""Every stated constraint is honoured by the engine, and each relaxation is the minimal one
and is named (pure: no event loop, no HTTP, no Redis)."""

from __future__ import annotations

import dataclasses
import datetime as dt

import pytest

from rules import DEFAULT_RULES, TripRequest, plan
from rules.relax import kin_meets_window, minimal_relaxation, relaxed_between, stated
from sources.models import SLEEPER_CLASSES, SeatClass, Station
from tests.rules.factory import (
    BEIJING_SOUTH,
    BEIJING_WEST,
    DAY,
    HONGQIAO,
    NANJING_SOUTH,
    NOW,
    SHANGHAI_STATION,
    book,
    high_speed_seats,
    offer,
    seat,
)

NANJING = Station(telecode="NJH", name="南京", city="南京")
DAY2 = DAY + dt.timedelta(days=2)
SLEEPERS = (
    seat(SeatClass.SOFT_SLEEPER, 420.0),
    seat(SeatClass.HARD_SLEEPER, 280.0),
    seat(SeatClass.HARD_SEAT, 160.0),
    seat(SeatClass.NO_SEAT, 160.0),
)


def one_way(**changes: object) -> TripRequest:
    fields: dict[str, object] = {
        "origin": "北京",
        "destination": "上海",
        "depart_date": DAY,
        "return_trip": False,
    }
    fields.update(changes)
    return TripRequest.model_validate(fields)


def mixed_day() -> dict:
    return book(
        offer("G1", BEIJING_SOUTH, HONGQIAO, "07:00", "11:28"),
        offer("G3", BEIJING_SOUTH, HONGQIAO, "09:00", "13:40", seats=high_speed_seats(500)),
        offer("D5", BEIJING_SOUTH, SHANGHAI_STATION, "08:10", "16:00", seats=high_speed_seats(300)),
        offer("T109", BEIJING_WEST, SHANGHAI_STATION, "20:00", "09:00", seats=SLEEPERS),
        offer("K99", BEIJING_WEST, SHANGHAI_STATION, "10:00", "05:00", seats=SLEEPERS[2:]),
    )


def best_trains(request: TripRequest, entries: dict) -> tuple[str, ...]:
    result = plan(request, entries, now=NOW)
    assert result.best is not None, result.failures
    return result.best.train_numbers


def test_excluded_train_types_are_never_planned():
    assert best_trains(one_way(exclude_train_types=frozenset({"G", "D"})), mixed_day())[0] in (
        "T109",
        "K99",
    )


def test_excluded_seat_classes_are_never_planned():
    request = one_way(exclude_train_types=frozenset({"G", "D"}), seat_class=SeatClass.HARD_SEAT)
    assert plan(request, mixed_day(), now=NOW).best is not None
    request = one_way(
        train_types=frozenset({"K"}),
        exclude_seat_classes=frozenset({SeatClass.HARD_SEAT, SeatClass.NO_SEAT}),
        allow_night=True,
    )
    assert plan(request, mixed_day(), now=NOW).best is None


def test_sleeper_category_takes_any_berth_and_never_a_seat():
    request = one_way(seat_classes=SLEEPER_CLASSES, allow_night=True)
    best = plan(request, mixed_day(), now=NOW).best
    assert best is not None and best.train_numbers == ("T109",)
    assert best.legs[0].seat_class in SLEEPER_CLASSES


def test_named_class_is_strict_no_silent_fallback():
    entries = book(
        offer(
            "G1",
            BEIJING_SOUTH,
            HONGQIAO,
            "09:00",
            "13:28",
            seats=(seat(SeatClass.FIRST, 933.0), seat(SeatClass.SECOND, 553.0, 0)),
        )
    )
    assert plan(one_way(seat_class=SeatClass.SECOND), entries, now=NOW).best is None


def test_exact_origin_station_is_kept():
    assert best_trains(one_way(origin_station="北京西", allow_night=True), mixed_day())[0] in (
        "T109",
        "K99",
    )


def test_exact_destination_station_is_kept():
    best = best_trains(one_way(destination_station="上海虹桥"), mixed_day())
    assert best[0] in ("G1", "G3")


def test_stated_window_has_no_slack():
    entries = book(
        offer("G7", NANJING_SOUTH, HONGQIAO, "08:08", "09:20"),
        offer("G9", NANJING, SHANGHAI_STATION, "07:30", "09:40"),
    )
    request = one_way(origin="南京", depart_window=(dt.time(0, 0), dt.time(8, 0)))
    assert best_trains(request, entries) == ("G9",)
    strict = request.model_copy(update={"origin_station": "南京南"})
    assert plan(strict, entries, now=NOW).best is None


def test_return_window_applies_to_the_ride_home():
    entries = book(
        offer("G1", BEIJING_SOUTH, HONGQIAO, "07:00", "11:28"),
        offer("G2", HONGQIAO, BEIJING_SOUTH, "09:00", "13:28", day=DAY2),
        offer(
            "G6", HONGQIAO, BEIJING_SOUTH, "19:00", "23:28", day=DAY2, seats=high_speed_seats(700)
        ),
    )
    request = one_way(
        return_trip=True,
        return_date=DAY2,
        return_window=(dt.time(18), dt.time(23, 59)),
        allow_night=True,
    )
    assert best_trains(request, entries) == ("G1", "G6")


def test_a_class_for_the_ride_home_alone_is_taken_on_that_ride_and_relaxed_in_the_open():
    home = (seat(SeatClass.HARD_SLEEPER, 280.0), seat(SeatClass.HARD_SEAT, 160.0))
    entries = book(
        offer("G1", BEIJING_SOUTH, HONGQIAO, "07:00", "11:28"),
        offer("G2", HONGQIAO, BEIJING_SOUTH, "09:00", "13:28", day=DAY2),
        offer("T110", SHANGHAI_STATION, BEIJING_WEST, "19:00", "09:00", day=DAY2, seats=home),
    )
    berths = frozenset(SLEEPER_CLASSES)
    request = one_way(return_trip=True, return_date=DAY2, return_seat_classes=berths)
    best = plan(request, entries, now=NOW).best
    assert best is not None and best.train_numbers == ("G1", "T110")
    assert [leg.seat_class for leg in best.legs] == [SeatClass.SECOND, SeatClass.HARD_SLEEPER]
    seats_only = {k: v for k, v in entries.items() if k.origin == "北京" or k.date != DAY2}
    seats_only |= book(offer("G2", HONGQIAO, BEIJING_SOUTH, "09:00", "13:28", day=DAY2))
    assert plan(request, seats_only, now=NOW).best is None
    found = minimal_relaxation(request, seats_only, now=NOW)
    assert found is not None and found[1] == ("return_seat_classes",)


def test_no_night_on_the_ride_home_alone_leaves_the_night_train_out_its_own():
    entries = book(
        offer("T109", BEIJING_WEST, SHANGHAI_STATION, "20:00", "09:00", seats=SLEEPERS),
        offer("T110", SHANGHAI_STATION, BEIJING_WEST, "19:00", "09:00", day=DAY2, seats=SLEEPERS),
        offer("G2", HONGQIAO, BEIJING_SOUTH, "09:00", "13:28", day=DAY2),
    )
    request = one_way(
        return_trip=True,
        return_date=DAY2,
        allow_night=True,
        seat_classes=frozenset(SLEEPER_CLASSES),
        return_no_overnight=True,
        return_seat_classes=frozenset({SeatClass.SECOND}),
    )
    best = plan(request, entries, now=NOW).best
    assert best is not None and best.train_numbers == ("T109", "G2")
    night_only = {k: v for k, v in entries.items() if k.origin == "北京" or k.date != DAY2}
    night_only |= book(
        offer("T110", SHANGHAI_STATION, BEIJING_WEST, "19:00", "09:00", day=DAY2, seats=SLEEPERS)
    )
    found = minimal_relaxation(request, night_only, now=NOW)
    assert found is not None and "return_no_overnight" in found[1]


def test_arrival_day_is_the_outbound_ride_not_a_return():
    request = one_way(arrive_date=DAY + dt.timedelta(days=1), allow_night=True)
    assert best_trains(request, mixed_day()) in (("T109",), ("K99",))


def test_a_deadline_on_the_next_morning_is_met_by_arriving_the_evening_before_too():
    # 后天早上九点前到，明天几点走都行: G1 (there at 11:28 the day before) meets the deadline.
    deadline = one_way(
        arrive_date=DAY + dt.timedelta(days=1),
        arrive_window=(dt.time(0, 0), dt.time(9, 0)),
        allow_night=True,
        order="earliest",
    )
    assert best_trains(deadline, mixed_day()) == ("G1",)
    # A window the next morning (次日早上到: 06:00-12:00) is no deadline: the night trains.
    morning = deadline.model_copy(update={"arrive_window": (dt.time(4, 0), dt.time(12, 0))})
    assert best_trains(morning, mixed_day()) in (("T109",), ("K99",))


@pytest.mark.parametrize(
    ("order", "train"),
    [("earliest", "G1"), ("latest", "T109"), ("cheapest", "K99"), ("fastest", "G1")],
)
def test_order_preference_decides(order, train):
    assert best_trains(one_way(order=order, allow_night=True), mixed_day())[0] == train


def test_party_is_priced_per_passenger():
    best = plan(one_way(passengers=3), mixed_day(), now=NOW).best
    assert best is not None
    assert best.total_price == round(3 * best.legs[0].unit_price, 2)


@pytest.mark.parametrize(
    ("request_changes", "dropped"),
    [
        ({"depart_window": (dt.time(0, 0), dt.time(6, 0))}, ("depart_window",)),
        ({"exclude_train_types": frozenset("GDCZTK")}, ("exclude_train_types",)),
        ({"seat_class": SeatClass.PREMIUM}, ("seat_class",)),
        ({"origin_station": "北京北"}, ("origin",)),
        ({"budget": 10.0}, ("budget",)),
        ({"arrive_date": DAY + dt.timedelta(days=5)}, ("arrive_date",)),
    ],
)
def test_minimal_relaxation_drops_only_the_constraint_that_cannot_be_met(request_changes, dropped):
    original = one_way(exclude_seat_classes=frozenset({SeatClass.NO_SEAT}), **request_changes)
    assert plan(original, mixed_day(), now=NOW).best is None
    found = minimal_relaxation(original, mixed_day(), now=NOW)
    assert found is not None
    chosen, names = found
    assert names == dropped
    assert relaxed_between(original, chosen) == list(dropped)
    assert "exclude_seat_classes" in stated(chosen)  # the rest is kept


def test_two_constraints_are_dropped_only_when_one_is_not_enough():
    original = one_way(depart_window=(dt.time(0, 0), dt.time(6, 0)), origin_station="北京北")
    found = minimal_relaxation(original, mixed_day(), now=NOW)
    # Both go; the named station is tried before the window of its own end.
    assert found is not None and found[1] == ("origin", "depart_window")


def test_a_moved_date_is_named_as_a_relaxation():
    original = one_way()
    moved = original.model_copy(update={"depart_date": DAY + dt.timedelta(days=1)})
    assert relaxed_between(original, moved) == ["date_start"]


def test_a_day_earlier_out_with_the_day_home_kept_names_the_longer_stay():
    original = one_way().model_copy(
        update={"return_trip": True, "return_date": DAY + dt.timedelta(days=3)}
    )
    earlier = original.model_copy(update={"depart_date": DAY - dt.timedelta(days=1)})
    assert relaxed_between(original, earlier) == ["date_start", "nights"]
    both = earlier.model_copy(update={"return_date": DAY + dt.timedelta(days=2)})
    assert relaxed_between(original, both) == ["date_start"], "the stay kept: only the day"


def test_ride_home_of_a_stay_is_not_a_dawn_train_by_default():
    entries = book(
        offer("G1", BEIJING_SOUTH, HONGQIAO, "09:00", "13:28"),
        offer("G2", HONGQIAO, BEIJING_SOUTH, "06:10", "10:38", day=DAY2),
        offer("G6", HONGQIAO, BEIJING_SOUTH, "13:00", "17:28", day=DAY2),
    )
    request = one_way(return_trip=True, return_date=DAY2)
    assert best_trains(request, entries) == ("G1", "G6")
    early = request.model_copy(update={"return_window": (dt.time(6), dt.time(7))})
    assert best_trains(early, entries) == ("G1", "G2")  # a stated time wins


def test_a_relaxed_window_still_takes_the_nearest_train():
    entries = book(
        offer("G7", BEIJING_SOUTH, HONGQIAO, "08:12", "12:40", seats=high_speed_seats(700)),
        offer("G9", BEIJING_SOUTH, HONGQIAO, "15:00", "19:28", seats=high_speed_seats(500)),
    )
    original = one_way(depart_window=(dt.time(0, 0), dt.time(8, 0)))
    found = minimal_relaxation(original, entries, now=NOW)
    assert found is not None and found[1] == ("depart_window",)
    assert best_trains(found[0], entries) == ("G7",)


def test_a_transfer_is_never_a_tour():
    wuhan = Station(telecode="WHN", name="武汉", city="武汉")
    entries = book(
        offer("G1", BEIJING_SOUTH, HONGQIAO, "06:30", "11:00", seats=()),  # sold out entirely
        offer("G81", BEIJING_SOUTH, wuhan, "07:00", "11:30"),
        offer("G82", wuhan, HONGQIAO, "12:30", "17:30"),
    )
    result = plan(one_way(), entries, now=NOW)
    assert result.best is None  # 10.5 h round by 武汉 against a 4.5 h direct train
    roomy = dataclasses.replace(DEFAULT_RULES, max_detour=3.0)
    assert plan(one_way(), entries, now=NOW, config=roomy).best is not None


def test_return_arrive_window_applies_to_the_ride_home_and_relaxes_by_name():
    entries = book(
        offer("G1", BEIJING_SOUTH, HONGQIAO, "07:00", "11:28"),
        offer(
            "G2", HONGQIAO, BEIJING_SOUTH, "09:00", "13:28", day=DAY2, seats=high_speed_seats(700)
        ),
        offer("G6", HONGQIAO, BEIJING_SOUTH, "19:00", "23:28", day=DAY2),
    )
    request = one_way(
        return_trip=True,
        return_date=DAY2,
        return_arrive_window=(dt.time(0, 0), dt.time(21, 0)),
        arrive_window=(dt.time(0, 0), dt.time(12, 0)),
        allow_night=True,
    )
    assert best_trains(request, entries) == ("G1", "G2")  # home by 21:00, though dearer
    late = request.model_copy(update={"return_arrive_window": (dt.time(0, 0), dt.time(10, 0))})
    assert plan(late, entries, now=NOW).best is None
    found = minimal_relaxation(late, entries, now=NOW)
    assert found is not None and found[1] == ("return_arrive_window",)


def test_a_named_town_counts_its_direction_stations_but_a_city_station_only_itself() -> None:
    from rules.options import at_place
    from sources.models import Station

    def station(name: str, city: str) -> Station:
        return Station(telecode="XXX", name=name, city=city, pinyin="x", initials="x")

    assert at_place(station("昆山南", "苏州"), "昆山")  # the town 昆山 is 昆山 and 昆山南
    assert at_place(station("漠河", "加格达奇"), "漠河")
    assert not at_place(station("北京西", "北京"), "北京")  # 北京站 is not 北京西
    assert not at_place(station("苏州北", "苏州"), "昆山")
    assert at_place(station("凤凰古城", "吉首"), "凤凰")  # the town's old-town station too
    assert not at_place(station("凤凰古城", "吉首"), "凤")


def test_a_wish_for_the_conventional_trains_takes_an_ordinary_train_too() -> None:
    entries = book(
        offer("G1", BEIJING_SOUTH, HONGQIAO, "07:00", "11:28"),
        offer("1461", BEIJING_WEST, SHANGHAI_STATION, "08:00", "20:00", seats=SLEEPERS[2:]),
    )
    wished = one_way(train_types=frozenset({"Z", "T", "K"}))
    assert best_trains(wished, entries) == ("1461",)
    refused = one_way(exclude_train_types=frozenset({"Z", "T", "K"}))
    assert best_trains(refused, entries) == ("G1",)
    assert plan(one_way(train_types=frozenset({"K"})), entries, now=NOW).best is None


def test_in_a_chat_the_constraint_said_longest_ago_gives_way_first():
    # 硬座 said, then 上午: no morning hard seat. The latest word wins: the class gives way.
    entries = book(
        offer("D8711", BEIJING_SOUTH, HONGQIAO, "06:42", "08:35"),
        offer("K9637", BEIJING_WEST, SHANGHAI_STATION, "22:51", "07:26", seats=SLEEPERS[2:]),
    )
    morning = (dt.time(6), dt.time(12))
    request = one_way(seat_class=SeatClass.HARD_SEAT, depart_window=morning, allow_night=True)
    found = minimal_relaxation(request, entries, now=NOW)
    assert found is not None and found[1] == ("depart_window",), "one sentence: engine order"
    chat = request.model_copy(update={"stated_order": ("seat_class", "depart_window")})
    found = minimal_relaxation(chat, entries, now=NOW)
    assert found is not None and found[1] == ("seat_class",)
    assert best_trains(found[0], entries) == ("D8711",)


def test_train_types_for_the_ride_home_alone_leave_the_outbound_its_own():
    entries = book(
        offer("T109", BEIJING_WEST, SHANGHAI_STATION, "20:00", "09:00", seats=SLEEPERS),
        offer("T110", SHANGHAI_STATION, BEIJING_WEST, "19:00", "09:00", day=DAY2, seats=SLEEPERS),
        offer("G2", HONGQIAO, BEIJING_SOUTH, "09:00", "13:28", day=DAY2),
    )
    berths = frozenset(SLEEPER_CLASSES)
    request = one_way(
        return_trip=True, return_date=DAY2, seat_classes=berths, return_train_types={"G"}
    )
    best = plan(request, entries, now=NOW).best
    assert best is not None and best.train_numbers == ("T109", "G2")
    assert best.legs[1].seat_class is SeatClass.SECOND, "the berth wish was the outbound's"


def test_a_wish_for_dongche_widens_to_the_intercity_emus_before_any_train() -> None:
    # 海口→三亚 想坐动车 with no D train: C7473 (an intercity EMU), said as the type relaxed,
    # before a conventional train.
    entries = book(
        offer("C2003", BEIJING_SOUTH, HONGQIAO, "06:07", "08:54"),
        offer("K1", BEIJING_WEST, SHANGHAI_STATION, "07:46", "20:12", seats=SLEEPERS[2:]),
    )
    wish = one_way(train_types=frozenset({"D"}))
    assert plan(wish, entries, now=NOW).best is None
    found = minimal_relaxation(wish, entries, now=NOW)
    assert found is not None
    chosen, dropped = found
    assert dropped == ("train_kin",) and best_trains(chosen, entries) == ("C2003",)
    assert relaxed_between(wish, chosen) == ["train_kin"]
    assert best_trains(one_way(exclude_train_types=frozenset({"D"})), entries) == ("C2003",)


def test_a_wish_for_gaotie_takes_a_dongche_in_time_before_any_window_or_day_gives_way() -> None:
    # 南宁→北海 只坐高铁，中午前到: the line runs D trains; D8309 arrives in time, the only G
    # train arrives in the evening. The type widens to its kin (said as the type relaxed),
    # the deadline stays, and the day is not moved (kin_meets_window).
    entries = book(
        offer("D8309", BEIJING_SOUTH, HONGQIAO, "09:04", "10:30"),
        offer("G529", BEIJING_SOUTH, HONGQIAO, "19:30", "21:00"),
    )
    wish = one_way(train_types=frozenset({"G"}), arrive_window=(dt.time(0, 0), dt.time(12, 0)))
    assert plan(wish, entries, now=NOW).best is None
    found = minimal_relaxation(wish, entries, now=NOW)
    assert found is not None
    chosen, dropped = found
    assert dropped == ("train_kin",) and best_trains(chosen, entries) == ("D8309",)
    assert kin_meets_window(wish, entries, now=NOW)
    # A wish for G and D together has no kin left to widen to but the intercity EMUs.
    assert not kin_meets_window(one_way(train_types=frozenset({"G", "D", "C"})), entries, now=NOW)


def test_a_station_of_the_city_proper_gives_way_before_the_type_widens() -> None:
    # 武昌 named, 只坐高铁: the G train from the city's other station, not a 动车 from 武昌.
    entries = book(
        offer("D1", BEIJING_WEST, HONGQIAO, "09:30", "15:00"),
        offer("G3", BEIJING_SOUTH, HONGQIAO, "09:00", "13:30"),
    )
    wish = one_way(train_types=frozenset({"G"}), origin_station="北京西")
    found = minimal_relaxation(wish, entries, now=NOW)
    assert found is not None
    chosen, dropped = found
    assert dropped == ("origin",) and best_trains(chosen, entries) == ("G3",)


def test_fastest_takes_a_seat_arriving_late_at_night() -> None:
    # 东莞东→潢川: T395 arrives 23:14 in a seat, the quickest ride of the day.
    entries = book(
        offer("T395", BEIJING_WEST, SHANGHAI_STATION, "08:34", "23:14", seats=SLEEPERS[2:]),
        offer("K106", BEIJING_WEST, SHANGHAI_STATION, "12:26", "04:41", seats=SLEEPERS),
    )
    assert best_trains(one_way(order="fastest"), entries) == ("T395",)


def test_a_berth_that_sets_the_traveller_down_in_the_small_hours_is_no_nights_lodging() -> None:
    # 重庆→武隆: K838 22:51→01:21 in a berth is a night ride; the morning train is planned.
    entries = book(
        offer("K838", BEIJING_WEST, SHANGHAI_STATION, "22:51", "01:21", seats=SLEEPERS),
        offer("5609", BEIJING_WEST, SHANGHAI_STATION, "08:10", "10:56", seats=SLEEPERS[2:]),
    )
    assert best_trains(one_way(), entries) == ("5609",)
    dawn = book(offer("T1", BEIJING_WEST, SHANGHAI_STATION, "22:00", "06:30", seats=SLEEPERS))
    assert best_trains(one_way(), dawn) == ("T1",)


def test_the_ride_home_chooses_its_own_night_hours() -> None:
    # 周日晚上回来 on a leisure trip: the ride home may arrive after 23:00, the ride out still
    # keeps the night default (no 03:00 seat to be there early).
    out_day, home_day = DAY, DAY + dt.timedelta(days=1)
    entries = book(
        offer("K1", BEIJING_WEST, SHANGHAI_STATION, "03:00", "04:40", seats=SLEEPERS[2:]),
        offer("G1", BEIJING_SOUTH, HONGQIAO, "06:10", "10:30"),
        offer("G2", HONGQIAO, BEIJING_SOUTH, "18:30", "23:30", day=home_day),
    )
    request = one_way(
        return_trip=True,
        return_date=home_day,
        leisure=True,
        return_window=(dt.time(18, 0), dt.time(23, 59)),
        return_allow_night=True,
    )
    assert request.depart_date == out_day
    assert best_trains(request, entries) == ("G1", "G2")
    # Said of the whole trip, the night hours are the traveller's on the ride out too.
    assert best_trains(request.model_copy(update={"allow_night": True}), entries)[0] == "K1"
