"""Words from both ends of the register: 俺娘 and 下五 typed by voice, 午前 written formally,
a landmark misheard, a train's letter said as how its number starts, a stay counted in 宿,
the night trains turned down as 夜里的车, parents seen off, and kin brought along in pinyin."""

from __future__ import annotations

import datetime as dt

import pytest

from app.intent.offline import parse_offline
from sources.models import SeatClass
from sources.stations import StationDirectory, curated_directory

TODAY = dt.date(2026, 12, 9)  # a Wednesday


@pytest.fixture(scope="module")
def directory() -> StationDirectory:
    return curated_directory()


@pytest.mark.parametrize(
    "text",
    ["周五带俺爹从郑州去北京复查", "周五跟我娘从郑州去北京", "周五带咱妈从郑州去北京逛逛"],
)
def test_mum_and_dad_in_northern_words_ride_along(text: str, directory) -> None:
    assert parse_offline(text, TODAY, directory).passengers == 2


@pytest.mark.parametrize(
    ("text", "riders"),
    [
        ("周五送二老从北京回济南", 2),
        ("帮我父母订周五北京到济南的票", 2),
        ("周五陪我爸妈从北京回济南", 3),
    ],
)
def test_parents_seen_off_ride_without_the_speaker(text: str, riders: int, directory) -> None:
    intent = parse_offline(text if "北京" in text else "从北京" + text, TODAY, directory)
    assert intent.passengers == riders


def test_kin_and_a_deadline_typed_in_pinyin_are_read(directory) -> None:
    intent = parse_offline(
        "houtian dai wo ba cong nanjing qu shanghai kan bing, 9dian qian yao dao", TODAY, directory
    )
    assert (intent.origin, intent.destination, intent.passengers) == ("南京", "上海", 2)
    assert intent.arrive_window is not None and intent.arrive_window.end == dt.time(9, 0)


@pytest.mark.parametrize(
    ("text", "start", "end"),
    [
        ("后天下五从南京去上海", dt.time(12, 0), dt.time(18, 0)),
        ("兹定于后天午前自南京赴上海", None, dt.time(12, 0)),
        ("后天午后由南京赴上海", dt.time(12, 0), None),
    ],
)
def test_afternoon_by_voice_and_noon_in_formal_writing(text, start, end, directory) -> None:
    window = parse_offline(text, TODAY, directory).depart_window
    assert window is not None
    if start is not None:
        assert window.start == start
    if end is not None:
        assert window.end == end


def test_an_hour_after_the_afternoon_by_voice_reads_as_after_the_afternoon(directory) -> None:
    said = parse_offline("周五下五三点从南京去上海", TODAY, directory)
    assert said == parse_offline("周五下午三点从南京去上海", TODAY, directory)


def test_next_friday_said_in_full_is_no_afternoon(directory) -> None:
    intent = parse_offline("下周五从南京去上海", TODAY, directory)
    assert intent.date_start == dt.date(2026, 12, 18) and intent.depart_window is None


def test_a_landmark_typed_by_its_sound_is_the_landmark(directory) -> None:
    intent = parse_offline("周六从北京去看兵马涌", TODAY, directory)
    assert intent.destination == "西安"


@pytest.mark.parametrize(("letter", "types"), [("G", ["G"]), ("D", ["D"]), ("K", ["K"])])
def test_a_train_letter_said_as_how_the_number_starts(letter, types, directory) -> None:
    intent = parse_offline(f"明天南京到上海，要{letter}开头的", TODAY, directory)
    assert intent.train_types == types
    only = parse_offline(f"明天南京到上海 只坐{letter}打头的", TODAY, directory)
    assert only.train_types == types


def test_a_stay_counted_in_nights_said_as_su(directory) -> None:
    intent = parse_offline("周五从北京去天津，住一宿就回来", TODAY, directory)
    assert intent.nights == 1 and intent.return_trip


@pytest.mark.parametrize("text", ["周五北京到哈尔滨 卧铺睡一宿就到", "我们宿舍四个人周五去天津"])
def test_a_night_slept_aboard_and_a_dormitory_are_no_stay(text, directory) -> None:
    assert parse_offline(text, TODAY, directory).nights is None


def test_the_trains_of_the_night_turned_down_is_no_night_ride(directory) -> None:
    intent = parse_offline("周五从北京去西安，半夜的车就算了", TODAY, directory)
    assert intent.no_overnight and intent.depart_window is None


