"""The offline parser, phrase family by phrase family (today 2026-11-30, a Monday)."""

from __future__ import annotations

import datetime as dt

import pytest

from app.intent.numerals import to_number
from app.intent.offline import parse_offline
from sources.models import SeatClass
from tests.app.intent.conftest import TODAY


@pytest.fixture
def parse(directory):
    return lambda text, today=TODAY: parse_offline(text, today, directory)


@pytest.mark.parametrize(
    ("text", "origin", "destination"),
    [
        ("从北京到上海", "北京", "上海"),
        ("北京出发去上海", "北京", "上海"),
        ("北京→上海", "北京", "上海"),
        ("北京到上海", "北京", "上海"),
        ("去上海", None, "上海"),
        ("回长沙", None, "长沙"),
        ("到上海，从南京出发", "南京", "上海"),
        ("坐高铁去武汉，北京西上车", "北京西", "武汉"),
        ("从上海虹桥到杭州东", "上海虹桥", "杭州东"),
        ("Beijing to Shanghai", "北京", "上海"),
        ("from Xi'an to Chengdu", "西安", "成都"),
    ],
)
def test_origin_and_destination_patterns(parse, text, origin, destination):
    intent = parse(text)
    assert (intent.origin, intent.destination) == (origin, destination)


def test_numerals_inside_place_names_stay_names(parse):
    intent = parse("五一从北京去三亚玩三天")
    assert intent.destination == "三亚"
    assert intent.date_start == dt.date(2027, 5, 1)
    assert intent.days == 3


def test_multi_city_trip_is_origin_via_destination_and_return(parse):
    intent = parse("北京出发，先去西安住两晚，再去成都住两晚，最后回北京")
    assert intent.origin == "北京"
    assert [(v.city, v.nights) for v in intent.via] == [("西安", 2)]
    assert (intent.destination, intent.nights, intent.return_trip) == ("成都", 2, True)


def test_place_without_station_is_kept_as_text(parse):
    intent = parse("元旦想去赛里木湖旅游，从乌鲁木齐出发")
    assert intent.destination is None and intent.destination_text == "赛里木湖"
    assert intent.missing == ["destination"]


@pytest.mark.parametrize(
    ("span", "value"),
    [
        ("两千", 2000),
        ("3k", 3000),
        ("2千5", 2500),
        ("一万二", 12000),
        ("1.5万", 15000),
        ("一千五", 1500),
        ("十二", 12),
    ],
)
def test_number_spans(span, value):
    assert to_number(span) == value


@pytest.mark.parametrize(
    ("text", "budget"),
    [
        ("预算两千左右去上海", 2000),
        ("3k预算去上海", 3000),
        ("1500元以内去上海", 1500),
        ("预算2千5去上海", 2500),
        ("预算一万二去上海", 12000),
        ("1.5万预算去上海", 15000),
        ("budget 2000 to Shanghai", 2000),
    ],
)
def test_budgets(parse, text, budget):
    assert parse(text).budget == budget


def test_per_person_budget_is_multiplied_by_the_party(parse):
    intent = parse("我们四个人去张家界，人均800")
    assert (intent.budget_per_person, intent.passengers, intent.budget) == (800, 4, 3200)


def test_dates_are_not_read_as_budgets_or_counts(parse):
    intent = parse("12月24日从北京到哈尔滨")
    assert intent.budget is None and intent.passengers == 1


@pytest.mark.parametrize(
    ("text", "days", "nights"),
    [
        ("去上海玩三天", 3, None),
        ("去上海住两晚", None, 2),
        ("去上海五天四晚", 5, 4),
        ("去上海玩一周", 7, None),
        ("上海三日游", 3, None),
        ("去上海两天一夜", 2, 1),
        ("Shanghai for 4 days", 4, None),
        ("去西安玩个三四天", 3, None),
        ("去西安待五六晚", None, 5),
    ],
)
def test_durations(parse, text, days, nights):
    intent = parse(text)
    assert (intent.days, intent.nights) == (days, nights)


def test_duration_with_start_gives_the_last_day(parse):
    intent = parse("下周五从北京去上海玩三天")
    assert intent.date_end == dt.date(2026, 12, 13)


