"""Dates in free text, resolved against a `today` the caller passes (never the wall clock).

Conventions (documented because every one of them is a choice):

- 周五 alone is the next Friday after today; 这周五/本周五 is this week's (weeks start on
  Monday); 下周五 is next week's, 下下周五 the week after. English "next Friday" = 下周五.
  On a Sunday this week is spent: 这周五 is the coming Friday, the same day as 下周五 (the
  writers of the travellers suite, asked on a Sunday, all meant it so).
- 周末/这个周末 is Saturday to Sunday of this week; 下周末 next week's. 下周 alone is next
  Monday; 下个月 alone is the 1st of next month; 月初 the 1st, 月中/中旬 the 15th, 下旬 the
  21st, 月底 the last day.
- N号 is this month's when still ahead, else next month's; N月N日 likewise rolls to next year.
  这个月10号 is this month's 10th, 下个月5号/下月5号 next month's 5th; numeric 12/6, 12-06,
  12.6 are month/day, in the nearest year that keeps the date from being past.
- Holidays are their next occurrence on or after today: 元旦 1/1, 五一 5/1, 国庆 10/1, 圣诞
  12/25, 跨年 12/31, and 春节 / 除夕 / 端午 / 中秋 from the lunar calendar.
- A second date joined by 到/至/-, or followed by 回/回来/返回, is the return date; bare
  weekdays and day numbers in it count from the first date (下周一到周三, 24日到26日).
"""

from __future__ import annotations

import calendar
import datetime as dt
import re
from collections.abc import Callable
from dataclasses import dataclass, field

from app.intent.holidays import HOLIDAY_DAYS, HOLIDAY_PATTERN, HOLIDAYS, lunar
from app.intent.numerals import to_int
from sources.sale_window import last_sale_day

WEEKDAY_NUMBERS = {"一": 0, "二": 1, "三": 2, "四": 3, "五": 4, "六": 5, "日": 6, "天": 6}
WEEKDAY_NUMBERS.update({str(i): i - 1 for i in range(1, 8)})
"""A weekday said in Chinese or as a digit (周五, 周5) as `date.weekday()` counts it."""
_EN_WEEKDAYS = {
    "mon": 0,
    "tue": 1,
    "wed": 2,
    "thu": 3,
    "fri": 4,
    "sat": 5,
    "sun": 6,
}
_EN_MONTHS = {
    m: i
    for i, m in enumerate(
        ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"], 1
    )
}
_DAY_OFFSETS = {
    "今天": 0,
    "今日": 0,
    "今儿": 0,
    "今晚": 0,
    "今早": 0,
    "明天": 1,
    "明日": 1,
    "明儿": 1,
    "明儿个": 1,
    "明早": 1,
    "明晚": 1,
    "后天": 2,
    "大后天": 3,
    "后儿个": 2,
    "后儿": 2,
    "大后儿个": 3,
    "大后儿": 3,
    "今儿个": 0,
    "today": 0,
    "tonight": 0,
    "tomorrow": 1,
    "tmr": 1,
    "tmrw": 1,
    "tmw": 1,
    "tmro": 1,
    "tmrrw": 1,
    "2moro": 1,
    "day after tomorrow": 2,
}
_NUM = r"[0-9一二两三四五六七八九十]{1,3}"
_WEEK_PREFIX = r"(?P<pre>下下个?|下个?|这个?|本|next|this|coming)?\s*"
# 查一下周六, 再看下周日, 等下 周五 (wait: Friday): the 下 after these is the verb's, not "next".
_VERB_OWNS_XIA = "一查看瞅瞧问搜找等"


def _verb_owns_xia(text: str, start: int) -> bool:
    """True when the 下 at `start` is a verb's (查下, 看一下), not the week's: a doubled verb
    takes no 下 (看看下周四 is 看看 + 下周四)."""
    if start == 0 or text[start - 1] not in _VERB_OWNS_XIA:
        return False
    return not (start >= 2 and text[start - 2] == text[start - 1] and text[start - 1] != "一")


_MONTH_PART = r"(?P<part>初|中旬|中|底|末|上旬|下旬)"


@dataclass(frozen=True)
class DateFacts:
    """What the text says about dates, and the spans it took them from."""

    start: dt.date | None = None
    end: dt.date | None = None
    vague: bool = False
    returning: bool = False
    arrive: dt.date | None = None  # the outbound ride's arrival day ("明早到"), not a return
    flexible_until: dt.date | None = None  # any day from `start` to this one will do
    spans: list[tuple[int, int]] = field(default_factory=list)


@dataclass(frozen=True)
class _Expr:
    start: int
    end: int
    resolve: Callable[[dt.date, dt.date, bool], tuple[dt.date | None, dt.date | None]]
    vague: bool = False
    named: bool = False  # a holiday's name: a stated date elsewhere in the text wins
    bare_weekday: bool = False  # 周五 with no week said: the one nearest the date beside it
    # The days a vague expression covers, from its resolved first day (下周: Monday to
    # Sunday; 月底: the month's last eight days): where "哪天都行" lets the trip choose.
    window: Callable[[dt.date], tuple[dt.date, dt.date]] | None = None


def _monday(day: dt.date) -> dt.date:
    return day - dt.timedelta(days=day.weekday())


def _week_shift(pre: str | None) -> int | None:
    """Weeks ahead for a prefix; None for a bare weekday (the next one after the anchor)."""
    if not pre:
        return None
    pre = pre.strip()
    if pre.startswith("下下"):
        return 2
    if pre.startswith("下") or pre == "next":
        return 1
    return 0


def _add_months(day: dt.date, months: int, day_of_month: int | None = None) -> dt.date:
    month_index = day.month - 1 + months
    year, month = day.year + month_index // 12, month_index % 12 + 1
    last = calendar.monthrange(year, month)[1]
    return dt.date(year, month, min(day_of_month or day.day, last))


def _part_day(part: str | None, year: int, month: int) -> int:
    if part in ("中", "中旬"):
        return 15
    if part == "下旬":
        return 21
    if part in ("底", "末"):
        return calendar.monthrange(year, month)[1]
    return 1


