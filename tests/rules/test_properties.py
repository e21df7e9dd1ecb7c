"""Properties of `plan` over random timetables: whatever the offers, what leaves is honest."""

from __future__ import annotations

import dataclasses
import datetime as dt

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules import DEFAULT_RULES, TripRequest, plan, validate
from rules.config import can_change
from rules.objective import change_cost, effective_order
from sources.models import Seat, SeatClass, SeatStatus, Station, TrainOffer
from tests.rules.factory import (
    BEIJING_SOUTH,
    BEIJING_WEST,
    DAY,
    FETCHED,
    HONGQIAO,
    NANJING_SOUTH,
    NOW,
    SHANGHAI_STATION,
    at,
    book,
)

settings.register_profile(
    "rules-properties",
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
PROFILE = settings.get_profile("rules-properties")

CITY_STATIONS = {
    "北京": (BEIJING_SOUTH, BEIJING_WEST),
    "上海": (HONGQIAO, SHANGHAI_STATION),
    "南京": (NANJING_SOUTH,),
}
RETURN_DAY = DAY + dt.timedelta(days=1)
# (origin, destination, date, first hour): hub legs are staggered so connections happen often.
LEGS = [
    ("北京", "上海", DAY, 0),
    ("北京", "南京", DAY, 6),
    ("南京", "上海", DAY, 9),
    ("上海", "北京", RETURN_DAY, 0),
    ("上海", "南京", RETURN_DAY, 6),
    ("南京", "北京", RETURN_DAY, 9),
]

seats = st.builds(
    Seat,
    seat_class=st.sampled_from(
        [SeatClass.SECOND, SeatClass.FIRST, SeatClass.HARD_SLEEPER, SeatClass.HARD_SEAT]
    ),
    # Mostly bookable, so that most examples produce itineraries worth checking.
    status=st.sampled_from([SeatStatus.AVAILABLE] * 6 + [SeatStatus.SOLD_OUT, SeatStatus.WAITLIST]),
    available=st.one_of(st.none(), st.integers(0, 9)),
    price=st.one_of(st.integers(50, 900).map(float), st.none()),
)
ride = st.tuples(
    st.integers(0, 180).map(lambda slot: slot * 5),  # departure minute after the first hour
    st.one_of(st.integers(20, 240), st.integers(240, 720)),  # duration in minutes
    st.integers(0, 1),  # origin station choice
    st.integers(0, 1),  # destination station choice
    st.sampled_from("GDZK"),
    st.lists(seats, min_size=2, max_size=4, unique_by=lambda s: s.seat_class),
)


def build(leg_index: int, number: int, spec: tuple) -> TrainOffer:
    origin, destination, day, first_hour = LEGS[leg_index]
    minute, duration, o, d, kind, seat_list = spec
    origins: tuple[Station, ...] = CITY_STATIONS[origin]
    destinations: tuple[Station, ...] = CITY_STATIONS[destination]
    depart = at(day, "00:00") + dt.timedelta(hours=first_hour, minutes=minute)
    return TrainOffer(
        train_number=f"{kind}{leg_index * 100 + number + 1}",
        origin_station=origins[o % len(origins)],
        destination_station=destinations[d % len(destinations)],
        depart_at=depart,
        arrive_at=depart + dt.timedelta(minutes=duration),
        duration_min=duration,
        seats=tuple(seat_list),
        fetched_at=FETCHED,
    )


timetables = st.lists(
    st.lists(ride, min_size=1, max_size=10), min_size=len(LEGS), max_size=len(LEGS)
).map(
    lambda legs: [build(i, n, spec) for i, specs in enumerate(legs) for n, spec in enumerate(specs)]
)
requests = st.builds(
    TripRequest,
    origin=st.just("北京"),
    destination=st.just("上海"),
    depart_date=st.just(DAY),
    nights=st.just(1),
    return_trip=st.booleans(),
    passengers=st.sampled_from([1, 1, 2, 3]),
    budget=st.one_of(st.none(), st.integers(100, 3000).map(float)),
    seat_class=st.sampled_from(
        [None, None, SeatClass.SECOND, SeatClass.FIRST, SeatClass.HARD_SLEEPER]
    ),
    max_transfers=st.integers(0, 1),
    allow_waitlist=st.booleans(),
    allow_night=st.booleans(),
)
clocks = st.sampled_from([NOW, NOW, at(DAY, "07:00")])


@PROFILE
@given(offers=timetables, request=requests, now=clocks)
def test_every_returned_itinerary_validates(offers, request, now):
    result = plan(request, book(*offers), now=now)
    for itinerary in result.itineraries:
        assert validate(itinerary, offers, allow_waitlist=request.allow_waitlist) == []


@PROFILE
@given(offers=timetables, request=requests, now=clocks)
def test_no_itinerary_contains_a_train_absent_from_its_input_or_already_gone(offers, request, now):
    rides = {offer.ride_key: offer for offer in offers}
    for itinerary in plan(request, book(*offers), now=now).itineraries:
        for leg in itinerary.legs:
            key = (
                leg.train_number,
                leg.depart_at.date(),
                leg.origin_station.telecode,
                leg.destination_station.telecode,
            )
            assert key in rides
            assert rides[key].depart_at == leg.depart_at > now


@PROFILE
@given(offers=timetables, request=requests, now=clocks)
def test_every_connection_respects_the_minimums_and_maximum(offers, request, now):
    """Every change is within the minimum and `MAX_CONNECTION`, or a stop at the hub of up to
    `HUB_STOP_MAX_WAIT`, which the engine takes only where a segment has no regular route:
    when the plan without hub stops finds an itinerary, no change may be longer."""
    entries = book(*offers)
    itineraries = plan(request, entries, now=now).itineraries
    no_hub_stops = dataclasses.replace(DEFAULT_RULES, hub_stop_max_wait=0)
    regular = bool(plan(request, entries, now=now, config=no_hub_stops).itineraries)
    longest = DEFAULT_RULES.max_connection if regular else DEFAULT_RULES.hub_stop_max_wait
    for itinerary in itineraries:
        assert len(itinerary.transfers) <= request.max_transfers * len(
            {leg.segment for leg in itinerary.legs}
        )
        for change in itinerary.transfers:
            assert DEFAULT_RULES.min_connection(change.same_station) <= change.minutes
            assert change.minutes <= longest, (change, regular)
            assert change.same_station == (change.station == change.to_station)
            assert change.station.city == change.to_station.city
            assert can_change(change.station, change.to_station)  # inside one city proper


@PROFILE
@given(offers=timetables, request=requests, now=clocks)
def test_a_budget_fitting_claim_is_always_true(offers, request, now):
    result = plan(request, book(*offers), now=now)
    for itinerary in result.itineraries:
        total = round(sum(leg.price for leg in itinerary.legs), 2)
        assert total == itinerary.total_price
        if request.budget is not None:
            assert itinerary.within_budget is True
            assert total <= request.budget
            assert itinerary.remaining_per_day is not None and itinerary.remaining_per_day >= 0
        else:
            assert itinerary.within_budget is None


@PROFILE
@given(offers=timetables, request=requests, now=clocks)
def test_alternatives_are_distinct_ranked_and_explained(offers, request, now):
    result = plan(request, book(*offers), now=now)
    itineraries = result.itineraries
    assert len(itineraries) <= 3
    assert len({it.train_numbers for it in itineraries}) == len(itineraries)
    order = effective_order(request)
    if order is None:
        totals = [it.score.total for it in itineraries]
        assert totals == sorted(totals)
    else:
        # Ranked by the objective (`rules.objective`), the balanced score breaking near-ties.
        def figure(it):
            legs = it.legs
            hours = (legs[-1].arrive_at - legs[0].depart_at).total_seconds() / 3600
            return hours + change_cost(hours * 60, len(legs) - 1) / 60

        if order == "fastest" and itineraries:
            assert all(figure(itineraries[0]) <= figure(it) + 0.1 for it in itineraries)
    assert bool(itineraries) or bool(result.failures)
    for itinerary in itineraries:
        assert all(leg.reason for leg in itinerary.legs)
        assert all(day.items for day in itinerary.days)
