"""A ride on from where the trip ends, asked about on its own day (那从X再去Y呢，周二), is a
trip of its own for the same party; said as the next stop (在X住两晚，然后去Y) it goes on
with the trip."""

from __future__ import annotations

import datetime as dt

import pytest

from app.intent.followup import TurnReading
from app.intent.model import TravelIntent


def trip(reading: TurnReading) -> TravelIntent:
    assert reading.declined is None
    return reading.intent


@pytest.mark.parametrize(
    "asked",
    [
        "那从大理再去丽江呢，下周一",
        "那再从大理去丽江呢？周一走",
        "然后从大理再去丽江怎么样，下周一",
    ],
)
def test_a_ride_on_asked_about_on_its_own_day_is_a_trip_of_its_own(chat, asked):
    intent = trip(chat("周三从昆明去大理，动车，要最早的", "我们俩都是学生", asked))
    assert (intent.origin, intent.destination, intent.via) == ("大理", "丽江", [])
    assert intent.date_start == dt.date(2026, 12, 7) and not intent.return_trip
    assert (intent.passengers, intent.students) == (2, 2), "the party rides on"
    assert intent.order is None and intent.train_types == [], "the old ride's wishes stay"


def test_the_next_stop_said_as_such_still_goes_on_with_the_trip(chat):
    intent = trip(chat("我们俩下周五从昆明去大理", "在大理住两晚，然后再去丽江"))
    assert (intent.origin, intent.destination) == ("昆明", "丽江")
    assert [(v.city, v.nights) for v in intent.via] == [("大理", 2)]
