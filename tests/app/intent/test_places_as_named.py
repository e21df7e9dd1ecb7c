"""Places as travellers name them (issue 22 item 1): typos by sound planned and said, city
nicknames, "X过去", "A有直达B", a place named before the stop as the origin, and the answer
to a place suggestion filling that slot with the rest of the trip kept."""

from __future__ import annotations

import datetime as dt

import pytest

from app.intent.model import TimeWindow, TravelIntent
from app.intent.offline import parse_offline
from app.intent.places import answer_to_suggestion, extract_route, heard_places
from sources.stations import StationDirectory, default_directory


@pytest.fixture(scope="module")
def official() -> StationDirectory:
    return default_directory()


@pytest.mark.parametrize(
    ("text", "origin", "destination"),
    [
        ("郑洲到洛阳 后天", "郑州", "洛阳"),
        ("我和我妈 重亲到成都 明天", "重庆", "成都"),
        ("明天去深证出差，从长沙南出发", "长沙南", "深圳"),
        ("乌鲁木其到库车 下周三", "乌鲁木齐", "库车"),
        ("呼市到锡林浩特 下周一", "呼和浩特", "锡林浩特"),
        ("额济纳看胡杨 呼市出发", "呼和浩特", "额济纳"),
        ("想去dali放松一下 昆明过去", "昆明", "大理"),
        ("吐鲁番 乌鲁木齐过去 2月1号", "乌鲁木齐", "吐鲁番"),
        ("北京有直达敦煌的火车吗", "北京", "敦煌"),
        ("我爸妈住桐乡 想去上海玩", "桐乡", "上海"),
        ("chengdu dao chongqing 周六", "成都", "重庆"),
        ("石家庄到北京 明天 九点之前要到北京西", "石家庄", "北京西"),
        # an airport by its everyday name: its own station, or the city when it has none
        ("明天在宝安机场下飞机 去东莞", "深圳机场", "东莞"),
        ("明天从首都机场去天津", "北京", "天津"),
        ("周四深圳北到广州南的商务座，他下午两点在广州有个会", "深圳北", "广州南"),
    ],
)
def test_the_route_is_read_as_the_traveller_said_it(
    official: StationDirectory, text: str, origin: str, destination: str
) -> None:
    route = extract_route(text, official)
    assert (route.origin, route.destination) == (origin, destination)
    assert route.via == []


def test_a_typo_is_only_taken_where_a_place_is_expected(official: StationDirectory) -> None:
    assert heard_places("郑洲到洛阳", official) == [(0, 2, "郑洲", "郑州")]
    # 张周 sounds like 漳州, but "买4张周五" has no place there.
    assert heard_places("帮我买4张周五南京到杭州的票", official) == []


def test_a_direction_is_kept_around_an_unknown_word(official: StationDirectory) -> None:
    route = extract_route("从上海去呜啦啦镇 周六 两个人", official)
    assert route.origin == "上海" and route.destination is None


def test_a_place_then_a_cue_then_a_place_without_a_station_keeps_its_direction(
    official: StationDirectory,
) -> None:
    # 西塘 has no station: 嘉兴到西塘 still starts at 嘉兴, it is no trip to 嘉兴.
    route = extract_route("嘉兴到西塘怎么走", official)
    assert (route.origin, route.destination, route.destination_text) == ("嘉兴", None, "西塘")


TRIP = TravelIntent(
    kind="plan_trip",
    destination="北京",
    date_start=dt.date(2026, 12, 2),
    passengers=2,
    depart_window=TimeWindow(start=dt.time(6), end=dt.time(12)),
    missing=["origin"],
    suggested_places={"origin": "武汉"},
)


@pytest.mark.parametrize(
    ("answer", "origin"),
    [("是武汉", "武汉"), ("对", "武汉"), ("是的！", "武汉"), ("不是，是无锡", "无锡")],
)
def test_the_answer_to_a_suggestion_fills_that_slot_and_keeps_the_trip(
    official: StationDirectory, answer: str, origin: str
) -> None:
    filled = answer_to_suggestion(TRIP, answer, official)
    assert filled is not None
    assert filled.origin == origin and filled.destination == "北京"
    assert filled.date_start == TRIP.date_start and filled.passengers == 2
    assert filled.depart_window == TRIP.depart_window
    assert filled.missing == [] and filled.suggested_places == {}


