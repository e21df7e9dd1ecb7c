"""Requests typed the way travellers type on a phone: pinyin days beside an arrow, the day home
said last in Cantonese or English, parties with a student or a grandmother among them, and a
trip of two towns of one prefecture with a night in each."""

from __future__ import annotations

import datetime as dt

import pytest

from app.intent.offline import parse_offline
from app.intent.varieties import as_mandarin
from sources.models import SeatClass
from sources.stations import StationDirectory, default_directory

WEDNESDAY = dt.date(2026, 12, 9)
MONDAY = dt.date(2026, 12, 14)


@pytest.fixture(scope="module")
def directory() -> StationDirectory:
    return default_directory()


@pytest.mark.parametrize(
    ("text", "route", "day"),
    [
        # A day in pinyin and two places joined by an arrow: the day is read.
        ("zhouwu xiawu wuhan -> nanchang, 4 ge xuesheng", ("武汉", "南昌"), dt.date(2026, 12, 11)),
        ("xia zhou er nanning qu guilin, zui pianyi de", ("南宁", "桂林"), dt.date(2026, 12, 15)),
        ("ming zao dongguan qu guangzhou", ("东莞", "广州"), dt.date(2026, 12, 10)),
        ("D633 hankou->yichangdong 23hao hai you ma", ("汉口", "宜昌东"), dt.date(2026, 12, 23)),
    ],
)
def test_a_day_typed_in_pinyin_beside_an_arrow_is_read(
    directory: StationDirectory, text: str, route: tuple[str, str], day: dt.date
) -> None:
    intent = parse_offline(text, WEDNESDAY, directory)
    assert (intent.origin, intent.destination) == route
    assert intent.date_start == day


def test_pinyin_words_beside_the_route_read_the_party_and_the_wish(
    directory: StationDirectory,
) -> None:
    intent = parse_offline(
        "tmr xiake hou (4pm later) nanjing -> hefei, wo men 3 ge tongxue, 学生票, cheapest",
        WEDNESDAY,
        directory,
    )
    assert (intent.passengers, intent.students) == (3, 3)
    assert intent.depart_window is not None
    assert intent.depart_window.start == dt.time(16, 0)
    plain = parse_offline("xia zhou er nanning qu guilin, bu yao lvpi che", WEDNESDAY, directory)
    assert plain.exclude_train_types, "不要绿皮车 typed in pinyin refuses the slow trains"


def test_a_night_typed_in_pinyin_is_a_stay_not_ten_thousand_yuan(
    directory: StationDirectory,
) -> None:
    intent = parse_offline(
        "Fri after work (7pm后) shanghai -> hangzhou zhu 1 wan, Sat qu huangshan, "
        "Sun back to SH, 8pm qian dao jia pls",
        WEDNESDAY,
        directory,
    )
    assert intent.budget is None
    assert [(stop.city, stop.nights) for stop in intent.via] == [("杭州", 1)]
    assert (intent.origin, intent.destination) == ("上海", "黄山")
    assert intent.date_end == dt.date(2026, 12, 13)
    assert intent.return_arrive_window is not None
    assert intent.return_arrive_window.end == dt.time(20, 0)


@pytest.mark.parametrize(
    ("text", "back"),
    [
        ("下礼拜三由深圳北去长沙南，27號返", dt.date(2026, 12, 27)),
        ("聽日由深圳去廣州南，禮拜日返", dt.date(2026, 12, 20)),
        ("周五从北京去上海 back Mon", dt.date(2026, 12, 21)),
        ("going 长沙 from HK on Fri, back to hk on Sunday", dt.date(2026, 12, 20)),
    ],
)
def test_the_day_home_said_last_is_the_return(
    directory: StationDirectory, text: str, back: dt.date
) -> None:
    intent = parse_offline(text, MONDAY, directory)
    assert intent.return_trip
    assert intent.date_end == back


@pytest.mark.parametrize(
    ("text", "passengers", "students", "children"),
    [
        ("后天广州南去深圳北 两大一细，细路6岁", 3, 0, [6]),
        ("下周一从南昌回赣州，穷学生一个，车票一百块以内", 1, 1, []),
        ("下周一重庆北去恩施，要两张二等座 我和同学 都学生", 2, 2, []),
        ("下周五哈尔滨回漠河，俩人一起，我买学生票，我爸买普通的", 2, 1, []),
        ("我们两个大人带一个两岁的小孩，还有奶奶（75岁），周六上午从北京到天津", 4, 0, [2]),
    ],
)
def test_a_party_of_mixed_fares(
    directory: StationDirectory,
    text: str,
    passengers: int,
    students: int,
    children: list[int],
) -> None:
    intent = parse_offline(text, WEDNESDAY, directory)
    assert (intent.passengers, intent.students, intent.children) == (
        passengers,
        students,
        children,
    )


