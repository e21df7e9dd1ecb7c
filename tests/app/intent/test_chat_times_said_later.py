"""Time windows, deadlines and returns said in a later chat turn, read against the trip so far."""

from __future__ import annotations

import datetime as dt

from app.intent.followup import TurnReading, read_turn, turn_text
from app.intent.model import PlanShown, TravelIntent
from app.intent.offline import parse_offline
from tests.app.intent.conftest import TODAY  # Monday 2026-11-30


def trip(reading: TurnReading) -> TravelIntent:
    assert reading.declined is None
    return reading.intent


def test_an_hour_said_inside_the_part_of_day_said_before_narrows_it(chat, directory):
    def after(first: str, shown_at: str, text: str) -> TravelIntent:
        at = dt.time.fromisoformat(shown_at)
        shown = PlanShown(depart_at=at, arrive_at=at, total_price=80)
        so_far = parse_offline(first, TODAY, directory).model_copy(update={"shown": shown})
        turn = parse_offline(turn_text(text), TODAY, directory)
        return trip(read_turn(so_far, turn, text, today=TODAY, city=lambda n: n))

    later = after("周四下午从南京去苏州", "12:30", "有点早，三点以后的")
    assert later.depart_window is not None and later.depart_window.span() == "15:00-18:00"
    sooner = after("后天上午从广州去深圳", "11:20", "十点之前的吧")
    assert sooner.depart_window is not None and sooner.depart_window.span() == "06:00-10:00"
    # Plain 太早了 leaves after the plan shown, still in the morning said.
    vague = after("后天上午从广州去深圳", "07:10", "太早了")
    assert vague.depart_window is not None and vague.depart_window.span() == "07:11-12:00"
    # An hour outside the part said replaces it.
    outside = after("后天上午从广州去深圳", "07:10", "改成下午两点以后")
    assert outside.depart_window is not None and outside.depart_window.span() == "14:00-23:59"


def test_an_hour_said_with_a_new_day_is_that_days_own(chat):
    intent = trip(chat("后天上午从广州去深圳", "改成大后天，十点以后"))
    assert intent.date_start == dt.date(2026, 12, 3)
    assert intent.depart_window is not None and intent.depart_window.span() == "10:00-23:59"


def test_a_meetings_hour_said_later_is_the_deadline_as_meetings_are_held(directory):
    shown = PlanShown(depart_at=dt.time(19, 40), arrive_at=dt.time(21, 5), total_price=120)
    so_far = parse_offline("下周三从合肥去南京面试", TODAY, directory).model_copy(
        update={"shown": shown}
    )
    text = "面试十点开始 得到南京南"
    turn = parse_offline(turn_text(text), TODAY, directory)
    intent = trip(read_turn(so_far, turn, text, today=TODAY, city=lambda n: n))
    assert intent.arrive_window is not None and intent.arrive_window.span() == "00:00-10:00"


def test_going_the_eve_before_takes_the_hours_said_and_drops_the_deadline(chat):
    eve = trip(chat("下周三从合肥去南京，十点的会", "来不及 那就头一天过去 晚上七点以后"))
    assert eve.date_start == dt.date(2026, 12, 8)
    assert eve.depart_window is not None and eve.depart_window.span() == "19:00-23:59"
    assert eve.arrive_window is None, "arriving the day before meets the meeting's hour"
    moved = trip(chat("下周三从合肥去南京，十点前到", "提前一天吧，下午三点以后走"))
    assert moved.date_start == dt.date(2026, 12, 8)
    assert moved.depart_window is not None and moved.depart_window.span() == "15:00-23:59"
    assert moved.arrive_window is None


def test_what_the_next_day_holds_is_the_reason_and_the_return_keeps_its_day(chat):
    intent = trip(
        chat("下周五从南京去黄山", "玩两晚再回南京", "回来最好晚上九点前到南京 次日还要上课")
    )
    assert (intent.date_start, intent.date_end) == (dt.date(2026, 12, 11), dt.date(2026, 12, 13))
    arrive = intent.return_arrive_window
    assert arrive is not None and arrive.span() == "00:00-21:00"


def test_the_ride_back_asked_for_as_well_is_this_trips_return(chat):
    intent = trip(chat("下周五从南京去黄山 两个人", "周日从黄山回南京的也帮忙查一下"))
    assert (intent.origin, intent.destination) == ("南京", "黄山")
    assert (intent.date_start, intent.date_end) == (dt.date(2026, 12, 11), dt.date(2026, 12, 13))
    assert intent.return_trip is True and intent.passengers == 2
    other = trip(chat("下周五从南京去黄山", "另外帮我查下周日从黄山去杭州"))
    assert (other.origin, other.destination) == ("黄山", "杭州"), "another ride is another trip"


def test_a_day_trip_said_with_the_places_after_the_day_comes_back_that_day(chat):
    intent = trip(chat("下周六想出去玩一天", "那就南京去苏州吧 当天往返"))
    assert (intent.origin, intent.destination) == ("南京", "苏州")
    assert intent.date_start == intent.date_end == dt.date(2026, 12, 12)
    assert intent.return_trip is True


def test_hours_said_for_the_ride_home_are_no_complaint_about_the_plan_shown(directory):
    shown = PlanShown(depart_at=dt.time(6, 10), arrive_at=dt.time(7, 0), total_price=60)
    so_far = parse_offline("下周六南京去苏州 当天往返", TODAY, directory).model_copy(
        update={"shown": shown}
    )
    text = "回来别太晚 晚上八点前到南京就行"
    turn = parse_offline(turn_text(text), TODAY, directory)
    intent = trip(read_turn(so_far, turn, text, today=TODAY, city=lambda n: n))
    assert intent.depart_window is None
    arrive = intent.return_arrive_window
    assert arrive is not None and arrive.span() == "00:00-20:00"


