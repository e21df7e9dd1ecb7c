"""A chat turn read as a change to the trip under discussion (returns, corrections, answers,
stops, the party, relative wishes, declined questions, new trips)."""

from __future__ import annotations

import datetime as dt

import pytest

from app.intent import texts
from app.intent.followup import TurnReading, read_turn, turn_text
from app.intent.model import SLEEPER_SET, PlanShown, TravelIntent
from app.intent.offline import parse_offline
from sources.models import SeatClass
from tests.app.intent.conftest import TODAY  # Monday 2026-11-30


def trip(reading: TurnReading) -> TravelIntent:
    assert reading.declined is None
    return reading.intent


def test_a_return_keeps_the_outbound_and_counts_its_weekday_from_the_outbound(chat):
    intent = trip(chat("下周六从广州去长沙", "周一回来"))
    assert (intent.origin, intent.destination) == ("广州", "长沙")
    assert intent.date_start == dt.date(2026, 12, 12), "the outbound stays"
    assert intent.date_end == dt.date(2026, 12, 14), "the Monday after that Saturday"
    assert intent.return_trip is True


def test_a_same_day_return_takes_the_outbound_day_and_its_own_window(chat):
    intent = trip(chat("明天北京去天津，九点前到", "当天晚上六点以后回北京"))
    assert intent.date_start == intent.date_end == dt.date(2026, 12, 1)
    assert intent.return_window is not None and intent.return_window.span() == "18:00-23:59"
    assert intent.arrive_window is not None and intent.arrive_window.span() == "00:00-09:00"
    assert (intent.origin, intent.destination) == ("北京", "天津")


def test_a_ride_from_the_destination_back_to_the_origin_is_the_return(chat):
    intent = trip(chat("下周三从昆明去丽江", "丽江回昆明，12月11日"))
    assert (intent.origin, intent.destination) == ("昆明", "丽江")
    assert (intent.date_start, intent.date_end) == (dt.date(2026, 12, 9), dt.date(2026, 12, 11))


def test_moving_the_return_moves_only_the_return(chat):
    intent = trip(chat("下周一合肥去南京", "周三下午回合肥", "回程改成周四"))
    assert intent.date_start == dt.date(2026, 12, 7)
    assert intent.date_end == dt.date(2026, 12, 10)
    assert intent.return_window is not None and intent.return_window.span() == "12:00-18:00"


def test_a_stay_said_with_the_return_is_nights_away(chat):
    intent = trip(chat("下周一从天津去北京", "住一个礼拜回来"))
    assert intent.date_end == dt.date(2026, 12, 14) and intent.nights == 7


def test_a_new_destination_alone_corrects_the_trip_and_keeps_the_rest(chat):
    intent = trip(chat("周六从昆明去大理，要最早的", "不对，是去丽江"))
    assert (intent.origin, intent.destination) == ("昆明", "丽江")
    assert intent.date_start == dt.date(2026, 12, 5) and intent.order == "earliest"


@pytest.mark.parametrize("fix", ["抱歉，不是杭州，是宁波，我说错了", "不是从杭州，而是从宁波"])
def test_a_place_put_right_replaces_the_end_it_denies(chat, fix):
    intent = trip(chat("下周二从杭州去上海，周四回", fix))
    assert (intent.origin, intent.destination) == ("宁波", "上海")
    assert intent.date_end == dt.date(2026, 12, 10) and intent.return_trip


def test_a_station_of_the_origin_city_is_a_new_boarding_station(chat):
    # "西安站" is the station 西安 alone (the directory reads it so), not any station of 西安.
    first = trip(chat("明天从西安北去郑州，十二点前到", "不是西安北，是西安站"))
    assert (first.origin, first.destination) == ("西安站", "郑州")
    again = trip(chat("明天从西安北去郑州，十二点前到", "不是西安北，是西安站", "那还是西安北吧"))
    assert (again.origin, again.destination) == ("西安北", "郑州")
    assert again.arrive_window is not None and again.date_start == dt.date(2026, 12, 1)


def test_a_ruled_out_station_gives_way_to_the_one_wanted(chat):
    intent = trip(chat("下周一从成都去重庆，要直达", "别从成都东上车，她就认成都站"))
    assert (intent.origin, intent.destination) == ("成都站", "重庆")
    assert intent.date_start == dt.date(2026, 12, 7) and "直达" in intent.preferences


def test_a_city_said_as_its_station_is_that_station_at_either_end(chat):
    intent = trip(chat("下周四去张家界玩", "从长沙出发", "对，就到张家界站"))
    assert (intent.origin, intent.destination) == ("长沙", "张家界站")
    intent = trip(chat("下周四从长沙去张家界", "到张家界西就行"))
    assert intent.destination == "张家界西", "a station's own name needs no 站"


