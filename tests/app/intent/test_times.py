"""Time words as travellers use them (issue 22 item 3), each wording against an injected today.

Windows are read through the offline parser (they depend on the words around them); dates
through `extract_dates`. Every row is one wording from the issue's vocabulary.
"""

from __future__ import annotations

import datetime as dt

import pytest

from app.intent.dates import extract_dates, flexible_days
from app.intent.holidays import HOLIDAYS
from app.intent.offline import parse_offline
from app.intent.times import context_period, extra_windows
from sources.stations import curated_directory

D = dt.date
THU = D(2026, 12, 3)  # a Thursday
DIRECTORY = curated_directory()


def windows(text: str, today: dt.date = THU) -> dict[str, str | None]:
    intent = parse_offline(text, today, DIRECTORY)
    return {
        name: window.span() if window is not None else None
        for name, window in (
            ("depart", intent.depart_window),
            ("arrive", intent.arrive_window),
            ("return", intent.return_window),
        )
    }


@pytest.mark.parametrize(
    ("text", "depart", "arrive"),
    [
        # evening context carries to a bare hour
        ("这周五下班后从上海去杭州，六点以后的车", "18:00-23:59", None),
        ("周五下班后 上海到杭州 7点以后", "19:00-23:59", None),
        ("傍晚从上海去杭州，6点以后走", "18:00-19:30", None),
        ("明天晚上从上海去杭州 八点前出发", "18:00-20:00", None),
        ("今晚11点前到家就行，从广州南回长沙南，晚上七点以后走", "19:00-23:59", "00:00-23:00"),
        ("明晚去看演唱会，苏州到上海，七点前到", "18:00-23:59", "00:00-19:00"),
        ("下午从上海去杭州，三点前走", "12:00-15:00", None),
        # an evening departure does not carry to an arrival hour
        ("今晚从北京出发，7点前到上海", "18:00-23:59", "00:00-07:00"),
        # a morning context changes no hour; a part of the day and a bound narrow each other
        ("明天早上从上海去杭州，8点以后", "08:00-10:00", None),
        # arrival deadlines versus departure bounds
        ("明早九点前得到杭州 从上海走", None, "00:00-09:00"),
        ("明天石家庄到北京 九点之前要到北京西", None, "00:00-09:00"),
        ("明天上午十点前必须到昆明，人在北京", None, "00:00-10:00"),
        ("后天 兰州西到张掖 中午前到", None, "00:00-12:00"),
        ("周六郑州到北京 中午之前到", None, "00:00-12:00"),
        ("明天长沙到广州 下午五点前要到", None, "00:00-17:00"),
        ("明天北京到上海 之前必须到 九点", None, None),
        ("明天北京到上海 九点前走", "00:00-09:00", None),
        ("明天北京到上海 九点前出发", "00:00-09:00", None),
        ("下周三从北京去天津，上午能到就行", None, "06:00-12:00"),
        # an appointment's hour is an arrival deadline; a deadline said outright wins
        ("下周二去南京开会，上午十点开始，上海出发", None, "00:00-10:00"),
        ("周四深圳北到广州南，他下午两点在广州有个会", None, "00:00-14:00"),
        ("晚上七点半开始，明天从长沙去广州，下午五点前要到", None, "00:00-17:00"),
        # parts of the day
        ("后天一早从西安北出发去郑州东", "06:00-09:00", None),
        # 周一早上 is Monday morning, not 周 + an early morning (一早)
        ("周一早上从北京去上海", "06:00-10:00", None),
        ("这周六 上海到杭州 中午左右的车", "11:00-13:00", None),
        ("明天天津到北京 下午两三点的", "14:00-15:30", None),
        ("明天天津到北京 八点左右走", "07:00-09:00", None),
        ("下周一 北京到天津 白天的车", "06:00-18:00", "06:00-23:59"),
        # 白天出发 says when to leave: a 15:00 train arriving after midnight still leaves by day
        ("周三从徐州去上海 白天出发就行", "06:00-18:00", None),
        ("明天 北京到天津 上午", "06:00-12:00", None),
        ("明天 北京到天津 下午", "12:00-18:00", None),
        ("下班了 傍晚从广州南去深圳北 就今天", "17:00-19:30", None),
        ("下周五下了课从南京回扬州，大概四点以后", "16:00-23:59", None),
        # school is out in the afternoon: after it, with no hour said
        ("周四放学以后从长沙回株洲", "16:00-23:59", None),
        # a morning refused is no morning chosen; an hour said with it wins
        ("后天郑州去洛阳 我妈早上起不来", "08:00-23:59", None),
        ("后天郑州去洛阳 老人一早起不来，中午以后的车", "12:00-23:59", None),
        ("下周一下了课就走 合肥去六安", "16:00-23:59", None),
        ("明晚上海到苏州 看完当晚回，十点半以后的", "22:30-23:59", None),
        # an hour said outright wins over loose words it does not meet
        ("后天长沙去岳阳 早上别太早了 10点以后吧", "10:00-23:59", None),
        # lunch said in dialect, and a night's length that is no evening
        ("我爸后天吃了中饭从保定回石家庄", "13:00-18:00", None),
        ("后天晌午从保定回石家庄", "11:00-14:00", None),
        ("后天从广州回贵阳 坐一晚上硬座太难受了", None, None),
        ("周一晚上从广州回贵阳", "18:00-23:59", None),
        # an appointment's hour, and how early to be there
        ("明天下午三点在无锡开会，上海出发，提前一小时到", None, "00:00-14:00"),
        ("后天上午九点半面试 无锡 上海过去 提前半个小时到", None, "00:00-09:00"),
        # a hospital appointment is one too, its day kept as the date's
        ("带我妈去杭州复诊，约的后天下午一点半，绍兴出发", None, "00:00-13:30"),
        ("后天绍兴到杭州，奶奶八点半的专家号", None, "00:00-08:30"),
        ("后天绍兴去杭州 挂的号是上午十点 别太早走", "08:00-23:59", "00:00-10:00"),
        ("后天从绍兴去杭州做检查 医院预约了早上9点", None, "00:00-09:00"),
        # 别买太早的: not too early, said of the ticket bought
        ("我爸后天绍兴去杭州 别给他买太早的", "08:00-23:59", None),
        # the evening said short after a day
        ("周五晚 天津到北京", "18:00-23:59", None),
        # a bare hour with an arrival said as a must, or as enough
        ("明天从无锡去上海，九点半得到", None, "00:00-09:30"),
        ("明天从无锡去上海 十点到就行", None, "00:00-10:00"),
        ("明天下午从无锡去上海，四点必须赶到", "12:00-18:00", "00:00-16:00"),
        # pinyin with the cues in either order
        ("xia zhou yi qu suzhou wan cong shanghai zao shang", "06:00-10:00", None),
        # pinyin typed a syllable at a time, places too
        ("zhou yi xia wu cong guang zhou qu shen zhen", "12:00-18:00", None),
    ],
)
def test_time_of_day_words(text: str, depart: str | None, arrive: str | None) -> None:
    found = windows(text)
    assert (found["depart"], found["arrive"]) == (depart, arrive)