def test_a_companion_paying_the_full_fare_leaves_the_student_alone(
    directory: StationDirectory,
) -> None:
    """The control: both said to be students, both ride on student tickets."""
    text = "下周五哈尔滨回漠河，我和我弟俩人，都是学生，买学生票"
    intent = parse_offline(text, WEDNESDAY, directory)
    assert (intent.passengers, intent.students) == (2, 2)


@pytest.mark.parametrize(
    ("text", "via", "end", "nights"),
    [
        # 峨眉山 is a town of 乐山's prefecture: a night in the city, then two in the town.
        (
            "周六从成都出发 先到乐山看大佛住一晚 然后去峨眉山住两晚爬山 最后回成都",
            [("乐山", 1)],
            "峨眉山",
            2,
        ),
        # The stay said after the errand and a pause.
        (
            "下周二南京出发先去合肥开会，住一晚，第二天去武汉待两晚，然后回南京",
            [("合肥", 1)],
            "武汉",
            2,
        ),
    ],
)
def test_a_night_at_each_stop(
    directory: StationDirectory,
    text: str,
    via: list[tuple[str, int]],
    end: str,
    nights: int,
) -> None:
    intent = parse_offline(text, WEDNESDAY, directory)
    assert [(stop.city, stop.nights) for stop in intent.via] == via
    assert intent.destination == end
    assert intent.nights == nights
    assert intent.return_trip


def test_one_town_said_as_its_city_then_its_station_is_one_stop(
    directory: StationDirectory,
) -> None:
    """The control: no stay between the city and its station, one stop."""
    intent = parse_offline("周六从成都去乐山 峨眉山站下车", WEDNESDAY, directory)
    assert intent.via == []
    assert intent.destination == "峨眉山"


def test_english_asides_on_a_holiday_trip(directory: StationDirectory) -> None:
    intent = parse_offline(
        "Hangzhou -> Wuyuan this Sat, back Mon, 2 ppl, wanna see the old Huizhou villages. "
        "nothing before 9am pls we're on holiday haha",
        WEDNESDAY,
        directory,
    )
    assert (intent.origin, intent.destination, intent.passengers) == ("杭州", "婺源", 2)
    assert intent.date_end == dt.date(2026, 12, 14)
    assert intent.depart_window is not None
    assert intent.depart_window.start == dt.time(9, 0)
    assert intent.leisure


@pytest.mark.parametrize(
    ("text", "route"),
    [
        ("周六去一常玩，从武汉出发", ("武汉", "宜昌")),
        ("周六去杨朔玩 从桂林出发", ("桂林", "阳朔")),
    ],
)
def test_a_place_typed_by_its_sound_with_the_other_end_said_later(
    directory: StationDirectory, text: str, route: tuple[str, str]
) -> None:
    intent = parse_offline(text, WEDNESDAY, directory)
    assert (intent.origin, intent.destination) == route


def test_a_sound_two_stations_share_is_not_taken(directory: StationDirectory) -> None:
    """庐山 and 鲁山 read alike: neither is guessed (the reply asks)."""
    intent = parse_offline("周六去炉山玩 从南昌出发", WEDNESDAY, directory)
    assert intent.destination is None


# -- in chat (the `chat` fixture reads on conftest's TODAY, Monday 2026-11-30) ---------------


def test_a_night_on_the_way_added_in_chat_moves_the_ride_out_and_keeps_the_day_home(chat):
    stop = "去的路上想在苏州停一晚逛园林，那就周五下班后出发吧"
    trip = chat("周六从南京去上海看展，周日回来", stop)
    intent = trip.intent
    assert (intent.origin, intent.destination) == ("南京", "上海")
    assert [(stop.city, stop.nights) for stop in intent.via] == [("苏州", 1)]
    assert (intent.date_start, intent.date_end) == (dt.date(2026, 12, 4), dt.date(2026, 12, 6))
    assert intent.depart_window is not None and intent.depart_window.start == dt.time(18, 0)


def test_a_stop_given_up_in_chat_keeps_the_trip(chat):
    trip = chat("周五下班后西安出发去成都耍，路上在汉中住一晚", "算了汉中不住了 周五晚上直接到成都")
    assert (trip.intent.origin, trip.intent.destination, trip.intent.via) == ("西安", "成都", [])
    assert trip.intent.date_start == dt.date(2026, 12, 4)


def test_cantonese_corrections_in_chat(chat):
    day = chat("礼拜五晏昼由深圳去潮汕", "唔系礼拜五啊，系礼拜六朝早").intent
    assert day.date_start == dt.date(2026, 12, 5)
    more = chat("礼拜六由深圳去潮汕，两大两细，细路一个十岁一个六岁", "我老豆都话要去，加多个大人")
    assert (more.intent.passengers, more.intent.children) == (5, [10, 6])
    cheap = chat("礼拜六由广州去韶关", "咁返程呢？礼拜一返广州，最平嘅就得").intent
    assert cheap.return_order == "cheapest" or cheap.order == "cheapest"


