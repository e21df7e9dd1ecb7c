"""Times, days and wishes as travellers put them in one breath (issue 22): a weekday run into
its hour, the way to the station after work, dusk as a clock, a part of the day far from its
hour, a deadline back home, a holiday's length, chat shorthand for tomorrow."""

from __future__ import annotations

import datetime as dt

import pytest

from app.intent.dates import extract_dates
from app.intent.model import TimeWindow
from app.intent.offline import normalise_text, parse_offline
from app.intent.times import way_to_station_minutes
from sources.stations import curated_directory, default_directory

D = dt.date
MON = D(2026, 12, 7)  # a Monday
DIRECTORY = curated_directory()


def spans(text: str, today: dt.date = MON) -> dict[str, str | None]:
    intent = parse_offline(text, today, DIRECTORY)
    return {
        name: window.span() if window is not None else None
        for name, window in (
            ("depart", intent.depart_window),
            ("arrive", intent.arrive_window),
            ("return", intent.return_window),
            ("return_arrive", intent.return_arrive_window),
        )
    }


@pytest.mark.parametrize(
    ("text", "day", "depart"),
    [
        # the weekday's numeral is no part of the hour, in digits or in words
        ("下周四七点下班 从杭州回上海", D(2026, 12, 17), "19:30-23:59"),  # to the train
        ("周三8点以后从苏州去南京", D(2026, 12, 9), "08:00-23:59"),
        ("星期二九点前从济南去青岛", D(2026, 12, 8), "00:00-09:00"),
    ],
)
def test_a_weekday_run_into_its_hour(text: str, day: dt.date, depart: str) -> None:
    intent = parse_offline(text, MON, DIRECTORY)
    assert intent.date_start == day
    assert spans(text)["depart"] == depart


@pytest.mark.parametrize(
    ("text", "depart"),
    [
        ("周五五点半下班 坐地铁到火车站得半小时 从南京回合肥", "18:00-23:59"),
        ("周五下班后从无锡回常州 去车站要一个小时", "19:00-23:59"),
        ("周五下班后从无锡回常州 开车去车站要20分钟", "18:20-23:59"),
        # a ride's own length is no way to the station
        ("周五下班后从无锡去上海 坐高铁要半小时", "18:00-23:59"),
    ],
)
def test_the_way_to_the_station_after_work_moves_the_departure(text: str, depart: str) -> None:
    assert spans(text)["depart"] == depart


def test_the_way_to_the_station_counts_only_after_an_hour_one_is_free() -> None:
    morning = TimeWindow(start=dt.time(8, 0), end=dt.time(23, 59), label="8点以后")
    assert way_to_station_minutes("8点以后的车 打车去车站要半小时", morning) == 0


@pytest.mark.parametrize(
    ("text", "field", "span"),
    [
        # dusk said, then its hour: the evening's
        ("后天从长沙去怀化 天黑之前得到 五点前", "arrive", "00:00-17:00"),
        # a part of the day refused for the arrival (才到)
        ("明天从南京去黄山，别晚上才到", "arrive", "00:00-18:00"),
        # the part of the day the ride is left with (只能), another taken by an errand
        ("周六从苏州回盐城 早上要去医院复查 只能坐下午的车", "depart", "12:00-18:00"),
        # a bare hour far from the part of the day said of the same ride
        ("明天下午带我妈从西安去宝鸡她腿脚不好要人扶着三点以后的车", "depart", "15:00-18:00"),
        # a ride not in the small hours
        ("明天从上海去南京 挑最便宜的 别是半夜的车", "depart", "06:00-23:59"),
    ],
)
def test_parts_of_the_day_as_said(text: str, field: str, span: str) -> None:
    assert spans(text)[field] == span


def test_a_deadline_to_be_back_where_the_trip_began_is_the_ride_homes() -> None:
    text = "周五从苏州去黄山 周日下午回 晚上九点前得到苏州"
    intent = parse_offline(text, MON, DIRECTORY)
    assert (intent.origin, intent.destination) == ("苏州", "黄山")
    found = spans(text)
    assert (found["arrive"], found["return_arrive"]) == (None, "00:00-21:00")


def test_a_deadline_before_the_place_one_leaves_from_stays_the_rides() -> None:
    found = spans("周五去南京见客户 上午十点前得到 上海虹桥出发")
    assert (found["arrive"], found["return_arrive"]) == ("00:00-10:00", None)


def test_a_morning_hour_to_arrive_by_after_an_evening_departure() -> None:
    said_that_night = spans("明天晚上八点以后从杭州出发 别太晚到 最晚十点前要到上海")
    assert said_that_night["arrive"] == "00:00-22:00"
    overnight = spans("明天晚上从北京出发，7点前到上海")
    assert overnight["arrive"] == "00:00-07:00", "no word of that night: the next morning"


@pytest.mark.parametrize(
    ("text", "today", "start", "end"),
    [
        ("tmr morning from shanghai to suzhou", D(2026, 12, 16), D(2026, 12, 17), None),
        ("tmrw 从上海去苏州", D(2026, 12, 16), D(2026, 12, 17), None),
        # a holiday's length is why; the day said after it, with 回, is the trip's
        ("国庆放七天假 想30号回老家", D(2026, 9, 20), D(2026, 9, 30), None),
        ("元旦休三天 三十一号回家", D(2026, 12, 20), D(2026, 12, 31), None),
        # the evening before the day named
        ("下周三上午在杭州有个会 打算提前一晚过去", MON, D(2026, 12, 15), None),
    ],
)
def test_days_as_said(text: str, today: dt.date, start: dt.date, end: dt.date | None) -> None:
    facts = extract_dates(text, today)
    assert (facts.start, facts.end) == (start, end)