def _part_range(part: str | None, day: dt.date) -> tuple[dt.date, dt.date]:
    """The days a part of `day`'s month covers (月初 1-10, 月中 11-20, 下旬 21-end, 月底 the
    last eight days, the whole month when no part is said)."""
    last = calendar.monthrange(day.year, day.month)[1]
    first_day, last_day = {
        "初": (1, 10),
        "上旬": (1, 10),
        "中": (11, 20),
        "中旬": (11, 20),
        "下旬": (21, last),
        "底": (last - 7, last),
        "末": (last - 7, last),
    }.get(part or "", (1, last))
    return day.replace(day=first_day), day.replace(day=last_day)


def _safe_date(year: int, month: int, day: int) -> dt.date | None:
    try:
        return dt.date(year, month, day)
    except ValueError:
        return None


def _next_yearly(
    anchor: dt.date, make: Callable[[int], dt.date | None], force_next_year: bool
) -> dt.date | None:
    # From last year's rule too: 小年 (lunar 12/23) said in January is this January's.
    for year in range(anchor.year + (1 if force_next_year else -1), anchor.year + 3):
        candidate = make(year)
        if candidate is not None and candidate >= anchor:
            return candidate
    return None


def _said_date(
    anchor: dt.date, make: Callable[[int], dt.date | None], second: bool
) -> dt.date | None:
    """A month and day said without a year: the occurrence nearest `anchor`, so a date a few
    days past stays past (said as past, never as "not yet on sale" a year later). A second
    date (the return) is the next one on or after the first."""
    ahead = _next_yearly(anchor, make, force_next_year=False)
    if second:
        return ahead
    past = (make(anchor.year), make(anchor.year - 1))
    behind = next((day for day in past if day is not None and day < anchor), None)
    if behind is not None and (ahead is None or anchor - behind < ahead - anchor):
        return behind
    return ahead


Handler = Callable[[re.Match[str]], _Expr | None]
_PATTERNS: list[tuple[re.Pattern[str], Handler]] = []


def _pattern(regex: str) -> Callable[[Handler], Handler]:
    def register(handler: Handler) -> Handler:
        _PATTERNS.append((re.compile(regex, re.IGNORECASE), handler))
        return handler

    return register


@_pattern(
    r"(?:the\s+)?day after tomorrow|大后天|后天|大后儿个|大后儿|后儿个|后儿|明儿个|明儿|明天"
    r"|明日|明早|明晚|今天|今日|今儿个|今儿|今晚|今早|\btoday\b|\btonight\b|\btomorrow\b"
    # tmr 早上要由北京去天津, 2moro: tomorrow as chat types it
    r"|\b(?:tmrw|tmrrw|tmro|tmr|tmw|2moro)\b"
)
def _relative_day(m: re.Match[str]) -> _Expr:
    key = m.group().lower().removeprefix("the ").strip()
    offset = _DAY_OFFSETS.get(key, _DAY_OFFSETS.get(key.split()[-1] if " " in key else key, 0))
    if "after" in key:
        offset = 2
    return _Expr(m.start(), m.end(), lambda a, t, second: (t + dt.timedelta(days=offset), None))


def _weekday_expr(start: int, end: int, shift: int | None, weekday: int) -> _Expr:
    def resolve(anchor: dt.date, today: dt.date, second: bool):
        if shift is None:
            # Bare weekday: the next one after today, or on/after the first date of a range.
            base = anchor if second else today + dt.timedelta(days=1)
            return base + dt.timedelta(days=(weekday - base.weekday()) % 7), None
        weeks = shift
        if shift == 0 and not second and today.weekday() == 6 and weekday < 6:
            # Said on a Sunday, 这周五 is the coming Friday: the week that ends today is
            # spent, and travellers (like calendars that start on Sunday) mean the one ahead,
            # as they do by 下周五 then. Another day's past 这周X stays past (said as past).
            weeks = 1
        base = _monday(anchor if second else today) + dt.timedelta(weeks=weeks)
        return base + dt.timedelta(days=weekday), None

    return _Expr(start, end, resolve, bare_weekday=shift is None)


@_pattern(_WEEK_PREFIX + r"(?:周|星期|礼拜)(?P<wd>[一二三四五六日天1-7])")
def _weekday(m: re.Match[str]) -> _Expr:
    pre, start = m.group("pre"), m.start()
    # "查一下周六" / "查下周五" / "再看下周日" are 查(一)下 + the weekday: the 下 belongs to
    # the verb.
    if pre and pre.startswith("下") and _verb_owns_xia(m.string, start):
        pre, start = (pre[1:] or None), start + 1
    return _weekday_expr(start, m.end(), _week_shift(pre), WEEKDAY_NUMBERS[m.group("wd")])


@_pattern(
    r"(?P<pre>next|this|coming|on)?\s*(?P<wd>mon|tues?|wed(?:nes)?|thu(?:rs)?|fri|sat(?:ur)?|sun)day\b"
)
def _en_weekday(m: re.Match[str]) -> _Expr:
    pre = (m.group("pre") or "").lower()
    # "this Monday" said on a Saturday is the coming one (English has no past "this" weekday
    # the way 这周一 has): the nearest ahead, as a bare weekday.
    shift = {"next": 1}.get(pre)
    return _weekday_expr(m.start(), m.end(), shift, _EN_WEEKDAYS[m.group("wd").lower()[:3]])


@_pattern(_WEEK_PREFIX + r"(?:周末|weekend\b)")
def _weekend(m: re.Match[str]) -> _Expr:
    pre, start = m.group("pre"), m.start()
    if pre and pre.startswith("下") and _verb_owns_xia(m.string, start):
        pre, start = (pre[1:] or None), start + 1
    shift = _week_shift(pre) or 0

    def resolve(anchor: dt.date, today: dt.date, second: bool):
        # 去青岛过周末 said on a Sunday: the weekend ahead (this one is all but over), unless
        # 这周末 says this one.
        ahead = 1 if pre is None and today.weekday() == 6 and not second else 0
        saturday = _monday(today) + dt.timedelta(weeks=shift + ahead, days=5)
        return max(saturday, today), saturday + dt.timedelta(days=1)

    def days(first: dt.date) -> tuple[dt.date, dt.date]:
        return first, _monday(first) + dt.timedelta(days=6)

    return _Expr(start, m.end(), resolve, window=days)