@pytest.mark.parametrize(
    ("text", "depart", "label"),
    [
        # An hour said for leaving is that hour give or take, the train nearest it ranked first.
        ("周五下午5点从南京回合肥", "16:00-18:00", "下午5点左右"),
        ("周五下午5点走，从南京回合肥", "16:00-18:00", "下午5点左右"),
        ("周五晚上7点从南京出发去合肥", "18:00-20:00", "晚上7点左右"),
        ("周六早上8点半出发从杭州去上海", "07:30-09:30", "早上8点半左右"),
        ("买一张明天19:30的车 北京到天津", "18:30-20:30", "19:30左右"),
        # …said as rough (大概), after class (the afternoon's five).
        ("周五上完课就走 大概5点 从南京回合肥", "16:00-18:00", None),
    ],
)
def test_an_hour_said_for_leaving_is_that_hour_give_or_take(
    text: str, depart: str, label: str | None
) -> None:
    intent = parse_offline(text, THU, DIRECTORY)
    assert intent.depart_window is not None and intent.depart_window.span() == depart
    assert intent.depart_window.near() is not None  # ranked toward the hour said
    if label is not None:
        assert intent.depart_window.label == label
    assert intent.arrive_window is None and intent.return_trip is None


@pytest.mark.parametrize(
    "text",
    [
        # An arrival's hour or a meeting's is no hour of leaving.
        "明天八点到上海 从南京走",
        "明天九点开会，从南京去上海",
    ],
)
def test_an_hour_not_said_for_leaving_gives_no_departure_window(text: str) -> None:
    assert parse_offline(text, THU, DIRECTORY).depart_window is None


