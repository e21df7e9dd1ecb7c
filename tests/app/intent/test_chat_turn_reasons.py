"""A chat turn as a change to the trip, when it gives its reasons and counts in passing: a day
in a reason is no day of the trip, a destination given up is no origin, heading back is the
ride home, a group counted by what it is sets the party, where one lives is where one leaves."""

from __future__ import annotations

import datetime as dt

import pytest

from app.intent.dates import extract_dates
from app.intent.followup import TurnReading
from app.intent.model import TravelIntent
from app.intent.offline import parse_offline
from tests.app.intent.conftest import TODAY  # Monday 2026-11-30

WEDNESDAY, THURSDAY, FRIDAY = dt.date(2026, 12, 2), dt.date(2026, 12, 3), dt.date(2026, 12, 4)
SUNDAY = dt.date(2026, 12, 6)


def trip(reading: TurnReading) -> TravelIntent:
    assert reading.declined is None
    return reading.intent


@pytest.mark.parametrize(
    "turn",
    ["换到大后天吧，明天有事", "明天没空 大后天走", "大后天吧 明天实在脱不开身"],
)
def test_a_day_turned_down_beside_the_day_asked_for_is_only_the_reason(chat, turn):
    intent = trip(chat("明天从南京去上海", turn))
    assert intent.date_start == THURSDAY


def test_a_day_taken_by_work_is_no_day_of_the_ride_home(chat):
    intent = trip(chat("周五从苏州去杭州", "下周二得上班，周日回来"))
    assert intent.date_start == FRIDAY and intent.date_end == SUNDAY


def test_hours_found_too_tiring_on_the_old_day_give_way_to_the_new_day_and_hours(chat):
    intent = trip(chat("周四从北京去天津", "周四晚上走太累了，换成周五早上走"))
    assert intent.date_start == FRIDAY
    assert intent.depart_window is not None and intent.depart_window.label == "早上"


def test_a_meetings_part_of_the_day_is_no_window_for_the_ride_home(chat):
    intent = trip(
        chat(
            "周三从重庆去成都", "成都住两晚 周五回重庆", "等一下 周五上午要开会 回来得九点前到重庆"
        )
    )
    assert intent.date_end == FRIDAY, "等一下 is no 下周"
    assert intent.return_window is None
    assert intent.return_arrive_window is not None
    assert intent.return_arrive_window.end == dt.time(9, 0)


@pytest.mark.parametrize("turn", ["宜昌不去了 换成去长沙", "算了宜昌太远 改去长沙吧"])
def test_a_destination_given_up_is_no_origin(chat, turn):
    intent = trip(chat("周三从武汉去宜昌", turn))
    assert (intent.origin, intent.destination) == ("武汉", "长沙")
    assert intent.date_start == WEDNESDAY


def test_going_on_from_the_destination_still_is_a_ride_of_the_trip(chat):
    intent = trip(chat("周三从武汉去宜昌", "在宜昌住一晚，然后去长沙"))
    assert intent.destination == "长沙" and [v.city for v in intent.via] == ["宜昌"]


def test_heading_back_on_a_day_is_the_ride_home(chat):
    intent = trip(chat("下周二从沈阳去大连", "周六往回赶"))
    assert intent.destination == "大连" and intent.destination_text is None
    assert intent.return_trip is True and intent.date_end == dt.date(2026, 12, 12)


@pytest.mark.parametrize(
    ("texts", "passengers", "children"),
    [
        (("后天从广州去长沙", "我们同学四个一块儿去"), 4, []),
        (("后天从广州去长沙", "咱们工友三个一起走"), 3, []),
        # Grown-ups counted: the child already going still comes.
        (("周六从郑州去洛阳，两个大人带孩子，孩子6岁", "外公也来，现在三个大人"), 4, [6]),
        (("周六从郑州去洛阳，两个大人带孩子，孩子6岁", "是三个大人"), 4, [6]),
    ],
)
def test_a_group_counted_by_what_it_is_sets_the_party(chat, texts, passengers, children):
    intent = trip(chat(*texts))
    assert (intent.passengers, intent.children) == (passengers, children)


@pytest.mark.parametrize(
    ("text", "origin"),
    [("俺家住长春那块，礼拜六去吉林", "长春"), ("我住北京南站附近 下周一去天津", "北京")],
)
def test_where_one_lives_is_where_the_trip_starts(directory, text, origin):
    intent = parse_offline(text, TODAY, directory)
    assert intent.origin == origin and intent.destination in ("吉林", "天津")


def test_a_weekend_left_on_the_friday_before_keeps_the_day_home_said_after():
    facts = extract_dates("下周末去厦门 周五晚上走 周日回", TODAY)
    assert (facts.start, facts.end) == (dt.date(2026, 12, 11), dt.date(2026, 12, 13))


def test_leaving_later_keeps_the_day_home_said_and_shortens_the_stay(chat):
    intent = trip(chat("周四从南京去苏州，周日回来", "改成周五走"))
    assert intent.date_start == FRIDAY and intent.date_end == SUNDAY


def test_leaving_later_on_a_stay_said_in_nights_moves_the_day_home(chat):
    intent = trip(chat("周四从南京去苏州，住三晚", "改成周五走"))
    assert intent.date_start == FRIDAY and intent.date_end == dt.date(2026, 12, 7)


@pytest.mark.parametrize(
    ("turn", "window", "label"),
    [
        ("回程要晚上的 白天还想在西湖边转转", "return_window", "晚上"),
        ("早上想去参观一下兵马俑 下午再走", "depart_window", "下午"),
    ],
)
def test_hours_spent_there_on_something_else_are_no_window_of_the_ride(chat, turn, window, label):
    intent = trip(chat("周三从西安去杭州，周五回来", turn))
    wished = getattr(intent, window)
    assert wished is not None and wished.label == label
    other = "depart_window" if window == "return_window" else "return_window"
    assert getattr(intent, other) is None, "the hours spent there bound no ride"
