"""A part of the day widened by the hour said after it, a ride home after the business that is
the ride out, English days of the month and "this Monday", a day of the trip moved by naming
it, people turning up or staying behind in chat, and Cantonese 返 for going back."""

from __future__ import annotations

import datetime as dt

import pytest

from app.intent.followup import TurnReading, read_turn, turn_text
from app.intent.offline import parse_offline
from sources.models import SeatClass
from sources.stations import StationDirectory, curated_directory, default_directory

MONDAY = dt.date(2026, 12, 14)
SATURDAY = dt.date(2026, 12, 12)


@pytest.fixture(scope="module")
def directory() -> StationDirectory:
    return curated_directory()


@pytest.mark.parametrize(
    ("text", "start", "end"),
    [
        # The hour said outright moves the loose part's far edge.
        ("周四下午从郑州回信阳，越晚越好 但晚上八点前得发车", dt.time(12, 0), dt.time(20, 0)),
        ("周四晚上从郑州去信阳，五点以后都行", dt.time(17, 0), dt.time(23, 59)),
        # Inside the part of the day: narrowed, as before.
        ("周四上午从郑州去信阳，十点前", dt.time(6, 0), dt.time(10, 0)),
    ],
)
def test_an_hour_said_past_a_part_of_the_day_widens_it(text, start, end, directory) -> None:
    window = parse_offline(text, MONDAY, directory).depart_window
    assert window is not None and (window.start, window.end) == (start, end)


def test_home_after_the_doctor_from_where_the_doctor_is_is_one_way(directory) -> None:
    intent = parse_offline("我爸周四看完病从郑州回信阳，下午走", MONDAY, directory)
    assert (intent.origin, intent.destination) == ("郑州", "信阳")
    assert not intent.return_trip and intent.date_end is None
    # Business done at the destination, then home: still back the same day.
    intent = parse_offline("周四从郑州去信阳，看完病就回来", MONDAY, directory)
    assert intent.return_trip and intent.date_end == dt.date(2026, 12, 17)


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("Xi'an to Chengdu on the 18th, no overnight trains please", dt.date(2026, 12, 18)),
        ("Beijing to Shanghai 20th of December", dt.date(2026, 12, 20)),
        ("Guangzhou to Changsha this Monday", dt.date(2026, 12, 14)),
        ("Guangzhou to Changsha this Friday", dt.date(2026, 12, 18)),
    ],
)
def test_english_days_of_the_month_and_this_weekday(text, day, directory) -> None:
    assert parse_offline(text, SATURDAY, directory).date_start == day


def test_a_day_of_the_trip_named_and_moved_moves_that_ride_alone(chat) -> None:
    reading = chat("周五从上海去南京", "周一早上回上海 九点前要到", "周一改周二了 会挪了")
    intent = reading.intent
    assert intent.date_end is not None and intent.date_start is not None
    assert intent.date_end.weekday() == 1 and intent.date_start.weekday() == 4
    assert intent.return_arrive_window is not None
    assert intent.return_arrive_window.end == dt.time(9, 0), "the deadline stays with the ride"
    moved = chat("周五从上海去南京 周日回来", "周五改周六").intent
    assert moved.date_start is not None and moved.date_start.weekday() == 5
    assert moved.date_end is not None and moved.date_end.weekday() == 6


@pytest.mark.parametrize(
    ("turns", "passengers", "children"),
    [
        (("俺们5个老乡这周六从温州回贵阳", "又来俩 七个了"), 7, []),
        (("俺们5个老乡这周六从温州回贵阳", "又来俩"), 7, []),
        (("俺们5个老乡这周六从温州回贵阳", "又来俩 七个了", "有一个厂里不放人 走不了 六个"), 6, []),
        (("我们四个人 周六从成都到西安", "有两个单位不放人 去不了"), 2, []),
        (("两个大人一个娃儿 12岁 周六从成都到西安", "算了 娃儿不去了 就我们两口子"), 2, []),
        (("两个大人一个娃儿 12岁 周六从成都到西安", "孩子不去了"), 2, []),
    ],
)
def test_people_turning_up_or_staying_behind_in_chat(chat, turns, passengers, children) -> None:
    intent = chat(*turns).intent
    assert (intent.passengers, intent.children) == (passengers, children)


