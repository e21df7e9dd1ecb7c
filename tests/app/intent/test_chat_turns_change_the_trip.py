"""A chat turn as one change to the trip under discussion: what it says of the hours (the ride
home's like the ride out's, an hour compared with the plan shown), of the days (a day taken by
work, a weekday after the ride out, a day home too far off), of the order (a complaint answered
by a class), of the trains named and of where the ride home starts."""

from __future__ import annotations

import datetime as dt

import pytest

from app.intent import texts
from app.intent.followup import TurnReading, read_turn, turn_text
from app.intent.model import PlanShown, TravelIntent
from app.intent.offline import parse_offline
from sources.models import SeatClass
from tests.app.intent.conftest import TODAY  # Monday 2026-11-30

FRIDAY, SATURDAY, SUNDAY = dt.date(2026, 12, 4), dt.date(2026, 12, 5), dt.date(2026, 12, 6)
NEXT_MONDAY, NEXT_THURSDAY = dt.date(2026, 12, 7), dt.date(2026, 12, 10)


def trip(reading: TurnReading) -> TravelIntent:
    assert reading.declined is None
    return reading.intent


def span(window: object) -> str | None:
    return None if window is None else window.span()  # type: ignore[attr-defined]


# -- the days ------------------------------------------------------------------------------------


def test_a_day_taken_by_overtime_is_only_why_the_ride_moves(chat):
    intent = trip(chat("周四晚上从天津去北京", "周四得加班 换成周五上午走"))
    assert intent.date_start == FRIDAY
    assert span(intent.depart_window) == "06:00-12:00", "the evening went with the Thursday"


def test_a_deadline_said_with_what_follows_the_ride_is_no_hour_turned_down(chat):
    intent = trip(chat("周六从杭州去宁波", "回来是周日一早，八点前要赶到杭州去上班"))
    assert intent.date_end == SUNDAY
    assert intent.return_arrive_window is not None
    assert intent.return_arrive_window.end == dt.time(8, 0)


def test_next_weeks_weekday_for_the_ride_home_is_the_one_after_the_ride_out(chat):
    # 下周六 is 12-12; 下周一 said of the ride home is the Monday after it, not 12-07.
    intent = trip(chat("下周六从青岛去济南", "回来是下周一 上午的车"))
    assert intent.date_start == dt.date(2026, 12, 12)
    assert intent.date_end == dt.date(2026, 12, 14)


def test_a_day_home_no_trip_reaches_keeps_the_ride_out_and_says_it_is_not_on_sale(chat):
    reading = chat("周五从北京去天津", "顺便把回来的也订了 3月10号")
    intent = trip(reading)
    assert intent.date_start == FRIDAY and intent.date_end is None
    assert reading.question is not None and "还没开售" in reading.question
    assert "3月10日" in reading.question and not reading.ask_first


def test_the_ride_home_asked_for_with_no_day_is_asked_about_first(chat):
    reading = chat("周五从北京去天津", "回程也订上")
    assert reading.ask_first and reading.question == texts.ASK_RETURN_DATE
    assert trip(reading).return_trip is True and trip(reading).date_start == FRIDAY
    joined = chat("周五从广州去长沙，我一个人", "我同学也跟我一起回，两个人")
    assert not joined.ask_first, "a party said going home together: planned, the day asked beside"
    assert trip(joined).passengers == 2


# -- the hours -----------------------------------------------------------------------------------


def test_an_hour_compared_with_the_plan_is_that_hour_and_no_first_or_last_train(chat):
    intent = trip(chat("明天从南京去杭州 下午3点左右", "那晚一点的呢 5点左右的"))
    assert intent.order is None
    assert intent.depart_window is not None and intent.depart_window.label == "5点左右"
    assert trip(chat("明天从南京去杭州", "晚一点的")).order == "latest", "no hour: the last"
    assert trip(chat("明天从南京去杭州", "要最晚的 5点以后")).order == "latest"


def test_the_same_hours_for_the_ride_home_are_the_ride_outs_as_they_stand(chat):
    intent = trip(chat("周三从武汉去长沙 上午10点左右", "那早一点 8点左右", "周五回来 一样的时间"))
    assert intent.date_end == FRIDAY
    assert intent.return_window == intent.depart_window
    assert intent.return_window is not None and intent.return_window.label == "8点左右"


def test_hours_said_before_the_ride_home_is_named_are_the_ride_outs(chat):
    intent = trip(chat("周六从深圳去广州 当天回来", "十点以后出发 晚上九点前回到深圳就行"))
    assert span(intent.depart_window) == "10:00-23:59"
    assert intent.return_window is None
    assert span(intent.return_arrive_window) == "00:00-21:00"


def test_an_arrival_refused_in_the_evening_is_an_arrival_before_it(chat):
    intent = trip(chat("周三从成都去贵阳", "下午走 别晚上才到"))
    assert span(intent.depart_window) == "12:00-18:00"
    assert intent.arrive_window is not None and intent.arrive_window.end == dt.time(18, 0)


# -- the order -----------------------------------------------------------------------------------