def test_a_trip_said_as_one_trip_to_a_city(chat):
    trip = chat("我们老板下周要去一趟西安", "从郑州走，周三").intent
    assert (trip.origin, trip.destination) == ("郑州", "西安")


def test_english_and_pinyin_counts_in_chat(chat):
    two = chat("need 2 tix chongqing to guiyang tmr morning", "too early la, after 10 pls").intent
    assert two.passengers == 2
    assert two.depart_window is not None and two.depart_window.start == dt.time(10, 0)
    first = "G1222 mingtian hangzhoudong -> ningbo hai you piao ma"
    tickets = chat(first, "ok 2 zhang, yideng zuo")
    assert tickets.intent.passengers == 2


@pytest.mark.parametrize(
    "text",
    [
        "haerbin zhe zhoumo xia xue ma? how cold, -20?? bang wo cha xia tianqi yubao thx",
        "到大连以后想租辆车开三天，能帮我订吗",
    ],
)
def test_asks_beside_a_train_trip_are_out_of_scope(directory: StationDirectory, text: str) -> None:
    assert parse_offline(text, WEDNESDAY, directory).kind == "out_of_scope"


@pytest.mark.parametrize(
    ("typed", "read"),
    [
        # Shanghainese
        ("阿拉礼拜天想到苏州去白相一日，当日来回", "我们礼拜天想到苏州去玩一天，当天来回"),
        ("早浪八点钟以后再走，夜里要转来上海额", "早上八点钟以后再走，晚上要回上海的"),
        ("价钿便宜眼额就好", "价钱便宜点的就好"),
        ("回程勿要", "回程不要"),
        # Minnan
        ("我明仔载下晡要从厦门去泉州", "我明天下午要从厦门去泉州"),
        ("上暗的彼班，越晏越好", "最晚的那班，越晚越好"),
        ("回程免啦，单程就好", "回程不用了，单程就好"),
        ("阮四个大人", "我们四个大人"),
        # Northern and Hunan
        ("嗯呐，要下晌的", "嗯，要下午的"),
        ("咯个礼拜六回吉首，有冒得直达的车", "这个礼拜六回吉首，有没有直达的车"),
        # Cantonese
        ("啊唔啱，星期五要返工，改做星期六啦", "啊不对，星期五要上班，改成星期六啦"),
    ],
)
def test_regional_words_are_read_as_mandarin(typed: str, read: str) -> None:
    assert as_mandarin(typed) == read


def test_ordinary_mandarin_is_left_alone() -> None:
    """The controls: 额, 伊 and 眼 are read as Shanghainese only beside its own words."""
    for text in ("金额太高了", "伊犁到乌鲁木齐", "明天去眼科医院", "便宜眼镜"):
        assert as_mandarin(text) == text


@pytest.mark.parametrize(
    ("text", "today", "dates"),
    [
        ("圣诞那个周末我们四个从长沙去张家界，周五下班后走，周日回", MONDAY, (25, 27)),
        ("平安夜从沈阳去哈尔滨看冰雕，圣诞节当天晚上再回沈阳", MONDAY, (24, 25)),
        # 过周末 said on a Sunday: next weekend.
        ("两个人去青岛过周末，从济南走", dt.date(2026, 12, 13), (19, 20)),
    ],
)
def test_holidays_and_weekends(
    directory: StationDirectory, text: str, today: dt.date, dates: tuple[int, int]
) -> None:
    intent = parse_offline(text, today, directory)
    assert intent.date_start == dt.date(2026, 12, dates[0])
    assert intent.date_end == dt.date(2026, 12, dates[1])


def test_english_place_names_and_a_deadline_in_english(directory: StationDirectory) -> None:
    harbin = parse_offline(
        "Beijing -> Harbin next Tuesday, I want the overnight sleeper train, "
        "lower bunk if possible",
        MONDAY,
        directory,
    )
    assert (harbin.origin, harbin.destination, harbin.berth) == ("北京", "哈尔滨", "lower")
    meeting = parse_offline(
        "I must be in Shanghai before 2pm on the 18th for a meeting, leaving from Beijing.",
        MONDAY,
        directory,
    )
    assert (meeting.origin, meeting.destination) == ("北京", "上海")
    assert meeting.date_start == dt.date(2026, 12, 18)
    assert meeting.arrive_window is not None and meeting.arrive_window.end == dt.time(14, 0)


@pytest.mark.parametrize(
    ("text", "start", "end"),
    [
        ("我今年68了，一个人从郑州去石家庄，后天走，天黑前一定要到", None, dt.time(17, 30)),
        ("明早长春去延吉最早的一班 二等座", dt.time(5, 0), None),
        ("周五晚上从昆明去大理，周日晚上再坐车回昆明", dt.time(18, 0), None),
    ],
)
def test_hours_said_around_the_ride(
    directory: StationDirectory, text: str, start: dt.time | None, end: dt.time | None
) -> None:
    intent = parse_offline(text, MONDAY, directory)
    if end is not None:
        assert intent.arrive_window is not None and intent.arrive_window.end == end
    elif "回" in text:
        assert intent.return_window is not None and intent.return_window.start == start
    else:
        assert intent.depart_window is not None and intent.depart_window.start == start


