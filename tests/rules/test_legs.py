"""Which city-to-city queries a trip needs."""

from __future__ import annotations

import datetime as dt

import pytest
from pydantic import ValidationError

from rules import LegKey, TripRequest, ViaStop, required_legs, transfer_legs
from tests.rules.factory import DAY


def day(offset: int) -> dt.date:
    return DAY + dt.timedelta(days=offset)


def test_round_trip_with_nights_returns_after_the_stay():
    request = TripRequest(origin="北京", destination="上海", depart_date=DAY, nights=3)
    assert required_legs(request) == [LegKey("北京", "上海", DAY), LegKey("上海", "北京", day(3))]


def test_return_date_wins_over_nights():
    request = TripRequest(
        origin="北京", destination="上海", depart_date=DAY, return_date=day(1), nights=5
    )
    assert required_legs(request)[-1] == LegKey("上海", "北京", day(1))


def test_one_way_and_undated_return_have_only_onward_legs():
    one_way = TripRequest(origin="北京", destination="上海", depart_date=DAY, return_trip=False)
    undated = TripRequest(origin="北京", destination="上海", depart_date=DAY)
    assert required_legs(one_way) == required_legs(undated) == [LegKey("北京", "上海", DAY)]


def test_multi_city_chains_via_stops_with_their_nights():
    request = TripRequest(
        origin="北京",
        destination="成都",
        depart_date=DAY,
        via=(ViaStop("西安", 2),),
        return_date=day(4),
    )
    assert required_legs(request) == [
        LegKey("北京", "西安", DAY),
        LegKey("西安", "成都", day(2)),
        LegKey("成都", "北京", day(4)),
    ]


def test_return_before_the_last_onward_leg_is_refused():
    with pytest.raises(ValidationError):
        TripRequest(
            origin="北京",
            destination="成都",
            depart_date=DAY,
            via=(ViaStop("西安", 2),),
            return_date=day(1),
        )


def test_transfer_legs_pair_each_hub_and_skip_the_ends_and_repeats():
    leg = LegKey("北京", "上海", DAY)
    assert transfer_legs(leg, ["南京", "北京", "上海", "南京", "济南"]) == [
        LegKey("北京", "南京", DAY),
        LegKey("南京", "上海", DAY),
        LegKey("北京", "济南", DAY),
        LegKey("济南", "上海", DAY),
    ]