@_pattern(r"(?P<pre>下下个?|下个?)(?:周|星期|礼拜)(?![一二三四五六日天1-7末])|next week\b")
def _bare_week(m: re.Match[str]) -> _Expr:
    shift = 1 if m.group().lower() == "next week" else _week_shift(m.group("pre")) or 1
    if m.start() > 0 and m.string[m.start() - 1] == "一" and m.group().startswith("下"):
        return _Expr(m.start(), m.end(), lambda a, t, s: (None, None))

    return _Expr(
        m.start(),
        m.end(),
        lambda a, t, s: (_monday(t) + dt.timedelta(weeks=shift), None),
        vague=True,
        window=lambda first: (first, first + dt.timedelta(days=6)),
    )


@_pattern(r"(?P<name>" + HOLIDAY_PATTERN + r")节?(?:那个|那|的|这个)?周末")
def _holiday_weekend(m: re.Match[str]) -> _Expr:
    """圣诞那个周末: the weekend of the holiday's week (周五下班后走 is that week's Friday)."""
    make = HOLIDAYS[m.group("name")]

    def resolve(anchor: dt.date, today: dt.date, second: bool):
        day = _next_yearly(today, make, False)
        if day is None:
            return None, None
        saturday = _monday(day) + dt.timedelta(days=5)
        return max(saturday, today), saturday + dt.timedelta(days=1)

    def days(first: dt.date) -> tuple[dt.date, dt.date]:
        return _monday(first) + dt.timedelta(days=4), _monday(first) + dt.timedelta(days=6)

    return _Expr(m.start(), m.end(), resolve, window=days)


# (圣诞节, 端午节: the 节 after the name is the holiday's, so what follows reads as said of it.)
@_pattern(r"(?P<next>明年)?(?P<name>" + HOLIDAY_PATTERN + r")(?:节(?!假|日))?")
def _holiday(m: re.Match[str]) -> _Expr:
    make, force = HOLIDAYS[m.group("name")], bool(m.group("next"))
    days = HOLIDAY_DAYS.get(m.group("name"), 1)
    return _Expr(
        m.start(),
        m.end(),
        lambda a, t, s: (_next_yearly(t, make, force), None),
        named=True,
        window=lambda first: (first, first + dt.timedelta(days=days - 1)),
    )


@_pattern(
    r"(?P<next>明年)?(?P<name>" + HOLIDAY_PATTERN + r")(?:假期|长假|小长假|假|节)?"
    r"(?:后|之后|过后|结束后|以后|收假后)的?第一个?(?:工作日|上班的日子|天上班)"
)
def _first_workday_after(m: re.Match[str]) -> _Expr:
    """元旦后第一个工作日: the first weekday after the holiday's days off (make-up working
    days, which move each year, are not known here)."""
    make, force = HOLIDAYS[m.group("name")], bool(m.group("next"))
    days = HOLIDAY_DAYS.get(m.group("name"), 1)

    def resolve(anchor: dt.date, today: dt.date, second: bool):
        first = _next_yearly(today, make, force)
        if first is None:
            return None, None
        day = first + dt.timedelta(days=days)
        while day.weekday() >= 5:
            day += dt.timedelta(days=1)
        return day, None

    return _Expr(m.start(), m.end(), resolve)


@_pattern(
    r"(?P<next>明年)?(?P<name>" + HOLIDAY_PATTERN + r")(?:节|假期|长假|小长假|假)?的?"
    r"(?:第(?P<n>[一二三四五六七1-7])天|(?P<last>最后一天))"
)
def _holiday_day(m: re.Match[str]) -> _Expr | None:
    """国庆第二天, 五一假期最后一天: that day of the holiday's days off (a stated date)."""
    make, force = HOLIDAYS[m.group("name")], bool(m.group("next"))
    days = HOLIDAY_DAYS.get(m.group("name"), 1)
    nth = days if m.group("last") else to_int(m.group("n") or "")
    if nth is None or nth < 1:
        return None

    def resolve(anchor: dt.date, today: dt.date, second: bool):
        first = _next_yearly(today, make, force)
        return (first + dt.timedelta(days=nth - 1) if first else None), None

    return _Expr(m.start(), m.end(), resolve)


_LUNAR_MONTHS = {"正": 1, "冬": 11, "腊": 12}
_LUNAR_DAY = (
    r"(?P<d>初[一二三四五六七八九十]|十[一二三四五六七八九]|二十[一二三四五六七八九]?"
    r"|廿[一二三四五六七八九]|三十)"
)


def _lunar_day(said: str) -> int | None:
    if said.startswith("初"):
        return to_int(said[1:])
    return to_int(said.replace("廿", "二十"))


@_pattern(
    r"(?:(?:农历|阴历)(?P<m>十一|十二|[一二三四五六七八九十正冬腊])|(?P<named>腊|冬))月"
    + _LUNAR_DAY
)
def _lunar_month_day(m: re.Match[str]) -> _Expr | None:
    """腊月二十八, 农历八月十五, 冬月初三: a day of the lunar calendar, its next occurrence (the
    lunar year that holds it may have begun in the last solar year)."""
    said = m.group("m") or m.group("named")
    month = _LUNAR_MONTHS.get(said) or to_int(said)
    day = _lunar_day(m.group("d"))
    if month is None or day is None or not 1 <= month <= 12 or not 1 <= day <= 30:
        return None
    make = lunar(month, day)

    def resolve(anchor: dt.date, today: dt.date, second: bool):
        base = anchor if second else today
        found = [make(year) for year in range(base.year - 1, base.year + 2)]
        return min((d for d in found if d is not None and d >= base), default=None), None

    return _Expr(m.start(), m.end(), resolve)


@_pattern(
    r"(?:(?P<first>正月|大年|(?:过完|过了|过)年(?:的)?)|(?<![月年]))"
    # A school year is no day: 上初二, 读初三, 一个初一, 孩子初三了, 初二的学生.
    r"(?<![上读念个])(?<!孩子|儿子|女儿|闺女)"
    r"初(?P<d>[一二三四五六七八九十])"
    r"(?![中级]|的?学生|年级|班|(?:了|的)?(?:孩子|小孩|娃|儿子|女儿|闺女)"
    # 初二(3)班, 初三2班, 初一三班: a class of that school year.
    r"|\s*[(（]?\s*(?:\d{1,2}|[一二三四五六七八九十]{1,2})\s*[)）]?\s*班"
    # 初三一个班28个学生, 初二两个班: classes of that school year counted.
    r"|\s*(?:\d{1,2}|[一二两三四五六七八九十]{1,2})\s*个班"
    r"|(?:的|全体|整个)?(?:师生|老师|同学|学生))"
)
def _lunar_new_year_day(m: re.Match[str]) -> _Expr | None:
    """初二 / 正月初三 / 大年初五 / 过完年初六: the Nth day of the lunar year (a stated date)."""
    day = to_int(m.group("d"))
    if day is None:
        return None
    make = lunar(1, day)

    def resolve(anchor: dt.date, today: dt.date, second: bool):
        return _next_yearly(anchor if second else today, make, False), None

    return _Expr(m.start(), m.end(), resolve)


