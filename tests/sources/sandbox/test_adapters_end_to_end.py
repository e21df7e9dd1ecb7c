"""The real adapters read the sandbox vendors through the ASGI transport, faults included."""

from __future__ import annotations

import datetime as dt

import pytest

from sources.errors import (
    SourceBlocked,
    SourceParseError,
    SourceRateLimited,
    SourceServerError,
    TransientSourceError,
)
from sources.models import SHANGHAI, TicketQuery
from sources.partner import PartnerSource
from sources.rail12306 import Rail12306Source
from sources.sandbox import FaultConfig, create_12306_app, create_partner_app
from sources.stations import curated_directory

from .conftest import TRIP, client_for

EVENING_BEFORE = dt.datetime(2026, 12, 3, 20, 0, tzinfo=SHANGHAI)
QUERY = TicketQuery(origin="BJP", destination="SHH", date=TRIP)


@pytest.fixture
async def sources(timetable, sleep):
    faults = FaultConfig("12306", seed=1), FaultConfig("partner", seed=1)
    rail_app = create_12306_app(
        faults=faults[0],
        clock=lambda: EVENING_BEFORE,
        sleep=sleep,
        timetable=timetable,
        query_suffix="queryZ",
    )
    partner_app = create_partner_app(
        faults=faults[1], clock=lambda: EVENING_BEFORE, sleep=sleep, timetable=timetable
    )
    directory = curated_directory()
    async with client_for(rail_app) as rail_client, client_for(partner_app) as partner_client:
        yield (
            Rail12306Source("sandbox-12306", rail_client, "http://sandbox", directory),
            PartnerSource("sandbox-partner", partner_client, "http://sandbox", directory),
            faults,
        )


async def test_both_adapters_see_the_same_rides_at_the_same_prices(sources):
    rail, partner, _ = sources
    by_rail = {o.ride_key: o for o in await rail.search(QUERY)}
    by_partner = {o.ride_key: o for o in await partner.search(QUERY)}
    assert len(by_rail) >= 20 and by_rail.keys() == by_partner.keys()
    for key, offer in by_rail.items():
        other = by_partner[key]
        # each wire lists classes in its own order (12306 by column, the partner as sold)
        assert {(s.seat_class, s.price) for s in offer.seats} == {
            (s.seat_class, s.price) for s in other.seats
        }
        assert (offer.depart_at, offer.arrive_at) == (other.depart_at, other.arrive_at)
    assert rail.query_suffix == "queryZ"  # learnt from c_url


async def test_faults_reach_the_adapters_as_classified_errors(sources):
    rail, partner, (rail_faults, partner_faults) = sources
    await rail.search(QUERY)  # open the session first
    rail_faults.update(error_rate=1)
    partner_faults.update(error_rate=1)
    with pytest.raises(SourceServerError):
        await rail.search(QUERY)
    with pytest.raises(SourceServerError):
        await partner.search(QUERY)
    rail_faults.update(error_rate=0, rate_limit_rate=1)
    partner_faults.update(error_rate=0, rate_limit_rate=1)
    for _ in range(2):  # redirect, then an HTML page
        with pytest.raises(SourceBlocked):
            await rail.search(QUERY)
    with pytest.raises(SourceRateLimited) as limited:
        await partner.search(QUERY)
    assert limited.value.retry_after == 1
    rail_faults.update(rate_limit_rate=0, malformed_rate=1)
    partner_faults.update(rate_limit_rate=0, malformed_rate=1)
    for _ in range(3):
        with pytest.raises((TransientSourceError, SourceParseError)):
            await rail.search(QUERY)
    for _ in range(3):
        with pytest.raises(SourceParseError):
            await partner.search(QUERY)
