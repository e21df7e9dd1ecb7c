"""Single sentences as travellers say them (issue 22): the week said on a Sunday, parties
counted in groups, refusals and their reach, orders, and the words around a refund."""

from __future__ import annotations

import datetime as dt

import pytest

from app.intent.dates import extract_dates
from app.intent.model import TravelIntent
from app.intent.offline import parse_offline
from sources.models import SeatClass
from sources.stations import StationDirectory, default_directory

D = dt.date
SUNDAY = D(2027, 1, 3)
THURSDAY = D(2026, 12, 10)


@pytest.fixture(scope="module")
def directory() -> StationDirectory:
    return default_directory()


def parse(text: str, directory: StationDirectory, today: dt.date = THURSDAY) -> TravelIntent:
    return parse_offline(text, today, directory)


# -- the week said on a Sunday ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("这周五", D(2027, 1, 8)),
        ("本周三", D(2027, 1, 6)),
        ("这周一", D(2027, 1, 4)),
        ("这个周六", D(2027, 1, 9)),
        ("这周日", D(2027, 1, 3)),  # today itself: the Sunday the week ends on
        ("下周五", D(2027, 1, 8)),  # the same Friday, as travellers say it on a Sunday
    ],
)
def test_on_a_sunday_this_weeks_day_is_the_coming_one(text: str, day: dt.date) -> None:
    assert extract_dates(text, SUNDAY).start == day


@pytest.mark.parametrize(
    ("today", "text", "day"),
    [
        (D(2026, 12, 10), "这周二", D(2026, 12, 8)),  # a Thursday: Tuesday is past, said so
        (D(2026, 12, 12), "这周五", D(2026, 12, 11)),  # a Saturday: yesterday
        (D(2026, 12, 10), "这周六", D(2026, 12, 12)),
    ],
)
def test_on_other_days_this_weeks_day_stays_in_this_week(
    today: dt.date, text: str, day: dt.date
) -> None:
    assert extract_dates(text, today).start == day


def test_a_return_said_with_this_week_counts_from_the_outbound() -> None:
    facts = extract_dates("这周三去，这周五回", SUNDAY)
    assert (facts.start, facts.end) == (D(2027, 1, 6), D(2027, 1, 8))


# -- parties counted in groups ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "passengers", "children"),
    [
        ("元旦从杭州去上海，两个老人两个大人加一个8岁的孩子", 5, [8]),
        ("明天从南京去合肥，三个老人一个大人", 4, []),
        ("后天从广州去深圳，两个大人和两个孩子，孩子一个5岁一个9岁", 4, [5, 9]),
        ("下周六带老人孩子从合肥去黄山", 3, [None]),
        ("我带两个老人明天从天津去北京", 3, []),
        ("明天我跟两个同事从福州去厦门", 3, []),
    ],
)
def test_a_party_counted_in_groups(
    text: str, passengers: int, children: list[int | None], directory: StationDirectory
) -> None:
    intent = parse(text, directory)
    assert (intent.passengers, intent.children) == (passengers, children)


@pytest.mark.parametrize(
    ("text", "age"),
    [
        ("儿子还差俩月满六岁，我们一家三口周一从长沙南去广州南", 5),
        ("女儿快6岁了，我和老婆带她明天从北京去天津", 5),
        ("孩子不到七岁，我带他明天从成都去重庆", 6),
        ("孩子刚满六岁，我带他明天从成都去重庆", 6),
        ("孩子14了，我和老公带他明天从北京去天津", 14),
        ("闺女今年九，我带她后天从杭州去宁波", 9),
    ],
)
def test_a_childs_age_as_parents_say_it(text: str, age: int, directory: StationDirectory) -> None:
    assert parse(text, directory).children == [age]


def test_tickets_counted_in_english_keep_their_class(directory: StationDirectory) -> None:
    intent = parse("I need 3 second class tickets from Hangzhou to Ningbo tomorrow", directory)
    assert (intent.passengers, intent.seat_class) == (3, SeatClass.SECOND)