@_pattern(
    r"(?:(?P<y>\d{4})\s*年\s*)?(?P<m>"
    + _NUM
    + r")\s*月\s*(?:(?P<d>"
    + _NUM
    + r")\s*(?:日|号)?|"
    + _MONTH_PART
    + ")"
)
def _month_day(m: re.Match[str]) -> _Expr | None:
    month = to_int(m.group("m"))
    day = to_int(m.group("d")) if m.group("d") else None
    year = int(m.group("y")) if m.group("y") else None
    if month is None or not 1 <= month <= 12:
        return None
    part = m.group("part")

    def resolve(anchor: dt.date, today: dt.date, second: bool):
        base = anchor if second else today

        def make(y: int) -> dt.date | None:
            return _safe_date(y, month, day if day else _part_day(part, y, month))

        if year is not None:
            return make(year), None
        if day is None:
            return _next_yearly(base, make, force_next_year=False), None
        return _said_date(base, make, second), None

    return _Expr(
        m.start(),
        m.end(),
        resolve,
        vague=day is None,
        window=None if day else lambda first: _part_range(part, first),
    )


@_pattern(r"(?P<y>\d{4})[-/.](?P<m>\d{1,2})[-/.](?P<d>\d{1,2})")
def _iso(m: re.Match[str]) -> _Expr:
    day = _safe_date(int(m.group("y")), int(m.group("m")), int(m.group("d")))
    return _Expr(m.start(), m.end(), lambda a, t, s: (day, None))


@_pattern(r"(?P<pre>下下个?|下个?|这个?|本|当)月\s*(?P<d>" + _NUM + r")\s*(?:号|日(?!游))")
def _relative_month_day(m: re.Match[str]) -> _Expr | None:
    day = to_int(m.group("d"))
    if day is None or not 1 <= day <= 31:
        return None
    pre = m.group("pre")
    shift = 0 if pre[0] in "这本当" else (2 if pre.startswith("下下") else 1)

    def resolve(anchor: dt.date, today: dt.date, second: bool):
        first = _add_months(today, shift, 1)
        return _safe_date(first.year, first.month, day), None

    return _Expr(m.start(), m.end(), resolve)


@_pattern(
    r"(?<![0-9./\-:：])(?P<m>\d{1,2})\s*(?P<sep>[/.\-])\s*(?P<d>\d{1,2})"
    r"(?![0-9./\-:：]|\s*(?:天|日游|晚|夜|人|位|个|元|块|点|小时|分|k|w|万|千|%|折|张|次))"
)
def _numeric_month_day(m: re.Match[str]) -> _Expr | None:
    month, day = int(m.group("m")), int(m.group("d"))
    if not 1 <= month <= 12 or not 1 <= day <= 31:
        return None

    def resolve(anchor: dt.date, today: dt.date, second: bool):
        base = anchor if second else today
        return _next_yearly(base, lambda y: _safe_date(y, month, day), False), None

    return _Expr(m.start(), m.end(), resolve)


@_pattern(r"(?P<pre>下下个?|下个?|这个?|本)?月" + _MONTH_PART + r"?")
def _month_part(m: re.Match[str]) -> _Expr | None:
    pre, part = m.group("pre"), m.group("part")
    before = m.string[m.start() - 1] if m.start() > 0 else ""
    if not pre and (not part or (before and before in "0123456789一二三四五六七八九十个")):
        return None
    shift = 0 if not pre or pre[0] in "这本" else (2 if pre.startswith("下下") else 1)

    def resolve(anchor: dt.date, today: dt.date, second: bool):
        first = _add_months(today, shift, 1)
        return first.replace(day=_part_day(part, first.year, first.month)), None

    return _Expr(
        m.start(),
        m.end(),
        resolve,
        vague=part in (None, "中旬", "上旬", "下旬"),
        window=lambda first: _part_range(part, first),
    )


# (元旦前一日, Cantonese for 前一天: the day before, no first of the month.)
@_pattern(
    r"(?<![月0-9一二三四五六七八九十])(?P<d>" + _NUM + r")\s*(?:号|(?<!前一)(?<!后一)日(?!游))"
)
def _day_of_month(m: re.Match[str]) -> _Expr | None:
    day = to_int(m.group("d"))
    if day is None or not 1 <= day <= 31:
        return None

    def resolve(anchor: dt.date, today: dt.date, second: bool):
        base = anchor if second else today
        for months in range(3):
            first = _add_months(base, months, 1)
            candidate = _safe_date(first.year, first.month, day)
            if candidate is not None and candidate >= base:
                return candidate, None
        return None, None

    return _Expr(m.start(), m.end(), resolve)


@_pattern(
    # (?<!\d): a count starts where its digits start (from inside a run, \d+ re-read the
    # rest of the run at every digit: quadratic in a long run).
    r"(?<!\d)(?P<n>" + _NUM + r"|\d+)\s*个?(?P<unit>天|日|周|星期|礼拜|月)(?:以后|之后|后)"
    r"(?:的?(?:周|星期|礼拜)(?P<wd>[一二三四五六日天]))?"
    r"|in\s+(?P<en>\d+|one|two|three|four|five|six|seven|a)\s+(?P<enunit>days?|weeks?)\b"
)
def _from_now(m: re.Match[str]) -> _Expr | None:
    count = to_int(m.group("n") or m.group("en"))
    if count is None:
        return None
    unit = m.group("unit") or m.group("enunit")

    def resolve(anchor: dt.date, today: dt.date, second: bool):
        if unit == "月":
            return _add_months(today, count), None
        weeks = unit in ("周", "星期", "礼拜") or unit.startswith("week")
        if weeks and m.group("wd"):
            # 两周后的周一: that weekday of the week two weeks on, not two weeks from today.
            return _monday(today) + dt.timedelta(
                weeks=count, days=WEEKDAY_NUMBERS[m.group("wd")]
            ), None
        return today + dt.timedelta(days=count * (7 if weeks else 1)), None

    return _Expr(m.start(), m.end(), resolve)