def test_a_seat_one_cannot_sit_in_for_long_is_refused(directory) -> None:
    intent = parse_offline("周五从北京去西安，我妈坐不了太长时间硬座", TODAY, directory)
    assert SeatClass.HARD_SEAT in intent.exclude_seat_classes
    assert intent.seat_class is not SeatClass.HARD_SEAT


@pytest.mark.parametrize(("typed", "city"), [("xm", "厦门"), ("qd", "青岛"), ("km", "昆明")])
def test_more_big_cities_by_their_initials(typed, city, directory) -> None:
    intent = parse_offline(f"明天从{typed}去北京", TODAY, directory)
    assert intent.origin == city


def test_a_ride_home_said_direct_from_the_last_stop_is_the_return(directory) -> None:
    intent = parse_offline(
        "周五从南京出发，先去镇江住一晚，周六再去苏州，周日晚上从苏州直接回南京", TODAY, directory
    )
    assert intent.origin == "南京" and intent.date_end == dt.date(2026, 12, 13)
    assert intent.return_window is not None and intent.return_window.label == "晚上"
    assert intent.depart_window is None


def test_a_first_stop_named_again_as_where_the_next_ride_leaves_is_no_origin(directory) -> None:
    intent = parse_offline("周四去济南开会，周五从济南去青岛，周六青岛回天津", TODAY, directory)
    assert (intent.origin, intent.destination) == ("天津", "青岛")
    assert [stop.city for stop in intent.via] == ["济南"]


@pytest.mark.parametrize("text", ["周五北京去上海，有没有直达的", "周五北京去上海 有直达的吗"])
def test_asking_for_a_direct_train_wishes_for_one(text: str, directory) -> None:
    assert "直达" in parse_offline(text, TODAY, directory).preferences


def test_no_direct_train_said_as_a_fact_is_no_wish(directory) -> None:
    intent = parse_offline("周五北京去上海，没直达的话转车也行", TODAY, directory)
    assert "直达" not in intent.preferences


@pytest.mark.parametrize("text", ["基金最近亏麻了怎么办", "高铁概念股还能买吗，抄底不"])
def test_money_matters_are_out_of_scope(text: str, directory) -> None:
    intent = parse_offline(text, TODAY, directory)
    assert intent.kind == "out_of_scope" or "other" in intent.out_of_scope_topics


@pytest.mark.parametrize("text", ["初二两个班下周五从长沙去韶山", "初一全体师生下周五从长沙去韶山"])
def test_school_years_counted_by_class_are_no_lunar_day(text: str, directory) -> None:
    assert parse_offline(text, TODAY, directory).date_start == dt.date(2026, 12, 18)


@pytest.mark.parametrize(
    ("text", "back", "hours"),
    [
        ("周五从合肥去黄山，回程周日下午", dt.date(2026, 12, 13), "下午"),
        ("12月11号合肥到黄山；返程：12月13号", dt.date(2026, 12, 13), None),
    ],
)
def test_the_ride_home_named_before_its_day(text, back, hours, directory) -> None:
    intent = parse_offline(text, TODAY, directory)
    assert intent.date_end == back and intent.return_trip
    assert (intent.return_window.label if intent.return_window else None) == hours


def test_students_recounted_after_the_fare_was_claimed(chat) -> None:
    intent = chat("周五西安去宝鸡", "我有学生证 买学生票", "室友也跟我去，我们俩学生").intent
    assert (intent.passengers, intent.students) == (2, 2)


@pytest.mark.parametrize(
    ("text", "start"),
    [
        ("周五晚上八点下班，下了班从苏州回阜阳", dt.time(20, 30)),
        ("周五五点半收工，收工了从苏州回阜阳", dt.time(18, 0)),
        # The way to the station said: that long, not the half hour.
        ("周五六点下班 坐地铁到车站要一个小时 从苏州回阜阳", dt.time(19, 0)),
        # A later hour said for the train: that hour.
        ("周五六点下班，七点以后的车，从苏州回阜阳", dt.time(19, 0)),
    ],
)
def test_the_hour_work_ends_leaves_time_to_reach_the_train(text, start, directory) -> None:
    window = parse_offline(text, TODAY, directory).depart_window
    assert window is not None and window.start == start


def test_before_the_evening_is_a_deadline_before_six(directory) -> None:
    intent = parse_offline("周五从南京去上海，晚上之前要到", TODAY, directory)
    assert intent.arrive_window is not None and intent.arrive_window.end == dt.time(18, 0)


def test_teachers_who_lead_counted_after_their_name_ride_with_the_class(directory) -> None:
    intent = parse_offline("30个学生 领队老师3个 周五从南京去上海 学生买学生票", TODAY, directory)
    assert (intent.passengers, intent.students) == (33, 30)