# -- refusals and how far they reach ---------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "excluded"),
    [
        ("明天上海虹桥到北京南，无座的不要", [SeatClass.NO_SEAT]),
        ("周六西安到成都，商务座太贵了不要", [SeatClass.BUSINESS]),
        ("周四从武汉去长沙 别买无坐", [SeatClass.NO_SEAT]),
        ("后天杭州到南京，硬座的票不要", [SeatClass.HARD_SEAT]),
        ("明天北京到济南，不要无座和硬座", [SeatClass.HARD_SEAT, SeatClass.NO_SEAT]),
    ],
)
def test_refusals_in_their_everyday_forms(
    text: str, excluded: list[SeatClass], directory: StationDirectory
) -> None:
    assert parse(text, directory).exclude_seat_classes == excluded


@pytest.mark.parametrize(
    "text",
    [
        "我爸妈七十多了 哈尔滨到北京 别坐夜车 一等座 下周四",
        "下周四哈尔滨到北京，不要过夜，一等座",
        "明天北京到上海 不想太早 一等座",
    ],
)
def test_a_refusal_does_not_reach_a_wish_said_after_it(
    text: str, directory: StationDirectory
) -> None:
    intent = parse(text, directory)
    assert intent.exclude_seat_classes == []
    assert intent.seat_class == SeatClass.FIRST


def test_a_refusals_verb_asks_for_nothing(directory: StationDirectory) -> None:
    intent = parse("下周一从成都去重庆，别给我安排动车", directory)
    assert (intent.kind, intent.exclude_train_types) == ("query_tickets", ["D"])


# -- orders ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "order"),
    [
        ("明天南京南到北京南第一班车是几点", "earliest"),
        ("后天成都到重庆最后一班", "latest"),
        ("周五武汉到长沙最后一趟还有票吗", "latest"),
        ("明天深圳去广州头一班", "earliest"),
    ],
)
def test_first_and_last_train_words(text: str, order: str, directory: StationDirectory) -> None:
    assert parse(text, directory).order == order


# -- refunds, changes and the trip beside them -----------------------------------------------


@pytest.mark.parametrize(
    ("text", "topic"),
    [("票能退吗", "refund"), ("帮我改个签，改到下午", "change"), ("买了的票可以退吗", "refund")],
)
def test_a_refund_or_change_alone_is_declined(
    text: str, topic: str, directory: StationDirectory
) -> None:
    intent = parse(text, directory)
    assert (intent.kind, intent.out_of_scope_topics) == ("out_of_scope", [topic])


def test_the_day_of_a_refunded_ticket_is_not_the_trips(directory: StationDirectory) -> None:
    intent = parse("我想退了今天的票，改买明天广州到深圳的", directory)
    assert intent.date_start == THURSDAY + dt.timedelta(days=1)


def test_a_ticket_asked_after_a_refund_is_kept(directory: StationDirectory) -> None:
    intent = parse("退票之后再帮我看看后天北京到济南的", directory)
    assert (intent.kind, intent.origin, intent.destination) == ("query_tickets", "北京", "济南")


# -- places named twice, passed through, numbers no train has ------------------------------


def test_a_place_named_again_without_a_cue_is_no_second_stop(
    directory: StationDirectory,
) -> None:
    intent = parse("周六去西安玩两天，郑州出发，顺便查下西安天气", directory)
    assert (intent.destination, intent.via, intent.days) == ("西安", [], 2)


def test_passing_through_is_no_night(directory: StationDirectory) -> None:
    intent = parse("后天从广州出发经长沙到武汉", directory)
    assert [(v.city, v.nights, v.through) for v in intent.via] == [("长沙", 0, True)]


def test_a_long_number_with_a_train_letter_is_named_invalid(directory: StationDirectory) -> None:
    intent = parse("后天G1234567次上海到南京", directory)
    assert (intent.invalid_train_numbers, intent.train_numbers) == (["G1234567"], [])


# -- where to sit, the ride home's own order, the origin said after the destination ---------


@pytest.mark.parametrize(
    ("text", "positions"),
    [
        ("周六上海去南京，给孩子买靠窗的座位", ["window"]),
        ("下周二上海到北京，一等座，要靠过道的", ["aisle"]),
        ("我们仨明天从北京西去郑州，想坐在一块儿", ["together"]),
        ("明天广州到长沙，两个人要连座，最好靠窗", ["window", "together"]),
        ("周五北京去哈尔滨，硬卧，我们俩的铺位要挨着", ["together"]),
        ("周五北京去哈尔滨 两张硬卧 要相邻的铺", ["together"]),
    ],
)
def test_where_to_sit_is_a_wish(text: str, positions: list[str], directory: StationDirectory):
    assert parse(text, directory).seat_positions == positions


