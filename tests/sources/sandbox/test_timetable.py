"""The sandbox timetable: the real network, deterministic, with a city-wide ride search."""

from __future__ import annotations

import datetime as dt
import os
import re
import subprocess
import sys
from pathlib import Path

from sources.models import SeatClass, Station, TrainOffer
from sources.sandbox import Timetable
from sources.stations import StationDirectory, curated_directory

from .conftest import TRIP

WEEK = [TRIP + dt.timedelta(days=i) for i in range(7)]
ROOT = Path(__file__).resolve().parents[3]
NUMBER = TrainOffer.model_fields["train_number"].metadata[0].pattern


def city(name: str) -> str:
    return curated_directory().city_code(name)


def fingerprint(timetable: Timetable, date: dt.date) -> list[tuple]:
    return [
        (t.code, t.train_no, tuple((s.station.telecode, s.arrive, s.depart) for s in t.stops))
        for t in timetable.trains(date)
    ]


def clocks(ride) -> tuple[str, str, str, str]:
    return (
        ride.board.station.name,
        ride.depart_at.strftime("%H:%M"),
        ride.alight.station.name,
        ride.arrive_at.strftime("%H:%M"),
    )


def test_the_directory_agrees_with_the_network_on_every_station_it_knows(timetable):
    directory = curated_directory()
    known = [code for code in timetable.network.stations if directory.get(code)]
    assert len(known) > 200
    for code in known:
        ours, theirs = timetable.network.stations[code], directory.get(code)
        assert (ours.name, ours.city) == (theirs.name, theirs.city)


def test_same_date_gives_the_same_timetable_in_separate_instances(timetable):
    assert fingerprint(Timetable(), TRIP) == fingerprint(timetable, TRIP)