def test_a_bare_place_answers_the_missing_origin(chat):
    intent = trip(chat("下周六去大理", "昆明"))
    assert (intent.origin, intent.destination) == ("昆明", "大理")
    assert intent.missing == []


def test_a_new_origin_and_destination_start_a_new_trip_even_from_the_last_stop(chat):
    intent = trip(chat("明天从深圳去广州，八点前出发，两个人", "另外下周三我一个人从广州去南宁"))
    assert (intent.origin, intent.destination) == ("广州", "南宁")
    assert intent.depart_window is None and intent.passengers == 1


def test_someone_elses_ride_the_other_way_is_a_trip_of_its_own_not_the_ride_home(chat):
    intent = trip(chat("周三从武汉去长沙 两个人", "另外周六我妈要从长沙回武汉，也帮她查一下"))
    assert (intent.origin, intent.destination) == ("长沙", "武汉")
    assert intent.date_start == dt.date(2026, 12, 5) and intent.date_end is None
    assert intent.return_trip is not True
    mine = trip(chat("周三从武汉去长沙 两个人", "另外周六从长沙回武汉的也帮我看看"))
    assert (mine.origin, mine.destination) == ("武汉", "长沙"), "the trip's own ride home"
    assert mine.date_end == dt.date(2026, 12, 5)


def test_another_trip_on_the_same_weekday_as_the_trip_shown_is_that_day(chat):
    intent = trip(chat("下周三从西安去郑州", "另外 我同事从武汉去郑州 也是周三"))
    assert (intent.origin, intent.destination) == ("武汉", "郑州")
    assert intent.date_start == dt.date(2026, 12, 9), "the trip's Wednesday, not this week's"
    plain = trip(chat("下周三从西安去郑州", "另外周三我从武汉去郑州"))
    assert plain.date_start == dt.date(2026, 12, 2), "a weekday said alone is the coming one"


def test_a_city_named_as_both_ends_and_set_off_from_is_the_new_origin(chat):
    intent = trip(chat("周五从杭州去合肥 上午走", "等下 我要先去苏州看朋友 然后从苏州出发"))
    assert (intent.origin, intent.destination) == ("苏州", "合肥")
    assert intent.date_start == dt.date(2026, 12, 4), "the day stays"
    assert intent.depart_window is not None and intent.depart_window.label == "上午"


def test_a_stop_on_the_way_is_inserted_before_the_destination(chat):
    intent = trip(chat("明天从昆明去丽江", "中间在大理住一晚"))
    assert (intent.origin, intent.destination) == ("昆明", "丽江")
    assert [(v.city, v.nights) for v in intent.via] == [("大理", 1)]


def test_going_on_from_the_last_stop_continues_the_trip(chat):
    intent = trip(chat("我们俩下周五从昆明去大理", "在大理住两晚，然后去丽江"))
    assert (intent.origin, intent.destination) == ("昆明", "丽江")
    assert [(v.city, v.nights) for v in intent.via] == [("大理", 2)]
    assert intent.date_start == dt.date(2026, 12, 11) and intent.passengers == 2


@pytest.mark.parametrize(
    ("texts", "party"),
    [
        (("明天北京去上海", "再加个同学"), 2),
        (("明天北京去上海，两个人", "她妈也去"), 3),
        (("明天北京去上海", "我老公陪我"), 2),
        (("明天北京去上海", "再加两个人"), 3),
        (("明天北京去上海，两个人", "我们三个人"), 3),
    ],
)
def test_companions_join_the_party_and_a_number_replaces_it(chat, texts, party):
    intent = trip(chat(*texts))
    assert intent.passengers == party and intent.destination == "上海"


def test_too_dear_asks_for_the_cheapest_and_a_dear_train_type_is_ruled_out(chat):
    assert trip(chat("明天北京去上海", "太贵了")).order == "cheapest"
    assert trip(chat("明天北京去上海", "太慢了")).order == "fastest"
    intent = trip(chat("明天深圳去长沙", "高铁太贵了，有卧铺吗"))
    assert "G" in intent.exclude_train_types and "G" not in intent.train_types


def test_a_bare_weekday_correction_is_that_day_of_the_trips_week(chat):
    assert trip(chat("下周五北京去上海", "改成周日")).date_start == dt.date(2026, 12, 13)
    assert trip(chat("下周五北京去上海", "换到周六")).date_start == dt.date(2026, 12, 12)


