"""Chat turns the h22 round's travellers wrote where a constraint was relaxed falsely: a stay
said in 晚上 (住两晚上) with the day home and that ride's hours said after a loose wish, an
English "back in the evening" of a day trip, and a trip said to be a different one."""

from __future__ import annotations

import datetime as dt

import pytest

from app.intent.followup import TurnReading
from app.intent.model import TravelIntent
from app.intent.offline import parse_offline
from tests.app.intent.conftest import TODAY

# TODAY in these tests is Monday 2026-11-30.


@pytest.fixture
def parse(directory):
    return lambda text: parse_offline(text, TODAY, directory)


def trip(reading: TurnReading) -> TravelIntent:
    assert reading.declined is None
    return reading.intent


def test_a_stay_said_in_evenings_with_the_day_home_and_its_hours(chat):
    intent = trip(
        chat(
            "额礼拜五想从西安去兰州浪一哈，坐高铁么动车都行",
            "哎不对，额记岔咧，不是礼拜五，是礼拜六么",
            "在兰州住两晚上，礼拜一回来，回来那趟不要太早咧，十点以后走",
        )
    )
    # Saturday 12-05, two nights, home on the Monday said; the hours are the ride home's.
    assert intent.nights == 2
    assert intent.date_end == dt.date(2026, 12, 7)
    assert intent.date_start == dt.date(2026, 12, 5)
    assert intent.depart_window is None
    assert intent.return_window is not None and intent.return_window.span() == "10:00-23:59"


def test_nights_said_as_evenings_after_a_stay_verb(parse):
    intent = parse("大后天从西安去兰州，在兰州住两晚上，礼拜一回来")
    assert intent.nights == 2
    assert intent.depart_window is None


def test_one_evening_is_still_a_length_not_nights(parse):
    # 坐一晚上硬座: the night is the ride; no stay, no evening departure.
    intent = parse("明天从西安去兰州，坐一晚上硬座也行")
    assert intent.nights is None


def test_an_english_day_trip_home_in_the_evening(chat):
    intent = trip(
        chat(
            "urumqi to lanzhou tomorrow morning pls",
            "it's a day trip, i come back same day in the evening",
        )
    )
    assert intent.depart_window is not None and intent.depart_window.span() == "06:00-12:00"
    assert intent.return_window is not None and intent.return_window.span() == "18:00-23:59"
    assert intent.date_end == intent.date_start == dt.date(2026, 12, 1)


def test_a_different_trip_said_starts_afresh_from_the_same_city(chat):
    intent = trip(
        chat(
            "urumqi to lanzhou tomorrow morning pls",
            "it's a day trip, i come back same day in the evening",
            "too expensive man, cheapest seats pls",
            "ok different trip: Dec 8 urumqi to xining, overnight sleeper",
        )
    )
    assert (intent.origin, intent.destination) == ("乌鲁木齐", "西宁")
    assert intent.date_start == dt.date(2026, 12, 8)
    assert not intent.return_trip
    assert intent.return_window is None
    assert intent.order is None
    assert intent.seat_classes


def test_a_new_trip_in_chinese_from_the_same_city(chat):
    intent = trip(chat("周五从北京去上海，最便宜的", "换个行程：下周一北京去天津"))
    assert (intent.origin, intent.destination) == ("北京", "天津")
    assert intent.order is None


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # A student added to the grown-ups with 加 (in traditional characters too).
        ("我们兩個大人加一個大學生，下週六從廣州去桂林", (3, 1, [])),
        # 加上 a group of the party adds heads, not a stop.
        ("两个大人加上一个学生，下周六从广州去桂林", (3, 1, [])),
        ("两个大人加上两个老人，下周六从广州去桂林", (4, 0, [])),
        ("两个大人加上一个孩子，下周六从广州去桂林", (3, 0, [None])),
        # English students of any kind claim the fare.
        ("we are 3 intl students, going from beijing to xian this saturday", (3, 3, [])),
        ("hi, we're two exchange students, shanghai to hangzhou tmr", (2, 2, [])),
    ],
)
def test_parties_said_with_a_group_added(parse, text, expected):
    intent = parse(text)
    assert (intent.passengers, intent.students, intent.children) == expected
    assert intent.action != "append" and not intent.via


