"""The connection search: sliding windows agree with brute force and respect every minimum."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from rules import DEFAULT_RULES, TripRequest
from rules.options import build_rides
from rules.transfers import connect, connection_ok, window_min
from tests.rules.factory import (
    BEIJING_SOUTH,
    DAY,
    HONGQIAO,
    NANJING_SOUTH,
    NOW,
    SHANGHAI_STATION,
    book,
    offer,
)


@given(
    points=st.lists(st.tuples(st.integers(0, 300), st.integers(0, 50)), max_size=40),
    starts=st.lists(st.integers(-20, 320), max_size=40),
    width=st.integers(0, 60),
)
def test_window_min_matches_brute_force(points, starts, width):
    points.sort(key=lambda p: p[0])
    times = [t for t, _ in points]
    keys = [float(k) for _, k in points]
    queries = [(lo, lo + width, tag) for tag, lo in enumerate(sorted(starts))]
    found = dict(window_min(times, keys, iter(queries)))
    for lo, hi, tag in queries:
        inside = [j for j, t in enumerate(times) if lo <= t <= hi]
        if not inside:
            assert tag not in found
        else:
            assert keys[found[tag]] == min(keys[j] for j in inside)
            assert lo <= times[found[tag]] <= hi


def test_connect_keeps_only_catchable_pairs_and_every_first_train_gets_its_best_partner():
    request = TripRequest(origin="北京", destination="上海", depart_date=DAY, return_trip=False)
    entries = book(
        offer("G101", BEIJING_SOUTH, NANJING_SOUTH, "08:00", "11:30"),
        offer("G103", BEIJING_SOUTH, NANJING_SOUTH, "09:00", "12:30"),
        offer("G7001", NANJING_SOUTH, HONGQIAO, "11:45", "12:50"),
        offer("G7003", NANJING_SOUTH, HONGQIAO, "12:55", "14:05"),
        offer("K7005", NANJING_SOUTH, SHANGHAI_STATION, "13:00", "16:00"),
    )
    legs = {key.destination: entry for key, entry in entries.items()}
    firsts, _ = build_rides(
        legs["南京"].key, legs["南京"].offers, "realtime", request, DEFAULT_RULES, NOW,
        depart_window=True, arrive_window=False,
    )  # fmt: skip
    seconds, _ = build_rides(
        legs["上海"].key, legs["上海"].offers, "realtime", request, DEFAULT_RULES, NOW,
        depart_window=False, arrive_window=True,
    )  # fmt: skip
    found = connect(0, firsts, seconds, request, DEFAULT_RULES)
    routes = found.routes
    assert routes
    assert all(connection_ok(*route.rides, DEFAULT_RULES) for route in routes)
    assert {route.trains[0] for route in routes} == {"G101", "G103"}
    assert ("G101", "G7001") not in {route.trains for route in routes}  # 15 minutes
    assert found.earliest == min(route.arrive for route in routes)
    assert found.fastest == min(route.arrive - route.depart for route in routes)


def test_two_changes_chain_three_rides_each_change_catchable_and_plan_uses_them():
    from rules import plan
    from rules.transfers import connect_twice
    from tests.rules.factory import WUHAN, ZHENGZHOU_EAST

    request = TripRequest(origin="北京", destination="武汉", depart_date=DAY, return_trip=False)
    entries = book(
        offer("G101", BEIJING_SOUTH, NANJING_SOUTH, "08:00", "11:30"),
        offer("D301", NANJING_SOUTH, ZHENGZHOU_EAST, "12:00", "15:00"),
        offer("D303", NANJING_SOUTH, ZHENGZHOU_EAST, "11:40", "14:30"),  # 10 min: too short
        offer("G501", ZHENGZHOU_EAST, WUHAN, "15:30", "17:30"),
        offer("G503", ZHENGZHOU_EAST, WUHAN, "21:30", "23:30"),  # 6 h 30 wait: too long
    )
    legs = {key.destination: entry for key, entry in entries.items()}

    def rides(city: str, first: bool, last: bool):
        entry = legs[city]
        found, _ = build_rides(
            entry.key, entry.offers, "realtime", request, DEFAULT_RULES, NOW,
            depart_window=first, arrive_window=last,
        )  # fmt: skip
        return found

    routes = connect_twice(
        0, rides("南京", True, False), rides("郑州", False, False), rides("武汉", False, True),
        request, DEFAULT_RULES,
    )  # fmt: skip
    assert [route.trains for route in routes] == [("G101", "D301", "G501")]
    result = plan(request, entries, now=NOW)
    assert result.itineraries
    assert [leg.train_number for leg in result.itineraries[0].legs] == ["G101", "D301", "G501"]
    assert len(result.itineraries[0].transfers) == 2


def official(name: str):
    """A station as the shipped official list (2026-02) has it: telecode, name, official city."""
    from sources.stations import default_directory

    station = default_directory().by_name(name)
    assert station is not None, name
    return station


def test_a_change_across_stations_stays_in_the_city_proper_though_the_official_city_is_wider():
    from rules.config import can_change

    # The official list files 酒泉南 and 柳园 (300 km apart) under one city, 义乌 under 金华.
    assert official("酒泉南").city == official("柳园").city == "酒泉"
    assert official("义乌").city == "金华"
    assert can_change(official("北京南"), official("北京西"))
    assert can_change(official("上海"), official("上海虹桥"))
    assert can_change(official("酒泉南"), official("酒泉"))
    assert can_change(official("汉口"), official("武昌"))  # 武汉's, not named after it
    assert can_change(official("柳园"), official("柳园"))
    assert not can_change(official("酒泉南"), official("柳园"))
    assert not can_change(official("金华"), official("义乌"))
    assert not can_change(official("北京南"), official("上海虹桥"))


def test_no_route_changes_from_jiuquan_south_to_liuyuan_and_the_validator_says_why():
    """Seen on the real network: 西安北 → 乌鲁木齐 planned D2673 to 酒泉南 and "a cross-station
    change" to Z138 at 柳园, 300 km on. Only the 酒泉 departure may follow now."""
    from rules import plan

    xian, jiuquan_south = official("西安北"), official("酒泉南")
    jiuquan, liuyuan, urumqi = official("酒泉"), official("柳园"), official("乌鲁木齐")
    request = TripRequest(origin="西安", destination="乌鲁木齐", depart_date=DAY, return_trip=False)
    first = offer("D2671", xian, jiuquan_south, "07:35", "15:42")
    far = offer("Z138", liuyuan, urumqi, "17:30", "08:49")
    near = offer("T283", jiuquan, urumqi, "19:42", "07:04")
    only_far = plan(request, book(first, far), now=NOW)
    assert only_far.itineraries == ()
    result = plan(request, book(first, far, near), now=NOW)
    assert result.best is not None
    assert result.best.train_numbers == ("D2671", "T283")
    assert result.best.transfers[0].to_station == jiuquan

    from rules import validate

    forged = result.best.legs[1].model_copy(
        update={"train_number": "Z138", "origin_station": liuyuan, "depart_at": far.depart_at,
                "arrive_at": far.arrive_at}
    )  # fmt: skip
    itinerary = result.best.model_copy(update={"legs": (result.best.legs[0], forged)})
    violations = validate(itinerary, [first, far, near])
    assert [v.code for v in violations if v.train_number == "Z138"][:1] == ["STATION_MISMATCH"]
    assert any("不在同一城区" in v.message for v in violations)