@pytest.mark.parametrize(
    ("question", "topic"),
    [
        ("高反怎么办啊", "other"),
        ("能帮她叫个接站吗", "other"),
        ("西安那边冷吗要带啥衣服", "weather"),
        ("要是赶不上末班车能退吗", "refund"),
        ("顺便订三间房", "hotel"),
        # What the question's words set is no change: a place asked about, the trip's fare.
        ("西安那边有什么好玩的", "other"),
        ("上海有什么好玩的", "other"),
        ("学生票买了以后能退吗", "refund"),
    ],
)
def test_a_side_question_is_declined_and_the_trip_stays(chat, question, topic):
    before = trip(chat("明天从北京去西安"))
    reading = chat("明天从北京去西安", question)
    assert reading.declined == topic
    assert reading.intent == before


def test_a_turn_that_changes_the_trip_is_no_side_question(chat):
    intent = trip(chat("明天从北京去西安", "西安那边冷吗，改成周六吧"))
    assert intent.date_start == dt.date(2026, 12, 5)
    intent = trip(chat("明天从北京去西安", "改去上海吧，有什么好玩的"))
    assert intent.destination == "上海"


def test_a_return_said_with_hours_and_no_day_comes_back_the_same_day(chat):
    intent = trip(chat("后天从广州去长沙出差，上午十点前到", "晚上回广州"))
    assert intent.date_end == intent.date_start == dt.date(2026, 12, 2)
    assert intent.return_window is not None and intent.return_window.span() == "18:00-23:59"
    stay = trip(chat("后天从广州去长沙，住两晚", "晚上回广州"))
    assert stay.date_end == dt.date(2026, 12, 4), "a stay said before keeps its day"


def test_a_bare_hour_is_read_nearest_the_plan_shown(chat, directory):
    def after(first: str, shown_at: str, text: str) -> TravelIntent:
        at = dt.time.fromisoformat(shown_at)
        shown = PlanShown(depart_at=at, arrive_at=at, total_price=100)
        so_far = parse_offline(first, TODAY, directory).model_copy(update={"shown": shown})
        turn = parse_offline(turn_text(text), TODAY, directory)
        return trip(read_turn(so_far, turn, text, today=TODAY, city=lambda n: n))

    late = after("下周五下午五点以后从北京去石家庄", "18:55", "太晚了，改成两点以后")
    assert late.depart_window is not None and late.depart_window.span() == "14:00-23:59"
    early = after("明天一早杭州去宁波", "02:15", "太早了，六点以后的")
    assert early.depart_window is not None and early.depart_window.span() == "06:00-23:59"
    said = after("下周五下午五点以后从北京去石家庄", "18:55", "改成早上八点以后")
    assert said.depart_window is not None and said.depart_window.start == dt.time(8, 0)
    # 别太早 is a wish for the morning's later hours, no complaint about an evening train.
    wish = after("这周六从上海去黄山，两天一夜", "19:06", "去的时候别太早，九点以后吧")
    assert wish.depart_window is not None and wish.depart_window.start == dt.time(9, 0)
    # So is a morning one cannot get up for, said as the reason.
    sleepy = after("下周二从成都去绵阳", "18:05", "我妈起不来，十点以后的吧")
    assert sleepy.depart_window is not None and sleepy.depart_window.start == dt.time(10, 0)


def test_too_early_leaves_after_the_plan_shown_and_earlier_leaves_before_it(chat, directory):
    shown = PlanShown(depart_at=dt.time(6, 36), arrive_at=dt.time(11, 4), total_price=561.5)
    trip_so_far = parse_offline("12月5日从北京去上海", TODAY, directory).model_copy(
        update={"shown": shown}
    )

    def after(text: str) -> TravelIntent:
        turn = parse_offline(turn_text(text), TODAY, directory)
        return trip(read_turn(trip_so_far, turn, text, today=TODAY, city=lambda n: n))

    later = after("太早了")
    assert later.depart_window is not None and later.depart_window.span() == "06:37-23:59"
    earlier = after("能早一点吗")
    assert earlier.depart_window is not None and earlier.depart_window.span() == "00:00-06:35"
    stated = after("太早了，十点以后")
    assert stated.depart_window is not None and stated.depart_window.span() == "10:00-23:59"
    assert later.date_start == dt.date(2026, 12, 5) and later.shown == shown


def test_a_return_asked_without_a_day_is_asked_for_and_the_next_day_said_fills_it(chat):
    asked = chat("下周五从北京去上海", "那回程呢")
    assert asked.question is not None and asked.intent.return_trip is True
    assert asked.intent.date_start == dt.date(2026, 12, 11) and asked.intent.date_end is None
    answered = trip(chat("下周五从北京去上海", "那回程呢", "周日"))
    assert answered.date_start == dt.date(2026, 12, 11)
    assert answered.date_end == dt.date(2026, 12, 13)


