"""Inventory drifts with time: deterministic per bucket, only ever going down, Juhe lagging."""

from __future__ import annotations

import datetime as dt

import pytest

from sources.models import SHANGHAI
from sources.sandbox.inventory import (
    AGGREGATOR_LAG,
    BUCKET,
    PRESALE,
    SaleState,
    bucket_start,
    is_hot,
    remaining_seats,
    ride_inventory,
)
from sources.stations import curated_directory

from .conftest import NOW, TRIP


def beijing_shanghai(timetable, date=TRIP):
    directory = curated_directory()
    return timetable.rides(directory.city_code("北京"), directory.city_code("上海"), date)


def test_same_bucket_gives_the_same_counts(timetable):
    ride = beijing_shanghai(timetable)[0]
    start = bucket_start(NOW)
    assert ride_inventory(ride, start) == ride_inventory(
        ride, start + BUCKET - dt.timedelta(seconds=1)
    )


def test_counts_never_rise_as_departure_approaches(timetable):
    rides = beijing_shanghai(timetable)
    for ride in rides:
        opens = ride.train.departs_at - PRESALE
        moments = [
            opens + dt.timedelta(hours=h) for h in range(0, int(PRESALE / dt.timedelta(hours=1)), 7)
        ]
        moments += [ride.train.departs_at - dt.timedelta(minutes=m) for m in (90, 60, 30, 10)]
        for seat_class in ride.train.seat_classes:
            counts = [remaining_seats(ride.train, seat_class, t) for t in moments]
            assert counts == sorted(counts, reverse=True), (ride.train.code, seat_class)


def test_counts_change_from_bucket_to_bucket_close_to_departure(timetable):
    rides = beijing_shanghai(timetable)
    changed = 0
    for ride in rides:
        before = ride.depart_at - dt.timedelta(hours=3)
        for seat_class in ride.train.seat_classes:
            if remaining_seats(ride.train, seat_class, before) != remaining_seats(
                ride.train, seat_class, before + BUCKET
            ):
                changed += 1
    assert changed >= 5


def test_sold_out_and_waitlist_states_appear_near_departure(timetable):
    states = set()
    for offset in range(3):
        for ride in beijing_shanghai(timetable, TRIP + dt.timedelta(days=offset)):
            for seat in ride_inventory(ride, ride.depart_at - dt.timedelta(hours=2)):
                states.add(seat.state)
    assert {SaleState.AVAILABLE, SaleState.SOLD_OUT, SaleState.WAITLIST} <= states


def test_a_few_hot_trains_sell_out_entirely_on_some_dates(timetable):
    hot = [
        train
        for offset in range(10)
        for train in timetable.trains(TRIP + dt.timedelta(days=offset))
        if is_hot(train)
    ]
    total = sum(len(timetable.trains(TRIP + dt.timedelta(days=o))) for o in range(10))
    assert 0 < len(hot) < total * 0.1
    train = hot[0]
    day_before = train.departs_at - dt.timedelta(days=1)
    assert all(remaining_seats(train, c, day_before) == 0 for c in train.seat_classes)


def test_presale_not_open_and_departed_trains_cannot_be_bought(timetable):
    ride = beijing_shanghai(timetable)[0]
    early = ride_inventory(ride, ride.depart_at - PRESALE - dt.timedelta(days=1))
    assert {s.state for s in early} == {SaleState.NOT_ON_SALE}
    gone = ride_inventory(ride, ride.depart_at + dt.timedelta(minutes=1))
    assert {s.state for s in gone} == {SaleState.CLOSED}
    assert all(s.remaining == 0 and not s.purchasable for s in early + gone)


def test_aggregator_lag_reads_an_earlier_bucket(timetable):
    for ride in beijing_shanghai(timetable):
        now = ride.depart_at - dt.timedelta(hours=2)
        lagged = ride_inventory(ride, now, lag=AGGREGATOR_LAG)
        assert lagged == ride_inventory(ride, now - AGGREGATOR_LAG)
        for late, early in zip(ride_inventory(ride, now), lagged, strict=True):
            assert late.remaining <= early.remaining


def test_inventory_needs_an_aware_clock(timetable):
    with pytest.raises(ValueError, match="aware"):
        bucket_start(dt.datetime(2026, 12, 1, 10, 0))


def test_buckets_are_ten_minutes_in_the_callers_zone():
    start = bucket_start(dt.datetime(2026, 12, 1, 10, 17, 42, tzinfo=SHANGHAI))
    assert start == dt.datetime(2026, 12, 1, 10, 10, tzinfo=SHANGHAI)
    assert start.utcoffset() == dt.timedelta(hours=8)