@pytest.mark.parametrize(
    ("text", "depart"),
    [
        # The way home is the trip: 回家 after the day's end is the ride out, not a second one.
        ("周五下了课就回家，从南京回合肥", "16:00-23:59"),
        ("周五下班回家，从南京回合肥", "18:00-23:59"),
        ("周五下了课就回家 南京到合肥", "16:00-23:59"),
    ],
)
def test_going_home_after_the_day_is_the_ride_out(text: str, depart: str) -> None:
    intent = parse_offline(text, THU, DIRECTORY)
    assert intent.return_trip is None and intent.return_window is None
    assert intent.depart_window is not None and intent.depart_window.span() == depart


def test_a_deadline_to_be_home_is_the_rides_when_the_trip_goes_home() -> None:
    intent = parse_offline("考完试19号回家 杭州东到温州南 中午之前到家", THU, DIRECTORY)
    assert intent.return_arrive_window is None and not intent.return_trip
    assert intent.arrive_window is not None and intent.arrive_window.span() == "00:00-12:00"


def test_going_home_after_a_trip_away_is_still_the_ride_back() -> None:
    intent = parse_offline("周五从合肥去南京开会，下班就回家", THU, DIRECTORY)
    assert intent.return_trip is True
    assert intent.return_window is not None and intent.return_window.span() == "18:00-23:59"


@pytest.mark.parametrize(
    ("text", "start", "expected"),
    [
        ("下班后…六点以后", 6, "晚上"),
        ("下午 三点前", 4, "下午"),
        ("早上 八点前", 4, None),
        ("晚上走。八点前", 6, None),  # a sentence end stops the context
        ("晚上走，7点前到", 5, None),  # arrival after an evening departure
    ],
)
def test_context_period(text: str, start: int, expected: str | None) -> None:
    arrival = text.endswith("到")
    assert context_period(text, start, arrival) == expected


def test_extra_windows_are_linear_on_long_input() -> None:
    text = "晚上" + "十" * 20000 + "点开会"  # no catastrophic backtracking: returns at once
    assert isinstance(extra_windows(text), list)