@pytest.mark.parametrize(
    ("text", "order", "back"),
    [
        ("下周末从厦门去福州 周六走周日回 回来那趟晚一点的", None, "latest"),
        ("周五北京去天津，周日回，回程要最便宜的", None, "cheapest"),
        ("周五北京去天津，最早的一班，周日回，返程晚点的", "earliest", "latest"),
    ],
)
def test_an_order_said_of_the_ride_home_is_its_own(
    text: str, order: str | None, back: str, directory: StationDirectory
) -> None:
    intent = parse(text, directory)
    assert (intent.order, intent.return_order) == (order, back)


@pytest.mark.parametrize(
    ("text", "origin", "destination"),
    [
        ("后天去广州，长沙南最早的一班", "长沙南", "广州"),
        ("明天去上海，南京南的高铁", "南京南", "上海"),
    ],
)
def test_a_station_said_after_the_destination_with_its_train_is_the_origin(
    text: str, origin: str, destination: str, directory: StationDirectory
) -> None:
    intent = parse(text, directory)
    assert (intent.origin, intent.destination, intent.via) == (origin, destination, [])


def test_a_place_said_after_the_destination_without_a_train_is_no_origin(
    directory: StationDirectory,
) -> None:
    assert parse("明天去上海玩两天，杭州也想去", directory).origin is None


@pytest.mark.parametrize(
    ("text", "origin", "destination"),
    [
        ("明天从北京海淀去天津滨海新区", "北京", "滨海"),
        ("下周日从浦东去苏州工业园区", "上海", "苏州园区"),
        ("周六从虹桥到南京南", "上海虹桥", "南京南"),
        ("后天从江城去金陵", "武汉", "南京"),
        ("明天从化州去广州", "化州", "广州"),
    ],
)
def test_districts_nicknames_and_short_names_are_their_places(
    text: str, origin: str, destination: str, directory: StationDirectory
) -> None:
    intent = parse(text, directory)
    assert (intent.origin, intent.destination, intent.via) == (origin, destination, [])


@pytest.mark.parametrize(
    ("text", "origin", "destination", "returns"),
    [
        # 回天津 from where one is: the ride home is the trip, said to have no return.
        ("我在北京读研，下周六回天津，买学生票", "北京", "天津", False),
        ("明天上午十点前必须到昆明，人在北京", "北京", "昆明", None),
    ],
)
def test_where_the_traveller_is_is_the_origin(
    text: str, origin: str, destination: str, returns: bool | None, directory: StationDirectory
) -> None:
    intent = parse(text, directory)
    assert (intent.origin, intent.destination, intent.return_trip) == (origin, destination, returns)


def test_a_reimbursement_cap_is_a_budget(directory: StationDirectory) -> None:
    intent = parse("周四去青岛见客户，济南西出发，来回报销上限300", directory)
    assert intent.budget == 300


@pytest.mark.parametrize(
    "text",
    ["周六去天津看球，北京出发，看完当晚回来", "双十二跟闺蜜去杭州逛街，上海出发，早去晚回"],
)
def test_back_the_same_night_is_a_same_day_return(text: str, directory: StationDirectory):
    intent = parse(text, directory)
    assert intent.return_trip is True and intent.date_end == intent.date_start


def test_flying_on_plans_no_ride_home(directory: StationDirectory) -> None:
    text = "下周一从深圳出发，依次去广州、长沙、武汉，每个城市待两天，武汉完了直接飞走不用管"
    intent = parse(text, directory)
    assert (intent.return_trip, intent.destination) == (False, "武汉")


# -- clocks as people write them -------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "kind", "span"),
    [
        ("明天北京到上海 10:30以后", "depart_window", ("10:30", "23:59")),
        ("明天北京到上海 九点一刻前到", "arrive_window", ("00:00", "09:15")),
        ("明天北京到上海 下午2:30到5点之间出发", "depart_window", ("14:30", "17:00")),
        ("明天北京到上海，十点多的车", "depart_window", ("10:00", "11:00")),
        ("明天北京到上海，午饭后走", "depart_window", ("13:00", "18:00")),
        ("明天北京到上海，晚饭后出发", "depart_window", ("19:00", "23:59")),
        ("明天北京到上海，最晚下午三点到", "arrive_window", ("00:00", "15:00")),
        ("明天北京到上海 最晚8点走", "depart_window", ("00:00", "08:00")),
        ("明天北京到上海 最早9点出发", "depart_window", ("09:00", "23:59")),
        ("明天上午十点半开会，从天津去北京", "arrive_window", ("00:00", "10:30")),
    ],
)
def test_clocks_with_minutes_and_bounds(
    text: str, kind: str, span: tuple[str, str], directory: StationDirectory
) -> None:
    window = getattr(parse(text, directory), kind)
    assert window is not None
    assert (f"{window.start:%H:%M}", f"{window.end:%H:%M}") == span


