"""A chat turn that moves a ride's day or reshapes the stay: the old time wishes it replaces
go (the latest word wins), a day trip drops the nights, a stay said again is the stay."""

from __future__ import annotations

import datetime as dt

from app.intent.followup import TurnReading
from app.intent.model import TravelIntent, end_said

# The chat fixture's today is Monday 2026-11-30.
FRIDAY = dt.date(2026, 12, 4)
SATURDAY = dt.date(2026, 12, 5)


def trip(reading: TurnReading) -> TravelIntent:
    assert reading.declined is None
    return reading.intent


def test_a_new_day_and_hour_to_leave_drop_the_arrival_said_for_the_old_day(chat):
    intent = trip(chat("下周三从杭州去上海，中午前到", "改成周二傍晚走吧"))
    assert intent.date_start == dt.date(2026, 12, 8), "the Tuesday of the trip's week"
    assert intent.depart_window is not None and intent.depart_window.label == "傍晚"
    assert intent.arrive_window is None, "the deadline was Wednesday's ride's"


def test_an_hour_to_leave_that_no_ride_can_meet_with_the_old_arrival_replaces_it(chat):
    intent = trip(chat("明天从广州去深圳，早上到", "还是下午出发吧"))
    assert intent.depart_window is not None and intent.depart_window.span() == "12:00-18:00"
    assert intent.arrive_window is None


def test_an_hour_to_leave_that_fits_the_old_arrival_keeps_it(chat):
    intent = trip(chat("明天从广州去深圳，晚上到", "还是下午出发吧"))
    assert intent.depart_window is not None and intent.depart_window.span() == "12:00-18:00"
    assert intent.arrive_window is not None and intent.arrive_window.label == "晚上"


def test_an_evening_departure_and_a_morning_arrival_are_a_night_train(chat):
    intent = trip(chat("明天从北京去上海，早上到", "还是晚上走吧"))
    assert intent.arrive_window is not None, "a sleeper leaves at night and arrives at dawn"


def test_a_new_deadline_for_the_ride_home_on_another_day_drops_its_old_hours(chat):
    intent = trip(chat("周五从苏州去杭州", "周六下午回来", "还是周日吧，回来晚上八点前到"))
    assert intent.date_start == FRIDAY and intent.date_end == dt.date(2026, 12, 6)
    assert intent.return_arrive_window is not None
    assert intent.return_arrive_window.span() == "00:00-20:00"
    assert intent.return_window is None, "the afternoon was Saturday's"


def test_no_stay_after_all_is_a_day_trip_on_the_day_said(chat):
    intent = trip(
        chat("周五从苏州去杭州，下午走，住两晚，周日下午回来", "算了，不住了，周六当天来回")
    )
    assert intent.date_start == intent.date_end == SATURDAY
    assert intent.nights is None and intent.return_trip is True
    assert intent.depart_window is None and intent.return_window is None, "other days' hours"


def test_no_night_away_keeps_the_trip_day_and_its_hours(chat):
    intent = trip(chat("周五从苏州去杭州，上午走，住一晚", "不过夜了，当天晚上回"))
    assert intent.date_start == intent.date_end == FRIDAY
    assert intent.depart_window is not None and intent.depart_window.label == "上午"
    assert intent.return_window is not None and intent.return_window.label == "晚上"
    assert not intent.no_overnight, "no night away, night trains not in question"


def test_there_and_back_the_same_day_on_another_day(chat):
    intent = trip(chat("周五从苏州去杭州，住一晚", "改成周四当天往返"))
    assert intent.date_start == intent.date_end == dt.date(2026, 12, 3)
    assert intent.nights is None


def test_a_stay_said_again_is_the_stay(chat):
    intent = trip(chat("周五从苏州去杭州，住一晚", "那就住三晚吧"))
    assert intent.date_start == FRIDAY and intent.date_end == dt.date(2026, 12, 7)
    assert intent.nights == 3
    shorter = trip(chat("周五从苏州去杭州，玩四天", "改成住两晚"))
    assert shorter.date_end == dt.date(2026, 12, 6) and shorter.nights == 2


def test_wishes_of_the_first_sentence_are_older_than_any_said_in_a_turn(chat):
    intent = trip(chat("下周一从广州去桂林，要软卧，不要夜车", "还是下午出发吧"))
    assert intent.stated_order[-1] == "depart_window", "the latest word"
    older = intent.stated_order[:-1]
    assert "no_overnight" in older and ({"seat_class", "seat_classes"} & set(older))


def test_a_stay_said_with_the_day_home_keeps_the_day_out(chat):
    # The one day said is the ride home's: the stay is counted back from it, not on from it.
    for turn in ("那就住一晚，周六上午回", "当天回不来，周六上午再回"):
        intent = trip(chat("周五从苏州去杭州见客户，当天回", turn))
        assert (intent.date_start, intent.date_end) == (FRIDAY, SATURDAY), turn
        assert intent.return_window is not None and intent.return_window.label == "上午"


def test_both_rides_days_said_again_move_both(chat):
    intent = trip(chat("周五从苏州去杭州", "周六早上走 周日晚上回"))
    assert (intent.date_start, intent.date_end) == (SATURDAY, dt.date(2026, 12, 6))