@pytest.mark.parametrize(
    ("text", "passengers", "students"),
    [
        ("我们两口子带上大学的闺女（她有学生证）下周五从郑州去西安", 3, 1),
        ("Hi! me and my friend want go from Beijing to Xi'an tomorrow morning", 2, 0),
    ],
)
def test_a_grown_companion_said_by_who_they_are(
    directory: StationDirectory, text: str, passengers: int, students: int
) -> None:
    intent = parse_offline(text, WEDNESDAY, directory)
    assert (intent.passengers, intent.students, intent.children) == (passengers, students, [])


def test_two_families_are_a_party_not_a_place(directory: StationDirectory) -> None:
    intent = parse_offline(
        "我们两家人一起去北京环球影城，4个大人3个小孩，孩子分别5岁、7岁、一岁半，下周六从天津过去",
        WEDNESDAY,
        directory,
    )
    assert (intent.origin, intent.destination, intent.via) == ("天津", "北京", [])
    assert intent.passengers == 7


def test_a_ride_to_or_from_taiwan_is_declined(directory: StationDirectory) -> None:
    assert parse_offline("請問台北到上海有冇火車？想坐火車去", WEDNESDAY, directory).kind == (
        "out_of_scope"
    )
    # The control: a traveller from Taiwan riding on the mainland keeps the trip.
    kept = parse_offline("我从台湾来，明天从厦门去福州", WEDNESDAY, directory)
    assert kept.kind != "out_of_scope"
    assert (kept.origin, kept.destination) == ("厦门", "福州")


def test_where_one_is_starts_the_trip_when_the_place_gone_to_is_not_read_yet(chat):
    trip = chat("我在长沙 明天想去fz", "抚州 江西那个").intent
    assert (trip.origin, trip.destination) == ("长沙", "抚州")


def test_more_said_in_chat(chat):
    # Cantonese work (返工) is the reason, Saturday the day.
    saturday = chat("我想星期五由深圳去桂林玩", "啊唔啱，星期五要返工，改做星期六啦").intent
    assert saturday.date_start == dt.date(2026, 12, 5)
    # 回程勿要 (Shanghainese), 回程免啦 (Minnan): one way.
    assert chat("下周一从上海去苏州，周三回来", "回程勿要").intent.return_trip is False
    assert chat("下周一从福州去厦门，周三回来", "回程免啦，单程就好").intent.return_trip is False
    # The errand at the hospital is why, not an appointment asked for.
    errand = chat("我要从郑州去洛阳，星期一", "最好上午10点以前到，我要去医院挂号")
    assert errand.declined is None
    assert errand.intent.arrive_window is not None
    assert errand.intent.arrive_window.end == dt.time(10, 0)
    # 回来那趟整下午的 (north-eastern 整): the ride home in the afternoon.
    home = chat("周二长春去吉林，周三回来", "回来那趟整下午的").intent
    assert home.return_window is not None and home.return_window.start == dt.time(12, 0)


@pytest.mark.parametrize(
    ("text", "route"),
    [
        ("我喺澳門，諗住過關去珠海坐車去桂林，星期五出發，一個人", ("珠海", "桂林")),
        ("明天去北京坐高铁去上海", ("北京", "上海")),
    ],
)
def test_the_place_gone_to_first_to_board_there(
    directory: StationDirectory, text: str, route: tuple[str, str]
) -> None:
    intent = parse_offline(text, WEDNESDAY, directory)
    assert (intent.origin, intent.destination) == route


def test_a_shanghainese_day_trip(directory: StationDirectory) -> None:
    intent = parse_offline(
        "阿拉礼拜天想从上海到苏州去白相一日，当日来回，早浪八点钟以后再走，夜里要转来上海的",
        WEDNESDAY,
        directory,
    )
    assert (intent.origin, intent.destination, intent.via) == ("上海", "苏州", [])
    assert intent.date_start == intent.date_end == dt.date(2026, 12, 13)
    assert intent.depart_window is not None and intent.depart_window.start == dt.time(8, 0)
    assert intent.return_window is not None and intent.return_window.start == dt.time(18, 0)


