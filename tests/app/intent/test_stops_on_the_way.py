"""A stop said to be on the way (路上在X住一晚, 中途在X待一天, 路过X) comes before the
destination wherever it was said; a landmark said after another city is that city's own."""

from __future__ import annotations

import datetime as dt

import pytest

from app.intent.model import ViaStop
from app.intent.offline import parse_offline
from app.intent.places import extract_route
from sources.stations import StationDirectory, default_directory

TODAY = dt.date(2026, 12, 7)  # a Monday


@pytest.fixture(scope="module")
def official() -> StationDirectory:
    return default_directory()


@pytest.mark.parametrize(
    ("text", "via"),
    [
        ("下周三从上海去北京，中途在南京待一天", ViaStop(city="南京", nights=1)),
        ("周五从广州去武汉，顺路在长沙停一晚", ViaStop(city="长沙", nights=1)),
        ("从成都去西安，半路想在汉中住两晚，下周二走", ViaStop(city="汉中", nights=2)),
        ("下周一从北京去上海，路过济南", ViaStop(city="济南", nights=0, through=True)),
        # 中间 said of a stop after the destination: on the way too.
        ("下周四从西安去成都，中间想在汉中歇一晚", ViaStop(city="汉中", nights=1)),
        ("后天从北京去哈尔滨，中间在沈阳住两晚", ViaStop(city="沈阳", nights=2)),
    ],
)
def test_a_stop_on_the_way_comes_before_the_destination(official, text, via) -> None:
    intent = parse_offline(text, TODAY, official)
    assert intent.via == [via]
    assert intent.destination not in (via.city, intent.origin) and not intent.return_trip


def test_a_stop_said_in_travel_order_keeps_its_place(official) -> None:
    route = extract_route("下周一从北京先去西安住两晚，再去成都", official)
    assert (route.destination, [v.city for v in route.via]) == ("成都", ["西安"])


@pytest.mark.parametrize(
    ("text", "destination"),
    [
        ("周六从大连去沈阳，想逛逛沈阳故宫", "沈阳"),
        ("明天从杭州去温州鹿城", "温州"),
        ("下周去香港迪士尼，从深圳出发", "香港"),
        ("周末从南京去北京，看看故宫", "北京"),
    ],
)
def test_a_landmark_said_after_another_city_is_that_citys_own(official, text, destination):
    route = extract_route(text, official)
    assert route.destination == destination and route.via == []


@pytest.mark.parametrize(
    ("text", "end", "nights"),
    [
        # The day of the ride on to the last stop comes between; the day home is the last.
        ("周五从上海去苏州住一晚，周六去无锡，周六晚上回上海", dt.date(2026, 12, 12), 0),
        ("周五上海出发去苏州，周六再去无锡，周日回上海", dt.date(2026, 12, 13), None),
    ],
)
def test_the_day_home_is_the_one_said_with_the_ride_home(official, text, end, nights) -> None:
    intent = parse_offline(text, TODAY, official)
    assert intent.via and intent.via[0].city == "苏州"
    assert (intent.date_end, intent.nights) == (end, nights)


def test_a_day_at_a_stop_left_that_evening_is_no_night_there(official: StationDirectory) -> None:
    """先去苏州逛一天，晚上再去杭州住两晚: the day in 苏州 ends with the evening's ride on;
    逛两天 before it is one night."""
    one = extract_route("先从上海去苏州逛一天，晚上再去杭州住两晚，然后回上海", official)
    assert [(v.city, v.nights) for v in one.via] == [("苏州", 0)]
    two = extract_route("先从上海去苏州逛两天，傍晚再去杭州住两晚，然后回上海", official)
    assert [(v.city, v.nights) for v in two.via] == [("苏州", 1)]


@pytest.mark.parametrize(
    ("text", "destination", "instead"),
    [
        ("下周三从广州去南宁，到不了南宁就到柳州", "南宁", ["柳州"]),
        ("下周三从上海去固始，没有直达固始的话去信阳也可以", "固始", ["信阳"]),
        ("下周三北京去阿尔山，阿尔山没票的话就去乌兰浩特", "阿尔山", ["乌兰浩特"]),
    ],
)
def test_a_place_said_to_do_instead_is_no_stop(official, text, destination, instead) -> None:
    intent = parse_offline(text, TODAY, official)
    assert (intent.destination, intent.destination_alternatives) == (destination, instead)
    assert intent.via == [] and "直达" not in intent.preferences