@pytest.mark.parametrize(
    ("text", "today", "start", "end"),
    [
        ("两周后", THU, D(2026, 12, 17), None),
        ("下下周五", D(2026, 12, 11), D(2026, 12, 25), None),
        ("大后天", THU, D(2026, 12, 6), None),
        ("月底", THU, D(2026, 12, 31), None),
        ("这个月20号", THU, D(2026, 12, 20), None),
        ("元旦", D(2026, 12, 20), D(2027, 1, 1), None),
        ("春节", D(2027, 1, 25), D(2027, 2, 6), None),
        ("春节那天回邯郸", D(2027, 1, 25), D(2027, 2, 6), None),
        ("除夕", D(2027, 1, 25), D(2027, 2, 5), None),
        ("大年三十", D(2027, 1, 25), D(2027, 2, 5), None),
        ("初二那天", D(2027, 1, 29), D(2027, 2, 7), None),
        ("正月初七", D(2027, 1, 29), D(2027, 2, 12), None),
        ("元宵节", D(2027, 1, 29), D(2027, 2, 20), None),
        ("清明", D(2027, 3, 1), D(2027, 4, 5), None),
        ("清明", D(2028, 3, 1), D(2028, 4, 4), None),
        ("五一", THU, D(2027, 5, 1), None),
        ("端午", THU, D(2027, 6, 9), None),
        ("中秋", THU, D(2027, 9, 15), None),
        ("国庆节", THU, D(2027, 10, 1), None),
        ("圣诞节", D(2026, 12, 22), D(2026, 12, 25), None),
        ("平安夜那天", D(2026, 12, 22), D(2026, 12, 24), None),
        ("双十二那天", THU, D(2026, 12, 12), None),
        ("跨年", THU, D(2026, 12, 31), None),
        ("冬至", THU, D(2026, 12, 22), None),
        ("七夕", THU, D(2027, 8, 8), None),
        # a stated date wins over the holiday named before it
        ("元旦三天假 31号晚上走 2号回", D(2026, 12, 23), D(2026, 12, 31), D(2027, 1, 2)),
        ("春节带爸妈回老家 2月5号 上午", D(2027, 1, 25), D(2027, 2, 5), None),
        ("过年回老家 长沙到岳阳 初二那天", D(2027, 1, 29), D(2027, 2, 7), None),
        # ... but a holiday after the date is a day of its own
        ("除夕出发初三回来", D(2027, 1, 20), D(2027, 2, 5), D(2027, 2, 8)),
        # a date said in words a few days late is past (said as past by the agent)
        ("1月16号从武汉回信阳", D(2027, 1, 18), D(2027, 1, 16), None),
        ("12月6号", D(2026, 12, 20), D(2026, 12, 6), None),
        ("3月1号", D(2026, 12, 20), D(2027, 3, 1), None),
        # a day followed by 之前到 is the day before
        ("周六之前到北京", THU, D(2026, 12, 4), None),
        ("5号前要到北京", THU, D(2026, 12, 4), None),
        ("明天之前到", THU, THU, None),
        # so many days from a date said
        ("除夕前一天一家五口从上海回合肥", D(2027, 1, 25), D(2027, 2, 4), None),
        ("回达州过年，除夕前两天走", D(2027, 1, 24), D(2027, 2, 3), None),
        ("12月13号早上7点半开跑，打算前一天从杭州过去", D(2026, 12, 8), D(2026, 12, 12), None),
        # 第二天…回 is the day back
        ("下周三去宁波，第二天□□□□□□回", D(2026, 12, 1), D(2026, 12, 9), D(2026, 12, 10)),
    ],
)
def test_date_words(text: str, today: dt.date, start: dt.date, end: dt.date | None) -> None:
    facts = extract_dates(text, today)
    assert (facts.start, facts.end) == (start, end)


@pytest.mark.parametrize(
    ("text", "today", "start", "until"),
    [
        ("哪天都行", D(2026, 12, 14), D(2026, 12, 14), D(2026, 12, 28)),
        ("随便哪天", THU, THU, D(2026, 12, 17)),
        ("这两周哪天都行，挑最便宜的那天", D(2026, 12, 10), D(2026, 12, 10), D(2026, 12, 24)),
        ("这几天都行", THU, THU, D(2026, 12, 7)),
        ("这周哪天都行", THU, THU, D(2026, 12, 6)),
        ("下周哪天都行", THU, D(2026, 12, 7), D(2026, 12, 13)),
        ("月底 那几天随便哪天", D(2026, 12, 15), D(2026, 12, 24), D(2026, 12, 31)),
        ("下个月初哪天都可以", THU, D(2027, 1, 1), D(2027, 1, 10)),
        ("元旦假期哪天都行", D(2026, 12, 20), D(2027, 1, 1), D(2027, 1, 3)),
        ("国庆哪天都行", D(2027, 9, 25), D(2027, 10, 1), D(2027, 10, 7)),
    ],
)
def test_any_day_will_do(text: str, today: dt.date, start: dt.date, until: dt.date) -> None:
    facts = extract_dates(text, today)
    assert flexible_days(text)
    assert (facts.start, facts.flexible_until) == (start, until)