def test_timetable_does_not_depend_on_the_process_hash_seed(timetable):
    script = (
        "import datetime as dt, hashlib\n"
        "from sources.sandbox import Timetable\n"
        "t = Timetable().trains(dt.date(2026, 12, 4))\n"
        "print(hashlib.sha1(repr([(x.train_no, x.stops[0].depart) for x in t]).encode())"
        ".hexdigest())"
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


def test_the_network_runs_thousands_of_real_trains_every_day(timetable):
    trains = timetable.trains(TRIP)
    assert len(trains) > 7000
    assert {t.kind for t in trains} >= set("GDCZTKS")
    assert len({t.code for t in trains}) == len(trains)
    assert len({t.train_no for t in trains}) == len(trains)
    for train in trains:
        assert re.fullmatch(NUMBER, train.code), train.code
        assert len(train.train_no) == 12 and train.codes[0] in train.train_no


def test_g1_runs_beijing_south_to_shanghai_hongqiao_at_its_real_times(timetable):
    for date in WEEK:
        g1 = next(
            r for r in timetable.rides(city("北京"), city("上海"), date) if r.train.code == "G1"
        )
        assert clocks(g1) == ("北京南", "09:00", "上海虹桥", "13:28")
        assert g1.distance_km == 1318
    stops = timetable.train("G1", TRIP).stops
    assert [(s.station.name, f"{s.arrive:%H:%M}", f"{s.depart:%H:%M}") for s in stops] == [
        ("北京南", "09:00", "09:00"),
        ("济南西", "10:22", "10:24"),
        ("上海虹桥", "13:28", "13:28"),
    ]


def test_beijing_to_shanghai_has_dozens_of_g_trains_and_overnight_sleepers(timetable):
    rides = timetable.rides(city("北京"), city("上海"), TRIP)
    assert sum(r.train.kind == "G" for r in rides) >= 30
    assert all(r.depart_at.date() == TRIP for r in rides)
    hours = {r.depart_at.hour for r in rides}
    assert max(hours) - min(hours) >= 12
    for ride in rides:
        if ride.train.kind == "G":
            assert 4 * 60 <= ride.duration_min <= 7 * 60, ride.train.code
    sleepers = [r for r in rides if r.depart_at.hour >= 18 and r.train.kind in "ZTKD"]
    assert {"T109", "D701"} <= {r.train.code for r in sleepers}
    for ride in sleepers:
        assert ride.arrive_at.date() == TRIP + dt.timedelta(days=1)
        assert {SeatClass.SOFT_SLEEPER, SeatClass.HARD_SLEEPER, SeatClass.EMU_SLEEPER} & set(
            ride.train.seat_classes
        )


def test_both_directions_run(timetable):
    back = timetable.rides(city("上海"), city("北京"), TRIP)
    assert "G2" in {r.train.code for r in back}
    assert len(back) >= 30


def test_seat_classes_follow_the_train_type(timetable):
    for train in timetable.trains(TRIP):
        classes = set(train.seat_classes)
        if train.kind == "G":
            assert classes == {
                SeatClass.BUSINESS,
                SeatClass.FIRST,
                SeatClass.SECOND,
                SeatClass.NO_SEAT,
            }
        elif train.kind in "ZTK":
            assert {SeatClass.SOFT_SLEEPER, SeatClass.HARD_SLEEPER, SeatClass.HARD_SEAT} <= classes
            assert not {SeatClass.SECOND, SeatClass.FIRST} & classes


def test_prices_follow_the_published_rates_with_distance_bands(timetable):
    g1 = next(r for r in timetable.rides("VNP", "AOH", TRIP) if r.train.code == "G1")
    # 0.46 yuan/km, full to 500 km, -10 % to 1000 km, -15 % beyond: 1318 km
    assert g1.price(SeatClass.SECOND) == round((500 + 500 * 0.9 + 318 * 0.85) * 0.46 * 2) / 2
    assert g1.price(SeatClass.FIRST) > g1.price(SeatClass.SECOND) * 1.5
    assert g1.price(SeatClass.BUSINESS) > g1.price(SeatClass.FIRST) * 1.9
    z69 = timetable.rides(city("北京"), city("乌鲁木齐"), TRIP)[0]
    assert z69.train.code == "Z69" and z69.distance_km == 3144
    assert z69.price(SeatClass.HARD_SEAT) < z69.price(SeatClass.HARD_SLEEPER)
    assert z69.price(SeatClass.HARD_SLEEPER) < z69.price(SeatClass.SOFT_SLEEPER)
    # the long-distance taper: 3144 km of hard seat costs far less than 3144 x the base rate
    assert z69.price(SeatClass.HARD_SEAT) < 3144 * 0.05861 * 2.2
    for ride in timetable.rides(city("北京"), city("上海"), TRIP):
        for seat_class in ride.train.seat_classes:
            assert (ride.price(seat_class) * 2).is_integer()


def test_d_trains_are_cheaper_per_km_than_g_trains(timetable):
    rides = timetable.rides(city("上海"), city("杭州"), TRIP)
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


def test_a_ride_alights_at_a_station_named_after_the_city_before_a_county_station(timetable):
    rides = timetable.rides(city("深圳"), city("桂林"), TRIP)
    assert rides
    assert {r.alight.station.name for r in rides} <= {"桂林", "桂林北", "桂林西"}


def test_intermediate_stations_are_served_with_their_own_stops(timetable):
    rides = timetable.rides(city("济南"), city("南京"), TRIP)
    assert rides
    for ride in rides:
        assert ride.board.number < ride.alight.number
        assert 0 < ride.distance_km < ride.train.stops[-1].km + 1


def test_a_number_that_changes_en_route_is_the_one_valid_where_the_ride_boards(timetable):
    first = next(
        r for r in timetable.rides(city("宁波"), city("金华"), TRIP) if "K1075" in r.train.codes
    )
    later = next(
        r for r in timetable.rides(city("株洲"), city("重庆"), TRIP) if "K1075" in r.train.codes
    )
    assert (first.train.code, later.train.code) == ("K1075", "K1078")
    assert first.train.train_no == later.train.train_no
    assert timetable.train("K1078", TRIP).train_no == first.train.train_no


def test_boarding_mid_route_after_midnight_belongs_to_the_previous_days_train(timetable):
    rides = timetable.rides(city("武汉"), city("广州"), TRIP)
    early = [r for r in rides if r.train.start_date < TRIP]
    assert early
    for ride in early:
        assert ride.depart_at.date() == TRIP
        assert ride.train.departs_at.date() < TRIP


def test_long_distance_routes_are_served_by_their_real_through_trains(timetable):
    assert [r.train.code for r in timetable.rides(city("北京"), city("拉萨"), TRIP)] == ["Z21"]
    z21 = timetable.rides(city("北京"), city("拉萨"), TRIP)[0]
    assert z21.arrive_at.date() == TRIP + dt.timedelta(days=2)
    assert timetable.rides(city("南京"), city("西安"), TRIP)


def test_some_city_pairs_need_a_transfer(timetable):
    assert timetable.rides(city("三亚"), city("哈尔滨"), TRIP) == []
    assert timetable.rides(city("厦门"), city("西宁"), TRIP) == []


def test_unknown_or_same_city_codes_give_no_rides(timetable):
    assert timetable.rides("XXX", city("上海"), TRIP) == []
    assert timetable.rides("VNP", "BJP", TRIP) == []
    assert timetable.train("G99999", TRIP) is None


def test_a_station_the_directory_does_not_know_is_served_under_its_official_record():
    small = StationDirectory(s for s in curated_directory() if s.city in {"北京", "上海"})
    timetable = Timetable(small)
    g1 = next(r for r in timetable.rides("VNP", "AOH", TRIP) if r.train.code == "G1")
    jinan = g1.train.stops[1].station
    assert isinstance(jinan, Station) and (jinan.name, jinan.city) == ("济南西", "济南")
    assert small.get(jinan.telecode) is None
    assert timetable.station(jinan.telecode) == jinan


def test_a_train_is_found_by_its_train_no_and_a_search_builds_only_the_numbers_asked(timetable):
    k1075 = timetable.train("K1078", TRIP)
    assert timetable.train(k1075.train_no, TRIP).codes == ("K1075", "K1078")
    assert timetable.train(k1075.train_no, TRIP).code == "K1075"  # the train's first number
    for train in timetable.trains(TRIP)[::500]:
        assert timetable.train(train.train_no, TRIP) == train
    no = k1075.train_no
    for forged in ("99" + no[2:], no[:-2] + ("00" if no[-2:] != "00" else "11"), no[:10]):
        assert timetable.train(forged, TRIP) is None, forged  # bureau, suffix, length wrong
    g1 = timetable.numbered("g1", TRIP)
    every = timetable.trains(TRIP)
    assert [t.code for t in g1] == [
        code for t in every for code in t.codes if code.startswith("G1")
    ]
    assert "G1" in {t.code for t in g1} and len(g1) < len(every) // 10
    # A train renumbered en route is found by its second number too, as 12306's search
    # lists it: G1953 is G1952 from 太原南 on (its stop list was a 404).
    (g1953,) = timetable.numbered("G1953", TRIP)
    assert g1953.code == "G1953" and g1953.codes == ("G1952", "G1953")


def test_every_station_of_the_network_is_a_valid_station_in_its_city(timetable):
    stations = timetable.network.stations
    assert len(stations) == 2370
    for code in stations:  # each built (and validated) on first use
        assert stations[code].telecode == code and stations[code].city == stations.city(code)


def test_the_transfer_search_sells_a_renumbered_train_under_the_number_it_boards_with(timetable):
    # K7727 runs into 北京 as K7727 and leaves it as K7726: the left-ticket query names it
    # K7726 there, and so must a transfer plan boarded there, or no left-ticket answer lists
    # its ride.
    from sources.sandbox.transfer_search import transfer_plans

    plans = transfer_plans(timetable, city("北京"), city("重庆"), TRIP)
    rides = [ride for plan in plans for ride in (plan.first, plan.second)]
    assert any(len(ride.train.run.codes) > 1 for ride in rides)
    for ride in rides:
        assert ride.train.code == ride.train.run.code_at(ride.board.number - 1)  # 1-based


def test_a_city_and_a_town_of_its_prefecture_are_answered_between_themselves(timetable):
    # 苏州 to 昆山 (昆山, 昆山南), both filed under 苏州: the rides alight at the town's
    # stations and board elsewhere in 苏州, never 昆山 to 昆山南; the same town is no ride.
    rides = timetable.rides(city("苏州"), "KSH", TRIP)
    assert rides
    assert any(ride.board.station.name.startswith("苏州") for ride in rides)
    for ride in rides:
        assert ride.board.station.name not in ("昆山", "昆山南"), ride.board.station
        assert ride.alight.station.name in ("昆山", "昆山南"), ride.alight.station
    back = timetable.rides("KNH", city("苏州"), TRIP)
    assert back and all(r.board.station.name in ("昆山", "昆山南") for r in back)
    assert all(r.alight.station.name not in ("昆山", "昆山南") for r in back)
    assert timetable.rides("KSH", "KNH", TRIP) == []