@pytest.mark.parametrize(
    ("text", "passengers", "children"),
    [
        # The same two children said twice (俩孩子, 两大两小): four travellers, not six.
        ("这周五下班后接上俩孩子从杭州去南京，两大两小，孩子一个9岁一个12岁", 4, [9, 12]),
        ("周六带俩孩子从北京去天津玩，两大两小，孩子7岁和10岁", 4, [7, 10]),
        ("帮忙订下周一成都到重庆的票，老总带一个秘书", 2, []),
        ("帮老板订明天从昆明去大理，他带夫人和8岁的孩子，一等座", 3, [8]),
        ("Shanghai to Suzhou tomorrow, 2 adults + my son (5 years old). cheapest", 3, [5]),
    ],
)
def test_parties_said_two_ways_or_through_someone_else(
    directory: StationDirectory, text: str, passengers: int, children: list[int]
) -> None:
    intent = parse_offline(text, WEDNESDAY, directory)
    assert (intent.passengers, intent.children) == (passengers, children)


@pytest.mark.parametrize(
    "text", ["你能帮我写寒假作业吗😂", "how cold is Harbin next week?? do I need a down jacket lol"]
)
def test_more_asks_that_are_no_train_trip(directory: StationDirectory, text: str) -> None:
    assert parse_offline(text, WEDNESDAY, directory).kind == "out_of_scope"


def test_a_stop_stopped_at_after_the_route_is_on_the_way(directory: StationDirectory) -> None:
    intent = parse_offline("20号从广州回西安 想在长沙停一晚", WEDNESDAY, directory)
    assert (intent.origin, intent.destination) == ("广州", "西安")
    assert [(stop.city, stop.nights) for stop in intent.via] == [("长沙", 1)]


def test_shanghainese_heads_and_a_refusal_in_sichuanese(directory: StationDirectory) -> None:
    two = parse_offline(
        "阿拉礼拜六从上海去苏州白相，两家头，上半天到就好，夜里厢再转来", WEDNESDAY, directory
    )
    assert (two.destination, two.via, two.passengers, two.return_trip) == ("苏州", [], 2, True)
    refused = parse_offline(
        "明天下午想从成都切重庆，二等座就要得，莫给我整个一等座哈", WEDNESDAY, directory
    )
    assert SeatClass.FIRST in refused.exclude_seat_classes
    assert refused.seat_class != SeatClass.FIRST


def test_a_stop_on_the_way_given_another_stay_or_replaced_in_chat(chat):
    longer = chat("20号从广州回西安 想在长沙停一晚", "只坐高铁", "在长沙住两晚吧").intent
    assert [(s.city, s.nights) for s in longer.via] == [("长沙", 2)]
    assert longer.destination == "西安"
    first = "下周六从上海出发，先去苏州玩一晚，然后去南京住两晚，再回上海"
    suzhou = chat(first, "苏州改成住两晚").intent
    assert [(s.city, s.nights) for s in suzhou.via] == [("苏州", 2)]
    assert suzhou.destination == "南京"
    moved = chat("下周一从哈尔滨回太原 中间想在北京住一晚", "不在北京住了 改成在石家庄住一晚")
    assert [(s.city, s.nights) for s in moved.intent.via] == [("石家庄", 1)]
    assert (moved.intent.origin, moved.intent.destination) == ("哈尔滨", "太原")


def test_a_hotel_with_an_invoice_is_declined_and_a_ticket_with_one_is_kept(
    directory: StationDirectory,
) -> None:
    hotel = parse_offline(
        "帮我订下周三成都春熙路附近的酒店，两晚，要能开增值税专票的", WEDNESDAY, directory
    )
    assert hotel.kind == "out_of_scope"
    ticket = parse_offline("下周三从北京去成都，车票要能开专票", WEDNESDAY, directory)
    assert ticket.kind != "out_of_scope"
    assert (ticket.origin, ticket.destination) == ("北京", "成都")


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("Christmas Day from Shanghai to Hangzhou", dt.date(2026, 12, 25)),
        ("Christmas Eve Beijing to Tianjin", dt.date(2026, 12, 24)),
        ("New Year's Day Beijing to Tianjin", dt.date(2027, 1, 1)),
    ],
)
def test_named_days_said_in_english(directory: StationDirectory, text: str, day: dt.date) -> None:
    assert parse_offline(text, WEDNESDAY, directory).date_start == day


def test_laoban_typed_in_pinyin_is_a_companion(directory: StationDirectory) -> None:
    # 老伴 or 老板 by its tones: someone travelling along either way.
    intent = parse_offline("wo he laoban zhou liu cong beijing qu tianjin", WEDNESDAY, directory)
    assert (intent.origin, intent.destination, intent.passengers) == ("北京", "天津", 2)


@pytest.mark.parametrize(
    "text",
    [
        "从澳门去桂林，下周六",
        "我住澳門，下周六想去桂林玩",
        "I live in Macau, want to go to Guilin next Saturday",
    ],
)
def test_a_place_without_a_station_said_as_the_start_keeps_the_direction(
    directory: StationDirectory, text: str
) -> None:
    # Macau has no railway: the trip leaves from 珠海, by the border, and goes to 桂林; it
    # was turned around (桂林 → 珠海, with a ride back).
    intent = parse_offline(text, WEDNESDAY, directory)
    assert (intent.origin, intent.destination) == ("珠海", "桂林")
    assert intent.destination_text is None and not intent.return_trip