def test_at_the_latest_with_an_hour_is_no_order(directory: StationDirectory) -> None:
    assert parse("明天北京到上海，最晚下午三点到", directory).order is None
    assert parse("明天北京到上海，最晚的", directory).order == "latest"


@pytest.mark.parametrize(
    ("text", "start", "end"),
    [
        ("下周去普陀山 上海出发 周六", D(2026, 12, 19), None),
        ("月底 28号走", D(2026, 12, 28), None),
        ("国庆 3号走 7号回", D(2027, 10, 3), D(2027, 10, 7)),
        ("五一去杭州 2号走", D(2027, 5, 2), None),
        ("元旦三天假，31号走2号回", D(2026, 12, 31), D(2027, 1, 2)),
    ],
)
def test_a_day_said_after_a_span_that_holds_it_is_that_day(
    text: str, start: dt.date, end: dt.date | None
) -> None:
    facts = extract_dates(text, THURSDAY)
    assert (facts.start, facts.end) == (start, end)


# -- the fourth writer's wordings, in other words and places ---------------------------------


@pytest.mark.parametrize(
    ("text", "today", "day"),
    [
        ("腊月二十八去深圳儿子家过年", D(2027, 1, 24), D(2027, 2, 4)),
        ("腊月二十六从东莞回信阳", D(2027, 1, 20), D(2027, 2, 2)),
        ("农历八月十五回家", D(2026, 12, 1), D(2027, 9, 15)),
        ("冬月初三", D(2026, 12, 1), D(2026, 12, 11)),
    ],
)
def test_a_day_of_the_lunar_calendar(text: str, today: dt.date, day: dt.date) -> None:
    assert extract_dates(text, today).start == day


@pytest.mark.parametrize(
    ("text", "start"),
    [
        ("15号下午四点考完最后一科，考完就想从武汉回长沙", "16:00"),
        ("下周五下午4点下课 想坐高铁从武汉回长沙", "16:00"),
        ("30号下班从苏州回六安，六点下班，之后的车", "18:30"),  # half an hour to the train
        ("明天五点半下班 从北京去天津", "18:00"),  # half an hour to reach the train
    ],
)
def test_leaving_when_the_day_is_done(text: str, start: str, directory: StationDirectory):
    window = parse(text, directory).depart_window
    assert window is not None and f"{window.start:%H:%M}" == start


@pytest.mark.parametrize(
    "text",
    [
        "明儿下午青岛回潍坊，得有座",
        "明天沈阳去哈尔滨 都要有座的",
        "明天沈阳去哈尔滨 别整站票",
        "周日从天津回北京，下午的车，别给无座",
        "明天北京到上海 不要 无座",
    ],
)
def test_a_seat_required_refuses_standing(text: str, directory: StationDirectory) -> None:
    assert parse(text, directory).exclude_seat_classes == [SeatClass.NO_SEAT]


def test_a_refusal_does_not_reach_a_wish_after_a_space(directory: StationDirectory) -> None:
    intent = parse("后天晚上去兰州 西安出发 高铁动车都不坐 坐不惯 要卧铺", directory)
    assert intent.exclude_seat_classes == [] and intent.seat_classes != []


@pytest.mark.parametrize(
    ("text", "passengers"),
    [
        ("我们班三个同学周日从天津回北京", 3),
        ("俺们仨老乡2月3号从苏州回阜阳", 3),
        ("咱们宿舍4个人明天北京去天津", 4),
    ],
)
def test_a_group_counted_as_such(text: str, passengers: int, directory: StationDirectory):
    assert parse(text, directory).passengers == passengers


