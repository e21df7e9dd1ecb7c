"""Shared test scaffolding: the real app on a fixed clock, and a fake query service."""

from __future__ import annotations

import datetime as dt
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from typing import Any

import httpx

from app.main import create_app
from app.runtime import Runtime
from app.services import Services
from app.settings import Settings
from app.tickets.model import QueryEcho, ResolvedQuery, SourceReport, TicketResult
from sources.models import SHANGHAI, Station, TrainOffer

NOW = dt.datetime(2026, 12, 1, 8, 0, tzinfo=SHANGHAI)
TODAY = "2026-12-01"
# Generous limits so the sandbox answers fast; the limits themselves are tested elsewhere.
FAST_SOURCES: dict[str, dict[str, object]] = {
    name: {"rate_per_s": 1000.0, "concurrency": 50} for name in ("sandbox-12306", "sandbox-juhe")
}


# The plan deadline is a wall-clock bound (tested on its own); a relaxation case that plans in
# 2.5 s alone hit the 10 s default on a 2-core box running four suites.
PLAN_DEADLINE_S = 60.0


def settings(**overrides: Any) -> Settings:
    """Embedded-default settings with fast sources (and whatever a test overrides)."""
    values: dict[str, Any] = {
        "source_overrides": FAST_SOURCES,
        "log_level": "WARNING",
        "plan_deadline_s": PLAN_DEADLINE_S,
    }
    values.update(overrides)
    return Settings(**values)


@asynccontextmanager
async def running_app(**overrides: Any) -> AsyncIterator[tuple[httpx.AsyncClient, Services]]:
    """The real app (lifespan included) on the fixed clock, and a client talking to it."""
    app = create_app(settings(**overrides), Runtime(clock=lambda: NOW))
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://t") as client:
            yield client, app.state.services


def metric(state: Services, name: str, **labels: str) -> float:
    """The current value of one sample of the app's registry (0 when absent)."""
    value = state.metrics.registry.get_sample_value(name, labels)
    return value or 0.0


class FakeTickets:
    """A query service answering from a table `(origin, destination, date) → offers`.

    Keys use telecodes as the agent queries them (a city's namesake station: BJP, SHH …); a
    query by other stations of the cities is answered with the cities' offers. `fail` lists
    keys whose query raises; every query is recorded in `asked`.
    """

    def __init__(
        self,
        offers: Iterable[TrainOffer] = (),
        *,
        fail: Iterable[tuple[str, str, dt.date]] = (),
        freshness: str = "realtime",
    ) -> None:
        self.table: dict[tuple[str, str, dt.date], list[TrainOffer]] = {}
        for offer in offers:
            key = (
                _city_code(offer.origin_station),
                _city_code(offer.destination_station),
                offer.date,
            )
            self.table.setdefault(key, []).append(offer)
        self.fail = set(fail)
        self.freshness = freshness
        self.asked: list[tuple[str, str, dt.date]] = []
        self.one_source: list[tuple[str, str, dt.date]] = []  # of them, asked of one source

    async def search(
        self,
        resolved: ResolvedQuery,
        *,
        refresh: bool = False,
        allow_stale: bool = True,
        one_source: bool = False,
    ) -> TicketResult:
        query = resolved.query
        origin, destination = resolved.origin_station, resolved.destination_station
        key = (query.origin, query.destination, query.date)
        self.asked.append(key)
        if one_source:
            self.one_source.append(key)
        if key in self.fail:
            raise RuntimeError(f"boom {key}")
        city_wide = (
            _CITY_CODES.get(resolved.origin.city, query.origin),
            _CITY_CODES.get(resolved.destination.city, query.destination),
            query.date,
        )
        # A leg asked by two of its stations answers every train between the cities, as the
        # sources do (the table's stations are where each train is named).
        offers = tuple(self.table.get(key, self.table.get(city_wide, ())))
        return TicketResult(
            query=QueryEcho(origin=origin, destination=destination, date=query.date),
            freshness=self.freshness,  # type: ignore[arg-type]
            as_of=NOW,
            age_s=0.0,
            sources=(
                SourceReport(
                    name="fake", status="ok", freshness=self.freshness, offers=len(offers)
                ),  # type: ignore[arg-type]
            ),
            offers=offers,
        )


_CITY_CODES = {"北京": "BJP", "上海": "SHH", "南京": "NJH", "武汉": "WHN", "郑州": "ZZF"}


def _city_code(station: Station) -> str:
    return _CITY_CODES[station.city]