def test_a_shift_by_days_moves_the_trip_or_only_the_return(chat):
    earlier = trip(chat("12月10日从北京去上海玩三天", "提前一天"))
    assert (earlier.date_start, earlier.date_end) == (dt.date(2026, 12, 9), dt.date(2026, 12, 11))
    later = trip(chat("12月10日从北京去上海玩三天", "往后推两天"))
    assert (later.date_start, later.date_end) == (dt.date(2026, 12, 12), dt.date(2026, 12, 14))
    back = trip(chat("12月10日从北京去上海玩三天", "回程推迟一天"))
    assert (back.date_start, back.date_end) == (dt.date(2026, 12, 10), dt.date(2026, 12, 13))
    assert back.days == 4


@pytest.mark.parametrize(
    ("text", "party"), [("少一个人", 2), ("我不去了", 2), ("就我一个人去", 1), ("就她一个人", 1)]
)
def test_fewer_travellers_shrink_the_party(chat, text, party):
    intent = trip(chat("12月10日从北京去上海，三个人", text))
    assert intent.passengers == party and intent.date_start == dt.date(2026, 12, 10)


def test_yes_to_a_suggested_place_takes_it_and_keeps_the_rest(directory):
    # 哈尔冰 sounds like 哈尔滨 and is planned as it (said in warnings); 哈尔宝 is asked about.
    asked = parse_offline("元旦从沈阳去哈尔宝，两个人", TODAY, directory)
    assert asked.destination is None and asked.destination_text == "哈尔宝"
    turn = parse_offline(turn_text("对"), TODAY, directory)
    reading = read_turn(
        asked,
        turn,
        "对",
        today=TODAY,
        city=lambda name: name,
        suggest={"哈尔宝": "哈尔滨"}.get,
    )
    intent = trip(reading)
    assert (intent.origin, intent.destination, intent.destination_text) == ("沈阳", "哈尔滨", None)
    assert intent.passengers == 2 and intent.date_start == dt.date(2027, 1, 1)


def test_on_from_the_last_stop_and_home_again_keeps_the_stay_until_that_day(chat):
    intent = trip(chat("12月10日从昆明去大理", "12月12日从大理去丽江，然后回昆明"))
    assert (intent.origin, intent.destination) == ("昆明", "丽江")
    assert [(v.city, v.nights) for v in intent.via] == [("大理", 2)]
    assert intent.date_start == dt.date(2026, 12, 10) and intent.return_trip is True


def test_a_class_for_the_ride_home_alone_is_the_returns_and_not_the_outbounds(chat):
    reading = chat("下周一上海去北京，八点前出发", "周三晚上回", "回程换成卧铺")
    assert reading.question is None
    intent = trip(reading)
    assert intent.seat_classes == [] and "卧铺" not in intent.preferences
    assert set(intent.return_seat_classes) == set(SLEEPER_SET)
    assert intent.date_end == dt.date(2026, 12, 9) and intent.depart_window is not None
    named = trip(chat("下周一上海去北京", "周三回", "回程坐二等座吧"))
    assert named.return_seat_classes == ["second"] and named.seat_class is None


def test_a_train_type_or_an_order_for_the_ride_home_alone_is_the_returns(chat):
    intent = trip(chat("下周一上海去北京，坐卧铺", "周三晚上回", "回来坐高铁吧"))
    assert intent.return_train_types == ["G"] and intent.train_types == []
    refused = trip(chat("下周一上海去北京", "周三晚上回", "回程不坐高铁"))
    assert refused.return_train_types == ["D", "C", "Z", "T", "K"]
    assert refused.exclude_train_types == [], "the outbound keeps its own"
    latest = trip(chat("下周一上海去北京", "玩三天 回来的票也帮我看看", "回来那天要最晚的一班"))
    assert latest.return_order == "latest" and latest.order is None
    reading = chat("下周一上海去北京", "周三晚上回", "回程不要无座")
    assert reading.question == texts.RETURN_ONLY_WISH, "a refused class serves both rides"


def test_an_amount_asked_about_is_the_budget(chat):
    intent = trip(chat("周五从北京回哈尔滨，预算三百", "再加个同学，俩人六百够吗"))
    assert (intent.passengers, intent.budget) == (2, 600)
    assert trip(chat("周五从北京回哈尔滨", "两张够吗")).budget is None, "tickets, not money"
    assert trip(chat("周五从北京回哈尔滨", "G101行吗")).budget is None, "a train, not money"