@pytest.mark.parametrize(
    ("text", "passengers"),
    [
        ("两个人去上海", 2),
        ("一家三口去上海", 3),
        ("带一个孩子去上海", 2),
        ("我和老婆带一个孩子去上海", 3),
        ("带爸妈去上海", 3),
        ("我们仨去上海", 3),
        ("两大一小去上海", 3),
        ("我和两个同事去上海", 3),
        ("我跟三个朋友去上海", 4),
        ("去上海", 1),
        ("2 people to Shanghai", 2),
    ],
)
def test_party_size(parse, text, passengers):
    assert parse(text).passengers == passengers


@pytest.mark.parametrize(
    ("text", "types"),
    [
        ("高铁", ["G"]),
        ("动车", ["D"]),
        ("高铁动车都行", ["G", "D"]),
        ("不要绿皮", ["G", "D", "C"]),
        ("坐绿皮车", ["Z", "T", "K"]),
        ("城际", ["C"]),
    ],
)
def test_train_types(parse, text, types):
    assert parse("明天北京到天津，" + text).train_types == types


@pytest.mark.parametrize(
    ("text", "types", "refused"),
    [
        # Ordinary trains wished for as such: every EMU refused, so the lettered and the
        # unlettered conventional trains alike remain.
        ("坐普通火车", [], ["G", "D", "C"]),
        ("坐普通列车，不坐高铁", [], ["G", "D", "C"]),
        # A type permitted is no wish for it.
        ("坐慢车就行", [], []),
        # …but a 动车 permitted is an EMU, never a slow train: 也行 a G or a D, 就行 the D
        # named is enough.
        ("动车也行", ["G", "D"], []),
        ("坐动车就行", ["D"], []),
        ("动车就行 不用高铁", ["D"], ["G"]),
        # What will do instead of a thing refused is wished for.
        ("不要硬座了，动车就行", ["D"], []),
        ("不坐夜车，白天的高铁就可以", ["G"], []),
    ],
)
def test_conventional_trains_and_permitted_types(parse, text, types, refused):
    intent = parse("明天北京到天津，" + text)
    assert (intent.train_types, intent.exclude_train_types) == (types, refused)


@pytest.mark.parametrize(
    ("text", "seat"),
    [
        ("二等座", SeatClass.SECOND),
        ("一等座", SeatClass.FIRST),
        ("商务座", SeatClass.BUSINESS),
        ("硬卧", SeatClass.HARD_SLEEPER),
        ("高级软卧", SeatClass.PREMIUM_SLEEPER),
        ("动卧", SeatClass.EMU_SLEEPER),
        ("无座", SeatClass.NO_SEAT),
    ],
)
def test_seat_classes(parse, text, seat):
    assert parse("明天北京到上海，" + text).seat_class is seat


def test_bare_sleeper_is_a_preference_not_a_class(parse):
    intent = parse("后天晚上从北京西到西安北的卧铺")
    assert intent.preferences == ["卧铺"] and intent.seat_class is None


@pytest.mark.parametrize(
    ("text", "field", "span"),
    [
        ("明天早上出发", "depart_window", "06:00-10:00"),
        ("明天上午出发", "depart_window", "06:00-12:00"),
        ("明天下午出发", "depart_window", "12:00-18:00"),
        ("后天晚上到成都", "arrive_window", "18:00-23:59"),
        ("明天中午前到上海", "arrive_window", "00:00-12:00"),
        ("早上8点以后出发", "depart_window", "08:00-23:59"),
        ("下午3点前到", "arrive_window", "00:00-15:00"),
    ],
)
def test_times_of_day(parse, text, field, span):
    window = getattr(parse(text), field)
    assert window is not None and window.span() == span


def test_train_numbers_are_extracted_uppercase_and_deduplicated(parse):
    intent = parse("北京到上海的g3和G5，还有G3")
    assert intent.train_numbers == ["G3", "G5"]


@pytest.mark.parametrize(
    ("text", "trains", "passengers"),
    [
        ("k 599 明天还有硬卧吗 北京到长沙", ["K599"], 1),
        ("明天上海到杭州 G  7345 有票没", ["G7345"], 1),
        ("后天南京到上海 d 2张", [], 2),  # a count after a spaced letter, no train
    ],
)
def test_a_train_number_typed_with_a_space_is_that_train(parse, text, trains, passengers):
    intent = parse(text)
    assert (intent.train_numbers, intent.passengers) == (trains, passengers)