def test_the_evening_before_refused_keeps_the_day() -> None:
    facts = extract_dates("下周三早上九点在杭州开会，当天一早过去，不想前一晚就过去", MON)
    assert facts.start == D(2026, 12, 16)


def test_a_holiday_length_is_no_stay() -> None:
    intent = parse_offline("元旦放三天假 三十一号从武汉回长沙", D(2026, 12, 20), DIRECTORY)
    assert (intent.date_start, intent.date_end, intent.days) == (D(2026, 12, 31), None, None)


@pytest.mark.parametrize(
    ("text", "day", "end"),
    [
        # which day (第二天) is no length of stay
        ("周六从长沙去株洲 当天就得回长沙 第二天还要上课", D(2026, 12, 12), D(2026, 12, 12)),
        # 周六周日 is two days, no six weeks
        ("这周末从杭州去上海 周六周日都行", D(2026, 12, 12), None),
    ],
)
def test_day_words_that_are_no_length(text: str, day: dt.date, end: dt.date | None) -> None:
    intent = parse_offline(text, MON, DIRECTORY)
    assert (intent.date_start, intent.date_end) == (day, end)
    assert intent.days in (None, 1)


def test_a_night_ride_refused() -> None:
    intent = parse_offline("周六从上海去南京 别是半夜的车", MON, DIRECTORY)
    assert intent.no_overnight is True


@pytest.mark.parametrize(
    ("text", "types", "excluded"),
    [
        ("下周二从杭州去宁波 单位不让坐G字头的 只能坐动车", ["D"], ["G"]),
        ("明天从上海去苏州 报销不许坐高铁", [], ["G"]),
    ],
)
def test_a_train_kind_not_allowed(text: str, types: list[str], excluded: list[str]) -> None:
    intent = parse_offline(text, MON, DIRECTORY)
    assert (intent.train_types, intent.exclude_train_types) == (types, excluded)


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("mingtian cong shanghai qu suzhou, xiawu 3dian zuoyou", "下午 3点 左右"),
        ("mingtian cong shanghai qu suzhou, wanshang shi dian yiqian", "晚上 十点 以前"),
    ],
)
def test_an_hour_typed_in_pinyin(text: str, said: str) -> None:
    assert said in normalise_text(text)


def test_the_named_train_or_none() -> None:
    intent = parse_offline("周六G1 北京南到上海虹桥 一等座有没有 没有就算了", MON, DIRECTORY)
    assert intent.train_numbers == ["G1"]
    assert "只此车次" in intent.preferences
    assert "只此车次" not in parse_offline("周六G1 北京南到上海虹桥", MON, DIRECTORY).preferences


def test_a_slow_train_permitted_with_its_detour_limits_nothing() -> None:
    intent = parse_offline("下周二从杭州回贵阳 三百以内 慢车绕一下也行", MON, DIRECTORY)
    assert intent.train_types == []


def test_where_one_works_is_the_origin_not_a_stop() -> None:
    intent = parse_offline("在义乌做小工 下礼拜二回贵州遵义", MON, DIRECTORY)
    assert (intent.origin, intent.destination, intent.via) == ("义乌", "遵义", [])
    assert intent.date_start == D(2026, 12, 15)


@pytest.mark.parametrize(
    ("text", "destination"),
    [
        ("我在东莞上班 下周五回湖南邵阳隆回 坐到隆回那个站", "隆回"),
        ("我在深圳打工 下周五回衡阳耒阳 到耒阳站就行", "耒阳"),
    ],
)
def test_a_town_after_its_prefecture_named_again_is_the_destination(
    text: str, destination: str
) -> None:
    intent = parse_offline(text, MON, default_directory())  # the towns' own stations
    assert (intent.destination, intent.via) == (destination, [])
    assert intent.origin in ("东莞", "深圳")


@pytest.mark.parametrize(
    ("text", "depart"),
    [
        # the hours named are refused: the ride is in the rest of the day
        ("明天杭州去南京，八点以前的车都不坐", "08:00-23:59"),
        ("明天杭州去南京，晚上七点后的不要", "00:00-19:00"),
        ("明天杭州去南京 早上别太早 十点前的一律不考虑", "10:00-23:59"),
        # and an hour wished for is still the ride's own
        ("明天杭州去南京，八点以后的车就行", "08:00-23:59"),
    ],
)
def test_hours_refused_leave_the_rest_of_the_day(text: str, depart: str) -> None:
    assert spans(text)["depart"] == depart


@pytest.mark.parametrize(
    ("text", "depart"),
    [
        # off the plane and to the airport's own station first
        ("明天晚上六点在双流机场落地，想直接坐动车去乐山", "18:30-23:59"),
        ("明天上午十点飞机落大兴机场 出来坐城际去雄安", "10:30-23:59"),
        # an airport without a station: into the city's stations, an hour further
        ("明天中午十二点飞机落首都机场 然后坐高铁去天津", "13:30-23:59"),
    ],
)
def test_a_landing_leaves_time_to_reach_the_train(text: str, depart: str) -> None:
    window = parse_offline(text, MON, default_directory()).depart_window
    assert window is not None and window.span() == depart


def test_a_deadline_to_be_home_after_the_ride_back_to_the_start_is_the_ride_homes() -> None:
    found = spans("周六从苏州去无锡，当天回苏州，晚上九点前要到家")
    assert (found["arrive"], found["return_arrive"]) == (None, "00:00-21:00")
    one_way = spans("周六从无锡回苏州，晚上九点前要到家")
    assert (one_way["arrive"], one_way["return_arrive"]) == ("00:00-21:00", None)