# "on the 18th", "the 3rd": a day of the month in English, as N号.
@_pattern(
    r"\b(?:the\s+)?(?P<d>\d{1,2})(?:st|nd|rd|th)\b"
    r"(?!\s+(?:of\s+)?(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec))"
)
def _en_day_of_month(m: re.Match[str]) -> _Expr | None:
    return _day_of_month(m)


@_pattern(
    r"(?P<mon>jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+(?P<d>\d{1,2})"
    r"(?:st|nd|rd|th)?\b|\b(?P<d2>\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?(?P<mon2>jan|feb|mar|apr|may"
    r"|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b"
)
def _en_month_day(m: re.Match[str]) -> _Expr:
    month = _EN_MONTHS[(m.group("mon") or m.group("mon2")).lower()]
    day = int(m.group("d") or m.group("d2"))

    def resolve(anchor: dt.date, today: dt.date, second: bool):
        base = anchor if second else today
        return _next_yearly(base, lambda y: _safe_date(y, month, day), False), None

    return _Expr(m.start(), m.end(), resolve)


_LINK = re.compile(r"^\s*(?:到|至|-|~|～|—|－|to|until|till|through)\s*$", re.IGNORECASE)
# 周日回来, 周日下午晚点回来, 周日晚上8点回: the day of the ride home, a time of day between.
_TIME_OF_DAY = (
    r"(?:(?:早上|上午|中午|下午|傍晚|晚上|夜里|凌晨)?"
    r"(?:晚点|早点|晚一点|早一点|[0-9一二两三四五六七八九十]{1,3}点半?(?:以后|之后|后|前|之前|左右)?)?)?"
)
# 周日就得回来上班, 周日晚上再坐卧铺回来, 周一直接回: a must, or the ride's kind, between them too
# (周三开完会坐晚上的车回来).
# 21号下午考完回, 周五开完会就回: the business done that day, then home.
_DONE_THEN = r"(?:(?:会|事|试)?(?:开|办|忙|考|玩|看)完(?:会|事|试|了)?|下了?山(?:就|再)?)?"
_RETURN_AFTER = re.compile(
    r"^[\s□]*" + _TIME_OF_DAY + _DONE_THEN + r"(?:再|就|还|直接)?(?:要|得|必须|需要)?(?:赶)?"
    r"(?:(?:坐|乘|搭)[\u4e00-\u9fff□]{0,5}?)?(?:回来|回家|回程|返回|返程|回)"
)
RETURN_DAY_AFTER = _RETURN_AFTER
"""What follows a day said of the ride home (周日回, 周四下午回, 周日就得回来)."""
# 周三到合肥培训，周四晚上再从合肥回南京: a later day may also name the place (masked) the ride
# home leaves from; the first day never (31号从上海回商丘 is the ride out, going home).
_LATER_RETURN_AFTER = re.compile(
    r"^[\s□]*" + _TIME_OF_DAY + _DONE_THEN + r"(?:再|就|还|直接)?(?:从□+)?(?:再|就|还|直接)?"
    r"(?:要|得|必须|需要)?(?:赶)?"
    r"(?:(?:坐|乘|搭)[\u4e00-\u9fff□]{0,5}?)?(?:回来|回家|回程|返回|返程|回)"
)
_ARRIVE_AFTER = re.compile(
    r"^[\s□]*(?:之前|以前|前)?\s*(?:最好|一定)?(?:能|就|可以|要|得|必须|需要)?\s*(?:赶)?(?:到|抵达)"
)


def _expressions(text: str) -> list[_Expr]:
    found: list[_Expr] = []
    for regex, handler in _PATTERNS:
        for match in regex.finditer(text):
            expr = handler(match)
            if expr is not None:
                found.append(expr)
    found.sort(key=lambda e: (e.start, -(e.end - e.start)))
    chosen: list[_Expr] = []
    for expr in found:
        if not chosen or expr.start >= chosen[-1].end:
            chosen.append(expr)
    return chosen


_FLEXIBLE = re.compile(
    r"(?:哪|那)一?天(?:都|也)(?:行|可以|成|好|没问题|ok)|随便哪一?天|哪天走都(?:行|可以)"
    r"|(?:什么|啥)时候(?:都|走都)(?:行|可以)|日期(?:随意|随便|不限|无所谓)|时间(?:随意|随便|不限)"
    r"|这几天都(?:行|可以)|几号都(?:行|可以)|any day\b|whichever day"
    # 哪天便宜就哪天走, 什么时候有票就什么时候去: the day is the traveller's to choose by.
    r"|(?:哪|那)一?天[^，,。]{1,6}?就?(?:哪|那)一?天|(?:什么|啥)时候[^，,。]{1,6}?就?(?:什么|啥)时候",
    re.IGNORECASE,
)
_FLEXIBLE_SPANS = (
    (re.compile(r"这两周|两周内|这两个?星期|半个月内|两个礼拜"), 14),
    (re.compile(r"这几天|近几天|最近几天"), 4),
    (re.compile(r"这周|本周|这个?星期|这个?礼拜"), -1),  # to this week's Sunday
)
_OFFSET_AFTER = re.compile(r"^(?:的)?(?P<dir>前|后)(?P<n>[一两二三四五1-5])(?:天|日)")
# 周四见客户，想提前一晚过去: the evening before is the day before, too.
_OFFSET_LATER = re.compile(
    r"(?P<dir>前)(?P<n>一|1)(?:天|晚)[^，,。]{0,8}?(?:走|出发|过去|过来|去|到)"
    # 帮我订前一天晚上的车: the train of the evening before.
    r"|(?P<dir2>前)一(?:天|晚)(?:晚上|下午|傍晚|夜里|[□\s]{1,4})?的(?:车|票|火车|高铁|动车|车票)"
    # 想头一天晚上就到北京住下, 头天下午先过去: 头一天 is the day before said of the ride
    # itself (头一天逛西湖 is the first day of a stay).
    r"|头一?(?:天|晚)[□\s]{0,4}(?:晚上|下午|傍晚|夜里)?(?:就|先)?(?:走|出发|过去|过来|赶到|到)"
)
_REFUSED_BEFORE = re.compile(r"(?:不想|不要|不用|不打算|不愿意?|别|没必要)(?:提)?$")
_LEAVES_AFTER = re.compile(r"^[^，,。]{0,12}?(?:出发|动身|过去|过来|走)")
_GOES_BACK_AFTER = re.compile(r"^[^，,。]{0,10}?回(?!来)")
_TRAVEL_VERB = re.compile(r"去|到|回|走|出发|坐|车")
_NEXT_DAY_BACK = re.compile(
    r"(?:第二天|次日|隔天|第二日|第2天)[\s□]{0,12}(?:再|就)?(?:回来|回家|回程|返回|返程|回)"
)
# A day said as a limit: 除夕前, 周五之前 (not 除夕前一天, the day before it).
_BY_DAY = re.compile(r"^(?:之前|以前|前)(?![一两二三四五1-5]天|到|要到|得到|必须到)")
_BEFORE_DAY = re.compile(
    r"^(?:(?:之前|以前|前)\s*(?:要|得|必须|需要|能|就|一定要)?\s*(?:赶)?到"
    # 30号能到就行, 周五到就好: arriving that day is all that is asked, so there by then.
    r"|\s*(?:能|可以)?(?:赶)?到(?:了)?就(?:行|好|可以|成))"
)