def test_an_hour_to_be_back_where_the_round_trip_starts_is_the_ride_homes(chat):
    intent = trip(
        chat("下周六从杭州东去上海虹桥", "当天晚上再回杭州东", "要晚上九点前能到杭州东的")
    )
    assert intent.date_start == intent.date_end == dt.date(2026, 12, 12)
    assert intent.arrive_window is None, "no outbound to the place set off from"
    arrive = intent.return_arrive_window
    assert arrive is not None and arrive.span() == "00:00-21:00"


def test_a_return_added_with_jia_is_no_one_joining(chat):
    intent = trip(chat("下周五我们三个人从杭州去上海", "再加一个返程 周日下午从上海回杭州"))
    assert intent.passengers == 3
    assert intent.return_trip is True and intent.date_end == dt.date(2026, 12, 13)


def test_too_early_to_a_train_in_the_small_hours_refuses_the_night_not_one_minute(chat, directory):
    at = dt.time(1, 39)
    shown = PlanShown(depart_at=at, arrive_at=dt.time(6, 52), total_price=80)
    so_far = parse_offline("明天郑州去武汉，最早的", TODAY, directory)
    so_far = so_far.model_copy(update={"shown": shown})
    turn = parse_offline(turn_text("太早了"), TODAY, directory)
    intent = trip(read_turn(so_far, turn, "太早了", today=TODAY, city=lambda n: n))
    assert intent.depart_window is not None and intent.depart_window.span() == "06:00-23:59"


def test_trains_before_dawn_refused_leave_from_six(directory):
    for text in (
        "明天郑州去武汉，不要天不亮的车",
        "明天郑州去武汉，天没亮的不要",
        "明天郑州去武汉，凌晨的就算了",
    ):
        intent = parse_offline(text, TODAY, directory)
        assert intent.depart_window is not None, text
        assert intent.depart_window.span() == "06:00-23:59", text
        assert not intent.no_overnight, text


def test_a_bit_earlier_than_a_morning_train_is_not_the_small_hours(chat, directory):
    shown = PlanShown(depart_at=dt.time(8, 21), arrive_at=dt.time(9, 52), total_price=352)
    so_far = parse_offline("后天从沈阳去大连，两个人", TODAY, directory)
    so_far = so_far.model_copy(update={"shown": shown})
    for text in ("能早点的不", "早一点的有吗"):
        turn = parse_offline(turn_text(text), TODAY, directory)
        intent = trip(read_turn(so_far, turn, text, today=TODAY, city=lambda n: n))
        assert intent.depart_window is not None, text
        assert intent.depart_window.span() == "06:00-08:20", text
        assert intent.order is None, text


def test_a_bit_earlier_said_in_shanghainese_stays_in_the_afternoon_said(directory):
    shown = PlanShown(depart_at=dt.time(15, 10), arrive_at=dt.time(15, 33), total_price=80)
    so_far = parse_offline("下礼拜六阿拉两家头从上海到苏州，下半日", TODAY, directory)
    so_far = so_far.model_copy(update={"shown": shown})
    turn = parse_offline(turn_text("早一眼的有伐"), TODAY, directory)
    intent = trip(read_turn(so_far, turn, "早一眼的有伐", today=TODAY, city=lambda n: n))
    assert intent.depart_window is not None
    assert intent.depart_window.span() == "12:00-15:09"


def test_a_day_found_too_rushed_then_moved(chat):
    intent = trip(chat("我和老伴想明天从济南去青岛，住三晚再回来", "明天太赶了，改后天走吧"))
    assert intent.date_start == TODAY + dt.timedelta(days=2)


def test_a_day_trip_moved_whole_keeps_its_hours(chat):
    intent = trip(
        chat(
            "明天早上去嘉兴出差 虹桥走 9点前到嘉兴南",
            "晚上回来 6点以后的车",
            "算了 改成后天去 也是当天回",
        )
    )
    day = TODAY + dt.timedelta(days=2)
    assert (intent.date_start, intent.date_end) == (day, day)
    assert intent.arrive_window is not None and intent.arrive_window.end == dt.time(9, 0)
    assert intent.return_window is not None and intent.return_window.start == dt.time(18, 0)


def test_who_passes_a_wish_on_is_no_one_added(chat):
    intent = trip(chat("帮我爸妈看看从上海回合肥的票，下周三", "我妈说还要把我小侄子带上，他6岁"))
    assert (intent.passengers, intent.children) == (3, [6])


def test_a_place_whose_business_is_called_off_is_no_stop(chat):
    intent = trip(
        chat(
            "老板周四从郑州去西安，帮我找最快的那趟",
            "算了郑州那边的事取消了，改成周四从太原去西安，下午两点前到",
        )
    )
    assert (intent.origin, intent.destination, intent.via) == ("太原", "西安", [])


def test_a_meeting_moved_later_moves_the_deadline(chat):
    intent = trip(
        chat("周五去武汉开会 从长沙走 上午十点前得到", "会改到下午两点了 那不用赶早 九点以后再走")
    )
    assert intent.arrive_window is not None and intent.arrive_window.end == dt.time(14, 0)
    assert intent.depart_window is not None and intent.depart_window.start == dt.time(9, 0)