@pytest.mark.parametrize("turn", ["太贵了 还是二等座吧", "算了二等座吧，省点钱"])
def test_a_complaint_answered_by_a_class_keeps_the_order_said(chat, turn):
    intent = trip(chat("下周一从北京南去上海虹桥 要最早的一班", "一等座", turn))
    assert intent.order == "earliest" and intent.seat_class is SeatClass.SECOND


@pytest.mark.parametrize("turn", ["商务座两个人有点贵 算了一等座就行", "商务座有些贵，换一等座吧"])
def test_a_class_found_somewhat_dear_gives_way_to_the_class_said_after(chat, turn):
    intent = trip(chat("下周三从南京南去北京南 要商务座", "我们两个人", turn))
    assert intent.seat_class is SeatClass.FIRST and intent.passengers == 2


def test_a_complaint_answered_by_a_kind_of_train_keeps_the_order_said(chat):
    intent = trip(chat("周一杭州到上海 最便宜的", "绿皮车不要 太慢了"))
    assert intent.order == "cheapest" and "K" in intent.exclude_train_types
    assert trip(chat("周一杭州到上海", "太慢了")).order == "fastest", "no choice: the wish"
    assert trip(chat("周一杭州到上海", "只坐动车 越快越好")).order == "fastest"


# -- trains named --------------------------------------------------------------------------------


def _after_g7(directory, words: str) -> TravelIntent:
    so_far = parse_offline("12月5日G7从北京南去上海虹桥", TODAY, directory).model_copy(
        update={"shown": PlanShown(depart_at=dt.time(7, 0), arrive_at=dt.time(11, 30))}
    )
    turn = parse_offline(turn_text(words), TODAY, directory)
    city = {"北京南": "北京", "上海虹桥": "上海"}.get
    return trip(read_turn(so_far, turn, words, today=TODAY, city=city))


def test_a_named_train_outside_the_hours_now_said_gives_way_to_another(directory):
    intent = _after_g7(directory, "太早了 十点以后的有吗")
    assert intent.train_numbers == []
    assert (intent.origin, intent.destination) == ("北京南", "上海虹桥"), "the stations said"
    assert _after_g7(directory, "要上午的").train_numbers == ["G7"], "still within the hours"


def test_a_train_named_for_the_ride_home_is_ridden_home_beside_the_one_out(chat):
    intent = trip(chat("12月7日Z1从北京西去长沙", "回程周五坐Z2"))
    assert intent.train_numbers == ["Z1", "Z2"]
    assert intent.date_end == dt.date(2026, 12, 11)


# -- places --------------------------------------------------------------------------------------


def test_a_ride_home_from_another_place_goes_on_there_first(chat):
    intent = trip(chat("下周一从昆明去大理", "回程从丽江回昆明 周四"))
    assert [stop.city for stop in intent.via] == ["大理"]
    assert (intent.origin, intent.destination) == ("昆明", "丽江")
    assert intent.date_start == NEXT_MONDAY and intent.date_end == NEXT_THURSDAY


def test_a_day_trip_said_with_a_new_destination_goes_there(chat):
    intent = trip(chat("周六从广州去深圳 周日回来", "改去珠海了 还是周六 当天来回"))
    assert intent.destination == "珠海"
    assert intent.date_start == intent.date_end == SATURDAY


def test_a_turn_typed_in_pinyin_changes_one_thing(chat):
    intent = trip(chat("下周一从深圳去广州 早上7点多", "gaicheng zhouer ba"))
    assert intent.date_start == dt.date(2026, 12, 8)
    assert span(intent.depart_window) == "07:00-08:00"
    home = trip(chat("下周一从深圳去广州", "huicheng ye ding yixia, zhouer wanshang 6dian yihou"))
    assert home.date_end == dt.date(2026, 12, 8)
    assert span(home.return_window) == "18:00-23:59"


# -- one end kept, another said --------------------------------------------------------------


def test_another_destination_keeps_the_trips_weekday_said_again(chat):
    # 还是周六走: the trip's own Saturday (12-12), not the nearest one.
    intent = trip(chat("我们三个人下周六从成都去重庆玩", "算了 改去西安吧 还是周六走"))
    assert intent.destination == "西安" and intent.date_start == dt.date(2026, 12, 12)
    assert intent.passengers == 3


def test_the_same_origin_said_again_with_another_destination_keeps_the_day(chat):
    # 还是从广州走: one end kept, so a change of this trip, not another trip with no day.
    intent = trip(chat("从广州回长沙，下周二，我和老婆带1岁的宝宝", "改去武汉外婆家，还是从广州走"))
    assert (intent.origin, intent.destination) == ("广州", "武汉")
    assert intent.date_start == dt.date(2026, 12, 8)
    assert intent.children == [1]


def test_a_bound_said_without_a_complaint_asks_for_a_change_to_the_plan_shown(directory):
    # 十点以前走的 after a 17:09 train: ten in the morning (22:00 is met already).
    so_far = parse_offline("周五从温州到义乌", TODAY, directory).model_copy(
        update={"shown": PlanShown(depart_at=dt.time(17, 9), arrive_at=dt.time(18, 45))}
    )
    words = "十点以前走的"
    turn = parse_offline(turn_text(words), TODAY, directory)
    intent = trip(read_turn(so_far, turn, words, today=TODAY, city=lambda name: name))
    assert intent.depart_window is not None and intent.depart_window.span() == "00:00-10:00"