def test_a_turn_that_says_more_is_not_an_answer(official: StationDirectory) -> None:
    assert answer_to_suggestion(TRIP, "算了，改成后天从南京去杭州，三个人", official) is None
    assert answer_to_suggestion(TRIP, "不是", official) is None
    no_question = TRIP.model_copy(update={"suggested_places": {}})
    assert answer_to_suggestion(no_question, "对", official) is None


@pytest.mark.parametrize(
    "text",
    [
        "周六从北京西去石家庄，当天晚上回来，不要无座",
        "去年到过上海，这次从北京去南京",
        "下来再说，北京到天津",
    ],
)
def test_everyday_words_are_never_heard_as_places(official: StationDirectory, text: str) -> None:
    assert heard_places(text, official) == []


@pytest.mark.parametrize(
    ("text", "origin", "destination"),
    [
        ("晚上海口出发去三亚", "海口", "三亚"),
        ("周日早上海宁去杭州东", "海宁", "杭州东"),
        ("明晚上海到杭州", "上海", "杭州"),  # no name after 上海: 明晚 and 上海
        ("上午上杭州西那趟去衢州", "杭州西", "衢州"),
        # a weekday run into its hour is no station named by numerals (五五, 九三)
        ("这周五五点从大连回沈阳", "大连", "沈阳"),
        ("礼拜五五点下了班 大连到沈阳", "大连", "沈阳"),
    ],
)
def test_a_name_is_not_taken_across_a_time_word_into_another_name(
    official: StationDirectory, text: str, origin: str, destination: str
) -> None:
    route = extract_route(text, official)
    assert (route.origin, route.destination) == (origin, destination)


@pytest.mark.parametrize(
    ("text", "origin", "destination"),
    [
        # Pinyin with the sounds travellers confuse (zh/z, sh/s, ng/n), one word or two.
        ("明天从shenzen去guangzou", "深圳", "广州"),
        ("后天从wu han去chang sa", "武汉", "长沙"),
        # Two cities spelt alike: the likelier one.
        ("下周六从南京去suzhou玩两天", "南京", "苏州"),
        # A station of three characters typed with one of them by sound.
        ("周日从海拉尔去阿儿山", "海拉尔", "阿尔山"),
        ("周五去加格大奇，从哈尔滨出发", "哈尔滨", "加格达奇"),
        # An arrow typed as an emoji or a symbol is the route.
        ("周六 南京➡️合肥 两个人", "南京", "合肥"),
        ("明天宁波=>温州", "宁波", "温州"),
        # the verb before a going is no place spelt loosely (xiang qu: 想去, not 西安)
        ("wo xiang qu hangzhou, cong nanjing zou, mingtian", "南京", "杭州"),
        ("wo yao qu wuhan cong changsha chufa", "长沙", "武汉"),
    ],
)
def test_a_place_typed_loosely_is_the_place(
    official: StationDirectory, text: str, origin: str, destination: str
) -> None:
    intent = parse_offline(text, dt.date(2026, 12, 9), official)
    assert (intent.origin, intent.destination) == (origin, destination)


def test_a_station_typed_by_sound_is_said_back(official: StationDirectory) -> None:
    assert heard_places("周日去阿儿山", official) == [(3, 6, "阿儿山", "阿尔山")]
    # Three characters that are no station's sound stay words.
    assert heard_places("周五去家三口，从哈尔滨出发", official) == []


def test_cantonese_day_words_are_read(official: StationDirectory) -> None:
    intent = parse_offline("后日同阿妈由深圳去广州 搭动车", dt.date(2026, 12, 9), official)
    assert intent.date_start == dt.date(2026, 12, 11)
    assert (intent.origin, intent.destination, intent.passengers) == ("深圳", "广州", 2)
    intent = parse_offline("听朝由东莞去深圳", dt.date(2026, 12, 9), official)
    assert intent.date_start == dt.date(2026, 12, 10) and intent.depart_window is not None


