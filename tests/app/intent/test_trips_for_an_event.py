"""A train taken for something else: a flight or a ferry that follows it (its day is the
train's when no other is said, and a flight to a place no station names is still a flight),
an evening event (there before the evening begins), a part of the day given up in the same
breath, and the ordinary trains asked for by their everyday name."""

from __future__ import annotations

import datetime as dt

import pytest

from app.intent.offline import parse_offline
from sources.stations import StationDirectory, default_directory

THURSDAY = dt.date(2026, 12, 10)


@pytest.fixture(scope="module")
def official() -> StationDirectory:
    return default_directory()


def test_a_flight_abroad_after_the_train_leaves_the_route_and_gives_its_day(
    official: StationDirectory,
) -> None:
    text = "15号上午11点的航班从白云飞曼谷，我在深圳，想坐车去广州南，八点前到"
    intent = parse_offline(text, THURSDAY, official)
    assert (intent.origin, intent.destination) == ("深圳", "广州南")
    assert intent.date_start == dt.date(2026, 12, 15)


def test_the_day_of_a_ferry_after_the_train_is_the_trains(official: StationDirectory) -> None:
    intent = parse_offline("要赶周六早上去大连的船，从长春出发去烟台", THURSDAY, official)
    assert intent.date_start == dt.date(2026, 12, 12)


@pytest.mark.parametrize(
    "text", ["周日晚上在北京看演唱会，我从天津过去", "周日晚上在南昌参加婚礼，九江出发"]
)
def test_an_evening_event_is_reached_before_the_evening(
    official: StationDirectory, text: str
) -> None:
    intent = parse_offline(text, THURSDAY, official)
    assert intent.arrive_window is not None and intent.arrive_window.span() == "00:00-18:00"


@pytest.mark.parametrize(
    ("text", "leave"),
    [
        ("周六上午从无锡去常州，算了上午有事，下午吧", "12:00-18:00"),
        ("周六早上从无锡去常州，哦不对早上来不及，中午走", "11:00-14:00"),
    ],
)
def test_a_part_of_the_day_given_up_gives_way_to_the_one_meant(
    official: StationDirectory, text: str, leave: str
) -> None:
    window = parse_offline(text, THURSDAY, official).depart_window
    assert window is not None and window.span() == leave


def test_the_ordinary_sleeper_train_is_no_high_speed_one(official: StationDirectory) -> None:
    intent = parse_offline("周一从郑州去广州，想坐普通的卧铺车", THURSDAY, official)
    assert set(intent.exclude_train_types) == {"G", "D", "C"}


def test_a_holiday_said_by_name_with_that_day_is_its_day(official: StationDirectory) -> None:
    intent = parse_offline(
        "12月30号从杭州回宁波，元旦当天晚上回杭州", dt.date(2026, 12, 20), official
    )
    assert (intent.date_start, intent.date_end) == (dt.date(2026, 12, 30), dt.date(2027, 1, 1))


def test_the_day_one_sets_off_wins_over_the_events_day(official: StationDirectory) -> None:
    intent = parse_offline("婚礼是20号中午，我19号就过去，从南京去合肥", THURSDAY, official)
    assert intent.date_start == dt.date(2026, 12, 19)
    assert intent.depart_window is None


def test_a_holiday_not_travelled_on_is_no_day_of_the_trip(official: StationDirectory) -> None:
    text = "儿子元旦不回来了，我们这周日从徐州去看他，他在济南"
    assert parse_offline(text, THURSDAY, official).date_start == dt.date(2026, 12, 13)


def test_a_flight_to_catch_sends_the_train_to_its_airport_in_time_to_check_in(
    official: StationDirectory,
) -> None:
    intent = parse_offline(
        "周六下午两点的航班，从大兴机场走，我在雄安，坐火车过去", THURSDAY, official
    )
    assert (intent.origin, intent.destination) == ("雄安", "大兴机场")
    assert intent.arrive_window is not None and intent.arrive_window.span() == "00:00-12:30"