def test_a_stop_added_with_jiashang_is_still_a_stop(parse):
    intent = parse("下周六从广州去桂林，再加上一站长沙")
    assert intent.action == "append"


@pytest.mark.parametrize("then", ["第二天再接着走", "第二天继续出发", "第二天就走"])
def test_a_night_on_the_way_then_on(parse, then):
    intent = parse(f"后天从上海去成都，在武汉住一晚，{then}")
    assert intent.destination == "成都"
    assert [(stop.city, stop.nights) for stop in intent.via] == [("武汉", 1)]


@pytest.mark.parametrize(
    "text", ["周五从北京去西安，只坐Z字头的直达特快", "周五从北京去西安，要直达特快"]
)
def test_the_z_trains_by_their_name(parse, text):
    intent = parse(text)
    assert intent.train_types == ["Z"]
    assert "直达" not in intent.preferences


@pytest.mark.parametrize(
    ("text", "place"),
    [
        ("shanghai to wuzhen this saturday", "乌镇"),
        ("zhouzhuang古镇 from shanghai tomorrow", "周庄"),
        ("jiuzhaigou from chengdu next week", "九寨沟"),
    ],
)
def test_places_without_a_station_spelt_in_pinyin(parse, text, place):
    # Read as the place itself (its nearest stations are offered openly), not dropped.
    intent = parse(text)
    assert intent.destination_text == place
    assert intent.origin in ("上海", "成都")


@pytest.mark.parametrize("joins", ["同学妈妈也一起", "朋友的爸爸也去"])
def test_someones_parent_joining_is_one_more(chat, joins):
    intent = trip(chat("我们三个同学周六从广州去深圳", joins))
    assert intent.passengers == 4


def test_a_hakka_chat_where_one_is_from_answers_the_origin(chat):
    intent = trip(
        chat(
            "涯想去广州寻涯老弟，冇晓得几时有车",
            "涯系深圳个，后日就去",
            "爱坐动车，越便宜越好",
            "还有啊，系两个人，涯同涯老婆",
        )
    )
    assert (intent.origin, intent.destination) == ("深圳", "广州")
    assert intent.date_start == dt.date(2026, 12, 2)
    assert intent.passengers == 2
    assert intent.order == "cheapest"


def test_coming_back_on_a_day_in_english(chat):
    intent = trip(
        chat(
            "Need a train Beijing to Shanghai on Dec 12",
            "actually make it Sunday the 13th",
            "and coming back on the 16th in the afternoon",
        )
    )
    assert (intent.date_start, intent.date_end) == (dt.date(2026, 12, 13), dt.date(2026, 12, 16))
    assert intent.return_window is not None and intent.return_window.span() == "12:00-18:00"
    assert intent.depart_window is None


def test_snow_asked_about_in_cantonese_is_declined_and_the_trip_kept(chat):
    reading = chat(
        "我想坐夜车由广州返长沙，後日出发，要卧铺", "今日好冻啊，你话长沙嗰边会唔会落雪㗎？"
    )
    assert reading.declined == "weather"
    assert reading.intent.date_start == dt.date(2026, 12, 2)


def test_the_night_train_given_up_for_a_fast_one(chat):
    intent = trip(
        chat(
            "我想坐夜车由广州返长沙，後日出发，要卧铺，最好係下铺啊",
            "咁都係唔要卧铺啦，改坐高铁算数，最快嗰班",
        )
    )
    assert intent.train_types == ["G"] and intent.order == "fastest"
    assert intent.seat_classes == [] and intent.seat_class is None and intent.berth is None
    assert intent.depart_window is None and intent.arrive_window is None
    assert intent.arrive_date is None