def test_a_city_is_its_city_proper_at_the_ends_of_a_trip_and_an_outlying_station_is_said():
    """ "杭州去金华" was planned to 义乌, 金华's too but 50 km away; 武昌 is 武汉's city proper."""
    from rules import plan
    from rules.config import in_city_proper

    assert in_city_proper(official("武昌")) and in_city_proper(official("金华南"))
    assert not in_city_proper(official("义乌")) and not in_city_proper(official("青铜峡"))
    hangzhou, jinhua, yiwu = official("杭州东"), official("金华"), official("义乌")
    to_yiwu = offer("G7341", hangzhou, yiwu, "06:00", "06:32")
    to_jinhua = offer("G1633", hangzhou, jinhua, "13:28", "14:12")
    request = TripRequest(origin="杭州", destination="金华", depart_date=DAY, return_trip=False)

    both = plan(request, book(to_yiwu, to_jinhua), now=NOW)
    assert both.best is not None and both.best.train_numbers == ("G1633",)
    assert not [n for n in both.notes if "外围" in n]
    # Only 义乌 has a train that day: planned, and said.
    only_yiwu = plan(request, book(to_yiwu), now=NOW)
    assert only_yiwu.best is not None and only_yiwu.best.train_numbers == ("G7341",)
    assert "义乌是金华市辖下的外围车站，不在金华城区：城区车站这一程没有车次" in only_yiwu.notes
    # Named as a station, or the city left open, 义乌 is the traveller's own choice: no note.
    for asked in (
        request.model_copy(update={"destination_station": "义乌", "open_cities": {"金华"}}),
        request.model_copy(update={"open_cities": frozenset({"金华"})}),
    ):
        chosen = plan(asked, book(to_yiwu, to_jinhua), now=NOW)
        assert chosen.best is not None and not [n for n in chosen.notes if "外围" in n]
    exact = request.model_copy(update={"destination_station": "义乌", "open_cities": {"金华"}})
    assert plan(exact, book(to_yiwu, to_jinhua), now=NOW).best.train_numbers == ("G7341",)
