"""What the h23 and h24 rounds' travellers said and the parser had misread (dev since their
scoring): a daughter or an intern going along, a night on the way said in 宿 or after a day
there, the ride home's hours said in English, a correction after an ellipsis, hours refused
before an hour, a station refused beside the one meant."""

from __future__ import annotations

import datetime as dt

import pytest

from app.intent.offline import parse_offline
from sources.stations import StationDirectory, default_directory

WEDNESDAY = dt.date(2026, 12, 16)


@pytest.fixture(scope="module")
def directory() -> StationDirectory:
    return default_directory()


@pytest.fixture
def parse(directory):
    return lambda text, today=WEDNESDAY: parse_offline(text, today, directory)


@pytest.mark.parametrize(
    "text",
    [
        "周五我和闺女一起从北京回哈尔滨，她上大学有学生证，能买学生票吧",
        "下周二带个实习生从青岛去济南见客户，他还在读研，能买学生票的话他那张买学生票",
    ],
)
def test_one_going_along_on_a_student_ticket_and_the_speaker(parse, text):
    intent = parse(text)
    assert (intent.passengers, intent.students) == (2, 1)


@pytest.mark.parametrize(
    ("text", "stop"),
    [
        ("下周三从哈尔滨坐火车去昆明，想半道在武汉下来住一宿逛逛再走，全程坐卧铺", "武汉"),
        ("22号坐普速车从上海去乌鲁木齐，中间在兰州下来住一宿吃碗牛肉面再走", "兰州"),
        ("周五从上海去重庆，路上想在武汉下车玩一天住一晚，第二天再接着走", "武汉"),
    ],
)
def test_a_night_on_the_way(parse, text, stop):
    intent = parse(text)
    assert [(s.city, s.nights) for s in intent.via] == [(stop, 1)]
    assert intent.nights is None and intent.date_end is None


def test_the_ride_homes_hours_said_in_english(parse):
    intent = parse(
        "2 adults + my 5 yr old son, guangzhou -> guilin this sat, coming back sun, "
        "train home has to leave after 6pm"
    )
    assert intent.return_window is not None and intent.return_window.span() == "18:00-23:59"
    assert intent.depart_window is None


def test_an_arrival_corrected_after_an_ellipsis(parse):
    intent = parse("听日朝早想由广州去长沙，九点前到…啊唔系，十点前到就得啦，帮我搵班平啲嘅高铁")
    assert intent.arrive_window is not None and intent.arrive_window.span() == "00:00-10:00"


@pytest.mark.parametrize(
    ("text", "span"),
    [
        ("明天早上郑州去洛阳 要最早那班 但别6点之前 9点前得到洛阳", "06:00-10:00"),
        ("明天北京去天津，别8点前的车", "08:00-23:59"),
    ],
)
def test_hours_refused_before_an_hour(parse, text, span):
    intent = parse(text)
    assert intent.depart_window is not None and intent.depart_window.span() == span


def test_a_station_refused_beside_the_one_meant(parse):
    intent = parse("周五从哈尔滨到长春站，别去长春西")
    assert intent.destination == "长春站"


def test_the_station_reached_at_an_hour_is_when_the_ride_can_leave(parse):
    intent = parse("今晚下班从昆明去大理，估计7点才到得了火车站，还有车吗")
    assert intent.depart_window is not None and intent.depart_window.span() == "19:00-23:59"
    assert intent.arrive_window is None


def test_the_ride_homes_order_said_with_ye(parse):
    intent = parse("回来订23号的 也要早点的")
    assert (intent.order, intent.return_order) == (None, "earliest")


def test_going_home_to_see_the_old_folks_is_no_ride_back(parse):
    intent = parse("这周六郑州到信阳，回去看看老人")
    assert intent.return_trip is not True and intent.date_end is None


def test_the_day_home_said_after_the_business_and_the_ride(parse):
    intent = parse(
        "下周一从西安北去兰州西开会，开两天，周三开完会坐晚上的车回来，来回都要高铁一等座"
    )
    assert (intent.date_start, intent.date_end) == (dt.date(2026, 12, 21), dt.date(2026, 12, 23))
    assert intent.days == 3
    assert intent.return_window is not None and intent.return_window.span() == "18:00-23:59"


@pytest.mark.parametrize(
    "text",
    [
        "大后天俺得从哈尔滨整到沈阳去 就俺一人儿 硬座可别给俺整 坐不了那玩意儿",
        "大后天从哈尔滨到沈阳，硬座可别买",
    ],
)
def test_a_class_refused_with_ke(parse, text):
    intent = parse(text)
    assert "hard_seat" in intent.exclude_seat_classes
    assert intent.seat_class is None


def test_the_speaker_alone_at_university(parse):
    intent = parse("周六我妈带我和我弟从济南去青岛 我大学生要学生票 弟弟10岁")
    assert (intent.passengers, intent.students, intent.children) == (3, 1, [10])


def test_the_norths_shang_between_two_places(parse):
    intent = parse("老铁 大后天长春上哈尔滨 给整个动车呗")
    assert (intent.origin, intent.destination) == ("长春", "哈尔滨")
    assert intent.via == []


def test_commuting_said_right_after_a_station(parse):
    # 北京南通勤: 北京南, then 通勤 (no stop at 南通).
    intent = parse("天津到北京南通勤 明天8点前得到北京南 最晚能坐几点那班", dt.date(2026, 12, 7))
    assert (intent.origin, intent.destination, intent.via) == ("天津", "北京南", [])
    assert intent.order == "latest"