def test_a_class_said_with_also_fine_limits_nothing(directory: StationDirectory) -> None:
    assert parse("2月3号从苏州回阜阳 站票也中 越便宜越好", directory).seat_class is None
    assert parse("明天北京到上海 二等座就行", directory).seat_class == SeatClass.SECOND
    assert parse("2月1号从义乌回上饶，便宜的就行", directory).order == "cheapest"


@pytest.mark.parametrize(
    ("text", "origin", "destination"),
    [
        ("2月4号全家回南宁，广州南坐二等座，上午的", "广州南", "南宁"),
        ("明天上午去苏洲 从无锡", "无锡", "苏州"),
        ("杭洲到温州 下周一", "杭州", "温州"),
    ],
)
def test_boarding_said_with_its_seat_and_a_typo_keeping_a_character(
    text: str, origin: str, destination: str, directory: StationDirectory
) -> None:
    intent = parse(text, directory)
    assert (intent.origin, intent.destination) == (origin, destination)


def test_a_stay_said_after_the_place_is_named_again(directory: StationDirectory) -> None:
    intent = parse("后天从昆明去大理 在大理住两晚 然后去丽江", directory)
    assert [(v.city, v.nights) for v in intent.via] == [("大理", 2)]


def test_going_home_that_day_is_one_way(directory: StationDirectory) -> None:
    intent = parse("厂里30号放假，当天就回潢川，东莞东上车", directory)
    assert (intent.origin, intent.destination, intent.return_trip) == ("东莞东", "潢川", None)
    back = parse("明天从北京去天津，当天回北京", directory)
    assert back.return_trip is True and back.date_end == back.date_start


# -- a fifth round of wordings, written for this test -----------------------------------------


def test_a_city_said_as_its_station_is_that_station(directory: StationDirectory) -> None:
    intent = parse("明天中午12点前要到天津站，北京南出发", directory)
    assert (intent.origin, intent.destination) == ("北京南", "天津站")
    assert parse("明天从北京站去上海", directory).origin == "北京站"
    assert parse("明天北京到上海", directory).origin == "北京"


@pytest.mark.parametrize(
    ("text", "order"),
    [
        ("明天合肥南到南京南，越晚走越好", "latest"),
        ("明天合肥南到南京南，越早出发越好", "earliest"),
    ],
)
def test_the_more_the_better_with_its_verb(text: str, order: str, directory: StationDirectory):
    assert parse(text, directory).order == order


def test_the_ride_home_after_an_evening_event_leaves_once_it_is_over(
    directory: StationDirectory,
) -> None:
    intent = parse("周六晚上8点的演唱会在深圳，广州出发，看完想当晚回", directory)
    assert intent.arrive_window is not None and f"{intent.arrive_window.end:%H:%M}" == "20:00"
    assert intent.return_window is not None and f"{intent.return_window.start:%H:%M}" == "22:00"
    assert intent.date_end == intent.date_start


def test_a_range_said_with_any_day_is_the_span_to_choose_from(
    directory: StationDirectory,
) -> None:
    intent = parse("1月5号到10号之间哪天便宜就哪天从成都去昆明", directory)
    assert (intent.date_start, intent.flexible_until, intent.date_end) == (
        D(2027, 1, 5),
        D(2027, 1, 10),
        None,
    )
    assert intent.order == "cheapest"


@pytest.mark.parametrize(
    ("text", "passengers"),
    [
        ("三个大学生12月20号去大理，昆明出发，都有学生证", 3),
        ("后天我跟我媳妇还有俩孩子（一个10岁一个4岁）从石家庄去北京", 4),
        ("带着我家老爷子（80岁）从济南回青岛，下周一", 2),
    ],
)
def test_more_ways_to_count_the_party(text: str, passengers: int, directory: StationDirectory):
    assert parse(text, directory).passengers == passengers


@pytest.mark.parametrize(
    ("text", "day"),
    [("国庆节第二天从郑州去洛阳", D(2027, 10, 2)), ("五一假期最后一天从杭州回上海", D(2027, 5, 5))],
)
def test_a_day_of_a_holiday(text: str, day: dt.date, directory: StationDirectory) -> None:
    assert parse(text, directory).date_start == day


def test_nights_at_every_stop_said_without_a_verb(directory: StationDirectory) -> None:
    intent = parse(
        "周三从兰州出发，去张掖、嘉峪关、敦煌，每个地方一晚，最后从敦煌飞回去", directory
    )
    assert [(v.city, v.nights) for v in intent.via] == [("张掖", 1), ("嘉峪关", 1)]
    assert intent.return_trip is False