def days_said(text: str, today: dt.date, anchor: dt.date) -> list[tuple[int, int, dt.date]]:
    """(start, end, day) of each day said in `text`, a bare weekday counted on or after
    `anchor` (the trip's first day: 周一…周三去无锡 is that week's Wednesday)."""
    found = []
    for expr in _expressions(text):
        day, _ = expr.resolve(anchor, today, True)
        if day is not None:
            found.append((expr.start, expr.end, day))
    return found


_EXCEPT_BEFORE = re.compile(r"(?:除了|除开|除去|除)\s*$")


def flexible_days(text: str) -> bool:
    """True when the traveller says any day will do (哪天都行, 随便哪天, 这几天都行)."""
    return _FLEXIBLE.search(text) is not None


def _flexible_range(text: str, today: dt.date) -> tuple[dt.date, dt.date] | None:
    """The days a flexible day ranges over when no date names them: 这两周, 这几天, 这周."""
    for regex, days in _FLEXIBLE_SPANS:
        if regex.search(text):
            if days < 0:
                return today, _monday(today) + dt.timedelta(days=6)
            return today, today + dt.timedelta(days=days)
    return None


def _offset(
    text: str, first: _Expr, start: dt.date, spans: list[tuple[int, int]]
) -> tuple[dt.date, list[tuple[int, int]]]:
    """除夕前一天 / 国庆后两天: the day so many days from the date said; "12月13号开跑，打算前一天
    过去": the day before it."""
    match = _OFFSET_AFTER.match(text[first.end :])
    at = first.end
    if match is None:
        match = _OFFSET_LATER.search(text, first.end)
        if match is not None and _REFUSED_BEFORE.search(
            text, max(0, match.start() - 4), match.start()
        ):
            match = None  # 不想前一晚就过去住: the evening before refused, the day itself kept
        at = match.start() if match is not None else at
    if match is None:
        return start, spans
    days = to_int(match.groupdict().get("n") or "一") or 1
    shift = dt.timedelta(days=days if match.group("dir") == "后" else -days)
    end = at + (match.end() - match.start()) if at == first.end else match.end()
    return start + shift, [*spans, (at if at != first.end else first.end, end)]


def _refined(text: str, exprs: list[_Expr], today: dt.date) -> tuple[_Expr, tuple[int, int]] | None:
    """下周…周六, 月底…28号走: a day said after a span that holds it is the day within it, as
    one expression (and the span's own place in the text to mask); None otherwise."""
    if len(exprs) < 2:
        return None
    first, second = exprs[0], exprs[1]
    day, _ = first.resolve(today, today, False)
    if first.window is None or day is None or second.named:
        return None
    low, high = first.window(day)
    gap, after = text[first.end : second.start], text[second.end : second.end + 10]
    if _LINK.match(gap) or _RETURN_AFTER.match(after):
        return None
    inside, _ = second.resolve(max(low, today), today, True)
    if inside is None or not low <= inside <= high:
        return None
    return _Expr(second.start, second.end, lambda a, t, s: (inside, None)), (first.start, first.end)


_OR = re.compile(r"^\s*(?:或者|或是|或|还是|、|/|跟|和)\s*$")
"""Between two dates either of which will do (22号或者23号, 周五、周六都行)."""
# Either of two days said with no 哪天 (周五或者周六都行, 明后天都可以): both will do.
_EITHER_DAY = re.compile(r"^[^，,。]{0,3}?(?:都行|都可以|都成|都ok|都OK|均可|皆可|都没问题)")


def _range_end(text: str, exprs: list[_Expr], start: dt.date, today: dt.date) -> dt.date | None:
    """The last day of a range said as one (5号到10号, 5号至10号之间), or of two days either of
    which will do (22号或者23号), or None."""
    if len(exprs) < 2:
        return None
    gap = text[exprs[0].end : exprs[1].start]
    last, _ = exprs[1].resolve(start, today, True)
    joined = _LINK.match(gap) or _OR.match(gap)
    return last if joined and last is not None and last >= start else None


_LISTED_GAP = re.compile(r"^\s*(?:或者|或是|或|还是|、|/|跟|和|,|，)?\s*$")


def _days_listed(
    text: str, exprs: list[_Expr], start: dt.date, today: dt.date
) -> tuple[dt.date, dt.date] | None:
    """The first and last of three or more days listed one after another after a vague first
    expression (下周…周一周二周三: Monday to Wednesday of that week), or None."""
    if exprs[0].window is None or len(exprs) < 4:
        return None
    run = exprs[1:]
    for i in range(len(run) - 1):
        if not _LISTED_GAP.match(text[run[i].end : run[i + 1].start]):
            run = run[: i + 1]
            break
    if len(run) < 3:
        return None
    first, _ = run[0].resolve(start, today, True)
    last, _ = run[-1].resolve(start, today, True)
    if first is None or last is None or not start <= first <= last:
        return None
    return first, last