def test_the_same_day_said_in_a_turn_is_the_outbound_day(chat):
    """同一天傍晚从无锡回南京: "that day" is the outbound's, not the day of the chat."""
    for words in ("同一天傍晚从无锡回南京", "当天晚上再从无锡回南京"):
        intent = trip(chat("周五从南京去无锡", words))
        assert intent.date_start == FRIDAY and intent.date_end == FRIDAY, words
        assert intent.return_trip is True


def test_the_same_day_with_its_part_and_a_must_is_a_day_trip_home_then(directory):
    """当天下午就得回苏州: the day is the outbound's, the part of the day the ride home's."""
    from app.intent.offline import parse_offline

    monday = dt.date(2026, 11, 30)
    intent = parse_offline("周五一早从苏州去杭州，当天下午就得回苏州", monday, directory)
    assert intent.date_start == FRIDAY and intent.date_end == FRIDAY
    assert intent.return_window is not None and intent.return_window.label == "下午"
    assert intent.depart_window is not None and intent.depart_window.label == "一早"


def test_a_must_or_the_ride_between_the_day_and_home_is_the_day_home(directory):
    """周日必须赶回来开会, 周日下午再坐高铁回来: the ride home's day all the same."""
    from app.intent.offline import parse_offline

    monday = dt.date(2026, 11, 30)
    sunday = dt.date(2026, 12, 6)
    for text in ("周五从苏州去杭州，周日必须赶回来开会", "周五从苏州去杭州，周日下午再坐高铁回来"):
        intent = parse_offline(text, monday, directory)
        assert intent.date_start == FRIDAY and intent.date_end == sunday, text
        assert intent.return_trip is True


def test_home_the_day_the_last_stop_is_reached_is_no_night_there(chat):
    """苏州住一晚，周六去无锡 … 周六傍晚从无锡回南京: home the day 无锡 is reached."""
    intent = trip(
        chat("周五从南京去苏州玩", "在苏州住一晚，周六再去无锡转转", "周六傍晚从无锡回南京")
    )
    assert intent.date_start == FRIDAY and intent.date_end == SATURDAY
    assert [(v.city, v.nights) for v in intent.via] == [("苏州", 1)]
    assert intent.nights == 0


def test_a_day_home_said_with_the_ride_home_moves_that_ride_alone(chat):
    # 下周一 = 12-07; the ride home moved to Wednesday, two nights after the ride out
    intent = trip(chat("下周一从南京去合肥，住一晚", "返程改到周三，住两晚"))
    assert (intent.date_start, intent.date_end) == (dt.date(2026, 12, 7), dt.date(2026, 12, 9))


def test_a_day_home_and_nights_that_disagree_with_the_ride_out_move_the_ride_out(chat):
    intent = trip(chat("下周一从南京去合肥，住一晚", "回来那天换成周四，住两晚"))
    assert (intent.date_start, intent.date_end) == (dt.date(2026, 12, 8), dt.date(2026, 12, 10))


def test_a_day_home_named_in_a_later_turn_is_said_and_nights_again_are_not(chat):
    # 过去住两晚, then 返程定在周五: the Friday is now the traveller's day home.
    named = trip(chat("周二从武汉去长沙，过去住两晚", "返程定在周五"))
    assert named.date_end == FRIDAY and end_said(named) is True
    # 还是住两晚吧 after a day home: the nights derive it again.
    nights = trip(chat("周二从武汉去长沙，周五回", "还是住两晚吧"))
    assert end_said(nights) is False


def test_the_eve_before_said_with_the_ride_home_drops_the_deadline_of_the_day_after(chat):
    # The business's hour was Saturday's deadline; arriving Friday evening meets it.
    intent = trip(
        chat("周六上午九点在无锡开会，从南京过去", "那就周五晚上先去住一晚，周六开完会回南京")
    )
    assert intent.date_start == FRIDAY
    assert intent.depart_window is not None and intent.depart_window.label == "晚上"
    assert intent.arrive_window is None


def test_the_weekday_ridden_on_is_moved_into_the_trips_week_not_the_first_said(chat):
    # The show is on Saturday; the ride is the Friday before it, in the trip's own week.
    intent = trip(chat("下周五从成都去重庆看演出", "演出周六上午 所以周五晚上九点前要到"))
    assert intent.date_start == dt.date(2026, 12, 11)


def test_a_sunday_said_against_a_trip_early_in_its_week_is_the_sunday_just_before(chat):
    # Today Monday 11-30; 下周二 is 12-08. The Sunday meant is 12-06, not 12-13.
    intent = trip(chat("下周二从南京去合肥", "周二来不及 换到周天下午走"))
    assert intent.date_start == dt.date(2026, 12, 6)
    # A trip late in its week keeps that week's Sunday.
    assert trip(chat("下周五从南京去合肥", "换到礼拜天")).date_start == dt.date(2026, 12, 13)


def test_next_week_said_to_correct_a_trip_already_on_that_day_is_a_week_later(directory):
    from app.intent.followup import read_turn, turn_text
    from app.intent.offline import parse_offline

    sunday = dt.date(2026, 12, 6)  # 周三 and 下周三 are both 12-09 to some
    first = parse_offline("下周三从无锡去南京开会", sunday, directory)
    assert first.date_start == dt.date(2026, 12, 9)
    said = "搞错了，是下个星期三，这周三开不了"
    turn = parse_offline(turn_text(said), sunday, directory)
    intent = read_turn(first, turn, said, today=sunday, city=lambda name: name).intent
    assert intent.date_start == dt.date(2026, 12, 16)
    assert (intent.origin, intent.destination) == ("无锡", "南京")