def test_an_hour_said_after_an_arrival_is_the_arrivals(directory: StationDirectory) -> None:
    intent = parse("下周一从成都东出发去重庆北，别太晚到，下午三点前", directory)
    assert intent.depart_window is None
    assert intent.arrive_window is not None and f"{intent.arrive_window.end:%H:%M}" == "15:00"


def test_going_home_for_the_new_year_is_no_day(directory: StationDirectory) -> None:
    intent = parse("过年回家 杭州回贵阳", directory, today=D(2027, 1, 28))
    assert intent.date_start is None and "date_start" in intent.missing
    dated = parse("过年回家 2月3号东莞到信阳", directory, today=D(2027, 1, 25))
    assert dated.date_start == D(2027, 2, 3)


def test_a_lunar_named_day_of_the_twelfth_month_said_in_january() -> None:
    assert extract_dates("小年回家", D(2027, 1, 10)).start == D(2027, 1, 30)


def test_someone_visited_is_no_companion(directory: StationDirectory) -> None:
    text = "周六我和孩子妈带俩孩子去姥姥家 天津到唐山 大的10岁 小的5岁"
    intent = parse(text, directory, today=D(2027, 1, 25))
    assert (intent.passengers, intent.children) == (4, [10, 5])
    assert parse("带着姥姥去北京 明天 天津出发", directory).passengers == 2


def test_any_day_by_price_without_jiu(directory: StationDirectory) -> None:
    intent = parse("想去敦煌 从兰州走 哪天便宜哪天走", directory)
    assert intent.flexible_until is not None and intent.order == "cheapest"


# -- a day one need only be there by, weeks stayed, a morning taken up, the soonest arrival -----


@pytest.mark.parametrize(
    "text",
    [
        "我妈从长春来沈阳，18号能到就行，要卧铺",
        "周五到就好，从郑州去西安",
        "从武汉去广州 18号到了就行",
    ],
)
def test_a_day_one_need_only_arrive_by_leaves_the_day_before(
    text: str, directory: StationDirectory
) -> None:
    intent = parse(text, directory)  # a Thursday: 周五 and 18号 are the 11th and the 18th
    there_by = D(2026, 12, 11) if "周五" in text else D(2026, 12, 18)
    assert intent.date_start == there_by - dt.timedelta(days=1)


def test_a_day_said_for_arriving_with_a_deadline_keeps_its_own_day(
    directory: StationDirectory,
) -> None:
    intent = parse("18号到郑州就开会，从西安走", directory)
    assert intent.date_start == D(2026, 12, 18)


@pytest.mark.parametrize(
    ("text", "nights", "days"),
    [
        ("下周二从南宁去桂林，在那住一个礼拜再回", 7, 8),
        ("下周二从南宁去桂林，待上两周再回来", 14, 15),
        ("下周二从南宁去桂林玩一周", None, 7),  # seven days, the seventh the way home
    ],
)
def test_weeks_stayed_are_nights_and_weeks_of_a_trip_are_days(
    text: str, nights: int | None, days: int, directory: StationDirectory
) -> None:
    intent = parse(text, directory)
    assert (intent.nights, intent.days) == (nights, days)


@pytest.mark.parametrize(
    "text",
    [
        "周六上午还要考试，下午从合肥回南京",
        "周六上午有课，下午再从合肥去南京",
        "周六上午考完最后一门，下午从合肥回南京",
    ],
)
def test_a_morning_taken_by_an_exam_or_a_class_is_no_window_for_the_ride(
    text: str, directory: StationDirectory
) -> None:
    intent = parse(text, directory)
    assert intent.depart_window is not None
    assert intent.depart_window.start == dt.time(12, 0)


@pytest.mark.parametrize(
    ("text", "order"),
    [
        ("后天从郑州去洛阳，要最快能到的那班", "earliest_arrival"),
        ("后天郑州到洛阳最快几点能到", "earliest_arrival"),
        ("后天郑州到洛阳，最快的那趟", "fastest"),
    ],
)
def test_the_soonest_arrival_is_not_the_shortest_ride(
    text: str, order: str, directory: StationDirectory
) -> None:
    assert parse(text, directory).order == order


