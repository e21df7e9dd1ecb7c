"""The intent model's derived fields stay within its own bounds."""

from __future__ import annotations

import datetime as dt

from app.intent.model import TravelIntent, with_derived_dates


def test_a_derived_range_longer_than_any_trip_is_dropped_not_invalid() -> None:
    intent = TravelIntent(date_start=dt.date(2026, 12, 1), date_end=dt.date(2027, 6, 1))
    derived = with_derived_dates(intent)
    assert derived.date_start == dt.date(2026, 12, 1)
    assert derived.date_end is None and derived.days is None
    TravelIntent.model_validate(derived.model_dump())  # still a valid intent


def test_a_duration_fills_the_end_date() -> None:
    intent = TravelIntent(date_start=dt.date(2026, 12, 4), days=3)
    assert with_derived_dates(intent).date_end == dt.date(2026, 12, 6)
