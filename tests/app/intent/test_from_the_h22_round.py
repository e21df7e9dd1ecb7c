"""What the h22 round's travellers said and the parser had misread, read against the official
station list: a morning one cannot get up for said with 可, a Sichuanese stay in 晚上, a
province in romanised text, a key struck twice, stays said after each place in English."""

from __future__ import annotations

import datetime as dt

import pytest

from app.intent.offline import parse_offline
from sources.stations import StationDirectory, default_directory

THURSDAY = dt.date(2026, 12, 10)


@pytest.fixture(scope="module")
def directory() -> StationDirectory:
    return default_directory()


@pytest.fixture
def parse(directory):
    return lambda text, today=THURSDAY: parse_offline(text, today, directory)


def test_a_morning_one_cannot_get_up_for(parse):
    intent = parse("俺下礼拜六从哈尔滨整沈阳去办点事儿，早上八点以前俺可起不来啊，越便宜越好")
    assert intent.depart_window is not None and intent.depart_window.span() == "08:00-23:59"


def test_a_sichuanese_stay_in_evenings(parse):
    intent = parse("我后天想从成都切重庆耍，耍两晚上就回来，去跟回来都买二等座")
    assert intent.nights == 2
    assert (intent.date_start, intent.date_end) == (dt.date(2026, 12, 12), dt.date(2026, 12, 14))
    assert intent.depart_window is None


def test_a_province_in_romanised_text_is_no_stop(parse):
    intent = parse("backpacking xinjiang :) urumqi to kashgar day after tomorrow, cheapest sleeper")
    assert (intent.origin, intent.destination) == ("乌鲁木齐", "喀什")
    assert intent.via == []


def test_a_key_struck_twice(parse):
    intent = parse("Xinning to Lhasa on dec 19, hard sleeper, solo traveller")
    assert (intent.origin, intent.destination) == ("西宁", "拉萨")


def test_stays_said_after_each_place_in_english(parse):
    intent = parse(
        "Yunnan loop: start Kunming Dec 10 -> Dali 2 nights -> Lijiang 3 nights -> "
        "train back to Kunming"
    )
    assert (intent.origin, intent.destination) == ("昆明", "丽江")
    assert [(stop.city, stop.nights) for stop in intent.via] == [("大理", 2)]
    assert intent.nights == 3
    assert intent.return_trip


def test_where_one_is_from_then_going(parse):
    intent = parse("我是梅州的，后天就去")
    assert intent.origin == "梅州" and intent.destination is None


def test_a_day_given_up_for_a_reason_then_the_day_meant(parse):
    # Friday 12-18: 后天 is 12-20, 大后天 12-21; the reason between adds nothing.
    today = dt.date(2026, 12, 18)
    intent = parse("后天从西安去洛阳，哎不对，后天要加班，那就大后天走", today)
    assert intent.date_start == dt.date(2026, 12, 21)
    intent = parse(
        "我跟我婆娘两个人，后天从西安去洛阳看龙门石窟，哎不对，后天我娃要回来，那就大后天走，"
        "在洛阳浪两天住两晚上再坐回来",
        today,
    )
    assert (intent.date_start, intent.date_end) == (dt.date(2026, 12, 21), dt.date(2026, 12, 23))
    assert intent.nights == 2


def test_two_nights_in_a_stop_said_in_english_after_the_route(parse):
    intent = parse(
        "kunming -> dali -> lijiang. leave kunming sat morning, 2 nights in dali, then on to "
        "lijiang. one way only, cheap trains are fine"
    )
    assert [(stop.city, stop.nights) for stop in intent.via] == [("大理", 2)]
    assert intent.destination == "丽江" and intent.return_trip is False


def test_back_to_school_on_a_holiday_after_the_trip_home(parse):
    intent = parse("跨年回趟家 31号从西安回宝鸡 元旦那天再回学校 买学生票", dt.date(2026, 12, 20))
    assert (intent.origin, intent.destination) == ("西安", "宝鸡")
    assert (intent.date_start, intent.date_end) == (dt.date(2026, 12, 31), dt.date(2027, 1, 1))
    assert intent.return_trip and intent.students == 1