_NOT_TRAVELLED = re.compile(r"\s*(?:也|就|都)?(?:不回|不来|不去|不走|没法回|回不了|回不来|不放假)")
_EVENT_IS = re.compile(
    r"(?:会|年会|婚礼|喜酒|考试|面试|演出|演唱会|比赛|活动|典礼|聚会|宴席?|手术|复查)(?:是|定在|在)\s*$"
)
_LEAVE_EARLIER = re.compile(r"^\s*(?:就|先|提前|早点)?(?:过去|走|出发|动身|去|到)")
# A date said again in other words (初二，就是2月8号; 元旦也就是下周五): the later wording.
_RESTATED = re.compile(r"(?:也就是|就是|即|那天是)\s*$")
_REASON_DAY = re.compile(
    r"^\s*(?:就|才|开始)?(?:放假|放寒假|放暑假|休假|停工|收工|考完试?|结课|发工资|发薪)"
    r"(?:了|啦)?\s*[，,。；;\s]\s*$"
)
"""A day said as the reason for the trip, not its day (厂里18号放假，19号走): another day
follows."""


_HOLIDAY_OFF = re.compile(
    r"\s*(?:(?:要|会|就|一共|总共)?(?:放|休)(?:假)?\s*(?:个)?\s*[0-9一二两三四五六七八九十]{1,2}\s*天(?:的)?(?:假)?"
    r"|(?:放|休)?\s*[0-9一二两三四五六七八九十]{1,2}\s*天(?:的)?假)"
)
"""How long a holiday named is (元旦放三天假, 国庆休七天, 元旦三天假): its length, not the
trip's."""


def extract_dates(text: str, today: dt.date) -> DateFacts:
    """The trip's first and last dates as the text states them, resolved against `today`."""
    exprs = [e for e in _expressions(text) if e.resolve(today, today, False) != (None, None)]
    # 元旦不回来了…这周六去看她: a holiday said as not travelled on is no day of the trip.
    exprs = [e for e in exprs if not (e.named and _NOT_TRAVELLED.match(text, e.end))]
    refined = None if flexible_days(text) else _refined(text, exprs, today)
    if refined is not None:
        exprs = [refined[0], *exprs[2:]]
    holiday_off = None
    if len(exprs) > 1 and exprs[0].named:
        holiday_off = _HOLIDAY_OFF.match(text, exprs[0].end)
    if holiday_off is not None:
        # 元旦放三天假 想三十一号回衡阳: how long the holiday is says why; the day said after it
        # is the trip's, even with 回 after it (going home for it).
        exprs = exprs[1:]
    stated = [
        e
        for e in exprs
        if (not e.named or _OFFSET_AFTER.match(text[e.end :]))  # 除夕前两天 is a stated day
        and not _RETURN_AFTER.match(text[e.end : e.end + 10])
    ]
    if stated and stated[0] is not exprs[0] and exprs[0].named:
        # A stated date wins over the holiday named before it (元旦三天假，31号走2号回); a
        # holiday after the date is a day of its own (31号出发，元旦早上到).
        exprs = [e for e in exprs if not e.named or e.start >= stated[0].start]
    if len(exprs) > 1 and _RESTATED.search(text[exprs[0].end : exprs[1].start]):
        # 大年初二…就是2月8号: the calendar date said to pin the day down is the day.
        exprs = exprs[1:]
    elif len(exprs) > 1 and _REASON_DAY.match(text[exprs[0].end : exprs[1].start]):
        # 厂里18号放假，19号我从东莞回怀化: the holiday's first day is why; the 19th is the trip's.
        exprs = exprs[1:]
    elif (
        len(exprs) > 1
        and _EVENT_IS.search(text[max(0, exprs[0].start - 8) : exprs[0].start])
        and _LEAVE_EARLIER.match(text[exprs[1].end : exprs[1].end + 12])
    ):
        # 年会是19号晚上，我想18号就过去: the event's day is why; the day one sets off is said.
        exprs = exprs[1:]
    flexible = flexible_days(text)
    # 除了周一，下周哪天都行: a day said as the one that will not do is no day of the trip.
    excepted = [e for e in exprs if flexible and _EXCEPT_BEFORE.search(text, 0, e.start)]
    exprs = [e for e in exprs if e not in excepted]
    if (
        not flexible
        and len(exprs) > 1
        and _OR.match(text[exprs[0].end : exprs[1].start])
        and _EITHER_DAY.match(text[exprs[1].end :])
    ):
        flexible = True  # 周五或者周六都行: the two days, the better one chosen
    if not exprs:
        if not flexible:
            return DateFacts()
        first_day, last_day = _flexible_range(text, today) or (today, last_sale_day(today))
        return DateFacts(start=first_day, flexible_until=last_day)
    first = exprs[0]
    start, end = first.resolve(today, today, False)
    spans = [(first.start, first.end), *([refined[1]] if refined else [])]
    if holiday_off is not None:
        spans.append(holiday_off.span())
    flexible_until = None
    if flexible and start is not None:
        last = _range_end(text, exprs, start, today)
        if _BY_DAY.match(text[first.end :]) and start > today:
            # 除夕前…哪天便宜哪天走: any day from today to the day before the one named.
            flexible_until, start, end = start - dt.timedelta(days=1), today, None
        elif last is not None:
            # 1月5号到10号之间哪天便宜就哪天: any day of the range said, no day back.
            flexible_until, end = last, None
            spans.append((exprs[1].start, exprs[1].end))
            exprs = exprs[:1]
        elif (listed := _days_listed(text, exprs, start, today)) is not None:
            # 下周…周一周二周三哪天走都行: the days listed, not the whole week said before.
            (start, flexible_until), end = listed, None
        elif first.window is not None:
            first_day, flexible_until = first.window(start)
            start, end = max(first_day, today), None
        else:
            flexible_until = (_flexible_range(text, today) or (today, last_sale_day(today)))[1]
        spans += [(e.start, e.end) for e in excepted]
        refused = {e.resolve(start, today, True)[0] for e in excepted}
        while flexible_until is not None and start in refused and start < flexible_until:
            start += dt.timedelta(days=1)
    elif start is not None and _BEFORE_DAY.match(text[first.end : first.end + 8]):
        # 周六之前到 / 3号前要到: there by that day, so on the road the day before.
        start = max(today, start - dt.timedelta(days=1))
    elif start is not None:
        start, spans = _offset(text, first, start, spans)
    returning = False
    if start is not None and len(exprs) > 1:
        second = exprs[1]
        gap = text[first.end : second.start]
        after = text[second.end : second.end + 10]
        # Counted from the first date (a bare weekday is on or after it), still earlier:
        leave, _ = second.resolve(start, today, True)
        # 下周二到周四, 下周二去…周四回: a range or a ride home, never the day leaving earlier.
        range_or_back = bool(_LINK.match(gap) or _LATER_RETURN_AFTER.match(after))
        # 下周一早上八点上班，周日晚上从老家回合肥: the first day is what one goes back for (no
        # ride said of it), so going back (回) on the weekday before is the ride.
        # (周三下了班从上海坐软卧过去: the ride's words may come a dozen characters on.)
        leaves = bool(_LEAVES_AFTER.match(text[second.end : second.end + 16])) or (
            _GOES_BACK_AFTER.match(after) is not None and not _TRAVEL_VERB.search(gap)
        )
        # 周三早上挂了号…打算周二晚上到北京住一晚: arriving on an earlier day than the one
        # said first is riding that day (the first is the business's).
        leaves = leaves or _ARRIVE_AFTER.match(after) is not None
        if (
            not range_or_back
            and leave is not None
            and second.bare_weekday
            and leave > start
            and today <= leave - dt.timedelta(days=7) < start
            and leaves
        ):
            # 下周六要去厦门参加婚礼，周五下班后走: a bare weekday said for leaving is the one
            # before the day named first (the arrival is that evening or the next morning);
            # a day home said after it is the return (下周末去黄山 周五下班后走 周日回来).
            spans.append((second.start, second.end))
            start = leave - dt.timedelta(days=7)
            home = _day_home_after(text, exprs[2:], start, today)
            if home is None:
                return DateFacts(start=start, spans=spans)
            spans.append(home[1])
            return DateFacts(start=start, end=home[0], returning=True, spans=spans)
        earlier, _ = second.resolve(today, today, False)
        if (
            leave is not None
            and leave > start
            and not second.bare_weekday
            and earlier is not None
            and today <= earlier < start
            and _LEAVES_AFTER.match(after)
        ):
            # 20号…考试 我…19号晚上坐夜车过去: a day of the month before the one said first,
            # read from today (not the next month's 19th, after the 20th).
            leave = earlier
        if not range_or_back and leave is not None and today <= leave < start and leaves:
            # 后天九点在上海开会，我明晚从北京过去: the earlier day is the departure, the day
            # said first is the arrival's.
            spans.append((second.start, second.end))
            return DateFacts(start=leave, arrive=start, spans=spans)
        if (
            _ARRIVE_AFTER.match(text[second.end : second.end + 10])
            and not _LINK.match(gap)
            and not _OR.match(gap)
        ):
            other, _ = second.resolve(start, today, True)
            if other is not None and other >= start:
                spans.append((second.start, second.end))
                return DateFacts(start=start, end=end, vague=first.vague, arrive=other, spans=spans)
        if _LINK.match(gap) or _LATER_RETURN_AFTER.match(after):
            other, _ = second.resolve(start, today, True)
            if other is not None and other >= start:
                end = other
                returning = bool(_LATER_RETURN_AFTER.match(after))
                spans.append((second.start, second.end))
    if start is not None and end is None and not flexible:
        # 周六去南京住一晚，周日去扬州，周日晚上回上海: the day of a ride on to another stop
        # comes between; the day said with the ride home is the last.
        home = _day_home_after(text, exprs[2:], start, today)
        if home is not None:
            end, returning = home[0], True
            spans.append(home[1])
    back = _NEXT_DAY_BACK.search(text)
    if start is not None and end is None and back is not None:
        # 第二天下午三点以后回: back the day after leaving.
        end, returning = start + dt.timedelta(days=1), True
        spans.append((back.start(), back.end()))
    return DateFacts(
        start=start,
        end=end,
        vague=first.vague and flexible_until is None,
        returning=returning,
        spans=spans,
        flexible_until=flexible_until,
    )


