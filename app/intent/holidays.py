"""Holidays and named days: each name is a rule giving its date in a year (pure, no clock).

Solar days are fixed (元旦 1/1, 双十二 12/12); lunar ones come from the lunar calendar
(`lunardate`: 春节 2027 = 2027-02-06); 清明 and 冬至 are solar terms, from the usual
21st-century formula (floor(Y * 0.2422 + C) - floor(Y / 4), Y the year's last two digits),
exact for 2001-2099 for these two terms. 正月初N (初二, 大年初三 …) is the Nth day of the
lunar year, and counts as a stated date rather than a holiday name.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

from lunardate import LunarDate

YearRule = Callable[[int], dt.date | None]


def _solar(month: int, day: int) -> YearRule:
    return lambda year: dt.date(year, month, day)


def lunar(month: int, day: int, shift: int = 0) -> YearRule:
    """The solar date of lunar `month`/`day` in a year, moved by `shift` days."""

    def make(year: int) -> dt.date | None:
        try:
            solar: dt.date = LunarDate(year, month, day).to_solar_date()
        except ValueError:
            return None
        return solar + dt.timedelta(days=shift)

    return make


def _solar_term(month: int, constant: float) -> YearRule:
    def make(year: int) -> dt.date:
        y = year % 100
        return dt.date(year, month, int(y * 0.2422 + constant) - y // 4)

    return make


HOLIDAYS: dict[str, YearRule] = {
    "元旦": _solar(1, 1),
    "情人节": _solar(2, 14),
    "妇女节": _solar(3, 8),
    "五一": _solar(5, 1),
    "劳动节": _solar(5, 1),
    "青年节": _solar(5, 4),
    "六一": _solar(6, 1),
    "儿童节": _solar(6, 1),
    "国庆": _solar(10, 1),
    "十一假期": _solar(10, 1),
    "十一长假": _solar(10, 1),
    "十一黄金周": _solar(10, 1),
    "双十一": _solar(11, 11),
    "双11": _solar(11, 11),
    "光棍节": _solar(11, 11),
    "双十二": _solar(12, 12),
    "双12": _solar(12, 12),
    "平安夜": _solar(12, 24),
    "圣诞": _solar(12, 25),
    "跨年": _solar(12, 31),
    "清明": _solar_term(4, 4.81),
    "冬至": _solar_term(12, 21.94),
    "春节": lunar(1, 1),
    "大年初一": lunar(1, 1),
    "除夕": lunar(1, 1, shift=-1),
    "大年三十": lunar(1, 1, shift=-1),
    "年三十": lunar(1, 1, shift=-1),
    "元宵": lunar(1, 15),
    "端午": lunar(5, 5),
    "七夕": lunar(7, 7),
    "中秋": lunar(8, 15),
    "重阳": lunar(9, 9),
    "腊八": lunar(12, 8),
    "小年": lunar(12, 23),
}
"""Every named day the parser knows, by the shortest form travellers write (节 and 节日 may
follow: 圣诞节, 端午节; 国庆节). 过年 is none: going home for the new year is some day before
it, which the traveller is asked (过年回家 with a day said takes that day)."""

HOLIDAY_DAYS: dict[str, int] = {
    "元旦": 3,
    "春节": 7,
    "清明": 3,
    "五一": 5,
    "劳动节": 5,
    "端午": 3,
    "中秋": 3,
    "国庆": 7,
    "十一假期": 7,
    "十一长假": 7,
    "十一黄金周": 7,
}
"""The days a public holiday's break covers from its first day (国庆假期 10/1-10/7): where
"哪天都行" lets the trip choose within the holiday."""

HOLIDAY_PATTERN = "|".join(sorted(HOLIDAYS, key=len, reverse=True))