@pytest.mark.parametrize("text", ["贵阳到荔波古镇 周六", "周六从贵阳去荔波古城逛逛"])
def test_a_station_towns_old_town_is_the_town_not_the_station_after_it(official, text):
    # 古镇 is also a station (in 中山): after a town's name it says the town's old town.
    route = extract_route(text, official)
    assert (route.origin, route.destination) == ("贵阳", "荔波")
    assert not route.via


@pytest.mark.parametrize(
    ("text", "destination"),
    [
        ("guiyang到libo古镇 周六", "荔波"),
        ("周六从贵阳去libo 古城", "荔波"),
        ("周六从贵阳去zhouzhuang古镇", None),
    ],
)
def test_a_spelt_towns_old_town_is_no_trip_to_the_station_guzhen(official, text, destination):
    assert extract_route(text, official).destination == destination


@pytest.mark.parametrize(
    ("text", "route"),
    [("hhht到wlmq 周五", ("呼和浩特", "乌鲁木齐")), ("周五从sjz去taiyuan", ("石家庄", "太原"))],
)
def test_a_city_typed_by_its_initials_is_that_city(official, text, route):
    found = extract_route(text, official)
    assert (found.origin, found.destination) == route


def test_a_prefecture_said_for_its_seat_is_the_seat(official):
    intent = parse_offline("周五从乌鲁木齐去伊犁", dt.date(2026, 12, 9), official)
    assert intent.destination == "伊宁"


@pytest.mark.parametrize(
    ("text", "destination"),
    [
        # A district said after its city is where in the city: any of its stations will do.
        ("周三从上海去南京江宁开会", "南京"),
        # The district's station said as a station is that station.
        ("周三从上海去南京江宁站", "江宁"),
    ],
)
def test_a_district_said_after_its_city_is_the_city(official, text, destination):
    assert extract_route(text, official).destination == destination


@pytest.mark.parametrize(
    ("text", "origin", "destination"),
    [
        # A new area with stations of its own, far from the city proper, is those stations,
        # said after its city or alone; the district where one is (海淀) is the city.
        ("人在北京海淀，周三去天津滨海新区办事", "北京", "滨海"),
        ("滨海新区到北京 下周一下午", "滨海", "北京"),
        ("周四从北京西城去雄安新区", "北京", "雄安"),
        # The city's station whose name runs into the district (北京西 in 北京西城) gives way.
        ("明天从杭州西湖区去上海", "杭州", "上海"),
        ("杭州西到上海 明天", "杭州西", "上海"),
    ],
)
def test_a_new_area_with_its_own_stations_is_those_stations(official, text, origin, destination):
    route = extract_route(text, official)
    assert (route.origin, route.destination) == (origin, destination)


def test_a_town_of_the_prefecture_said_after_its_city_stays_the_town(official):
    # 千岛湖 is 杭州's prefecture, 150 km from the city: the city before it names the prefecture.
    assert extract_route("下周从南京去杭州千岛湖玩", official).destination == "千岛湖"
    assert extract_route("成都都江堰，从重庆出发", official).destination == "都江堰"


def test_a_word_spelt_loosely_is_a_place_only_where_one_is_expected(
    official: StationDirectory,
) -> None:
    intent = parse_offline("明天zaoshang出发 苏州到无锡", dt.date(2026, 12, 9), official)
    assert (intent.origin, intent.destination) == ("苏州", "无锡")
    assert extract_route("lingchen chufa ye xing", official).origin is None


@pytest.mark.parametrize(
    "text", ["周五去南京 下午三点前到 上海出发", "周四去杭州见客户 中午之前得到 上海虹桥出发"]
)
def test_a_place_set_off_from_after_an_arrival_deadline_is_the_origin(official, text):
    intent = parse_offline(text, dt.date(2026, 12, 9), official)
    assert intent.origin in ("上海", "上海虹桥") and intent.destination in ("南京", "杭州")


@pytest.mark.parametrize(
    ("text", "destination"),
    [
        ("不是杭州市区，是去萧山", "杭州"),
        ("厦门不去了 改去泉州", "泉州"),
        ("不是去无锡，是回常州", "常州"),
    ],
)
def test_a_denied_place_is_no_place_of_the_trip(official, text, destination):
    route = extract_route(text, official)
    assert (route.origin, route.destination, route.via) == (None, destination, [])


