"""What is not train travel is declined, alone or beside a trip; the trip beside it stays, and a
flight or a hotel said only as the trip's context is no request (today 2026-11-30)."""

from __future__ import annotations

import datetime as dt

import pytest

from app.intent import texts
from app.intent.offline import parse_offline
from sources.stations import default_directory
from tests.app.intent.conftest import TODAY


@pytest.fixture
def parse(directory):
    return lambda text: parse_offline(text, TODAY, directory)


@pytest.mark.parametrize(
    "text",
    [
        # A ride in town, to or from the station.
        "下了车帮我叫辆车到酒店",
        "帮我约辆车，明早七点去南京南",
        "郑州东站出来坐几号线去二七广场",
        "从长沙南坐公交去橘子洲要多久",
        "出站以后出租车好打吗",
        # Flights, boats and coaches in other words.
        "国航飞昆明的航班几点起飞",
        "帮我在手机上值个机",
        "厦门去鼓浪屿的轮渡几点有",
        # Tours, papers, insurance, a car.
        "想找个靠谱的导游带我们逛桂林",
        "报个旅行团去青岛划算吗",
        "办签证要准备什么材料",
        "帮我买份意外险",
        "到了昆明想租辆车，租个车贵不贵",
        # What may be carried, the station's rooms, lost property, complaints, talk.
        "动车上让不让带宠物",
        "行李超重了怎么办",
        "南京南候车室几点开",
        "雨伞落在高铁上了",
        "我要投诉，空调太冷了",
        "无聊，陪我聊天",
        # The weather looked up: a place and a day are no trip.
        "帮我查查哈尔滨后天的天气",
        "昆明这几天多少度",
        "长春那边到底有多冷，穿几件合适",
        "漠河现在零下三十度了吧",
        "牡丹江冬天得穿几条秋裤啊",
        # Life beside the trip: work, exam results, a room.
        "苏州那边哪个厂在招工啊",
        "考研成绩什么时候出来",
        "在厦门帮我订间海景房",
        # Sights asked for: advice on a place, no ride.
        "张家界有什么好玩的，给推荐几个景点",
        "大理哪里好玩",
    ],
)
def test_what_is_not_train_travel_is_declined(parse, text):
    intent = parse(text)
    assert intent.kind == "out_of_scope", intent
    assert intent.missing == []


@pytest.mark.parametrize(
    ("text", "topic"),
    [
        ("12月5日从南京去上海，到了上海帮我叫辆车", "other"),
        ("周六长沙到桂林的动车，顺便订间大床房", "hotel"),
        ("下周一青岛到郑州，郑州那边冷吗", "weather"),
        ("周六北京去哈尔滨看冰灯，那边零下二十度要穿几条秋裤", "weather"),
        ("后天从昆明到桂林，想带只狗狗一起", "other"),
        ("12月3日郑州到长沙的高铁，再帮我订张长沙飞厦门的机票", "other"),
    ],
)
def test_an_aside_is_declined_and_the_trip_beside_it_kept(parse, text, topic):
    intent = parse(text)
    assert intent.kind != "out_of_scope"
    assert intent.origin and intent.destination and intent.date_start
    assert intent.out_of_scope_topics == [topic]


@pytest.mark.parametrize(
    "text",
    [
        "12月5日从南京去上海虹桥，要赶晚上七点多的航班",
        "后天从青岛到郑州，不想坐飞机",
        "周六从长沙去桂林，民宿早就订好了",
        "12月4日从厦门到昆明，我们住的宾馆就在昆明站附近",
        "周五从郑州到南京出差，公司能报销",
    ],
)
def test_a_flight_or_hotel_said_as_context_asks_for_nothing(parse, text):
    intent = parse(text)
    assert intent.kind != "out_of_scope"
    assert intent.out_of_scope_topics == []


@pytest.mark.parametrize(
    ("text", "destination"),
    [
        ("后天从天津去大兴机场", "大兴机场"),
        ("后天从绵阳去双流机场", "双流机场"),
        ("后天从新乡去黄河景区", "黄河景区"),
        ("后天从武汉去郑州航空港，顺便订个酒店", "郑州航空港"),
    ],
)
def test_a_station_named_like_a_topic_is_a_place(text, destination):
    intent = parse_offline(text, TODAY, default_directory())
    assert intent.destination == destination
    assert intent.kind != "out_of_scope"
    assert intent.out_of_scope_topics == (["hotel"] if "酒店" in text else [])