def test_going_back_in_cantonese_is_the_ride_home(chat) -> None:
    intent = chat("我同老婆礼拜三想由广州去厦门 唔想坐夜车", "喺厦门住三晚 之后返广州").intent
    assert (intent.origin, intent.destination, intent.return_trip) == ("广州", "厦门", True)
    assert intent.date_start is not None and intent.date_end is not None
    assert (intent.date_end - intent.date_start).days == 3


@pytest.mark.parametrize(
    ("text", "destination"),
    [
        # A province said right before a name typed by its sound is a cue as well.
        ("明天从苏州回安徽付阳老家 硬座就行", "阜阳"),
        ("下礼拜二从广州回河南住马店 最便宜的", "驻马店"),
        ("下礼拜二从广州回住马店", "驻马店"),
    ],
)
def test_a_home_town_typed_by_sound_after_its_province(text, destination) -> None:
    assert parse_offline(text, MONDAY, default_directory()).destination == destination


def test_a_station_named_by_a_common_noun_said_as_what_a_place_is() -> None:
    full = default_directory()
    reading = TurnReading(parse_offline("周六从贵阳去凯里", MONDAY, full))
    said = "不是凯里 是镇远 那个古镇"
    turn = parse_offline(turn_text(said), MONDAY, full)
    intent = read_turn(
        reading.intent, turn, said, today=MONDAY, city=lambda name: full.resolve(name).city
    ).intent
    assert (intent.origin, intent.destination, intent.via) == ("贵阳", "镇远", [])


def test_the_hour_one_gets_up_is_no_train_hour_but_the_earliest_one(directory) -> None:
    intent = parse_offline("我妈明天从汨罗去长沙，越早到越好，她五点多就起来了", MONDAY, directory)
    window = intent.depart_window
    assert window is not None and (window.start, window.end) == (dt.time(5, 30), dt.time(23, 59))
    # A train hour said outright wins over the hour of getting up.
    intent = parse_offline("明天从汨罗去长沙，我六点起床，七点以后的车", MONDAY, directory)
    assert intent.depart_window is not None and intent.depart_window.start == dt.time(7, 0)


def test_a_stop_added_in_chat_and_its_stay_lengthened(chat) -> None:
    added = chat("周五西安去成都 便宜点的就行", "再加一站吧 想在汉中待一晚吃面皮").intent
    assert (added.origin, added.destination) == ("西安", "成都")
    assert [(stop.city, stop.nights) for stop in added.via] == [("汉中", 1)]
    longer = chat("周五西安去成都", "再加一站吧 想在汉中待一晚", "汉中多住一晚").intent
    assert [(stop.city, stop.nights) for stop in longer.via] == [("汉中", 2)]
    assert not longer.return_trip, "a longer stop on the way is no ride home"


def test_tickets_counted_before_a_city_and_a_class_refused_more_strongly() -> None:
    # 两张兰州: the 张 of the count, not the station 张兰; 无座更不行 refuses it.
    intent = parse_offline(
        "给我爷爷奶奶买两张兰州到西宁的票，下礼拜一，他俩不坐硬座，无座更不行",
        SATURDAY,
        default_directory(),
    )
    assert (intent.origin, intent.destination, intent.passengers) == ("兰州", "西宁", 2)
    assert set(intent.exclude_seat_classes) == {SeatClass.HARD_SEAT, SeatClass.NO_SEAT}
    assert intent.seat_class is None


def test_a_sleeper_permitted_is_not_required(directory) -> None:
    permitted = parse_offline("明天从长沙走去广州南，几点走都行 卧铺也行", MONDAY, directory)
    assert permitted.seat_classes == []
    asked = parse_offline("明天从长沙去广州 要卧铺", MONDAY, directory)
    assert asked.seat_classes != []


@pytest.mark.parametrize(
    ("text", "end"),
    [
        # Home by six on the Sunday of a weekend trip is the evening's six.
        ("周六从成都去乐山 周日回 周日6点前到成都", dt.time(18, 0)),
        ("周六从成都去乐山 周日回，早上6点前到成都", dt.time(6, 0)),
    ],
)
def test_home_by_a_bare_hour_is_the_evening(text, end) -> None:
    window = parse_offline(text, dt.date(2026, 12, 11), default_directory()).return_arrive_window
    assert window is not None and window.end == end


def test_a_bus_ridden_after_the_train_is_no_place() -> None:
    intent = parse_offline(
        "下周六从哈尔滨去雪乡 火车能到哪 到了再坐大巴", dt.date(2026, 12, 11), default_directory()
    )
    assert intent.destination != "大巴"