def test_the_route_put_right_the_other_way_round(chat):
    intent = trip(chat("元旦前回家 重庆到成都 31号", "不对不对 是成都回重庆"))
    assert (intent.origin, intent.destination) == ("成都", "重庆")
    assert not intent.return_trip
    # Said without a correction, the same words add the ride home.
    intent = trip(chat("周五重庆到成都", "周日成都回重庆"))
    assert (intent.origin, intent.destination) == ("重庆", "成都") and intent.return_trip


def test_the_childs_classmate_of_an_age_is_a_child(chat):
    intent = trip(
        chat(
            "下周二两个大人带一个6岁小孩从广州南去深圳",
            "孩子的同学也跟着去，也是6岁",
            "同学妈妈也一起",
        )
    )
    assert (intent.passengers, intent.children) == (5, [6, 6])


def test_a_stop_of_some_hours_said_in_zhongtou(parse):
    intent = parse("后天从贵阳去上海，想在长沙下车待几个钟头吃个饭再走，当天能到上海就行")
    assert [(stop.city, stop.nights, stop.through) for stop in intent.via] == [("长沙", 0, True)]


def test_a_day_denied_then_changed_to(chat):
    # Monday 11-30: 明天 12-01, 后天 12-02.
    intent = trip(chat("我明天要从长沙回武汉屋里，下午三点钟以后的", "哦不是明天，改成后天星期三"))
    assert intent.date_start == dt.date(2026, 12, 2)


def test_one_berth_refused_for_another_keeps_the_night_ride(chat):
    intent = trip(
        chat(
            "俺寻思礼拜三从沈阳上北京，坐卧铺，晚上走第二天上午到那种，给俺整个下铺嗷",
            "硬卧就行，软卧那玩意儿太贵了",
        )
    )
    assert intent.seat_class == "hard_sleeper" and intent.berth == "lower"
    assert intent.depart_window is not None and intent.arrive_date is not None


@pytest.mark.parametrize("said", ["不要卧铺，也不要夜里跑的车", "不要夜里开的火车"])
def test_trains_running_through_the_night_refused(parse, said):
    intent = parse(f"周四从西安去成都，{said}")
    assert intent.no_overnight is True
    assert intent.depart_window is None


def test_the_two_of_us_and_the_child_known(chat):
    intent = trip(chat("下周二我带娃从厦门去福州 娃两岁半", "孩子他爸也一起 我们俩加娃"))
    assert (intent.passengers, intent.children) == (3, [2])


def test_one_more_and_both_of_us_students(chat):
    intent = trip(chat("后天济南到青岛 早上7点以后 越早越好", "再加个同学 我俩都是学生"))
    assert (intent.passengers, intent.students) == (2, 2)


def test_the_station_meant_and_the_one_refused_in_a_turn(chat):
    intent = trip(chat("周五早上哈尔滨去长春 十点前到就行", "到长春站 别去长春西"))
    assert intent.destination == "长春站"
    assert intent.arrive_window is not None


def test_a_stay_found_wanting_then_the_one_meant(chat):
    intent = trip(chat("周二从重庆去成都 住两晚就回来", "住两晚太紧了 改成住三晚"))
    assert intent.nights == 3
    assert (intent.date_start, intent.date_end) == (dt.date(2026, 12, 1), dt.date(2026, 12, 4))


def test_not_in_time_in_cantonese_moves_the_day(chat):
    intent = trip(chat("我下礼拜一想从深圳去广州", "哎，礼拜一赶唔切，改礼拜二啦"))
    assert intent.date_start == dt.date(2026, 12, 8)


def test_a_trip_not_yet_on_sale_moved_to_this_saturday_to_see_the_old_folks(chat):
    intent = trip(chat("周五从郑州到信阳", "那先看看这周六的吧，回去看看老人"))
    assert intent.date_start == dt.date(2026, 12, 5)
    assert intent.return_trip is not True


def test_a_hakka_party_counted_in_chai(chat):
    intent = trip(chat("𠊎想去深圳，帮𠊎睇下火車", "從廣州出發，天光日", "兩儕人，𠊎同𠊎阿姆"))
    assert intent.passengers == 2
    assert (intent.origin, intent.destination) == ("广州", "深圳")
