"""Run the real app (lifespan included) in-process and talk to it over httpx's ASGI transport."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import httpx
from fastapi import FastAPI

from app.main import create_app
from app.runtime import Runtime
from app.services import Services
from app.settings import Settings
from tests.clocks import FakeTime


@asynccontextmanager
async def started(
    settings: Settings | None = None, time: FakeTime | None = None
) -> AsyncIterator[FastAPI]:
    """An app, lifespan entered, on a fixed clock whose sleeps (retry backoff) cost no time."""
    time = time or FakeTime()
    app = create_app(
        settings or Settings(),
        Runtime(clock=time.now, monotonic=time.monotonic, sleep=time.sleep),
    )
    async with app.router.lifespan_context(app):
        yield app


@asynccontextmanager
async def running(
    settings: Settings | None = None, time: FakeTime | None = None
) -> AsyncIterator[tuple[httpx.AsyncClient, Services]]:
    """An app on a fixed clock whose sleeps (retry backoff) cost no real time."""
    async with started(settings, time) as app:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://railtrip") as client:
            yield client, app.state.services


def sample(app_state: Services, name: str, /, **labels: str) -> float:
    return app_state.metrics.registry.get_sample_value(name, labels) or 0.0


def upstream_requests(state: Services, source: str) -> float:
    """Attempts that actually reached `source` (every outcome but circuit_open)."""
    return sum(
        sample(state, "railtrip_source_requests_total", source=source, outcome=outcome)
        for outcome in ("ok", "error", "timeout", "rate_limited")
    )