@pytest.mark.parametrize(
    ("text", "fields"),
    [
        # A refusal in capitals, its verb between: no night train (it was read as asking one).
        ("Beijing to Guilin on Tuesday, I do NOT want an overnight train", {"no_overnight": True}),
        # Sichuanese: 切 is 去 before a place, 耍 is 玩, 两晚上 two nights.
        ("下礼拜一想从成都切峨眉山耍两晚上", {"destination": "峨眉山", "nights": 2}),
        # Where one is now, at home (在老家阜阳): the trip starts there.
        ("我现在在老家阜阳 打算这个月18号回上海", {"origin": "阜阳", "destination": "上海"}),
    ],
)
def test_wishes_and_places_in_everyday_varieties(
    directory: StationDirectory, text: str, fields: dict[str, object]
) -> None:
    intent = parse_offline(text, MONDAY, directory)
    assert {name: getattr(intent, name) for name in fields} == fields
    assert intent.depart_window is None and intent.seat_classes == []


@pytest.mark.parametrize(
    ("text", "fields"),
    [
        ("周六陪我妈从上海去杭州，住两个晚上再回来", {"nights": 2, "return_trip": True}),
        (
            "周六上午从wuhan去长沙 别给我整一等座商务座 穷",
            {"exclude_seat_classes": [SeatClass.BUSINESS, SeatClass.FIRST], "seat_class": None},
        ),
        # The station gone to is boarded for the ride home.
        (
            "今天6点下班，下了班直接去虹桥站坐车回杭州",
            {"origin": "上海虹桥", "destination": "杭州"},
        ),
        ("今晚最尾一班由廣州南返西九龍嘅高鐵", {"order": "latest"}),
        ("harbin去mohe 这周五晚上走，ruanwo下铺谢谢", {"seat_class": SeatClass.SOFT_SLEEPER}),
        (
            "Shanghai to Beijing on Monday the week after next",
            {"date_start": dt.date(2026, 12, 21)},
        ),
        ("Shanghai to Beijing this coming Tuesday", {"date_start": dt.date(2026, 12, 15)}),
    ],
)
def test_more_ways_travellers_type_it(
    directory: StationDirectory, text: str, fields: dict[str, object]
) -> None:
    intent = parse_offline(text, WEDNESDAY, directory)
    assert {name: getattr(intent, name) for name in fields} == fields


@pytest.mark.parametrize(
    ("text", "start"),
    [
        # After work said in Wu (落班) or Cantonese (收工): the evening's hours.
        ("搿个礼拜五我六点钟落班以后从上海到苏州去白相两夜", dt.time(18, 30)),
        ("下星期三收工之後由深圳返香港西九龍，大概七點後嘅車", dt.time(19, 0)),
    ],
)
def test_the_end_of_work_said_regionally_is_the_evening(
    directory: StationDirectory, text: str, start: dt.time
) -> None:
    window = parse_offline(text, WEDNESDAY, directory).depart_window
    assert window is not None and window.start == start


def test_a_toddler_said_in_english_is_a_child_of_the_party(directory: StationDirectory) -> None:
    intent = parse_offline(
        "me, my wife and our toddler want to go Guilin -> Yangshuo tomorrow morning",
        WEDNESDAY,
        directory,
    )
    assert (intent.passengers, intent.children) == (3, [None])


def test_a_grandchild_taken_home_rides_and_her_morning_class_is_no_window(
    directory: StationDirectory,
) -> None:
    intent = parse_offline(
        "周五我送孙女从长沙回武汉她爸妈那，上午她还有兴趣班，车越晚越好但别半夜到",
        WEDNESDAY,
        directory,
    )
    assert (intent.passengers, intent.children) == (2, [None])
    assert intent.depart_window is None and intent.order == "latest"


def test_a_day_typed_in_pinyin_inside_a_chinese_sentence(directory: StationDirectory) -> None:
    intent = parse_offline(
        "xia zhou liu 我和老婆带一岁半的宝宝从hangzhou去huangshan看爷爷奶奶", WEDNESDAY, directory
    )
    assert (intent.origin, intent.destination) == ("杭州", "黄山")
    assert intent.date_start == dt.date(2026, 12, 19)
    assert (intent.passengers, intent.children) == (3, [1])


def test_any_day_of_these_two_weeks_said_in_cantonese(directory: StationDirectory) -> None:
    intent = parse_offline(
        "我喺香港，想搭高鐵去福州，呢兩個禮拜邊日都得，最平嗰日就得啦", WEDNESDAY, directory
    )
    assert intent.flexible_until is not None and intent.order == "cheapest"
    assert intent.date_start == WEDNESDAY


def test_a_flight_asked_for_in_english_is_declined(directory: StationDirectory) -> None:
    text = (
        "can u just find me a cheap flight chengdu to lhasa on friday? 36h on a train sounds insane"
    )
    assert parse_offline(text, WEDNESDAY, directory).kind == "out_of_scope"