def test_a_stated_day_is_not_flexible() -> None:
    assert extract_dates("下周五", THU).flexible_until is None
    assert not flexible_days("哪天出发？")


def test_every_holiday_resolves_in_the_coming_years() -> None:
    for name, rule in HOLIDAYS.items():
        assert all(rule(year) is not None for year in (2026, 2027, 2028)), name
    assert HOLIDAYS["春节"](2027) == D(2027, 2, 6)


def test_flexible_intent_carries_the_range() -> None:
    intent = parse_offline(
        "这两周哪天都行，从上海去青岛，挑最便宜的那天", D(2026, 12, 10), DIRECTORY
    )
    assert intent.date_start == D(2026, 12, 10)
    assert intent.flexible_until == D(2026, 12, 24)
    assert "date_start" not in intent.missing


def test_an_hour_with_no_day_is_today() -> None:
    intent = parse_offline("下午五点前必须到北京南，从天津出发", D(2026, 12, 14), DIRECTORY)
    assert intent.date_start == D(2026, 12, 14)
    assert intent.arrive_window is not None and intent.arrive_window.span() == "00:00-17:00"


def test_an_hour_alone_sets_no_day() -> None:
    """A chat turn such as 能再晚点出发吗，九点以后 keeps the trip's own day."""
    for text in ("能再晚点出发吗，九点以后", "早点到，九点前到上海"):
        assert parse_offline(text, D(2026, 12, 14), DIRECTORY).date_start is None


def test_a_stay_gives_the_day_back_of_a_morning_return() -> None:
    text = "后天去广州看球，深圳出发，看完太晚就住一晚第二天上午回"
    intent = parse_offline(text, D(2026, 12, 11), DIRECTORY)
    assert (intent.date_start, intent.date_end) == (D(2026, 12, 13), D(2026, 12, 14))
    assert intent.return_window is not None and intent.return_window.span() == "06:00-12:00"


def test_an_arrival_the_next_morning_with_a_must() -> None:
    text = "今晚下班六点以后从北京出发，明天早上九点前要到广州"
    intent = parse_offline(text, D(2026, 12, 10), DIRECTORY)
    assert intent.arrive_date == D(2026, 12, 11)
    assert intent.depart_window is not None and intent.depart_window.span() == "18:00-23:59"


def test_an_hour_said_of_the_ride_homes_train_is_the_return_window() -> None:
    text = "周六上午去无锡，虹桥走，当天回上海，回来的车得下午五点以后"
    intent = parse_offline(text, THU, DIRECTORY)
    assert intent.depart_window is not None and intent.depart_window.span() == "06:00-12:00"
    assert intent.return_window is not None and intent.return_window.span() == "17:00-23:59"


def test_a_business_said_with_its_hours_or_its_end_times_both_rides() -> None:
    meeting = parse_offline("下周二上午9点到中午12点在无锡开会 上海过去 会后就回", THU, DIRECTORY)
    assert meeting.arrive_window is not None and meeting.arrive_window.span() == "00:00-09:00"
    assert meeting.return_window is not None and meeting.return_window.span() == "12:00-23:59"
    assert meeting.date_end == meeting.date_start
    ends = parse_offline("后天去无锡开会 当天回 上海出发 开完会估计下午四点", THU, DIRECTORY)
    assert ends.return_window is not None and ends.return_window.span() == "16:00-23:59"
    first = parse_offline("后天一早去无锡 坐最早一班 然后晚上最后一班回上海", THU, DIRECTORY)
    assert first.date_end == first.date_start and first.return_order == "latest"