def test_asking_for_a_direct_train_names_no_place_to_do_instead(official) -> None:
    intent = parse_offline("北京有没有直达杭州的车，明天的", TODAY, official)
    assert (intent.destination, intent.destination_alternatives) == ("杭州", [])


@pytest.mark.parametrize(
    ("text", "origin", "destination"),
    [
        # The train's end named, home reached by road: that end is the destination.
        ("周四回威宁老家，从昆明走，火车到六盘水就行，我再坐客车回去", "昆明", "六盘水"),
        ("下周二去毕节 从杭州出发 坐到贵阳就可以了 后面我自己打车", "杭州", "贵阳"),
        ("下周二回遵义，从宁波走，到重庆就好，再坐大巴回家", "宁波", "重庆"),
    ],
)
def test_the_trains_end_named_before_a_ride_by_road(official, text, origin, destination) -> None:
    intent = parse_offline(text, TODAY, official)
    assert (intent.origin, intent.destination, intent.via) == (origin, destination, [])


def test_a_night_sat_through_in_a_class_not_borne_is_no_stay_nor_that_class(official) -> None:
    intent = parse_offline("下周二从宁波去重庆，硬座一夜熬不住，要卧铺", TODAY, official)
    assert intent.seat_class is None and intent.nights is None and not intent.return_trip
    assert intent.seat_classes and "hard_seat" not in [c.value for c in intent.seat_classes]
    # Without a road ride after it, 到X就行 keeps the place said before (a stop, as before).
    kept = parse_offline("下周二回遵义，从宁波走，到重庆就行", TODAY, official)
    assert kept.origin == "宁波"


@pytest.mark.parametrize(
    ("text", "via", "destination"),
    [
        # The stay said after the errand at a stop, before the next place is named, is the
        # stop's own, not the last place's.
        ("下周五从合肥去南京看我姐 住一晚 周六再去苏州", ViaStop(city="南京", nights=1), "苏州"),
        ("周日从长沙到武汉见客户 待两晚 然后去郑州", ViaStop(city="武汉", nights=2), "郑州"),
    ],
)
def test_a_stay_said_after_the_errand_at_a_stop_is_that_stops(
    official, text, via, destination
) -> None:
    intent = parse_offline(text, TODAY, official)
    assert intent.via == [via]
    assert intent.destination == destination and intent.nights is None


def test_the_first_leg_named_by_its_ends_takes_a_wish_for_the_trip_not_a_new_trip(chat):
    intent = chat("下周二从武汉出发，先去长沙住一晚，周三去广州", "武汉到长沙这段要下午的").intent
    assert (intent.origin, intent.destination) == ("武汉", "广州")
    assert [stop.city for stop in intent.via] == ["长沙"]
    assert intent.date_start == dt.date(2026, 12, 8)
    assert intent.depart_window is not None and intent.depart_window.label == "下午"


def test_a_stay_at_the_end_and_the_day_home_keep_the_ride_out_through_the_stop(chat):
    said = ("下周二从武汉出发，先去长沙住一晚，周三去广州", "广州玩三天，周六回武汉")
    intent = chat(*said).intent
    assert intent.date_start == dt.date(2026, 12, 8), "the day out stays"
    assert intent.date_end == dt.date(2026, 12, 12)
    assert [stop.city for stop in intent.via] == ["长沙"]
    ordered = chat(*said, "回武汉那班要最便宜的").intent
    assert ordered.return_order == "cheapest" and ordered.order is None


def test_two_stops_said_again_with_a_stay_at_each_are_no_new_stops() -> None:
    # 合肥南京 is 合肥 and 南京 (not the station 合肥南 and a stray 京), said again with a
    # stay at each: the trip is 上海 → 合肥 → 南京 and home, as said first.
    intent = parse_offline(
        "下周三去合肥开会 周四直接去南京见客户 周五晚上回上海 合肥南京各住一晚 都坐高铁二等座",
        dt.date(2026, 12, 14),
        default_directory(),
    )
    assert (intent.origin, intent.destination) == ("上海", "南京")
    assert [(stop.city, stop.nights) for stop in intent.via] == [("合肥", 1)]
    assert intent.return_trip is True and intent.date_end == dt.date(2026, 12, 25)


def test_getting_off_on_the_way_for_a_night_is_a_stop() -> None:
    intent = parse_offline(
        "下周三从西安去上海，不着急，想在郑州下车住一晚吃个烩面，第二天再走",
        dt.date(2026, 12, 9),
        default_directory(),
    )
    assert (intent.origin, intent.destination) == ("西安", "上海")
    assert [(stop.city, stop.nights) for stop in intent.via] == [("郑州", 1)]