def test_a_day_trip_in_english_leaves_early_and_comes_back_that_evening(
    directory: StationDirectory,
) -> None:
    intent = parse_offline(
        "day trip from Guangzhou to Zhuhai this Sunday - leave as early as possible, "
        "come back same evening",
        WEDNESDAY,
        directory,
    )
    assert intent.order == "earliest" and intent.depart_window is None
    assert intent.return_window is not None and intent.return_window.start == dt.time(18, 0)
    assert intent.date_end == intent.date_start == dt.date(2026, 12, 13)


def test_a_name_in_latin_letters_glossed_in_characters_is_the_characters(
    directory: StationDirectory,
) -> None:
    # 赛里木湖 has no station: the parser keeps it for the nearest (博乐), from 乌鲁木齐.
    intent = parse_offline(
        "urumqi去sailimu hu（赛里木湖）看冬天的湖，下周一走", WEDNESDAY, directory
    )
    assert (intent.origin, intent.destination_text) == ("乌鲁木齐", "赛里木湖")


@pytest.mark.parametrize(
    ("text", "passengers", "children"),
    [
        ("Beijing to Harbin tomorrow, me and a friend", 2, []),
        ("Beijing to Harbin tomorrow, a friend is coming too", 2, []),
        ("Beijing to Harbin tomorrow with a colleague, first class", 2, []),
        ("Me, my wife and 2 kids aged 3 and 10, Beijing to Harbin tomorrow", 4, [3, 10]),
        ("me + my husband + our two kids (5 and 8), Beijing to Harbin tomorrow", 4, [5, 8]),
        # "a friend of" tells who one is, not who comes along.
        ("I'm a friend of the conductor lol, Beijing to Harbin tomorrow", 1, []),
    ],
)
def test_companions_and_childrens_ages_said_in_english(
    directory: StationDirectory, text: str, passengers: int, children: list[int]
) -> None:
    intent = parse_offline(text, WEDNESDAY, directory)
    assert (intent.origin, intent.destination) == ("北京", "哈尔滨")
    assert (intent.passengers, intent.children) == (passengers, children)


@pytest.mark.parametrize(
    "text",
    [
        "I want to go from Beijing to Harbin and a friend comes too",
        "train from Beijing to Harbin and a lower berth if possible",
    ],
)
def test_english_words_are_no_halves_of_a_place_spelt_in_two(
    directory: StationDirectory, text: str
) -> None:
    intent = parse_offline(text, WEDNESDAY, directory)
    assert (intent.origin, intent.destination, intent.via) == ("北京", "哈尔滨", [])


def test_a_hotel_near_the_train_station_asked_in_english_is_declined(
    directory: StationDirectory,
) -> None:
    intent = parse_offline(
        "Can you book me a hotel in Xi'an near the train station?", WEDNESDAY, directory
    )
    assert intent.kind == "out_of_scope"
    assert "hotel" in intent.out_of_scope_topics


@pytest.mark.parametrize(
    ("text", "route"),
    [
        ("chagnsha to wuhan tomorrow", ("长沙", "武汉")),
        ("zhangjiajei from changsha on saturday", ("长沙", "张家界")),
        ("from beijign to shanghia tomorrow", ("北京", "上海")),
        ("to shenzehn tomorrow from guangzhou", ("广州", "深圳")),
    ],
)
def test_a_city_typed_with_one_slip_of_the_keys_is_that_city(
    directory: StationDirectory, text: str, route: tuple[str, str]
) -> None:
    intent = parse_offline(text, WEDNESDAY, directory)
    assert (intent.origin, intent.destination) == route


def test_a_slip_one_key_from_two_cities_names_neither(directory: StationDirectory) -> None:
    # "fuzhoi" is one slip from fuzhou, which spells two cities (福州, 抚州): asked, not guessed.
    intent = parse_offline("tomorrow from fuzhoi to xiamen", WEDNESDAY, directory)
    assert (intent.origin, intent.destination) == (None, "厦门")
    assert "origin" in intent.missing


@pytest.mark.parametrize(
    ("text", "field", "expected"),
    [
        # Wu 白相相 is 玩玩 (no 玩相, which spells 万象 in Laos).
        ("礼拜六想从上海到苏州去白相相，当天去当天回来", "destination", "苏州"),
        # Cantonese 前一日 is the day before; 放工 is off work.
        ("元旦前一日放工之後由深圳北去潮汕探阿嫲，要二等座", "date_start", dt.date(2026, 12, 31)),
    ],
)
def test_regional_words_for_play_and_the_day_before(
    directory: StationDirectory, text: str, field: str, expected: object
) -> None:
    intent = parse_offline(text, MONDAY, directory)
    assert getattr(intent, field) == expected