def test_an_exam_hour_is_a_deadline_and_home_after_the_afternoon_paper() -> None:
    full, today = default_directory(), dt.date(2026, 12, 17)
    intent = parse_offline("20号考研 考点在西安 早上8点半开考 我从宝鸡过去", today, full)
    assert intent.arrive_window is not None and intent.arrive_window.end <= dt.time(8, 30)
    back = parse_offline("19号从宝鸡去西安 21号下午考完回宝鸡", today, full)
    assert back.date_end == dt.date(2026, 12, 21) and back.return_window is not None
    assert back.return_window.start >= dt.time(12, 0)


@pytest.mark.parametrize(
    ("text", "checks"),
    [
        # 莫坐 is 别坐; the rides of the night refused before they are named.
        ("下周一麻城到武汉，慢点冇得关系越便宜越好，就是莫坐夜里的车", {"no_overnight": True}),
        # 莫得高铁也没得事: no high-speed train is fine, no wish for one; 七点过后 is after seven.
        ("明天从广安去重庆，莫得高铁也没得事，七点过后走", {"train_types": []}),
    ],
)
def test_south_western_words(text, checks) -> None:
    intent = parse_offline(text, MONDAY, default_directory())
    for name, value in checks.items():
        assert getattr(intent, name) == value, name
    assert intent.depart_window is None or intent.depart_window.start >= dt.time(6, 0)


def test_after_seven_said_in_sichuan_words() -> None:
    intent = parse_offline("明天从广安去重庆，七点过后走", MONDAY, default_directory())
    assert intent.depart_window is not None and intent.depart_window.start == dt.time(7, 0)


@pytest.mark.parametrize(
    ("text", "kind", "start", "end"),
    [
        # A bare hour from one to five for leaving, no part of the day said: the afternoon.
        ("明天成都去重庆 有没有四点以后的动车", "depart_window", dt.time(16, 0), dt.time(23, 59)),
        ("明天成都去重庆 两点前走", "depart_window", dt.time(0, 0), dt.time(14, 0)),
        ("明天成都去重庆 早上5点以后", "depart_window", dt.time(5, 0), dt.time(23, 59)),
        # 八点钟之前 is 八点之前.
        (
            "下礼拜一从株洲去长沙 早上八点钟之前要到长沙",
            "arrive_window",
            dt.time(0, 0),
            dt.time(8, 0),
        ),
    ],
)
def test_bare_small_hours_and_o_clock(text, kind, start, end) -> None:
    window = getattr(parse_offline(text, MONDAY, default_directory()), kind)
    assert window is not None and (window.start, window.end) == (start, end)


def test_an_english_meeting_hour_is_a_deadline() -> None:
    intent = parse_offline(
        "I have a meeting in Shenzhen at 10am on Dec 16, need to get there from Changsha",
        MONDAY,
        default_directory(),
    )
    assert (intent.origin, intent.destination) == ("长沙", "深圳")
    assert intent.arrive_window is not None and intent.arrive_window.end <= dt.time(10, 0)


@pytest.mark.parametrize(
    ("text", "checks"),
    [
        ("k9787明天还有票吗 乌鲁木齐上 吐鲁番下", {"origin": "乌鲁木齐", "destination": "吐鲁番"}),
        ("下周六从上海回永城", {"destination": "永城北"}),
        (
            "Is G1 Beijing South → Shanghai Hongqiao still available? business class for 2 pls",
            {"passengers": 2},
        ),
        (
            "2 adults from Guangzhou to Guilin on Saturday, cheapest bullet train pls",
            {"train_types": ["G", "D"]},
        ),
        (
            "day trip Shanghai → Suzhou this Saturday, back to Shanghai same night",
            {"return_trip": True},
        ),
    ],
)
def test_boarding_and_alighting_towns_and_english_asks(text, checks) -> None:
    intent = parse_offline(text, MONDAY, default_directory())
    for name, value in checks.items():
        assert getattr(intent, name) == value, name


def test_the_day_of_the_month_left_on_before_the_exam_day_said_first() -> None:
    intent = parse_offline(
        "20号早上8点半在西宁考试 我在格尔木 打算19号晚上坐夜车过去 卧铺 早上8点前到西宁站就行",
        dt.date(2026, 12, 16),
        default_directory(),
    )
    assert (intent.date_start, intent.arrive_date) == (dt.date(2026, 12, 19), dt.date(2026, 12, 20))