def test_going_home_then_coming_back_on_a_later_day_is_a_round_trip(directory) -> None:
    intent = parse_offline("周五下了班就回杭州老家，周日下午再回来", TODAY, directory)
    assert intent.return_trip and intent.date_end == dt.date(2026, 12, 13)
    one_way = parse_offline("周五下了班就回杭州老家，不回来了", TODAY, directory)
    assert one_way.return_trip is False


def test_the_evening_then_the_hour_work_ends_leaves_after_it(directory) -> None:
    window = parse_offline("周五晚上从上海回苏州 六点下班", TODAY, directory).depart_window
    assert window is not None and window.start == dt.time(18, 30)


def test_a_named_train_with_its_day_in_pinyin(directory) -> None:
    intent = parse_offline("d301 houtian hai you piao ma", TODAY, directory)
    assert intent.train_numbers == ["D301"] and intent.date_start == dt.date(2026, 12, 11)


def test_back_the_same_day_as_the_business_said_after_a_stop(directory) -> None:
    intent = parse_offline(
        "周四从北京出发，先去天津住一晚，周五上午在济南开会，开完当天就回北京", TODAY, directory
    )
    assert (intent.date_start, intent.date_end) == (dt.date(2026, 12, 10), dt.date(2026, 12, 11))


def test_a_day_trip_said_of_next_week_comes_back_that_day(directory) -> None:
    intent = parse_offline("下周五从长沙去韶山，当天来回", TODAY, directory)
    assert intent.date_start == intent.date_end == dt.date(2026, 12, 18)


def test_not_home_too_late_after_a_day_trip_is_the_ride_backs_deadline(directory) -> None:
    intent = parse_offline("周六从南京去扬州逛逛 当天回来 晚上别太晚到家", TODAY, directory)
    assert intent.depart_window is None and intent.arrive_window is None
    assert intent.return_arrive_window is not None
    assert intent.return_arrive_window.end == dt.time(22, 0)


@pytest.mark.parametrize(
    ("text", "day", "back"),
    [
        ("周三下班后从南京去上海", dt.date(2026, 12, 9), None),
        ("周三六点下班从南京去上海，周五回来", dt.date(2026, 12, 9), dt.date(2026, 12, 11)),
        ("周三从南京去上海", dt.date(2026, 12, 16), None),  # no work said: next week's
        ("下周三下班后从南京去上海", dt.date(2026, 12, 16), None),
    ],
)
def test_todays_weekday_said_with_todays_work_ending_is_today(text, day, back, directory):
    intent = parse_offline(text, TODAY, directory)  # TODAY is a Wednesday
    assert (intent.date_start, intent.date_end) == (day, back)


@pytest.mark.parametrize(
    ("text", "route"),
    [("nj to sh tmr", ("南京", "上海")), ("wh to cs this sat, 2nd class", ("武汉", "长沙"))],
)
def test_city_initials_with_the_english_route_word_between_them(text, route, directory):
    intent = parse_offline(text, TODAY, directory)
    assert (intent.origin, intent.destination) == route


@pytest.mark.parametrize(
    ("text", "riders", "ages"),
    [
        ("Nanjing to Shanghai tomorrow, me + my husband + our 8yo daughter", 3, [8]),
        ("Nanjing to Shanghai tomorrow, me and my son (9)", 2, [9]),
        ("Nanjing to Shanghai tomorrow, 2 adults", 2, []),
    ],
)
def test_children_said_in_english_are_children(text, riders, ages, directory):
    intent = parse_offline(text, TODAY, directory)
    assert intent.passengers == riders and intent.children == ages


def test_a_childs_age_said_in_english_is_no_train_number(directory) -> None:
    intent = parse_offline("Nanjing to Shanghai tomorrow, she's 6", TODAY, directory)
    assert intent.train_numbers == []


def test_first_class_said_as_1st_class(directory) -> None:
    intent = parse_offline("nj to sh this sat, 1st class pls", TODAY, directory)
    assert intent.seat_class is SeatClass.FIRST or SeatClass.FIRST in intent.seat_classes


@pytest.mark.parametrize(
    "text",
    [
        "帮我看看今天股市收盘怎么样",
        "去日本的签证好办吗",
        "book me a flight to Xiamen, the train is too slow",
    ],
)
def test_share_prices_visas_and_flights_in_english_are_out_of_scope(text, directory) -> None:
    intent = parse_offline(text, TODAY, directory)
    assert intent.kind == "out_of_scope" or intent.out_of_scope_topics
