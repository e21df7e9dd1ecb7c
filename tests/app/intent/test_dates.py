"""Date expressions resolve against the `today` passed in (2026-11-30 is a Monday)."""

from __future__ import annotations

import datetime as dt

import pytest

from app.intent.dates import extract_dates, weekday_disagreeing
from tests.app.intent.conftest import TODAY

D = dt.date


@pytest.mark.parametrize(
    ("text", "start"),
    [
        ("今天", D(2026, 11, 30)),
        ("明天", D(2026, 12, 1)),
        ("后天", D(2026, 12, 2)),
        ("大后天", D(2026, 12, 3)),
        ("周五", D(2026, 12, 4)),
        ("周一", D(2026, 12, 7)),  # a bare weekday is the next one, never today
        ("这周一", D(2026, 11, 30)),
        ("下周五", D(2026, 12, 11)),
        ("下下周一", D(2026, 12, 14)),
        ("下礼拜三", D(2026, 12, 9)),
        ("星期天", D(2026, 12, 6)),
        ("三天后", D(2026, 12, 3)),
        ("一周后", D(2026, 12, 7)),
        ("下个月初", D(2026, 12, 1)),
        ("下个月中", D(2026, 12, 15)),
        ("下个月底", D(2026, 12, 31)),
        ("12月24日", D(2026, 12, 24)),
        ("二月十四号", D(2027, 2, 14)),
        ("3月1号", D(2027, 3, 1)),  # already past this year: next year
        ("元旦", D(2027, 1, 1)),
        ("五一", D(2027, 5, 1)),
        ("国庆", D(2027, 10, 1)),
        ("春节", D(2027, 2, 6)),  # lunar new year 2027
        ("除夕", D(2027, 2, 5)),
        ("中秋", D(2027, 9, 15)),
        ("2026-12-20", D(2026, 12, 20)),
        ("next Friday", D(2026, 12, 11)),
        ("the day after tomorrow", D(2026, 12, 2)),
        ("Dec 24", D(2026, 12, 24)),
        ("in 3 days", D(2026, 12, 3)),
    ],
)
def test_single_expressions(text, start):
    assert extract_dates(text, TODAY).start == start


def test_day_of_month_rolls_to_next_month_once_past():
    today = D(2026, 12, 10)
    assert extract_dates("20号", today).start == D(2026, 12, 20)
    assert extract_dates("5号", today).start == D(2027, 1, 5)


def test_weekend_is_saturday_to_sunday():
    facts = extract_dates("这个周末", TODAY)
    assert (facts.start, facts.end) == (D(2026, 12, 5), D(2026, 12, 6))
    facts = extract_dates("下周末", TODAY)
    assert (facts.start, facts.end) == (D(2026, 12, 12), D(2026, 12, 13))


@pytest.mark.parametrize(
    ("text", "start", "end"),
    [
        ("12月24日到26日", D(2026, 12, 24), D(2026, 12, 26)),
        ("12月30号到1月2号", D(2026, 12, 30), D(2027, 1, 2)),
        ("下周一到周三", D(2026, 12, 7), D(2026, 12, 9)),
        ("周五到周日", D(2026, 12, 4), D(2026, 12, 6)),
        ("下周五出发周日回来", D(2026, 12, 11), D(2026, 12, 13)),
    ],
)
def test_ranges_count_the_second_date_from_the_first(text, start, end):
    facts = extract_dates(text, TODAY)
    assert (facts.start, facts.end) == (start, end)


def test_yixia_is_not_next_week():
    # "查一下周六" is 查一下 + 周六, not 下周六.
    assert extract_dates("查一下周六的票", TODAY).start == D(2026, 12, 5)


@pytest.mark.parametrize("text", ["再看下周四广州回深圳的", "帮我问下周四还有没有票"])
def test_kan_xia_is_the_verb_not_next_week(text):
    # "再看下周四" is 再看(一)下 + 周四, the coming Thursday.
    assert extract_dates(text, TODAY).start == D(2026, 12, 3)