def test_a_flight_that_lands_gives_no_deadline(official: StationDirectory) -> None:
    intent = parse_offline("周六晚上八点的航班到广州，落地后坐高铁去深圳", THURSDAY, official)
    assert intent.arrive_window is None


@pytest.mark.parametrize(
    "text",
    [
        "高铁太慢了，帮我看看周五广州飞北京的机票多少钱",
        "别给我推荐动车了，明天上海飞厦门的机票还有吗",
    ],
)
def test_an_air_ticket_asked_for_with_the_train_waved_off_is_out_of_scope(
    official: StationDirectory, text: str
) -> None:
    assert parse_offline(text, THURSDAY, official).kind == "out_of_scope"


def test_a_flight_waved_off_for_the_train_is_still_a_train(official: StationDirectory) -> None:
    intent = parse_offline("周五广州到长沙，机票太贵了，买高铁票", THURSDAY, official)
    assert intent.kind != "out_of_scope"


@pytest.mark.parametrize(
    ("text", "leave"),
    [
        # The event's part of the day is not the ride's: the ride's is said after it.
        ("周六上午在苏州办婚礼，十点开始，我从上海当天早上过去", "06:00-10:00"),
        ("下周一下午在南京面试，两点半开始，我从合肥中午过去", "11:00-14:00"),
        ("周五上午在绍兴参加葬礼，九点开始，我早上从杭州过去", "06:00-10:00"),
    ],
)
def test_the_part_of_the_day_of_an_event_is_not_the_rides(
    official: StationDirectory, text: str, leave: str
) -> None:
    intent = parse_offline(text, THURSDAY, official)
    assert intent.depart_window is not None and intent.depart_window.span() == leave
    assert intent.arrive_window is not None and intent.arrive_window.start == dt.time(0, 0)


@pytest.mark.parametrize(
    ("text", "day"),
    [
        # 头一天 said of the ride: the day before the business.
        ("下周三上午十点在上海面试，我从南京过去，打算头一天下午就到", dt.date(2026, 12, 15)),
        ("周六在厦门参加婚礼，我从福州头天晚上先过去", dt.date(2026, 12, 11)),
        # A weekday earlier in the week than the business's, said of arriving: that day.
        ("下周四上午在西安复查，我从郑州走，周三晚上到西安住一晚", dt.date(2026, 12, 16)),
    ],
)
def test_the_day_before_the_business_said_of_the_ride_is_the_rides(
    official: StationDirectory, text: str, day: dt.date
) -> None:
    assert parse_offline(text, THURSDAY, official).date_start == day


def test_the_first_day_of_a_stay_is_no_day_before(official: StationDirectory) -> None:
    text = "周六从上海去杭州玩两天，头一天逛西湖，第二天去灵隐寺"
    assert parse_offline(text, THURSDAY, official).date_start == dt.date(2026, 12, 12)


def test_the_day_before_allowed_if_the_day_cannot_be_made_keeps_the_day(
    official: StationDirectory,
) -> None:
    text = (
        "下周二上午十点在长沙开会，我从武汉过去，"
        "当天早上来得及就当天走，来不及就前一天晚上过去住一晚"
    )
    intent = parse_offline(text, THURSDAY, official)
    assert intent.date_start == dt.date(2026, 12, 15)
    assert intent.nights is None  # the night there goes with the day before


@pytest.mark.parametrize(
    ("text", "by"),
    [
        ("周日上午九点半在宁波参加葬礼，从杭州去", "09:30"),
        ("下周六十一点在老家办婚礼，我从成都回重庆", "11:00"),
    ],
)
def test_a_family_days_hour_is_the_deadline(official: StationDirectory, text: str, by: str) -> None:
    window = parse_offline(text, THURSDAY, official).arrive_window
    assert window is not None and window.span() == f"00:00-{by}"
