"""Shared fixtures: a fixed clock, a recording sleep and clients on the in-process vendors."""

from __future__ import annotations

import datetime as dt
from collections.abc import AsyncIterator, Callable

import httpx
import pytest

from sources.models import SHANGHAI
from sources.rail12306_session import PAGE_HEADERS
from sources.sandbox import FaultConfig, Timetable, create_12306_app, create_juhe_app

# Three days before the trip: presale is open and trains are part sold.
NOW = dt.datetime(2026, 12, 1, 10, 3, tzinfo=SHANGHAI)
TRIP = dt.date(2026, 12, 4)


class RecordingSleep:
    """An injected `sleep` that returns at once and remembers what it was asked to wait."""

    def __init__(self) -> None:
        self.calls: list[float] = []

    async def __call__(self, seconds: float) -> None:
        self.calls.append(seconds)


def query_params(origin: str, destination: str, date: dt.date = TRIP) -> dict[str, str]:
    """The 12306 left-ticket query string."""
    return {
        "leftTicketDTO.train_date": date.isoformat(),
        "leftTicketDTO.from_station": origin,
        "leftTicketDTO.to_station": destination,
        "purpose_codes": "ADULT",
    }


def client_for(app: object) -> httpx.AsyncClient:
    """A client that loads pages as a browser does (the sandbox bounces any other)."""
    return httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app),  # type: ignore[arg-type]
        base_url="http://sandbox",
        headers=PAGE_HEADERS,
    )


@pytest.fixture(scope="session")
def timetable() -> Timetable:
    return Timetable()


@pytest.fixture
def sleep() -> RecordingSleep:
    return RecordingSleep()


@pytest.fixture
def clock() -> Callable[[], dt.datetime]:
    return lambda: NOW


@pytest.fixture
def faults_12306() -> FaultConfig:
    return FaultConfig("12306", seed=7)


@pytest.fixture
def faults_juhe() -> FaultConfig:
    return FaultConfig("juhe", seed=7)


@pytest.fixture
def app_12306(faults_12306, clock, sleep, timetable):
    return create_12306_app(faults=faults_12306, clock=clock, sleep=sleep, timetable=timetable)


@pytest.fixture
def app_juhe(faults_juhe, clock, sleep, timetable):
    return create_juhe_app(faults=faults_juhe, clock=clock, sleep=sleep, timetable=timetable)


@pytest.fixture
async def rail(app_12306) -> AsyncIterator[httpx.AsyncClient]:
    """A 12306 client that has visited the init page, so it holds the session cookies."""
    async with client_for(app_12306) as client:
        (await client.get("/otn/leftTicket/init")).raise_for_status()
        yield client


@pytest.fixture
async def juhe(app_juhe) -> AsyncIterator[httpx.AsyncClient]:
    async with client_for(app_juhe) as client:
        yield client