def _day_home_after(
    text: str, later: list[_Expr], start: dt.date, today: dt.date
) -> tuple[dt.date, tuple[int, int]] | None:
    """The first of `later` said with the ride home (周日回来), on or after `start`, and its
    span; None when the first said with it is earlier, or none is."""
    for expr in later:
        if _LATER_RETURN_AFTER.match(text[expr.end : expr.end + 10]):
            other, _ = expr.resolve(start, today, True)
            if other is not None and other >= start:
                return other, (expr.start, expr.end)
            return None
    return None


def date_from(text: str, anchor: dt.date, today: dt.date) -> dt.date | None:
    """The first date `text` states, counted from `anchor` the way a range's second date is:
    a bare weekday or day number is the next one on or after `anchor` (周一回来 after a
    Saturday outbound is the Monday after it); 明天 and holidays still count from `today`."""
    for expr in _expressions(text):
        day, _ = expr.resolve(anchor, today, True)
        if day is not None:
            return day
    return None


_DAY_THEN_WEEKDAY = re.compile(
    r"(?:(?P<m>\d{1,2})月)?(?P<d>\d{1,2})[号日]?\s*[（(,，]?\s*(?:周|星期|礼拜)(?P<wd>[一二三四五六日天1-7])"
)


def weekday_disagreeing(text: str, day: dt.date) -> dt.date | None:
    """The day of the weekday said right beside `day`'s calendar date when the two disagree
    (12月17号周五, 17 December being a Thursday): the one nearest the date, so the traveller
    can be asked which is meant; None when they agree or no weekday is said with it."""
    for found in _DAY_THEN_WEEKDAY.finditer(text):
        month = found.group("m")
        if int(found.group("d")) != day.day or (month is not None and int(month) != day.month):
            continue
        said = found.group("wd")
        weekday = int(said) - 1 if said.isdigit() else WEEKDAY_NUMBERS[said]
        if weekday == day.weekday():
            return None
        shift = (weekday - day.weekday()) % 7
        return day + dt.timedelta(days=shift if shift <= 3 else shift - 7)
    return None