def test_off_work_said_in_cantonese_is_the_evening(directory: StationDirectory) -> None:
    intent = parse_offline("元旦前一日放工之後由深圳北去潮汕探阿嫲", MONDAY, directory)
    assert intent.depart_window is not None and intent.depart_window.start == dt.time(18, 0)


def test_a_weather_question_and_the_way_home_in_minnan(directory: StationDirectory) -> None:
    assert parse_offline("福州这几日会足寒袂？", MONDAY, directory).kind == "out_of_scope"
    home = as_mandarin("转来就礼拜一早起，对福州转来厦门")
    assert "早上" in home and "从福州回厦门" in home


def test_the_small_hours_refused_with_the_rides_verb(directory: StationDirectory) -> None:
    intent = parse_offline("周六想从乌兰浩特去阿尔山泡温泉看雪，不想坐凌晨的车", MONDAY, directory)
    assert intent.depart_window is not None and intent.depart_window.span() == "06:00-23:59"


def test_a_meeting_in_the_morning_then_leaving_in_the_afternoon(
    directory: StationDirectory,
) -> None:
    intent = parse_offline("下周二重庆去贵阳，上午还要开个会，下午走", MONDAY, directory)
    assert intent.depart_window is not None and intent.depart_window.span() == "12:00-18:00"


def test_hakka_words_for_tomorrow_the_afternoon_and_a_question(directory: StationDirectory) -> None:
    said = as_mandarin("𠊎想天光日去广州，下昼三点前爱到，做得无")
    assert "明天" in said and "下午" in said and "要到" in said and "可以吗" in said


def test_a_doubled_verb_takes_no_xia_from_the_week(directory: StationDirectory) -> None:
    intent = parse_offline("帮我爸妈看看下周四从石家庄去北京的票", dt.date(2026, 12, 8), directory)
    assert intent.date_start == dt.date(2026, 12, 17)
    verb = parse_offline("帮我查下周四从石家庄去北京的票", dt.date(2026, 12, 8), directory)
    assert verb.date_start == dt.date(2026, 12, 10)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # Hunan 坐不得: a hard seat one cannot sit in, beside the sleeper wished.
        ("周二长沙去张家界，硬座坐不得咯，腰杆子痛，要卧铺", {"seat_class": None}),
        # Boarding and alighting run together (汉口上宜昌东下).
        (
            "D633明天还有票吗 两大一小 孩子7岁 汉口上宜昌东下",
            {"origin": "汉口", "destination": "宜昌东"},
        ),
        # English: my wife and I, leave beijing.
        (
            "my wife and I want to see the Harbin ice festival - leave beijing fri the 18th",
            {"origin": "北京", "destination": "哈尔滨", "passengers": 2},
        ),
        # A grown child at university is the student, not a child.
        (
            "两个大人加一个上大学的孩子，孩子买学生票，周五长沙去张家界",
            {"passengers": 3, "students": 1, "children": []},
        ),
    ],
)
def test_from_the_h20_round(
    directory: StationDirectory, text: str, expected: dict[str, object]
) -> None:
    intent = parse_offline(text, MONDAY, directory)
    assert {key: getattr(intent, key) for key in expected} == expected


def test_minnan_early_before_eight_and_is_not(directory: StationDirectory) -> None:
    said = as_mandarin("明仔载欲对厦门去福州，欲透早的，八点进前出发")
    assert "一早" in said and "八点之前" in said
    assert "不是" in as_mandarin("歹势，毋是明仔载，是后日")


@pytest.mark.parametrize(
    ("today", "text", "expected"),
    [
        # A weekday named with its day of the month: the date said wins.
        (WEDNESDAY, "leave beijing fri the 18th to harbin", {"date_start": dt.date(2026, 12, 18)}),
        (WEDNESDAY, "beijing to harbin on Friday 18th", {"date_start": dt.date(2026, 12, 18)}),
        (WEDNESDAY, "beijing to harbin sat", {"date_start": dt.date(2026, 12, 12)}),
        # A day said busy, then the day meant: 明天没空，后天 (聽日唔得閒，後日 in Cantonese).
        (
            dt.date(2026, 12, 10),
            "聽日唔得閒，後日星期六我同老公帶個細路返梅州，由廣州出發",
            {"date_start": dt.date(2026, 12, 12), "destination": "梅州"},
        ),
        (
            dt.date(2026, 12, 10),
            "明天没空，周日从广州去梅州",
            {"date_start": dt.date(2026, 12, 13)},
        ),
        # Not a day given up: 明天 is still the day (后天 is the return).
        (
            dt.date(2026, 12, 10),
            "明天从广州去梅州，后天回",
            {"date_start": dt.date(2026, 12, 11), "date_end": dt.date(2026, 12, 12)},
        ),
    ],
)
def test_from_the_h20_misses_dates(
    directory: StationDirectory, today: dt.date, text: str, expected: dict[str, object]
) -> None:
    intent = parse_offline(text, today, directory)
    assert {key: getattr(intent, key) for key in expected} == expected