def test_exclusions_accumulate_less_what_the_turn_asks_for(chat):
    intent = trip(chat("周五从北京去哈尔滨，不要无座", "也不要硬座"))
    assert intent.exclude_seat_classes == ["hard_seat", "no_seat"]
    intent = trip(chat("周五从北京去哈尔滨，不坐高铁", "也不要动车"))
    assert intent.exclude_train_types == ["G", "D"]
    new_trip = trip(chat("周五从北京去哈尔滨，不要无座", "另外周六从上海去杭州，不要硬座"))
    assert new_trip.exclude_seat_classes == ["hard_seat"], "another trip keeps its own"


def test_a_named_train_too_dear_opens_the_trip_to_any_train_between_its_cities(directory):
    # As the agent leaves it after "12月5号的G1": the train's own stations from its route.
    so_far = parse_offline("12月5日从北京南去上海虹桥", TODAY, directory)
    so_far = so_far.model_copy(update={"train_numbers": ["G1"]})
    turn = parse_offline(turn_text("太贵了"), TODAY, directory)
    city = {"北京南": "北京", "上海虹桥": "上海"}.get
    intent = trip(read_turn(so_far, turn, "太贵了", today=TODAY, city=city))
    assert intent.train_numbers == [] and intent.order == "cheapest"
    assert (intent.origin, intent.destination) == ("北京", "上海")


def test_a_class_too_dear_with_a_cheaper_one_named_keeps_the_named_train(directory):
    so_far = parse_offline("12月5日G7从北京南去上海虹桥，一等座", TODAY, directory)
    words = "一等座太贵了，有二等座吗"
    turn = parse_offline(turn_text(words), TODAY, directory)
    city = {"北京南": "北京", "上海虹桥": "上海"}.get
    intent = trip(read_turn(so_far, turn, words, today=TODAY, city=city))
    assert intent.train_numbers == ["G7"] and intent.seat_class is SeatClass.SECOND
    assert (intent.origin, intent.destination) == ("北京南", "上海虹桥")


@pytest.mark.parametrize("words", ["G7就算了，中午前到上海就行", "不坐G7了，中午前到上海就行"])
def test_a_named_train_turned_down_is_dropped_and_the_new_wishes_kept(directory, words):
    so_far = parse_offline("12月5日G7从北京南去上海虹桥，一等座", TODAY, directory)
    turn = parse_offline(turn_text(words), TODAY, directory)
    city = {"北京南": "北京", "上海虹桥": "上海"}.get
    intent = trip(read_turn(so_far, turn, words, today=TODAY, city=city))
    assert intent.train_numbers == [] and (intent.origin, intent.destination) == ("北京", "上海")
    assert intent.arrive_window is not None and intent.arrive_window.end == dt.time(12, 0)
    assert intent.seat_class is SeatClass.FIRST


def test_the_ride_home_dropped_and_returns_counted_from_the_outbound(chat):
    one_way = trip(chat("12月5日从北京去上海", "周日回来", "不回来了"))
    assert one_way.return_trip is False and one_way.date_end is None
    assert one_way.date_start == dt.date(2026, 12, 5)
    later = trip(chat("12月5日从北京去上海", "两天后回来"))
    assert later.date_end == dt.date(2026, 12, 7)
    after = trip(chat("12月5日从北京去上海", "后天回"))
    assert after.date_end == dt.date(2026, 12, 7), "后天 before the outbound counts from it"
    moved = trip(chat("12月5日从北京去上海", "提前到周五"))
    assert moved.date_start == dt.date(2026, 12, 4) and moved.destination_text is None


@pytest.mark.parametrize(
    ("said", "field", "value"),
    [
        ("九点前到就行", "arrive_window", "00:00-09:00"),
        ("太晚了，到了没车了", "destination_text", None),
        ("预算提高到一千", "budget", 1000),
    ],
)
def test_an_arrival_or_a_raise_is_no_place(chat, said, field, value):
    intent = trip(chat("12月5日从北京去上海", said))
    got = getattr(intent, field)
    assert (got.span() if field.endswith("window") else got) == value
    assert intent.destination == "上海" and intent.destination_text is None


@pytest.mark.parametrize(
    "question", ["要带身份证吗", "几点检票", "那边住哪里好", "要提前多久到车站"]
)
def test_more_side_questions_are_declined(chat, question):
    assert chat("12月5日从北京去上海", question).declined == "other"


