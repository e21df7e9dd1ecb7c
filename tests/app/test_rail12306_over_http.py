"""`rail12306` against a 12306 sandbox served over real HTTP (uvicorn on a loopback port),
as `python -m app tickets` runs it against `python -m sources.sandbox --vendor 12306`."""

from __future__ import annotations

import asyncio
import socket
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest
import uvicorn

from app.cli.render import render_tickets
from app.main import create_app
from app.runtime import Runtime
from app.settings import Settings
from sources.sandbox import create_12306_app
from tests.clocks import FakeTime


@pytest.fixture
async def served_12306() -> AsyncIterator[str]:
    """The vendor on a socket that is already listening: connections wait in its backlog
    until uvicorn accepts them, so nothing polls for start-up."""
    time = FakeTime()
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(16)
    port = sock.getsockname()[1]
    config = uvicorn.Config(create_12306_app(clock=time.now), log_level="warning")
    server = uvicorn.Server(config)
    task = asyncio.create_task(server.serve(sockets=[sock]))
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        await task
        sock.close()


async def test_tickets_through_rail12306_list_every_class_with_its_price(
    served_12306: str, tmp_path: Path
) -> None:
    time = FakeTime()
    settings = Settings(
        sources=["rail12306"],
        sandbox_admin=False,
        stations_cache_path=str(tmp_path / "station_name.js"),
        # No re-read of the station list while running: its day-long pause between rounds
        # would take the app's fake sleep, which passes at once and moves the query's clock
        # (FakeTime.monotonic) a day on, so a query that awaited anything meanwhile found its
        # deadline spent and asked no source. The start-up read still goes over HTTP.
        stations_refresh_interval_s=0,
        source_overrides={"rail12306": {"base_url": served_12306, "rate_per_s": 100.0}},
    )
    app = create_app(settings, Runtime(clock=time.now, monotonic=time.monotonic, sleep=time.sleep))
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://railtrip") as client:
            r = await client.get(
                "/v1/tickets",
                params={"origin": "北京", "destination": "上海", "date": "2026-12-04"},
            )
    body = r.json()
    assert r.status_code == 200 and body["freshness"] == "realtime"
    assert [s["name"] for s in body["sources"]] == ["rail12306"]
    seats = [seat for offer in body["offers"] for seat in offer["seats"]]
    assert len(body["offers"]) >= 20 and all(seat["price"] for seat in seats)
    classes = {seat["seat_class"] for seat in seats}
    assert {"business", "first", "second", "no_seat", "hard_sleeper", "soft_sleeper"} <= classes
    table = render_tickets(body)
    assert "¥?" not in table and "二等座" in table and "硬卧" in table