@pytest.mark.parametrize(
    ("text", "trains", "passengers"),
    [
        ("后天坐D三一二从南京去上海", ["D312"], 1),
        ("明天北京到天津 c二零零三 还有票吗", ["C2003"], 1),
        ("K幺零七五 明天 要两张", ["K1075"], 2),
        ("后天G一百零二 上海到北京", ["G102"], 1),
        ("后天G一三七两张 南京南到北京南", ["G137"], 2),
        ("后天G一三七三张 南京南到北京南", ["G137"], 3),
        ("后天南京到上海 要G二等座", [], 1),  # a seat class after the letter, no train
        ("后天南京到上海 D一等座", [], 1),
    ],
)
def test_a_train_number_said_aloud_is_that_train(parse, text, trains, passengers):
    intent = parse(text)
    assert (intent.train_numbers, intent.passengers) == (trains, passengers)


@pytest.mark.parametrize(
    ("text", "trains"),
    [
        ("明天北京到天津，别坐C2001，C2003可以", ["C2003"]),
        ("D312那趟就不要了，后天南京去上海", []),
        ("不是K599，是K600", ["K600"]),
        ("G7不要一等座，要二等座", ["G7"]),  # the class refused, not the train
    ],
)
def test_a_train_turned_down_is_no_train_wished_for(parse, text, trains):
    assert parse(text).train_numbers == trains


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("改成下周六", "update"),
        ("换成两个人", "update"),
        ("再加一站杭州", "append"),
        ("顺便去苏州", "append"),
        ("北京到上海", "create"),
    ],
)
def test_action_cues(parse, text, action):
    assert parse(text).action == action


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("明天北京到上海", "query_tickets"),
        ("明天北京到上海玩两天", "plan_trip"),
        ("帮我订明天北京到上海的机票", "out_of_scope"),
        ("给我讲个笑话", "out_of_scope"),
    ],
)
def test_kind(parse, text, kind):
    assert parse(text).kind == kind


@pytest.mark.parametrize(
    "text",
    [
        "广州飞昆明的航班多少钱 高铁太贵了",
        "西安飞拉萨的机票贵不贵，比坐火车便宜吗",
        "到了三亚帮我约个包车去蜈支洲",
        "下周去上海瑞金医院看病，帮我挂个号",
        "上个月那张高铁票的发票在哪开",
    ],
)
def test_a_flight_weighed_against_the_train_or_a_service_beside_it_is_declined(parse, text):
    assert parse(text).kind == "out_of_scope"


@pytest.mark.parametrize(
    "text",
    [
        "后天中午前到长沙南 从武汉走 要赶飞机",
        "机票太贵了 帮我查下周五广州到桂林的火车票",
    ],
)
def test_a_flight_as_the_reason_or_the_foil_keeps_the_train(parse, text):
    assert parse(text).kind != "out_of_scope"


def test_parse_is_deterministic(parse):
    text = "下周五从北京去上海玩三天，预算两千左右"
    assert parse(text) == parse(text)


def test_a_night_slept_on_board_asks_for_a_berth(parse):
    from app.intent.model import SLEEPER_SET

    intent = parse("下周三从成都去西安，晚上出发车上睡一晚就到")
    assert set(intent.seat_classes) == set(SLEEPER_SET)
    # A class said outright is the traveller's own choice.
    stated = parse("下周三从成都去西安，软卧，睡一觉就到")
    assert (stated.seat_class, stated.seat_classes) == (SeatClass.SOFT_SLEEPER, [])


@pytest.mark.parametrize(
    ("text", "start"),
    [
        ("后天从杭州去南京，早上还得送孩子上学，中午再出发", dt.time(11, 0)),
        ("周四上午要开会，晚上才走，从济南去青岛", dt.time(18, 0)),
    ],
)
def test_the_part_of_the_day_left_then_is_the_rides_not_the_one_taken_up(parse, text, start):
    window = parse(text).depart_window
    assert window is not None and window.start == start


def test_the_first_train_to_get_there_is_the_earliest_arrival(parse):
    assert parse("后天从武汉去广州，最早能到的那趟").order == "earliest_arrival"
    assert parse("后天从武汉去广州，最早的那趟").order == "earliest"