def test_the_constraints_are_kept_in_the_order_last_said(chat):
    intent = trip(chat("明天从昆明去大理", "最便宜的 硬座就行", "还是上午走吧"))
    assert intent.stated_order == ["seat_class", "depart_window"]
    again = trip(chat("明天从昆明去大理", "最便宜的 硬座就行", "还是上午走吧", "要硬座"))
    assert again.stated_order == ["depart_window", "seat_class"], "said again: the latest"
    new_trip = trip(chat("明天从昆明去大理，硬座", "还是上午走吧", "另外周六从上海去杭州"))
    assert new_trip.stated_order == [], "another trip starts with nothing said"


def test_a_class_said_as_acceptable_too_lifts_the_class_required(chat):
    intent = trip(chat("这周五格尔木到拉萨 硬卧", "太贵了 硬座也行"))
    assert intent.seat_class is None and intent.seat_classes == []
    assert intent.order == "cheapest"
    assert trip(chat("明天从昆明去大理", "二等座就行")).seat_class == "second"


def test_a_night_train_accepted_after_all_lifts_no_overnight(chat):
    intent = trip(chat("下周六哈尔滨去漠河", "不要过夜的车", "行吧那就坐夜车，要卧铺"))
    assert not intent.no_overnight and intent.seat_classes
    assert trip(chat("下周六哈尔滨去漠河", "不要过夜的车", "还是不坐夜车")).no_overnight


@pytest.mark.parametrize(
    ("said", "window"),
    [
        ("7点前太早了 起不来 9点以后吧", "09:00-23:59"),
        ("上午还有课 下午三点以后的吧", "15:00-23:59"),
        ("晚上的车不要 要白天走的", "06:00-18:00"),
    ],
)
def test_hours_turned_down_are_no_window_and_those_asked_for_are(chat, said, window):
    intent = trip(chat("12月5日从广州去珠海", said))
    assert intent.depart_window is not None and intent.depart_window.span() == window


def test_a_day_said_with_hours_turned_down_is_kept(chat):
    intent = trip(chat("12月5日从北京去上海", "明天上午不行，下午吧"))
    assert intent.date_start == dt.date(2026, 12, 1)
    assert intent.depart_window is not None and intent.depart_window.span() == "12:00-18:00"


def test_both_rides_said_in_one_turn_set_both_days_and_both_windows(chat):
    intent = trip(chat("这周末跟男朋友去苏州玩 上海出发", "周六早上走 周日晚上回"))
    assert (intent.date_start, intent.date_end) == (dt.date(2026, 12, 5), dt.date(2026, 12, 6))
    assert intent.depart_window is not None and intent.depart_window.span() == "06:00-10:00"
    assert intent.return_window is not None and intent.return_window.span() == "18:00-23:59"


def test_both_rides_said_as_bare_weekdays_fall_in_the_trips_own_week(chat):
    # TODAY is Monday 11-30: 周六 alone would be this week's 12-05, but the trip is next week's.
    intent = trip(chat("下周末从杭州去黄山", "星期六上午出发，星期天下午回来"))
    assert (intent.date_start, intent.date_end) == (dt.date(2026, 12, 12), dt.date(2026, 12, 13))
    assert intent.depart_window is not None and intent.depart_window.label == "上午"
    intent = trip(chat("下周三从南京去上海", "周五走，下周一晚上回"))
    assert (intent.date_start, intent.date_end) == (dt.date(2026, 12, 11), dt.date(2026, 12, 14))


def test_a_class_said_before_the_ride_home_is_named_is_the_trips(chat):
    intent = trip(chat("下周二从南昌去杭州", "坐二等座就行，周四下午回来"))
    assert intent.seat_class is SeatClass.SECOND and not intent.return_seat_classes
    assert intent.date_end == dt.date(2026, 12, 10)
    intent = trip(chat("下周二从南昌去杭州", "要一等座。回程周四晚上杭州东回南昌西"))
    assert intent.seat_class is SeatClass.FIRST and not intent.return_seat_classes


def test_a_class_said_before_and_one_in_the_return_clause_split_between_the_rides(chat):
    intent = trip(chat("下周二从南昌去杭州", "去程一等座，回程周四坐硬卧"))
    assert intent.seat_class is SeatClass.FIRST
    assert intent.return_seat_classes == [SeatClass.HARD_SLEEPER]
    intent = trip(chat("下周二从南昌去杭州", "回程周四，坐一等座"))
    assert intent.seat_class is None and intent.return_seat_classes == [SeatClass.FIRST]