# -- parts of the day refused, dusk and dawn, as late as one can, the station one boards at ----


@pytest.mark.parametrize(
    ("text", "kind", "start", "end"),
    [
        ("下周二从杭州去南昌，不要晚上到", "arrive_window", dt.time(0, 0), dt.time(18, 0)),
        ("下周二从杭州去南昌，不想晚上走", "depart_window", dt.time(0, 0), dt.time(18, 0)),
        ("下周二从杭州去南昌，别早上出发", "depart_window", dt.time(10, 0), dt.time(23, 59)),
        (
            "下周二从杭州去南昌，带着老人，晚上走不方便",
            "depart_window",
            dt.time(0, 0),
            dt.time(18, 0),
        ),
        ("下周二从杭州去南昌，天黑以前得到", "arrive_window", dt.time(0, 0), dt.time(17, 30)),
        ("下周二从杭州去南昌，天亮以后再出发", "depart_window", dt.time(7, 0), dt.time(23, 59)),
        ("下周二从杭州去南昌，天亮前不要走", "depart_window", dt.time(7, 0), dt.time(23, 59)),
    ],
)
def test_a_part_of_the_day_refused_leaves_the_rest_and_dusk_and_dawn_are_clocks(
    text: str, kind: str, start: dt.time, end: dt.time, directory: StationDirectory
) -> None:
    window = getattr(parse(text, directory), kind)
    assert window is not None
    assert (window.start, window.end) == (start, end)


def test_dusk_one_need_not_beat_is_no_deadline(directory: StationDirectory) -> None:
    intent = parse("下周二从杭州去南昌，天黑前到不了也没关系", directory)
    assert intent.arrive_window is None


def test_the_night_before_refused_keeps_the_day_of_the_deadline(
    directory: StationDirectory,
) -> None:
    intent = parse("周一上午十点前要到杭州东见客户，我在苏州，不想前一天晚上过去住宾馆", directory)
    assert intent.depart_window is None or intent.depart_window.start < dt.time(18, 0)
    assert intent.arrive_window is not None and intent.arrive_window.end == dt.time(10, 0)
    assert "hotel" not in intent.out_of_scope_topics


@pytest.mark.parametrize(
    ("text", "order"),
    [
        ("后天中午前到郑州，人在武汉，能多晚走就多晚走", "latest"),
        ("后天从武汉去郑州，能多早到就多早到", "earliest_arrival"),
        ("后天从武汉去郑州，能多早走就多早走", "earliest"),
    ],
)
def test_as_late_or_as_early_as_one_can_is_an_order(
    text: str, order: str, directory: StationDirectory
) -> None:
    assert parse(text, directory).order == order


@pytest.mark.parametrize(
    ("text", "origin", "destination"),
    [
        ("周六从上海回杭州，上海虹桥八点以后的都行", "上海虹桥", "杭州"),
        ("周六从上海去杭州，上海南出发", "上海南", "杭州"),
        ("周六从上海去杭州再去上海南", "上海", "上海南"),  # a stop said with 去 stays a stop
    ],
)
def test_a_station_of_the_city_set_off_from_is_where_one_boards(
    text: str, origin: str, destination: str, directory: StationDirectory
) -> None:
    intent = parse(text, directory)
    assert (intent.origin, intent.destination) == (origin, destination)
    if origin != "上海":
        assert intent.via == []


def test_a_bare_hour_after_the_end_of_work_is_the_evenings(directory: StationDirectory) -> None:
    intent = parse("周五下了班从苏州回上海，六点下班，六点半以后的车都行", directory)
    assert intent.depart_window is not None
    assert intent.depart_window.start == dt.time(18, 30)


@pytest.mark.parametrize(
    "text",
    [
        "下周想从上海去成都玩几天，还不知道哪天",
        "下个星期要从天津去济南开会，日子还没敲定，先帮我看看",
    ],
)
def test_a_week_said_with_its_day_undecided_asks_for_the_day(
    text: str, directory: StationDirectory
) -> None:
    intent = parse(text, directory)
    assert intent.date_start is None and "date_start" in intent.missing


def test_a_day_said_stays_when_only_the_return_is_undecided(directory: StationDirectory) -> None:
    intent = parse("周五从上海去成都，回来哪天还没定", directory)
    assert intent.date_start == D(2026, 12, 11)