def test_a_ride_within_one_city_is_no_train_ride(parse):
    # Both ends in one city: a ride no train makes, whatever the 火车站 in it.
    assert parse("从上海虹桥火车站坐地铁到人民广场").kind == "out_of_scope"


@pytest.mark.parametrize(
    ("question", "topic"),
    [
        ("帮我约个滴滴到车站", "other"),
        ("昆明那边要穿什么", "weather"),
        ("猫咪能带上车吗", "other"),
        ("桂林的景区门票贵吗", "other"),
        ("那边的大床房帮我订一间", "hotel"),
        ("票买了还能改签不", "change"),
        # What can be bought or eaten there is no ticket.
        ("桂林这会儿还吃得到正宗米粉吗", "other"),
        ("到了那边能买到芒果不", "other"),
    ],
)
def test_a_side_question_in_a_chat_is_declined_and_the_trip_stays(chat, question, topic):
    before = chat("12月5日从昆明去桂林").intent
    reading = chat("12月5日从昆明去桂林", question)
    assert reading.declined == topic
    assert reading.intent == before
    assert "只能" in texts.refusal(topic) and "火车" in texts.refusal(topic)


def test_a_flight_refused_in_a_chat_is_no_side_question(chat):
    reading = chat("12月5日从南京去上海", "飞机就不坐了，坐高铁")
    assert reading.declined is None
    assert reading.intent.train_types == ["G"]
    assert reading.intent.date_start == dt.date(2026, 12, 5)


@pytest.mark.parametrize(
    ("text", "ends", "topics"),
    [
        ("12月5日从南京到上海虹桥，然后坐飞机去厦门", ("南京", "上海虹桥"), []),
        ("12月5日从郑州到长沙南，到了坐地铁去五一广场", ("郑州", "长沙南"), []),
        ("12月5日从郑州到长沙南，再帮我约个车到五一广场", ("郑州", "长沙南"), ["other"]),
        ("后天青岛到郑州，另外订一张郑州飞昆明的机票", ("青岛", "郑州"), ["other"]),
        ("后天从长沙去桂林，不坐大巴了", ("长沙", "桂林"), []),
        ("后天从南京到上海虹桥，接着坐轮渡去崇明岛玩", ("南京", "上海虹桥"), []),
        # A ride to the station first: the station it reaches is where the train starts.
        ("12月5日坐地铁到郑州东，坐高铁去长沙", ("郑州东", "长沙"), []),
    ],
)
def test_a_ride_of_another_kind_after_the_train_leaves_the_train_trip(parse, text, ends, topics):
    # Told (然后坐飞机去…) it is context; asked for (帮我约个车…) it is declined beside the trip.
    intent = parse(text)
    assert (intent.origin, intent.destination) == ends
    assert intent.kind != "out_of_scope"
    assert intent.out_of_scope_topics == topics


@pytest.mark.parametrize("text", ["后天青岛飞昆明的机票多少钱", "青岛到郑州，机票多少钱"])
def test_a_flight_asked_for_the_trip_itself_is_declined(parse, text):
    assert parse(text).kind == "out_of_scope"


@pytest.mark.parametrize("question", ["还能买到卧铺票吗", "还能买到三张吗", "买得到上铺不"])
def test_a_ticket_asked_to_be_bought_in_a_chat_is_no_side_question(chat, question):
    reading = chat("12月5日从昆明去桂林", question)
    assert reading.declined is None


@pytest.mark.parametrize(
    ("text", "declined"),
    [
        # A coach hired is the whole ask (大巴 is also a station's name; 30座 a coach's size).
        ("周六从苏州去无锡 帮我包一辆30座的大巴", True),
        ("帮公司约个五十座大巴，下周一杭州到绍兴", True),
        ("下周一杭州到绍兴有大巴吗", True),
        # The coach beside a train asked for: the train trip stays.
        ("下周一杭州到绍兴的高铁票，到了再约个大巴去兰亭", False),
        ("下周一杭州到绍兴 要20张二等座 之后再包个大巴", False),
        ("下周一杭州到绍兴，大巴太慢了，看看高铁票", False),
    ],
)
def test_a_coach_alone_is_declined_and_beside_a_train_is_not(text, declined):
    intent = parse_offline(text, TODAY, default_directory())
    assert (intent.kind == "out_of_scope") is declined
    assert (intent.origin, intent.destination) == ("杭州", "绍兴") or declined
