"""The engine's view of an intent: what a stated preference lifts or keeps."""

from __future__ import annotations

import datetime as dt

import pytest

from app.agent.trip import trip_request
from app.intent.model import TravelIntent, with_end_said
from sources.stations import curated_directory

TODAY = dt.date(2026, 12, 1)


def request_for(**fields: object):
    intent = TravelIntent(
        origin="广州南", destination="深圳北", date_start=dt.date(2026, 12, 3), **fields
    )
    return trip_request(intent, curated_directory(), today=TODAY, warnings=[])


@pytest.mark.parametrize("order", ["earliest", "latest"])
def test_asking_the_first_or_last_train_lifts_the_night_default(order: str) -> None:
    # 最晚一班 means the last train of the day, even one that arrives after 23:00.
    assert request_for(order=order).allow_night is True


@pytest.mark.parametrize("order", [None, "cheapest", "fastest"])
def test_other_orders_keep_the_night_default(order: str | None) -> None:
    assert request_for(order=order).allow_night is False


def test_an_arrival_window_without_a_day_means_arriving_the_day_of_departure() -> None:
    # 中午之前到 is the departure day, not any noon (a 23-hour ride arriving the next morning).
    noon = {"start": "00:00", "end": "12:00", "label": "中午之前"}
    assert request_for(arrive_window=noon).arrive_date == dt.date(2026, 12, 3)
    # 晚上走、早上到: the only morning after an evening departure is the next one.
    evening = {"start": "18:00", "end": "23:59", "label": "晚上"}
    morning = {"start": "06:00", "end": "10:00", "label": "早上"}
    overnight = request_for(depart_window=evening, arrive_window=morning)
    assert overnight.arrive_date == dt.date(2026, 12, 4)


def test_a_stated_arrival_day_is_kept_and_no_window_sets_none() -> None:
    morning = {"start": "06:00", "end": "10:00", "label": "早上"}
    stated = request_for(arrive_window=morning, arrive_date=dt.date(2026, 12, 4))
    assert stated.arrive_date == dt.date(2026, 12, 4)
    assert request_for().arrive_date is None


def test_a_city_named_means_its_city_proper_and_a_station_named_keeps_its_whole_city() -> None:
    from sources.stations import default_directory

    def opened(origin: str, destination: str, *via: str) -> frozenset[str]:
        intent = TravelIntent(
            origin=origin,
            destination=destination,
            date_start=dt.date(2026, 12, 3),
            via=[{"city": stop} for stop in via],
        )
        return trip_request(intent, default_directory(), today=TODAY, warnings=[]).open_cities

    assert opened("杭州", "金华") == frozenset()  # 金华 is 金华 and 金华南, not 义乌
    assert opened("杭州", "义乌") == {"金华"}  # the exact station 义乌 narrows it
    # A via stop keeps no exact station: a town among them is keyed as its own place.
    assert opened("上海", "北京", "义乌") == {"义乌"}
    # 延边 has no station named after it (延吉, 敦化…): every one of its stations counts.
    assert opened("长春", "延边") == {"延边"}


def test_a_bound_said_with_a_part_of_the_day_chooses_no_night_hours() -> None:
    # 早上九点以前走: a 03:00 seat is no 早上 train; 九点前走 alone is the traveller's hours.
    morning = {"start": "00:00", "end": "09:00", "label": "早上九点以前"}
    assert request_for(depart_window=morning).allow_night is False
    bare = {"start": "00:00", "end": "09:00", "label": "九点以前"}
    assert request_for(depart_window=bare).allow_night is True


def test_a_bound_said_with_a_part_of_the_day_keeps_the_night_default_beside_an_evening_home() -> (
    None
):
    # 下午三点前出发 beside 晚上回来: the evening chooses the night hours of the ride home
    # only, so the ride out keeps the night rule (no 03:00 seat; a berth boarded at midnight,
    # the night's lodging, stays possible, which a window cut at 06:00 would not allow).
    afternoon = {"start": "00:00", "end": "15:00", "label": "下午三点前出发"}
    evening = {"start": "18:00", "end": "23:59", "label": "晚上"}
    request = request_for(
        depart_window=afternoon,
        return_window=evening,
        return_trip=True,
        date_end=dt.date(2026, 12, 4),
    )
    assert request.depart_window == (dt.time(0, 0), dt.time(15, 0))
    assert (request.allow_night, request.return_allow_night) == (False, True)


def test_an_hour_said_of_the_ride_home_lifts_the_night_default_of_that_ride_only() -> None:
    late_home = {"start": "20:00", "end": "23:59", "label": "晚上八点以后"}
    request = request_for(return_window=late_home, return_trip=True, date_end=dt.date(2026, 12, 5))
    assert (request.allow_night, request.return_allow_night) == (False, True)
    early_out = {"start": "00:00", "end": "07:00", "label": "七点前"}
    request = request_for(depart_window=early_out, return_trip=True, date_end=dt.date(2026, 12, 5))
    assert (request.allow_night, request.return_allow_night) == (True, False)
    # A berth or the first train of the day is said of the whole trip.
    request = request_for(order="earliest", return_trip=True, date_end=dt.date(2026, 12, 5))
    assert (request.allow_night, request.return_allow_night) == (True, True)


@pytest.mark.parametrize("order", ["earliest", "latest"])
def test_the_first_or_last_train_home_lifts_the_night_default_of_the_ride_home_only(
    order: str,
) -> None:
    # 回程最晚一班 had sent the outbound off at 03:48 on a hard seat to save 67 yuan.
    request = request_for(return_order=order, return_trip=True, date_end=dt.date(2026, 12, 3))
    assert (request.allow_night, request.return_allow_night) == (False, True)