@pytest.mark.parametrize(
    ("text", "start", "end"),
    [
        # THU 12-03: the one day said is the way home's, the stay counts back from it.
        ("从南京去苏州玩三天，周日回来", D(2026, 12, 4), D(2026, 12, 6)),
        ("南京出发去苏州 住两晚 周日晚上回", D(2026, 12, 4), D(2026, 12, 6)),
        # …unless going home is the trip itself.
        ("周日回老家 从南京到苏州 住两晚", D(2026, 12, 6), D(2026, 12, 8)),
    ],
)
def test_the_only_day_said_is_the_way_home(text: str, start: dt.date, end: dt.date) -> None:
    intent = parse_offline(text, THU, DIRECTORY)
    assert (intent.date_start, intent.date_end) == (start, end)


def test_going_back_the_day_before_what_one_goes_back_for() -> None:
    intent = parse_offline("下周一早上要上课，周日下午从家里太原回石家庄", THU, DIRECTORY)
    assert intent.date_start == D(2026, 12, 6)


@pytest.mark.parametrize(
    ("text", "start", "until"),
    [
        ("8号或者9号 成都到重庆 哪天便宜买哪天", D(2026, 12, 8), D(2026, 12, 9)),
        ("周六或周日都可以 成都到重庆", D(2026, 12, 5), D(2026, 12, 6)),
        ("明后天都行 成都到重庆", D(2026, 12, 4), D(2026, 12, 5)),
    ],
)
def test_either_of_two_days(text: str, start: dt.date, until: dt.date) -> None:
    intent = parse_offline(text, THU, DIRECTORY)
    assert (intent.date_start, intent.flexible_until) == (start, until)
    assert intent.arrive_date is None


def test_a_weekday_range_or_a_weekday_back_is_never_an_earlier_departure() -> None:
    # THU 12-03: 下周二 is 12-08; 周四 after it is that week's, the end or the ride home.
    for text in ("下周二到周四去郑州出差，石家庄出发", "下周二去郑州出差周四回，石家庄出发"):
        intent = parse_offline(text, THU, DIRECTORY)
        assert (intent.date_start, intent.date_end) == (D(2026, 12, 8), D(2026, 12, 10)), text
    wedding = parse_offline("下周六去郑州吃喜酒，周五下班后走，石家庄出发", THU, DIRECTORY)
    assert wedding.date_start == D(2026, 12, 11)


def test_an_arrival_said_before_its_next_day_is_no_return() -> None:
    intent = parse_offline("周六晚上九点后从西安走去成都，到了第二天上午就行", THU, DIRECTORY)
    assert (intent.date_start, intent.arrive_date) == (D(2026, 12, 5), D(2026, 12, 6))
    assert not intent.return_trip and intent.date_end is None
    assert intent.arrive_window is not None and intent.arrive_window.span() == "06:00-12:00"
    back = parse_offline("周六从西安去成都，到了第二天再回来", THU, DIRECTORY)
    assert back.return_trip and back.date_end == D(2026, 12, 6)


def test_an_appointment_day_said_first_is_the_arrival_when_an_earlier_day_leaves() -> None:
    text = "后天一早九点在上海开会，我明晚从北京坐卧铺过去，睡一觉正好到"
    intent = parse_offline(text, D(2026, 12, 1), DIRECTORY)
    assert (intent.date_start, intent.arrive_date) == (D(2026, 12, 2), D(2026, 12, 3))
    assert intent.depart_window is not None and intent.depart_window.span() == "18:00-23:59"
    assert intent.arrive_window is not None and intent.arrive_window.span() == "00:00-09:00"


def test_a_weekday_inside_a_weekend_said_first_refines_it() -> None:
    text = "下周末从厦门去福州 周六走周日回"
    intent = parse_offline(text, THU, DIRECTORY)
    assert (intent.date_start, intent.date_end) == (D(2026, 12, 12), D(2026, 12, 13))
    assert intent.arrive_date is None


