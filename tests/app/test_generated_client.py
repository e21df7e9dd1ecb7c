"""A client generated from the served OpenAPI document (openapi-python-client, from PyPI)
calls the real app and reads its replies: what a frontend team would generate and trust.

The client is generated in the test, offline, into a temporary directory, with
`raise_on_unexpected_status`: a status the document does not declare fails the call, and
each reply is parsed into the generated models (an answer off its schema fails to parse).
"""

from __future__ import annotations

import datetime as dt
import importlib
import json
import os
import subprocess
import sys
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from tests.app.apps import started

PACKAGE = "railtrip_client"
DATE = dt.date(2026, 12, 4)
TODAY = dt.date(2026, 12, 1)  # tests.clocks.FakeTime's date


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The generated client package's parent directory (put on sys.path while in use)."""
    from app.main import create_app
    from app.settings import Settings

    root = tmp_path_factory.mktemp("client")
    document = root / "openapi.json"
    document.write_text(json.dumps(create_app(Settings()).openapi()), encoding="utf-8")
    bin_dir = Path(sys.executable).parent
    generator = bin_dir / "openapi-python-client"
    result = subprocess.run(
        [str(generator), "generate", "--path", str(document), "--meta", "none"]
        + ["--output-path", str(root / PACKAGE)],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=root,  # its post hooks (ruff) run here, never in the checkout
        env={**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}"},
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    # Every operation and model was generated: the generator warns about what it skipped.
    assert "Warning" not in result.stdout + result.stderr, result.stdout + result.stderr
    sys.path.insert(0, str(root))
    try:
        yield root
    finally:
        sys.path.remove(str(root))
        for name in [m for m in sys.modules if m == PACKAGE or m.startswith(f"{PACKAGE}.")]:
            del sys.modules[name]


def module(name: str) -> ModuleType:
    return importlib.import_module(f"{PACKAGE}.{name}")


@pytest.fixture
async def app() -> AsyncIterator[FastAPI]:
    async with started() as running:
        yield running


def client_for(app: FastAPI) -> Any:
    client = module("client").Client(
        base_url="http://railtrip",
        raise_on_unexpected_status=True,
        httpx_args={"transport": httpx.ASGITransport(app=app)},
    )
    return client


async def test_the_generated_client_reads_tickets_and_a_plan(generated: Path, app: FastAPI):
    get_tickets = module("api.tickets.get_tickets")
    plan_trip = module("api.plan.plan_trip")
    models = module("models")
    client = client_for(app)
    async with client as session:
        tickets = await get_tickets.asyncio(
            client=session, origin="北京", destination="上海", date=DATE, train_types="G"
        )
        assert isinstance(tickets, models.TicketResult)
        assert tickets.freshness.value == "realtime"
        assert tickets.query.origin.city == "北京" and tickets.query.date == DATE
        assert tickets.offers and all(o.train_number.startswith("G") for o in tickets.offers)
        offer = tickets.offers[0]
        assert isinstance(offer.depart_at, dt.datetime) and offer.depart_at.tzinfo is not None
        assert offer.seats and isinstance(offer.seats[0].seat_class, models.SeatClass)
        assert "复兴号" in offer.features

        body = models.PlanRequest(text="12月4日从北京去上海，坐高铁，二等座", today=TODAY)
        reply = await plan_trip.asyncio(client=session, body=body)
        assert isinstance(reply, models.PlanReply)
        assert reply.freshness.value == "realtime" and reply.understood
        legs = reply.itinerary.legs
        offered = {(o.train_number, o.depart_at) for o in tickets.offers}
        assert legs and all((leg.train_number, leg.depart_at) in offered for leg in legs)
        assert legs[0].seat_class.value == "second"


async def test_the_generated_client_reads_the_errors_as_their_models(generated: Path, app):
    get_tickets = module("api.tickets.get_tickets")
    precheck = module("api.tickets.precheck_booking")
    models = module("models")
    client = client_for(app)
    async with client as session:
        unknown = await get_tickets.asyncio_detailed(
            client=session, origin="北景", destination="上海", date=DATE
        )
        assert unknown.status_code == 422
        assert isinstance(unknown.parsed, models.InvalidInputError)
        assert unknown.parsed.field == "origin" and "北京" in unknown.parsed.suggestions

        request = models.PrecheckRequest.from_dict(
            {
                "train_number": "G9",
                "date": DATE.isoformat(),
                "origin": "北京",
                "destination": "广州",
                "seat_class": "second",  # an enum in the client: the document lists the values
            }
        )
        assert request.seat_class.value == "second"
        missing = await precheck.asyncio_detailed(client=session, body=request)
        assert missing.status_code == 409
        assert isinstance(missing.parsed, models.BookingConflict)
        assert missing.parsed.reason.value == "not_found"
