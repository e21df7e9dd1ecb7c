"""Chat turns the h21 round's travellers wrote and the reading had got wrong: the whole party
counted with 加, a grown-up of the party staying behind, the children's ages said as a parent
joins, someone brought along who studies, a northern day corrected, and a day moved with its
hours (said of the ride home)."""

from __future__ import annotations

import datetime as dt

import pytest

from app.intent.followup import TurnReading
from app.intent.model import TravelIntent


def trip(reading: TurnReading) -> TravelIntent:
    assert reading.declined is None
    return reading.intent


def party(intent: TravelIntent) -> tuple[int, int, int, list[int | None]]:
    """(passengers, adults, students, children's ages)."""
    return intent.passengers, intent.adults, intent.students, intent.children


@pytest.mark.parametrize(
    ("texts", "expected"),
    [
        # 两个大人加一个学生: every group counted with 加, the whole party (not one more).
        (("周六去南京玩", "合肥", "两个大人加一个学生 学生要学生票"), (3, 2, 1, [])),
        # A grown-up named by kin staying behind: one fewer, the children kept.
        (
            ("我们三个大人两个小孩（7岁、3岁）明天上午从重庆去成都", "小叔子临时有事不去了"),
            (4, 2, 0, [7, 3]),
        ),
        # The known children's ages said as their father joins: two children, two grown-ups.
        (
            ("带俩娃去北京看升旗，从济南出发", "这周五晚上走", "孩子一个6岁一个10岁，他爸也一起"),
            (4, 2, 0, [6, 10]),
        ),
        # Someone brought along who is at university: one more, on a student ticket.
        (
            ("我明天要从长沙回南京，下午三点以后的", "还要带我屋里伢子一起，他读大学的，买学生票"),
            (2, 1, 1, []),
        ),
    ],
)
def test_parties_changed_in_chat(chat, texts, expected):
    assert party(trip(chat(*texts))) == expected


def test_a_northern_day_corrected(chat):
    # 明儿个, 后儿个: 明天, 后天 (today is Monday 2026-11-30).
    intent = trip(chat("俺明儿个想从长春上哈尔滨，下午走的", "整岔劈了，不是明儿个，是后儿个"))
    assert intent.date_start == dt.date(2026, 12, 2)


def test_the_day_home_moved_with_its_hours(chat):
    intent = trip(chat("周三北京去上海", "回程周日下午的", "周日改成周一上午"))
    assert (intent.date_start, intent.date_end) == (dt.date(2026, 12, 2), dt.date(2026, 12, 7))
    assert intent.return_window is not None and intent.return_window.span() == "06:00-12:00"
    assert intent.depart_window is None


def test_the_origin_given_with_bare_weekdays_keeps_the_trips_week(chat):
    # 下周末 from Monday 2026-11-30 is 12-12/13; 周六去周日回 said with the origin is that
    # weekend, not this one.
    intent = trip(chat("我们宿舍四个人想下周末去杭州玩", "从上海出发 周六去周日回"))
    assert intent.origin == "上海"
    assert (intent.date_start, intent.date_end) == (dt.date(2026, 12, 12), dt.date(2026, 12, 13))