def test_unrelated_second_date_is_not_a_return_date():
    facts = extract_dates("明天出发，后天的票也看看", TODAY)
    assert facts.start == D(2026, 12, 1) and facts.end is None


def test_holidays_already_passed_this_year_roll_to_next_year():
    assert extract_dates("五一", D(2027, 6, 10)).start == D(2028, 5, 1)
    assert extract_dates("春节", D(2027, 1, 20)).start == D(2027, 2, 6)


def test_no_date_is_none_not_a_guess():
    facts = extract_dates("北京到上海", TODAY)
    assert facts.start is None and facts.end is None


@pytest.mark.parametrize(
    ("text", "start"),
    [
        ("后儿个走", D(2026, 12, 2)),  # 后天 as northern speakers say it
        ("大后儿个走", D(2026, 12, 3)),
        ("今儿个走", D(2026, 11, 30)),
        # The new year's Nth day after 过完年 / 过了年 (春节 2027 is 02-06).
        ("过完年初八回广州", D(2027, 2, 13)),
        ("过了年初三再走", D(2027, 2, 8)),
        # A calendar date said to pin down a day named otherwise wins, being the later word.
        ("正月初五，也就是2月12号出发", D(2027, 2, 12)),
    ],
)
def test_dialect_days_new_year_days_and_restated_dates(text, start):
    assert extract_dates(text, TODAY).start == start


def test_a_day_said_as_a_limit_with_any_day_leaves_before_it():
    # 春节前…哪天都行: any day from today up to the eve of the day named, not that day itself.
    facts = extract_dates("春节前哪天都行", dt.date(2027, 1, 20))
    assert (facts.start, facts.flexible_until) == (D(2027, 1, 20), D(2027, 2, 5))
    # 前一天 is the day before, no range.
    facts = extract_dates("春节前一天走", dt.date(2027, 1, 20))
    assert (facts.start, facts.flexible_until) == (D(2027, 2, 5), None)


@pytest.mark.parametrize(
    "text",
    [
        "老婆和我带两个孩子，老大上初二，老二五岁，下周一从长春去沈阳",
        "下周一从长春去沈阳，闺女读初三",
        "下周一从长春去沈阳，孩子初一了",
        "下周一从长春去沈阳，带个初二的学生",
        # a class of that school year, numbered as schools do
        "初三(2)班下周一从长春去沈阳春游",
        "我们初一五班的同学下周一从长春去沈阳",
    ],
)
def test_a_school_year_is_no_lunar_day(text: str) -> None:
    # 上初二 (eighth grade) was 正月初二: the trip moved from Monday to February.
    assert extract_dates(text, D(2026, 12, 18)).start == D(2026, 12, 21)


@pytest.mark.parametrize(
    ("text", "start"),
    [
        ("公司8号放假了，9号想从深圳回赣州", D(2026, 12, 9)),
        ("学校12号考完试 13号走", D(2026, 12, 13)),
    ],
)
def test_a_day_said_as_the_reason_gives_way_to_the_trips_day(text, start):
    assert extract_dates(text, TODAY).start == start


def test_a_weekday_beside_a_date_it_does_not_fall_on_names_the_nearest_such_day() -> None:
    thursday = dt.date(2026, 12, 24)
    assert weekday_disagreeing("24号周五去", thursday) == dt.date(2026, 12, 25)
    assert weekday_disagreeing("12月24日 星期一", thursday) == dt.date(2026, 12, 21)
    assert weekday_disagreeing("12月24号周四", thursday) is None
    assert weekday_disagreeing("11月24号周五", thursday) is None  # another date


@pytest.mark.parametrize(
    ("text", "start", "until"),
    [
        # the day refused is no day of the trip; the week said is the range
        ("下周除了周一哪天都行，从北京去天津", D(2026, 12, 8), D(2026, 12, 13)),
        ("除开周一，下周随便哪天，北京去天津", D(2026, 12, 8), D(2026, 12, 13)),
    ],
)
def test_a_day_refused_from_any_day_of_a_week(text, start, until):
    facts = extract_dates(text, TODAY)
    assert (facts.start, facts.flexible_until) == (start, until)
