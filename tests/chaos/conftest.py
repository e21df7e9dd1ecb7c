"""Chaos fixtures: apps built on a fixed wall clock, driven in-process, metrics read exactly.

Wall time stays real (monotonic) so breakers cool down, deadlines fire and Redis really dies;
the fixed calendar clock keeps the sandbox's sale window and timetable deterministic.
"""

from __future__ import annotations

import datetime as dt
import itertools
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import httpx
from fastapi import FastAPI

from app.main import create_app
from app.runtime import Runtime
from app.services import Services
from app.settings import Settings
from sources.models import SHANGHAI

NOW = dt.datetime(2026, 12, 1, 9, 0, tzinfo=SHANGHAI)  # a Tuesday
TODAY = NOW.date()
FRESHNESS = {"realtime", "cached", "unavailable"}

# City pairs the sandbox runs trains between (京沪, 京广, 沪昆, 成渝, 杭深, 胶济 corridors).
CITY_PAIRS = (
    ("北京", "上海"),
    ("北京", "南京"),
    ("上海", "杭州"),
    ("北京", "武汉"),
    ("广州", "深圳"),
    ("成都", "重庆"),
    ("杭州", "宁波"),
    ("济南", "青岛"),
    ("郑州", "西安"),
    ("南京", "上海"),
)


def fixed_runtime() -> Runtime:
    """A runtime whose calendar never moves (monotonic time and sleeps stay real)."""
    return Runtime(clock=lambda: NOW)


def ticket_params(index: int) -> dict[str, str]:
    """The `index`-th distinct ticket query: city pairs crossed with days in the sale window."""
    pairs = list(itertools.product(range(1, 15), CITY_PAIRS))
    day, (origin, destination) = pairs[index % len(pairs)]
    return {
        "origin": origin,
        "destination": destination,
        "date": (TODAY + dt.timedelta(days=day)).isoformat(),
    }


@asynccontextmanager
async def running(
    settings: Settings | None = None, runtime: Runtime | None = None
) -> AsyncIterator[tuple[FastAPI, httpx.AsyncClient]]:
    """An app with its lifespan running and an in-process client on it."""
    app = create_app(settings or Settings(), runtime or fixed_runtime())
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://railtrip") as client:
            yield app, client


def state_of(app: FastAPI) -> Services:
    return app.state.services  # type: ignore[no-any-return]


def sample(app: FastAPI, name: str, **labels: str) -> float:
    """One metric sample of this app's own registry (0 when never touched)."""
    return state_of(app).metrics.registry.get_sample_value(name, labels) or 0.0


def source_attempts(app: FastAPI, source: str) -> dict[str, float]:
    """Attempts at one source by outcome, from `railtrip_source_requests_total`."""
    outcomes = ("ok", "error", "timeout", "rate_limited", "circuit_open")
    return {
        outcome: sample(app, "railtrip_source_requests_total", source=source, outcome=outcome)
        for outcome in outcomes
    }


def assert_honest_freshness(body: dict[str, Any]) -> None:
    """A ticket answer and every source in it is tagged, and the tags agree with each other."""
    assert body["freshness"] in FRESHNESS, body
    assert body["sources"], body
    for source in body["sources"]:
        assert source["freshness"] in FRESHNESS, source
    if body["freshness"] == "realtime":
        assert body["age_s"] == 0
        assert any(s["status"] == "ok" for s in body["sources"]), body["sources"]
    if body["freshness"] == "cached":
        assert body["age_s"] is not None and body["as_of"] is not None
    if body["freshness"] == "unavailable":
        assert body["offers"] == [] and body["warnings"], body