def test_the_day_said_inside_an_appointment_is_the_trips_day() -> None:
    intent = parse_offline("爷爷去上海看病，约了下周二早上八点，苏州出发", THU, DIRECTORY)
    assert intent.date_start == D(2026, 12, 8)
    assert intent.arrive_window is not None and intent.arrive_window.span() == "00:00-08:00"


@pytest.mark.parametrize(
    ("text", "arrive", "home"),
    [
        # The span said after the business: there by its start, home after its end.
        ("下周二从苏州去无锡见客户，上午九点到十一点，见完回苏州", "00:00-09:00", "11:00-23:59"),
        # How long it runs (会开到…, 开到…) or when it is over (…散会, …结束).
        (
            "后天上海去无锡开会，九点开始，会要开到下午三点，开完回上海",
            "00:00-09:00",
            "15:00-23:59",
        ),
        ("后天上海去无锡培训 下午一点开始 四点半散会 当天回上海", "00:00-13:00", "16:30-23:59"),
        # The part of the day the business is over in: the ride home in that part.
        ("后天一早上海去无锡开会，中午开完就回", None, "11:00-14:00"),
    ],
)
def test_the_hours_of_a_business_time_both_rides(text: str, arrive: str | None, home: str) -> None:
    intent = parse_offline(text, THU, DIRECTORY)
    said = intent.arrive_window.span() if intent.arrive_window else None
    assert said == arrive or arrive is None
    assert intent.return_window is not None and intent.return_window.span() == home
    assert intent.date_end == intent.date_start


def test_an_hour_done_said_without_a_ride_home_is_the_departure() -> None:
    intent = parse_offline("后天下午五点散会 从无锡回上海", THU, DIRECTORY)
    assert intent.depart_window is not None and intent.depart_window.span() == "17:00-23:59"


def test_an_hour_to_be_there_by_with_no_part_of_the_day_is_not_the_small_hours() -> None:
    """三点前到 / 面试四点开始 with no part of the day said: the afternoon's, as no one is
    asked to arrive at three in the night; 凌晨三点前到 says the small hours outright."""
    import datetime as dt

    from app.intent.offline import parse_offline
    from sources.stations import curated_directory

    directory = curated_directory()
    today = dt.date(2026, 11, 30)
    for text in ("明天从苏州去上海，三点前到就行", "明天从苏州去上海面试，面试四点开始"):
        intent = parse_offline(text, today, directory)
        assert intent.arrive_window is not None and intent.arrive_window.end.hour >= 15, text
    small = parse_offline("明天从苏州去上海，凌晨三点前到", today, directory)
    assert small.arrive_window is not None and small.arrive_window.end == dt.time(3, 0)


@pytest.mark.parametrize(
    ("text", "depart", "arrive"),
    [
        # 晌午 is noon: before it is a deadline at 12:00, not the hours around noon.
        ("后天从开封去郑州，晌午之前能到就行", None, "00:00-12:00"),
        # An appointment with its place said between the hour and the business.
        ("下周三上午十点在南京江北新区开会 从合肥出发", None, "00:00-10:00"),
        # A part of the day taken by sleep or a stroll is no window of the ride.
        ("周六从南昌去九江 老人中午得睡一觉 下午三点前到", None, "00:00-15:00"),
        ("白天想在洛阳逛逛 晚上八点以后从洛阳去西安", "20:00-23:59", None),
    ],
)
def test_noon_appointments_with_a_place_and_busy_parts_of_the_day(
    text: str, depart: str | None, arrive: str | None
) -> None:
    said = windows(text)
    assert (said["depart"], said["arrive"]) == (depart, arrive)


def test_back_at_the_start_by_a_time_is_the_ride_homes_deadline() -> None:
    intent = parse_offline("周六从杭州去宁波 隔天晚上八点前回到杭州", THU, DIRECTORY)
    assert intent.return_arrive_window is not None
    assert intent.return_arrive_window.span() == "00:00-20:00"
    assert intent.return_window is None
    home = parse_offline("明天中午前回到合肥 从南京走", THU, DIRECTORY)
    assert home.arrive_window is not None and home.arrive_window.span() == "00:00-12:00"
    assert home.depart_window is None


