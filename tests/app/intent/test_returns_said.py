"""Rides home said in the sentence: a day with a time of day before 回, and a same-day ride home
once the business is done (today 2026-11-30, a Monday)."""

from __future__ import annotations

import datetime as dt

import pytest

from app.intent.model import end_said
from app.intent.offline import parse_offline
from tests.app.intent.conftest import TODAY


@pytest.fixture
def parse(directory):
    return lambda text, today=TODAY: parse_offline(text, today, directory)


def test_a_day_then_a_late_afternoon_before_coming_back_is_the_ride_home(parse):
    intent = parse("从杭州去绍兴过周末，周六上午出发，周日下午晚点再回来")
    assert intent.date_start == dt.date(2026, 12, 5)
    assert intent.date_end == dt.date(2026, 12, 6)
    assert intent.return_trip is True
    assert intent.return_window is not None
    assert intent.return_window.start == dt.time(14, 0)


def test_a_day_then_an_hour_before_back_is_the_ride_home(parse):
    intent = parse("周五从南京去苏州，周日晚上8点以后回")
    assert intent.date_start == dt.date(2026, 12, 4)
    assert intent.date_end == dt.date(2026, 12, 6)


def test_home_after_the_business_is_the_same_day_with_its_order(parse):
    intent = parse("周四去济南办事，从青岛出发，办完事坐最早一班回青岛")
    assert intent.date_start == dt.date(2026, 12, 3)
    assert intent.date_end == dt.date(2026, 12, 3)
    assert intent.return_trip is True
    assert intent.return_order == "earliest"
    assert intent.order is None


def test_business_done_with_a_stay_keeps_the_stay(parse):
    intent = parse("周四去济南开会，住两晚，开完会回青岛")
    assert intent.date_end != dt.date(2026, 12, 3)


def test_days_of_a_stay_start_the_morning_after_an_evening_departure(parse):
    # Thursday evening out, two days there: Friday and Saturday, home on the Saturday.
    intent = parse("从成都去西安玩两天，周四晚上出发，坐卧铺")
    assert intent.date_start == dt.date(2026, 12, 3)
    assert intent.date_end == dt.date(2026, 12, 5)


def test_days_of_a_stay_after_a_daytime_departure_count_the_day_itself(parse):
    intent = parse("从成都去西安玩两天，周四上午出发")
    assert intent.date_end == dt.date(2026, 12, 4)


@pytest.mark.parametrize(("text", "types"), [("明天从南京去合肥，坐T字头的普速车", ["T"])])
def test_the_letter_named_is_the_type_its_category_word_only_describes_it(parse, text, types):
    assert parse(text).train_types == types


def test_each_rides_order_said_in_its_own_clause_stays_its_own(parse):
    # 去坐最早的 回坐最晚的: the first order leads to the next clause's 回, not to the ride home.
    intent = parse("周六从杭州东去宁波玩 当天来回 去坐最早的 回坐最晚的")
    assert intent.order == "earliest"


@pytest.mark.parametrize(
    "text",
    ["周五考完试当天晚上就回苏州，南京出发", "下周一下午回老家洛阳 从郑州走"],
)
def test_going_home_to_the_destination_that_evening_is_the_ride_out(parse, text):
    # 回<the destination>: the student goes home, one way; its part of the day is the ride's.
    intent = parse(text)
    assert intent.return_trip is not True
    assert intent.return_window is None
    assert intent.depart_window is not None


@pytest.mark.parametrize(
    "text", ["下周一从成都去西安 坐两天硬座受不了", "周五北京去广州 要坐一天一夜的车"]
)
def test_how_long_the_ride_lasts_is_no_stay(parse, text):
    # 坐两天硬座, 一天一夜的车: the ride's length, not days at the destination.
    intent = parse(text)
    assert intent.days is None and intent.nights is None
    assert intent.return_trip is not True


def test_the_type_that_will_do_instead_of_a_berth_refused_is_the_ride_homes_own(chat):
    intent = chat("下周五晚上从北京去西安，要卧铺", "下周日回来", "回来不坐卧铺了，动车就行").intent
    assert intent.return_train_types == ["D"]
    assert intent.train_types == [] and intent.date_end == dt.date(2026, 12, 13)


def test_a_day_home_said_beside_the_nights_is_known_as_said(parse):
    # 待两晚 and 周五回: the Friday is the traveller's own, not derived from the nights.
    intent = parse("周三从成都去重庆待两晚，周五回成都")
    assert intent.date_end == dt.date(2026, 12, 4)
    assert end_said(intent) is True
    # The nights alone derive the same Friday, which nobody said.
    derived = parse("周三从成都去重庆待两晚再回成都")
    assert derived.date_end == dt.date(2026, 12, 4)
    assert end_said(derived) is False


@pytest.mark.parametrize(
    ("text", "ends"),
    [
        ("下周三往返上海杭州，当天回", ("上海", "杭州")),
        ("下周三南京和苏州当天来回 在苏州待半天", ("南京", "苏州")),
        ("下周三一天往返于广州、深圳", ("广州", "深圳")),
    ],
)
def test_two_places_said_as_a_round_pair_are_home_and_the_place_gone_to(parse, text, ends):
    intent = parse(text)
    assert (intent.origin, intent.destination, intent.return_trip) == (*ends, True)
    assert intent.via == []


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("杭州到上海 后天往返", dt.date(2026, 12, 2)),
        ("苏州到南京周六来回", dt.date(2026, 12, 5)),
        ("广州到深圳 8号来回", dt.date(2026, 12, 8)),
    ],
)
def test_a_day_then_out_and_back_is_a_day_trip(parse, text, day):
    intent = parse(text)
    assert (intent.date_start, intent.date_end, intent.return_trip) == (day, day, True)


def test_days_counted_then_out_and_back_are_no_day_trip(parse):
    intent = parse("南京到杭州 三天来回 周五走")
    assert intent.date_end != intent.date_start


def test_the_last_train_of_a_kind_home_is_the_ride_homes_order(parse):
    # 最晚那班高铁回来: the train home, its kind between (the outbound keeps its own order).
    intent = parse("周三沈阳去大连 要最早那班高铁，周四晚上坐最晚那班高铁回来")
    assert (intent.order, intent.return_order) == ("earliest", "latest")
    # The latest train out, home another day: the outbound's.
    out = parse("坐最晚那班车去上海，周日回来")
    assert (out.order, out.return_order) == ("latest", None)