def test_no_night_said_in_the_clause_of_the_ride_home_is_that_rides_alone(chat):
    intent = trip(chat("周六晚上从成都去西安，坐卧铺", "下周二回来，不坐夜车，要白天的"))
    assert intent.return_no_overnight is True and not intent.no_overnight
    assert intent.depart_window is not None and intent.depart_window.label == "晚上"
    both = trip(chat("周六晚上从成都去西安，坐卧铺", "不要过夜，下周二回来"))
    assert both.no_overnight is True and not both.return_no_overnight
    both = trip(chat("周六从成都去西安", "下周二回来，来回都不要过夜"))
    assert both.no_overnight is True and not both.return_no_overnight


def test_on_again_from_the_last_stop_then_home_from_there(chat):
    intent = trip(chat("下周一从广州去深圳见客户", "周二再从深圳去厦门", "周三从厦门回广州"))
    assert (intent.origin, intent.destination) == ("广州", "厦门")
    assert [(v.city, v.nights) for v in intent.via] == [("深圳", 1)]
    assert intent.date_end == dt.date(2026, 12, 9) and intent.return_trip is True


def test_a_weekday_morning_moves_the_return_to_that_day(chat):
    intent = trip(chat("12月5日从上海去苏州", "周日晚上回", "回来改成周一早上吧 6点以后走"))
    assert intent.date_end == dt.date(2026, 12, 7)
    assert intent.return_window is not None and intent.return_window.start == dt.time(6, 0)


def test_a_longer_or_shorter_stay_moves_the_ride_home(chat):
    shorter = trip(chat("12月5日从北京去上海，住三晚", "少住一晚"))
    assert (shorter.nights, shorter.date_end) == (2, dt.date(2026, 12, 7))
    longer = trip(chat("12月5日从北京去上海，住三晚", "多待两天"))
    assert (longer.nights, longer.date_end) == (5, dt.date(2026, 12, 10))
    from_day = trip(chat("12月5日从北京去上海", "周日回来", "多住一晚"))
    assert from_day.date_end == dt.date(2026, 12, 7)


def test_a_place_without_a_station_after_到_is_still_a_place(chat):
    assert trip(chat("12月5日从上海出发", "到三清山")).destination_text == "三清山"


def test_a_bare_hour_said_with_too_early_is_read_later_than_the_plan(chat, directory):
    shown = PlanShown(depart_at=dt.time(10, 0), arrive_at=dt.time(14, 0), total_price=100)
    so_far = parse_offline("12月5日从北京去上海", TODAY, directory).model_copy(
        update={"shown": shown}
    )
    turn = parse_offline(turn_text("太早了，五点以后"), TODAY, directory)
    intent = trip(read_turn(so_far, turn, "太早了，五点以后", today=TODAY, city=lambda n: n))
    assert intent.depart_window is not None and intent.depart_window.span() == "17:00-23:59"


def test_a_bare_hour_is_read_within_the_trips_deadline(chat, directory):
    shown = PlanShown(depart_at=dt.time(7, 52), arrive_at=dt.time(9, 50), total_price=158)
    first = "12月7日青岛去济南，十点前要到济南"
    so_far = parse_offline(first, TODAY, directory).model_copy(update={"shown": shown})
    said = "太早了 有没有七点以后的"
    turn = parse_offline(turn_text(said), TODAY, directory)
    intent = trip(read_turn(so_far, turn, said, today=TODAY, city=lambda n: n))
    assert intent.depart_window is not None and intent.depart_window.span() == "07:00-23:59"


def test_a_word_ending_in_程_is_no_sound_alike_place(chat):
    intent = trip(chat("下周一从广州去深圳", "周二再从深圳去厦门", "全程都坐二等座"))
    assert intent.origin == "广州" and intent.seat_class == "second"


def test_going_on_keeps_the_stay_said_at_the_new_last_stop(chat):
    intent = trip(chat("下周二从上海去苏州", "苏州待三晚 然后去无锡住两晚"))
    assert (intent.origin, intent.destination) == ("上海", "无锡")
    assert [(v.city, v.nights) for v in intent.via] == [("苏州", 3)]
    assert intent.nights == 2


def test_going_on_with_only_the_new_stops_stay_keeps_the_first_stay(chat):
    intent = trip(chat("下周二从上海去苏州", "然后去无锡住两晚"))
    assert intent.destination == "无锡"
    assert intent.nights == 2


def test_switching_to_high_speed_drops_the_named_slow_train_and_its_berth(chat):
    intent = trip(chat("T110 后天郑州到西安有软卧吗", "还是坐动车吧 下午两点以后"))
    assert intent.train_numbers == []
    assert intent.seat_class is None
    assert set(intent.train_types) <= {"G", "D", "C"} and intent.train_types
    assert intent.depart_window is not None
    assert intent.depart_window.start == dt.time(14, 0)