@pytest.mark.parametrize(
    ("text", "origin", "destination"),
    [
        ("吉大放寒假了，周五回沈阳", "长春", "沈阳"),
        ("兰大也放假了 下周一回西宁", "兰州", "西宁"),
    ],
)
def test_a_school_on_holiday_is_where_one_goes_home_from(
    official: StationDirectory, text: str, origin: str, destination: str
) -> None:
    intent = parse_offline(text, dt.date(2026, 12, 20), official)
    assert (intent.origin, intent.destination) == (origin, destination)
    assert intent.return_trip is False


async def test_a_school_by_its_short_name_is_said_back_with_its_city(metrics) -> None:
    from app.intent import texts
    from app.intent.parser import IntentParser

    parser = IntentParser(directory=default_directory(), metrics=metrics, llm=None)
    outcome = await parser.parse("厦大放假了，后天回福州", dt.date(2026, 12, 20))
    assert (outcome.intent.origin, outcome.intent.destination) == ("厦门", "福州")
    assert texts.school_place("厦大", "厦门大学", "厦门") in outcome.warnings


@pytest.mark.parametrize(
    ("text", "origin", "destination"),
    [
        ("成都到一彬的动车 周六", "成都", "宜宾"),
        ("下周从重庆去五隆玩两天", "重庆", "武隆"),
        ("西安到宝机 明天上午", "西安", "宝鸡"),
    ],
)
def test_the_place_after_a_named_one_and_a_cue_is_heard_by_its_sound(
    official: StationDirectory, text: str, origin: str, destination: str
) -> None:
    route = extract_route(text, official)
    assert (route.origin, route.destination) == (origin, destination)


@pytest.mark.parametrize(
    "text",
    [
        "明天从北京去一趟",
        "上海到一场演出要多久",
        "从广州去路演的",
        "北京去义诊",
        "从杭州去南方玩",
        "从厦门去看海，",
        "周末从上海回复信息",
        "北京到一样的",
    ],
)
def test_everyday_words_after_a_place_and_a_cue_stay_words(
    official: StationDirectory, text: str
) -> None:
    assert heard_places(text, official) == []


@pytest.mark.parametrize(
    ("text", "origin", "destination"),
    [
        ("后天sh到nj 二等座", "上海", "南京"),
        ("周六从cd出发去cq", "成都", "重庆"),
        ("xa-zz 明天下午", "西安", "郑州"),
    ],
)
def test_a_big_citys_two_letters_beside_a_route_cue_are_the_city(
    official: StationDirectory, text: str, origin: str, destination: str
) -> None:
    route = extract_route(text, official)
    assert (route.origin, route.destination) == (origin, destination)


@pytest.mark.parametrize(
    "text",
    ["明天北京到上海 带张cd路上听", "sh 明天北京到上海", "明天北京到上海 bj同事一起"],
)
def test_two_letters_away_from_a_route_cue_name_no_city(
    official: StationDirectory, text: str
) -> None:
    route = extract_route(text, official)
    assert (route.origin, route.destination) == ("北京", "上海") and not route.via


@pytest.mark.parametrize(
    ("text", "origin", "destination"),
    [
        ("周六从长沙去邵阳下面的邵东", "长沙", "邵东"),
        ("从南宁去阳朔 桂林下面那个阳朔 周日", "南宁", "阳朔"),
        ("周六从长沙去邵阳 下面的事再说", "长沙", "邵阳"),
    ],
)
def test_a_prefecture_said_to_tell_which_town_is_no_stop(
    official: StationDirectory, text: str, origin: str, destination: str
) -> None:
    route = extract_route(text, official)
    assert (route.origin, route.destination, route.via) == (origin, destination, [])


@pytest.mark.parametrize(
    ("text", "origin", "destination"),
    [
        # the train boarded at a station names where the ride starts
        ("明天去南京 还是虹桥上G7004 二等座", "上海虹桥", "南京"),
        ("周三去天津 照旧北京南站上C2001", "北京南", "天津"),
    ],
)
def test_the_station_a_train_is_boarded_at_is_the_origin(
    official: StationDirectory, text: str, origin: str, destination: str
) -> None:
    intent = parse_offline(text, dt.date(2026, 12, 7), official)
    assert (intent.origin, intent.destination) == (origin, destination)
