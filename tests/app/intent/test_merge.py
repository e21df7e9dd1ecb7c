"""Multi-turn slot filling: update, append, create, and filling what is missing."""

from __future__ import annotations

import datetime as dt

import pytest

from app.intent.merge import merge_intent, starts_over
from app.intent.model import TravelIntent
from app.intent.offline import parse_offline
from tests.app.intent.conftest import TODAY


@pytest.fixture
def turns(directory):
    def run(*texts: str):
        intent = parse_offline(texts[0], TODAY, directory)
        for text in texts[1:]:
            intent = merge_intent(intent, parse_offline(text, TODAY, directory))
        return intent

    return run


def test_changing_the_start_date_keeps_the_trip_length(turns):
    intent = turns("下周五从北京去上海玩三天", "换成下周六")
    assert intent.date_start == dt.date(2026, 12, 12)
    assert intent.date_end == dt.date(2026, 12, 14)
    assert intent.days == 3 and intent.action == "update"
    assert (intent.origin, intent.destination) == ("北京", "上海")


def test_update_replaces_only_what_the_turn_says(turns):
    intent = turns("下周五从北京去上海玩三天，预算两千", "预算改为3000")
    assert intent.budget == 3000 and intent.days == 3 and intent.destination == "上海"


def test_update_of_party_size_rescales_a_per_person_budget(turns):
    intent = turns("下周五从北京去上海，人均800", "换成两个人")
    assert intent.passengers == 2 and intent.budget == 1600


def test_append_moves_the_old_destination_into_via(turns):
    intent = turns("北京出发去西安住两晚", "再加一站成都")
    assert [(v.city, v.nights) for v in intent.via] == [("西安", 2)]
    assert intent.destination == "成都" and intent.origin == "北京"
    assert intent.action == "append"


def test_a_turn_that_only_fills_missing_fields_completes_the_intent(turns):
    intent = turns("下周末，预算2000", "北京到上海")
    assert (intent.origin, intent.destination) == ("北京", "上海")
    assert intent.date_start == dt.date(2026, 12, 12) and intent.budget == 2000
    assert intent.missing == [] and intent.kind == "plan_trip"


def test_answering_a_clarifying_question_fills_the_origin(turns):
    intent = turns("下周五去上海玩三天", "从南京出发")
    assert intent.origin == "南京" and intent.destination == "上海" and intent.missing == []


def test_a_different_destination_starts_over(turns):
    intent = turns("下周五从北京去上海玩三天，预算两千", "明天从广州去深圳")
    assert (intent.origin, intent.destination) == ("广州", "深圳")
    assert intent.budget is None and intent.days is None


def test_the_ends_of_a_named_trains_ride_are_no_new_trip():
    # The train's route gave its own first and last stations; the traveller's own ends from
    # the same origin narrow that ride: the train and its date stay.
    train = TravelIntent(
        origin="北京西", destination="深圳北", train_numbers=["G79"], date_start=TODAY
    )
    turn = TravelIntent(action="create", origin="北京", destination="广州", passengers=3)
    cities = {"北京西": "北京", "深圳北": "深圳"}
    route = ["北京", "石家庄", "武汉", "长沙", "广州", "深圳"]  # G79's stops, as cities
    assert not starts_over(train, turn, lambda name: cities.get(name, name), route)
    # With no train named, the same origin and another destination is a change of this trip
    # (还是从广州走，改去武汉): its day and party stay; both ends new is another trip.
    assert not starts_over(
        train.model_copy(update={"train_numbers": []}), turn, lambda n: cities.get(n, n), route
    )
    assert starts_over(
        train.model_copy(update={"train_numbers": []}),
        turn.model_copy(update={"origin": "上海"}),
        lambda n: cities.get(n, n),
        route,
    )
    elsewhere = turn.model_copy(update={"origin": "上海"})
    assert starts_over(train, elsewhere, lambda name: cities.get(name, name), route)


def test_ends_the_named_train_does_not_call_at_are_a_new_trip():
    # G79 does not call at 上海; nor does it run 广州→北京; with its route unknown nothing says
    # the ride is the train's.
    train = TravelIntent(
        origin="北京西", destination="深圳北", train_numbers=["G79"], date_start=TODAY
    )
    cities = {"北京西": "北京", "深圳北": "深圳"}
    route = ["北京", "石家庄", "武汉", "长沙", "广州", "深圳"]
    to_shanghai = TravelIntent(action="create", origin="北京", destination="上海")
    assert starts_over(train, to_shanghai, lambda name: cities.get(name, name), route)
    assert not starts_over(
        train,
        to_shanghai.model_copy(update={"destination": "广州"}),
        lambda name: cities.get(name, name),
        route,
    )
    assert starts_over(
        train,
        to_shanghai.model_copy(update={"destination": "广州"}),
        lambda name: cities.get(name, name),
    )


def test_out_of_scope_turn_leaves_the_trip_alone(turns):
    before = turns("下周五从北京去上海玩三天")
    assert turns("下周五从北京去上海玩三天", "帮我订个酒店") == before


def test_a_ride_between_stops_inside_the_named_trains_route_is_no_new_trip():
    # D-train 上海虹桥 → 苏州 → 南京南 → 合肥南 → 汉口: 南京 to 合肥 is a ride on it even
    # though neither is an end of the trip so far; 合肥 to 南京 runs against it.
    train = TravelIntent(
        origin="上海虹桥", destination="汉口", train_numbers=["D3001"], date_start=TODAY
    )
    cities = {"上海虹桥": "上海", "汉口": "武汉", "南京南": "南京", "合肥南": "合肥"}
    route = ["上海", "苏州", "南京", "合肥", "武汉"]
    inside = TravelIntent(action="create", origin="南京", destination="合肥南")
    assert not starts_over(train, inside, lambda name: cities.get(name, name), route)
    against = TravelIntent(action="create", origin="合肥", destination="南京")
    assert starts_over(train, against, lambda name: cities.get(name, name), route)