def test_a_place_dropped_leaves_the_trip_and_the_old_rides_wishes_go_with_it(chat):
    intent = trip(chat("周五从上海去苏州，一等座", "苏州就不去了，换成南京去扬州，还是周五"))
    assert (intent.origin, intent.destination) == ("南京", "扬州")
    assert intent.via == []
    assert intent.date_start == dt.date(2026, 12, 4)
    assert intent.seat_class is None and intent.seat_classes == []


def test_the_ride_home_the_next_day_keeps_its_own_part_of_the_day(chat):
    intent = trip(chat("周六从广州去深圳听音乐会", "音乐会晚上九点才结束，回程第二天下午"))
    assert intent.date_end == dt.date(2026, 12, 6)
    assert intent.return_window is not None
    assert (intent.return_window.start, intent.return_window.end) == (
        dt.time(12, 0),
        dt.time(18, 0),
    )


def test_there_the_evening_before_moves_the_outbound_and_keeps_the_day_home(chat):
    intent = trip(chat("周日从北京去天津，当天回", "想逛早市，得头一天晚上过去，第二天逛完再回"))
    assert intent.date_start == dt.date(2026, 12, 5)
    assert intent.date_end == dt.date(2026, 12, 6)
    assert intent.return_trip is True


def test_the_ride_home_not_bought_yet_is_no_return(chat):
    """返程暂时不订 / 先不买回来的票: the way home is left open, so none is planned; a wish
    for it (返程不要太晚) still asks for one."""
    for words in ("返程暂时不订，看情况再说", "先不买回来的票", "回来的票就不要了"):
        dropped = trip(chat("12月5日从北京去上海", "周日回来", words))
        assert dropped.return_trip is False and dropped.date_end is None, words
        assert dropped.date_start == dt.date(2026, 12, 5)
    wished = trip(chat("12月5日从北京去上海", "周日回来", "返程不要太晚"))
    assert wished.return_trip is True and wished.date_end is not None


def test_a_town_set_off_from_in_the_destinations_prefecture_is_the_origin() -> None:
    # 想去昆山玩 … 从苏州走: 苏州 is 昆山's prefecture in the official list, yet the place the
    # trip sets off from, not a correction of the destination.
    from sources.stations import default_directory

    official = default_directory()

    def city(name: str) -> str | None:
        station = official.by_name(name)
        return station.city if station is not None else None

    first = parse_offline("下周六想去昆山玩", TODAY, official)
    turn = parse_offline(turn_text("从苏州走"), TODAY, official)
    intent = trip(read_turn(first, turn, "从苏州走", today=TODAY, city=city))
    assert (intent.origin, intent.destination) == ("苏州", "昆山")


def test_back_by_a_clock_the_next_day_is_the_ride_homes_deadline_not_its_hours(chat):
    intent = trip(chat("周三从苏州去杭州", "回程呢 次日晚上九点前回到苏州"))
    assert intent.return_arrive_window is not None
    assert intent.return_arrive_window.span() == "00:00-21:00"
    assert intent.return_window is None


def test_a_budget_per_head_said_after_the_day_home_counts_for_the_whole_party(chat):
    intent = trip(chat("周六从天津去北戴河 我们12个人", "周一回天津", "每人来回车票不超过150"))
    assert intent.passengers == 12
    assert intent.budget_per_person == 150 and intent.budget == 1800


def test_another_trip_after_the_one_under_discussion_keeps_its_party_and_its_week(chat):
    # Today is Monday 11-30; the trip is Saturday 12-19. "另外周一…" is the Monday after that
    # trip (12-21, not the coming one), for the same family (no party said again).
    intent = trip(
        chat("下下周六从长沙去桂林，两个大人一个5岁小孩", "另外周一想从桂林去南宁，也帮我看看")
    )
    assert (intent.origin, intent.destination) == ("桂林", "南宁")
    assert intent.date_start == dt.date(2026, 12, 21)
    assert (intent.passengers, intent.children) == (3, [5])


def test_a_class_named_after_the_sleeper_category_stands_for_it_and_a_berth_keeps_it(chat):
    intent = trip(chat("下周二晚上从北京去西安，坐卧铺", "硬卧就行，软卧太贵"))
    assert intent.seat_class == "hard_sleeper" and intent.seat_classes == []
    intent = trip(chat("下周二晚上从北京去西安，坐卧铺", "硬卧就行", "我爸也去，给他要下铺"))
    assert intent.seat_class == "hard_sleeper" and intent.seat_classes == []
    assert intent.passengers == 2