def test_a_dinner_at_an_hour_is_a_deadline() -> None:
    intent = parse_offline("明天从天津回北京，越晚走越好，但晚上八点的饭局不能迟到", THU, DIRECTORY)
    assert intent.arrive_window is not None and intent.arrive_window.span() == "00:00-20:00"
    assert intent.order == "latest"


def test_coming_down_the_mountain_then_home_is_the_ride_back() -> None:
    intent = parse_offline("我们宿舍四个人这周六从西安去爬华山，周日下山回西安", THU, DIRECTORY)
    assert intent.return_trip is True and intent.date_end == D(2026, 12, 6)


@pytest.mark.parametrize(
    "text", ["这两周哪天都行 成都去重庆 找最便宜的", "两周内哪天都行 成都去重庆"]
)
def test_the_weeks_a_day_is_chosen_from_are_no_trip_length(text: str) -> None:
    # 这两周哪天都行 was read as a fortnight's trip with a ride back on its last day.
    intent = parse_offline(text, THU, DIRECTORY)
    assert intent.flexible_until is not None
    assert intent.return_trip is None and intent.days is None and intent.date_end is None


def test_a_fortnight_said_as_the_trip_is_still_its_length() -> None:
    assert parse_offline("下周六去成都玩两周，从重庆走", THU, DIRECTORY).days == 14


@pytest.mark.parametrize(
    ("text", "deadline"),
    [
        # A must said before the place, and a place longer than a city's name.
        ("周四早上9点半要在苏州工业园区见客户，从上海过去，越晚出发越好", "00:00-09:30"),
        ("周五上午10点要在深圳南山签合同，广州出发", "00:00-10:00"),
        ("下周一下午两点去南京拜访客户，上海出发", "00:00-14:00"),
    ],
)
def test_business_said_at_an_hour_in_a_named_part_of_town_is_a_deadline(
    text: str, deadline: str
) -> None:
    intent = parse_offline(text, THU, DIRECTORY)
    assert intent.arrive_window is not None and intent.arrive_window.span() == deadline


@pytest.mark.parametrize(
    "text",
    [
        "下周一上午十点在合肥开会，从南京出发，前一天晚上的车",
        "下周一上午十点在合肥开会，从南京出发，需要提前一天过去吗？帮我订前一天晚上的车",
    ],
)
def test_the_train_of_the_evening_before_is_that_day_and_no_trip_length(text: str) -> None:
    intent = parse_offline(text, dt.date(2026, 12, 14), DIRECTORY)
    assert intent.date_start == dt.date(2026, 12, 20)
    assert (intent.days, intent.nights, intent.date_end) == (None, None, None)
    assert intent.depart_window is not None and intent.depart_window.start == dt.time(18, 0)


def test_a_part_of_the_day_to_arrive_in_is_not_widened_by_an_appointment_after_it() -> None:
    for text in (
        "周三北京到上海，最好上午到，下午两点开会",
        "周三北京到上海，下午两点开会，最好上午到",
    ):
        intent = parse_offline(text, dt.date(2026, 12, 14), DIRECTORY)
        assert intent.arrive_window is not None, text
        assert intent.arrive_window.span() == "06:00-12:00", text


def test_a_day_booked_before_and_a_client_met_in_the_afternoon() -> None:
    moved = parse_offline(
        "原来订的是周三，现在会改到周四了，麻烦重新看下周四上午沈阳去大连的一等座",
        dt.date(2026, 12, 20),
        DIRECTORY,
    )
    assert moved.date_start == dt.date(2026, 12, 24)
    client = parse_offline("明天兰州到西宁，越早到越好，下午要见甲方", THU, DIRECTORY)
    assert client.depart_window is None
    assert client.arrive_window is not None and client.arrive_window.end == dt.time(14, 0)