def test_the_origin_named_again_with_no_stay_is_a_mention_not_a_stop() -> None:
    # 上海工地活干完了…12月26号…上海到信阳: the first 上海 had been a stop of a night before
    # leaving, so the ride moved to the 27th.
    from app.intent.model import ViaStop

    mention = request_for(via=[ViaStop(city="广州")])
    assert mention.depart_date == dt.date(2026, 12, 3) and mention.via == ()
    stay = request_for(via=[ViaStop(city="广州", nights=1)])
    assert stay.depart_date == dt.date(2026, 12, 4)


def test_home_the_day_the_last_stop_is_reached_when_so_said() -> None:
    # 周四去佛山住一晚，周五去深圳，周五晚上回广州: no night at the last stop.
    evening = {"start": "18:00", "end": "23:59", "label": "晚上"}
    intent = TravelIntent(
        origin="广州",
        destination="深圳",
        via=[{"city": "佛山", "nights": 1}],
        date_start=dt.date(2026, 12, 3),
        date_end=dt.date(2026, 12, 4),
        nights=0,
        return_trip=True,
        return_window=evening,
    )
    request = trip_request(intent, curated_directory(), today=TODAY, warnings=[])
    assert request.return_date == dt.date(2026, 12, 4)
    assert request.return_window == (dt.time(18, 0), dt.time(23, 59))


def test_a_stop_added_late_keeps_a_night_there_and_the_ride_homes_own_wishes() -> None:
    # 再加一站深圳 after a day home was set: a night at the last stop, 晚上回 still the ride's.
    evening = {"start": "18:00", "end": "23:59", "label": "晚上"}
    intent = TravelIntent(
        origin="广州",
        destination="深圳",
        via=[{"city": "佛山", "nights": 1}],
        date_start=dt.date(2026, 12, 3),
        date_end=dt.date(2026, 12, 4),
        return_trip=True,
        return_window=evening,
        return_order="latest",
    )
    request = trip_request(intent, curated_directory(), today=TODAY, warnings=[])
    assert (request.return_date, request.nights) == (None, 1)
    assert request.return_window is not None and request.return_order == "latest"


def test_a_town_with_its_own_station_stopped_at_on_the_way_is_that_town() -> None:
    from sources.stations import default_directory

    intent = TravelIntent(
        origin="西安",
        destination="兰州",
        date_start=dt.date(2026, 12, 3),
        via=[{"city": "都江堰", "nights": 1}],
    )
    request = trip_request(intent, default_directory(), today=TODAY, warnings=[])
    # Not its prefecture (成都): the stop is the town, by its own stations.
    assert [stop.city for stop in request.via] == ["都江堰"]
    assert [town.name for town in request.towns] == ["都江堰"]


def test_nights_said_count_from_the_day_the_ride_there_arrives() -> None:
    # 过去住两晚: the nights are slept there, a night train out moves the ride home.
    two_nights = request_for(nights=2, date_end=dt.date(2026, 12, 5), return_trip=True)
    assert two_nights.stay_from_arrival is True
    # 周六回 with no nights said: the day home is the traveller's own.
    day_home = request_for(date_end=dt.date(2026, 12, 5), return_trip=True)
    assert day_home.stay_from_arrival is False
    # A day home said that the nights do not reach is the day said.
    later = request_for(nights=2, date_end=dt.date(2026, 12, 7), return_trip=True)
    assert later.stay_from_arrival is False
    assert request_for(nights=2, return_trip=False).stay_from_arrival is False


def test_a_day_home_said_with_the_nights_is_the_day_planned() -> None:
    # 住两晚，周六回: the Saturday was named, so no night train out may move it.
    said = with_end_said(request_intent(nights=2, date_end=dt.date(2026, 12, 5)), True)
    request = trip_request(said, curated_directory(), today=TODAY, warnings=[])
    assert request.return_date == dt.date(2026, 12, 5)
    assert request.stay_from_arrival is False


def request_intent(**fields: object) -> TravelIntent:
    return TravelIntent(
        origin="广州南",
        destination="深圳北",
        date_start=dt.date(2026, 12, 3),
        return_trip=True,
        **fields,
    )


def test_a_departure_said_around_an_hour_ranks_toward_the_half_hour_either_side() -> None:
    # 十点前后: any train from nine to eleven, but the one meant leaves near ten.
    around = {"start": "09:00", "end": "11:00", "label": "十点前后"}
    request = request_for(depart_window=around)
    assert request.depart_window == (dt.time(9, 0), dt.time(11, 0)), "still the filter"
    assert request.rank_window == (dt.time(9, 30), dt.time(10, 30))
    edges = {"start": "09:00", "end": "11:00", "label": "9点到11点"}
    assert request_for(depart_window=edges).rank_window is None, "edges said are the wish"


def test_noon_alone_and_a_ride_home_said_around_an_hour_rank_toward_that_hour() -> None:
    # 中午走: any train from eleven to two, the one meant near half past twelve; 回来也九点
    # 左右: the ride home ranked toward nine as the ride out is.
    noon = {"start": "11:00", "end": "14:00", "label": "中午"}
    assert request_for(depart_window=noon).rank_window == (dt.time(12, 0), dt.time(13, 0))
    home = {"start": "08:00", "end": "10:00", "label": "9点左右"}
    request = trip_request(
        request_intent(date_end=dt.date(2026, 12, 5), return_window=home),
        curated_directory(),
        today=TODAY,
        warnings=[],
    )
    assert request.return_window == (dt.time(8, 0), dt.time(10, 0))
    assert request.return_rank_window == (dt.time(8, 30), dt.time(9, 30))
