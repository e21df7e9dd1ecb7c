"""The engine's view of an intent: what a stated preference lifts or keeps."""

from __future__ import annotations

import datetime as dt

import pytest

from app.agent.trip import trip_request
from app.intent.model import TravelIntent
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
