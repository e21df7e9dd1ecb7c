"""The sandbox timetable: deterministic, realistic corridors, city-wide ride search."""

from __future__ import annotations

import datetime as dt
import os
import re
import subprocess
import sys
from pathlib import Path

from sources.models import SeatClass
from sources.sandbox import Timetable
from sources.sandbox.lines import LINES, station_names
from sources.stations import curated_directory

from .conftest import TRIP

WEEK = [TRIP + dt.timedelta(days=i) for i in range(7)]
ROOT = Path(__file__).resolve().parents[3]


def city(name: str) -> str:
    return curated_directory().city_code(name)


def fingerprint(timetable: Timetable, date: dt.date) -> list[tuple]:
    return [
        (t.code, t.train_no, tuple((s.station.telecode, s.arrive, s.depart) for s in t.stops))
        for t in timetable.trains(date)
    ]


def test_every_station_the_lines_name_is_in_the_directory():
    directory = curated_directory()
    missing = sorted(n for n in station_names() if directory.by_name(n) is None)
    assert missing == []


def test_same_date_gives_the_same_timetable_in_separate_instances(timetable):
    assert fingerprint(Timetable(), TRIP) == fingerprint(timetable, TRIP)


def test_timetable_does_not_depend_on_the_process_hash_seed(timetable):
    script = (
        "import datetime as dt, hashlib\n"
        "from sources.sandbox import Timetable\n"
        "t = Timetable().trains(dt.date(2026, 12, 4))\n"
        "print(hashlib.sha1(repr([(x.code, x.stops[0].depart) for x in t]).encode()).hexdigest())"
    )
    digests = {
        subprocess.run(
            [sys.executable, "-c", script],
            cwd=ROOT,
            env={**os.environ, "PYTHONHASHSEED": seed},
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        for seed in ("1", "2")
    }
    assert len(digests) == 1


def test_different_dates_may_run_different_trains(timetable):
    sets = {tuple(t.code for t in timetable.trains(date)) for date in WEEK}
    assert len(sets) > 1


def test_train_numbers_are_unique_realistic_and_internal_ids_have_twelve_chars(timetable):
    trains = timetable.trains(TRIP)
    codes = [t.code for t in trains]
    assert len(codes) == len(set(codes))
    assert len({t.train_no for t in trains}) == len(trains)
    assert {t.kind for t in trains} == set("GDCZTK")
    for train in trains:
        assert re.fullmatch(r"[GDCZTK]\d{1,4}", train.code)
        assert 1 <= int(train.code[1:]) <= 9999
        assert len(train.train_no) == 12 and train.code in train.train_no


def test_beijing_to_shanghai_has_at_least_twenty_trains_with_g_trains_every_day(timetable):
    for date in WEEK:
        rides = timetable.rides(city("北京"), city("上海"), date)
        assert len(rides) >= 20, date
        assert sum(r.train.kind == "G" for r in rides) >= 15
        assert all(r.depart_at.date() == date for r in rides)


def test_both_directions_of_a_line_run(timetable):
    assert len(timetable.rides(city("上海"), city("北京"), TRIP)) >= 20


def test_departures_spread_over_the_day(timetable):
    rides = timetable.rides(city("北京"), city("上海"), TRIP)
    hours = {r.depart_at.hour for r in rides}
    assert max(hours) - min(hours) >= 12
    assert len(hours) >= 10


def test_g_train_beijing_shanghai_takes_four_to_seven_hours(timetable):
    for ride in timetable.rides(city("北京"), city("上海"), TRIP):
        if ride.train.kind == "G":
            assert 4 * 60 <= ride.duration_min <= 7 * 60, ride.train.code


def test_overnight_sleeper_arrives_the_next_day(timetable):
    rides = timetable.rides(city("北京"), city("上海"), TRIP)
    sleepers = [r for r in rides if r.train.kind in "ZTK" and r.depart_at.hour >= 17]
    assert sleepers
    for ride in sleepers:
        assert ride.arrive_at.date() == TRIP + dt.timedelta(days=1)
        assert SeatClass.HARD_SLEEPER in ride.train.seat_classes
        assert SeatClass.HARD_SEAT in ride.train.seat_classes
        assert ride.board.station.name == "北京" and ride.alight.station.name == "上海"


def test_high_speed_trains_sell_business_first_and_second(timetable):
    for train in timetable.trains(TRIP):
        if train.kind == "G":
            assert {SeatClass.FIRST, SeatClass.SECOND} <= set(train.seat_classes)
            assert {SeatClass.BUSINESS, SeatClass.PREMIUM} & set(train.seat_classes)
        if train.kind in "ZTK":
            assert not {SeatClass.SECOND, SeatClass.FIRST} & set(train.seat_classes)


def test_prices_follow_distance_and_class_rates_in_half_yuan(timetable):
    rides = timetable.rides(city("北京"), city("上海"), TRIP)
    g = next(r for r in rides if r.train.kind == "G")
    second = g.price(SeatClass.SECOND)
    assert second == round(1318 * 0.46 * 2) / 2
    assert g.price(SeatClass.FIRST) > second * 1.5
    k = next(r for r in rides if r.train.kind in "ZTK")
    assert k.price(SeatClass.HARD_SEAT) < k.price(SeatClass.HARD_SLEEPER)
    assert k.price(SeatClass.HARD_SLEEPER) < k.price(SeatClass.SOFT_SLEEPER)
    assert k.price(SeatClass.HARD_SEAT) < second / 2
    for ride in rides:
        for seat_class in ride.train.seat_classes:
            assert (ride.price(seat_class) * 2).is_integer()


def test_d_trains_are_cheaper_per_km_than_g_trains(timetable):
    rides = timetable.rides(city("上海"), city("成都"), TRIP)
    per_km = {
        kind: min(r.price(SeatClass.SECOND) / r.distance_km for r in rides if r.train.kind == kind)
        for kind in "GD"
    }
    assert per_km["D"] < per_km["G"]


def test_city_query_returns_rides_from_several_stations_of_the_city(timetable):
    rides = timetable.rides(city("北京"), city("上海"), TRIP)
    assert {r.board.station.name for r in rides} >= {"北京南", "北京"}
    assert {r.alight.station.name for r in rides} >= {"上海虹桥", "上海"}


def test_a_station_code_stands_for_its_whole_city(timetable):
    by_station = timetable.rides("VNP", "AOH", TRIP)
    by_city = timetable.rides(city("北京"), city("上海"), TRIP)
    assert [r.train.code for r in by_station] == [r.train.code for r in by_city]


def test_intermediate_stations_are_served_with_their_own_stops(timetable):
    rides = timetable.rides(city("济南"), city("南京"), TRIP)
    assert rides
    for ride in rides:
        assert ride.board.number < ride.alight.number
        assert 0 < ride.distance_km < ride.train.stops[-1].km + 1


def test_not_every_train_stops_everywhere(timetable):
    trains = [t for t in timetable.trains(TRIP) if t.line == "京沪高铁"]
    assert len({len(t.stops) for t in trains}) > 3


def test_every_pair_of_stations_on_a_line_has_a_train(timetable):
    directory = curated_directory()
    for line in LINES:
        if line.name not in ("京沪高铁", "沪昆高铁", "兰新高铁"):
            continue
        names = [s.name for s in line.stops]
        for i, a in enumerate(names):
            for b in names[i + 1 :]:
                x, y = directory.by_name(a), directory.by_name(b)
                assert x and y
                if x.city == y.city:
                    continue
                assert timetable.rides(x.telecode, y.telecode, TRIP), (line.name, a, b)


def test_boarding_mid_route_after_midnight_belongs_to_the_previous_days_train(timetable):
    rides = timetable.rides(city("武汉"), city("广州"), TRIP)
    early = [r for r in rides if r.train.start_date == TRIP - dt.timedelta(days=1)]
    assert early
    for ride in early:
        assert ride.depart_at.date() == TRIP
        assert ride.train.departs_at.date() == TRIP - dt.timedelta(days=1)


def test_some_city_pairs_need_a_transfer(timetable):
    assert timetable.rides(city("北京"), city("昆明"), TRIP) == []
    assert timetable.rides(city("北京"), city("乌鲁木齐"), TRIP) == []
    assert timetable.rides(city("北京"), city("长沙"), TRIP)
    assert timetable.rides(city("长沙"), city("昆明"), TRIP)


def test_unknown_or_same_city_codes_give_no_rides(timetable):
    assert timetable.rides("XXX", city("上海"), TRIP) == []
    assert timetable.rides("VNP", "BJP", TRIP) == []


def test_a_small_directory_just_shortens_the_lines():
    from sources.stations import StationDirectory

    directory = curated_directory()
    small = StationDirectory(
        s for s in directory if s.name in {"北京南", "南京南", "上海虹桥", "北京", "上海"}
    )
    rides = Timetable(small).rides("VNP", "AOH", TRIP)
    assert rides
    assert all(len(r.train.stops) <= 3 for r in rides)


def test_every_line_runs_end_to_end_in_both_directions(timetable):
    for line in LINES:
        first, last = (curated_directory().by_name(s.name) for s in (line.stops[0], line.stops[-1]))
        assert first and last
        trains = [t for t in timetable.trains(TRIP) if t.line == line.name]
        ends = {(t.origin.name, t.terminus.name) for t in trains}
        assert (first.name, last.name) in ends and (last.name, first.name) in ends, line.name