@pytest.mark.parametrize(
    ("text", "passengers", "students", "children"),
    [
        ("我爸这周五上午十点在郑大一附院挂了号，我陪他从信阳过去", 2, 0, []),
        ("我爸周五从信阳去郑州", 1, 0, []),
        ("2个大人+1个5岁的娃 还有老大在读大学要买学生票，19号从广州回南宁", 4, 1, [5]),
    ],
)
def test_the_speaker_along_and_the_eldest_at_university(text, passengers, students, children):
    intent = parse_offline(text, MONDAY, default_directory())
    assert (intent.passengers, intent.students, intent.children) == (passengers, students, children)


def test_sooner_there_said_alone_in_chat_and_student_tickets_counted(chat) -> None:
    sooner = chat("明天从北京去天津", "无座也行 越早到越好").intent
    assert sooner.order == "earliest_arrival" and sooner.destination == "天津"
    tickets = chat("明天从北京去天津", "我室友也去 他也是学生 两张学生票").intent
    assert (tickets.passengers, tickets.students) == (2, 2)


def test_on_from_a_stop_when_done_there_and_the_stop_made_the_end(chat) -> None:
    on = chat("明天西安到兰州 一个人", "兰州完了再去西宁 兰州住一晚").intent
    assert (on.origin, on.destination) == ("西安", "西宁")
    assert [(stop.city, stop.nights) for stop in on.via] == [("兰州", 1)]
    back = chat("明天西安到兰州 一个人", "兰州完了再去西宁 兰州住一晚", "算了西宁不去了 就到兰州")
    assert (back.intent.origin, back.intent.destination, back.intent.via) == ("西安", "兰州", [])


def test_the_busy_day_after_is_why_not_the_day_home(chat) -> None:
    intent = chat(
        "这周五从北京去杭州玩，住两晚，周日回北京", "回来那天别太晚 晚上十点前要到北京 周一还上班"
    ).intent
    assert intent.date_end is not None and intent.date_end.weekday() == 6
    assert intent.return_arrive_window is not None
    assert intent.return_arrive_window.end == dt.time(22, 0)


def test_a_wife_and_two_children_join_each_as_what_they_are(chat) -> None:
    intent = chat("20号从杭州回重庆 要硬卧", "我老婆跟两个娃一起回 大的8岁小的5岁").intent
    assert (intent.passengers, intent.children) == (4, [8, 5])


def test_a_stop_added_goes_between_only_when_it_is_on_the_way(chat) -> None:
    between = chat("周五西安去成都", "再加一站 汉中").intent
    assert between.destination == "成都" and [s.city for s in between.via] == ["汉中"]
    onward = chat("周五北京去南京玩两天", "再加一站杭州").intent
    assert onward.destination == "杭州" and [s.city for s in onward.via] == ["南京"]


def test_after_work_typed_in_pinyin_for_the_ride_home(chat) -> None:
    intent = chat("周一从杭州去南京", "na huicheng ne? zhouwu xiaban hou").intent
    assert intent.return_trip and intent.date_end is not None and intent.date_end.weekday() == 4
    assert intent.return_window is not None and intent.return_window.start >= dt.time(17, 0)


def _full_chat(*texts: str) -> TurnReading:
    full = default_directory()
    reading = TurnReading(parse_offline(texts[0], MONDAY, full))
    for said in texts[1:]:
        turn = parse_offline(turn_text(said), MONDAY, full)
        reading = read_turn(
            reading.intent, turn, said, today=MONDAY, city=lambda name: full.resolve(name).city
        )
    return reading


def test_parents_booked_for_in_a_new_ask_ride_as_two() -> None:
    intent = _full_chat(
        "周六带孩子从广州去深圳 两个大人一个小孩 孩子四岁半",
        "对了 我爸妈下周三要从梅州来广州，帮他们俩看看，要直达的 九点以后走",
    ).intent
    assert (intent.origin, intent.destination, intent.passengers) == ("梅州", "广州", 2)


def test_an_old_town_strolled_in_and_a_closing_particle_are_no_places() -> None:
    intent = parse_offline(
        "這個週六想從上海去烏鎮逛古鎮，當天來回就好，晚上九點前要回到上海喔",
        MONDAY,
        default_directory(),
    )
    assert intent.destination != "古镇" and intent.destination_text == "乌镇"
