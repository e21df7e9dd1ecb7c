"""The same input gives the same outcome on both faces: `POST /v1/plan` and the MCP `plan_trip`
tool, `POST /v1/bookings/precheck` and the MCP `check_booking` tool.

One app (fixed clock) answers both: each case of a table (good, bad, edge) goes to HTTP and to
MCP, and the two outcomes must be equal and be the outcome the table expects, so a refusal one
face skips (MCP used to take both text and intent, and a client `today` days off as its sale
window) fails here. An outcome is the plan (its trains; or the question asked) or the refusal
(its code and the field it names); for the precheck, the verdict (bookable with price and seats
left, or the reason) or the refusal.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

import httpx
from mcp import Client

from app.main import create_app
from app.runtime import Runtime
from app.services import Services
from app.settings import Settings
from sources.models import SeatClass
from tests.app.mcp.harness import DATE, TODAY, in_process, mcp_session, output_schemas, structured
from tests.app.mcp.harness import tool_error as mcp_refusal
from tests.clocks import FakeTime

ROUTE = {"origin": "北京", "destination": "上海"}
INTENT = {**ROUTE, "date_start": DATE, "return_trip": False}
VIA = [{"city": city, "nights": 1} for city in ("南京", "苏州", "无锡", "常州", "镇江")] * 2


@dataclass(frozen=True)
class Outcome:
    """What a face answered, reduced to what both faces say."""

    refused: tuple[str, str | None] | None = None  # (code, field)
    trains: tuple[str, ...] = ()  # the plan's, or the precheck's train when bookable
    question: str | None = None  # a clarifying question instead of a plan
    verdict: str | None = None  # precheck: "bookable" or the reason it is not
    price: float | None = None
    left: int | None = None


def planned() -> Outcome:
    """Any plan: the test then requires both faces to plan the same trains."""
    return Outcome(trains=("*",))


def refused(code: str, field: str | None) -> Outcome:
    return Outcome(refused=(code, field))


PLAN_CASES: list[tuple[str, dict[str, Any], Outcome]] = [
    ("a sentence", {"text": "12月4日从北京去上海，坐高铁", "today": TODAY}, planned()),
    ("a structured intent", {"intent": INTENT}, planned()),
    ("today a day ahead", {"text": "明天从北京去上海", "today": "2026-12-02"}, planned()),
    ("a party over nine", {"intent": {**INTENT, "passengers": 12}}, planned()),
    ("a question back", {"text": "我想去上海玩", "today": TODAY}, Outcome(question="*")),
    ("neither text nor intent", {"today": TODAY}, refused("invalid_input", "text")),
    (
        "both text and intent",
        {"text": "12月4日从北京去上海", "intent": INTENT},
        refused("invalid_input", "intent"),
    ),
    (
        "today eleven days off",
        {"text": "明天从北京去上海", "today": "2026-11-20"},
        refused("invalid_input", "today"),
    ),
    (
        "today not a date",
        {"text": "去上海", "today": "2026-13-01"},
        refused("invalid_input", "today"),
    ),
    ("blank text", {"text": "   "}, refused("invalid_input", "text")),
    ("text too long", {"text": "北" * 1001}, refused("invalid_input", "text")),
    ("an unknown field", {"text": "去上海", "bogus": 1}, refused("invalid_input", "bogus")),
    (
        "an unknown station in the intent",
        {"intent": {**INTENT, "origin": "北惊"}},
        refused("invalid_input", "intent.origin"),
    ),
    (
        "the return before the start",
        {"intent": {**INTENT, "date_end": "2026-12-01"}},
        refused("invalid_input", "intent.date_end"),
    ),
    (
        "more via stops than a plan may have",
        {"intent": {**INTENT, "via": VIA}},
        refused("invalid_input", "intent.via"),
    ),
    (
        "a trip past sixty days",
        {"intent": {**INTENT, "date_end": "2027-03-01", "return_trip": True}},
        refused("invalid_input", "intent"),
    ),
    (
        "a stated party past sixty",
        {"intent": {**INTENT, "passengers": 61}},
        refused("invalid_input", "intent.passengers"),
    ),
]

BOOKING = {**ROUTE, "date": DATE, "seat_class": "second"}


@asynccontextmanager
async def faces() -> AsyncIterator[tuple[httpx.AsyncClient, Client, Services]]:
    """One app on a fixed clock, spoken to over HTTP and over MCP."""
    time = FakeTime()
    runtime = Runtime(clock=time.now, monotonic=time.monotonic, sleep=time.sleep)
    app = create_app(Settings(), runtime)
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with (
            httpx.AsyncClient(transport=transport, base_url="http://railtrip") as http,
            mcp_session(in_process(app)) as mcp,
        ):
            yield http, mcp, app.state.services


async def _http_plan(http: httpx.AsyncClient, body: dict[str, Any]) -> Outcome:
    response = await http.post("/v1/plan", json=body)
    answer = response.json()
    if response.status_code != 200:
        return refused(answer["code"], answer.get("field"))
    if answer["itinerary"] is None:
        return Outcome(question=answer["clarify_question"])
    return Outcome(trains=tuple(leg["train_number"] for leg in answer["itinerary"]["legs"]))


async def _mcp_plan(mcp: Client, body: dict[str, Any], schema: dict[str, Any]) -> Outcome:
    result = await mcp.call_tool("plan_trip", body)
    if result.is_error:
        error = mcp_refusal(result)
        return refused(error["code"], error.get("field"))
    answer = structured(result, schema)
    if answer["itinerary"] is None:
        return Outcome(question=answer["clarify_question"])
    return Outcome(trains=tuple(answer["itinerary"]["trains"]))


def _as_expected(outcome: Outcome, expected: Outcome) -> bool:
    if expected.trains == ("*",):
        return bool(outcome.trains) and outcome.refused is None
    if expected.question == "*":
        return bool(outcome.question) and not outcome.trains
    return outcome == expected


async def test_plan_over_http_and_mcp_gives_the_same_plan_or_the_same_refusal() -> None:
    async with faces() as (http, mcp, _):
        differences = await _compare_plans(http, mcp)
    assert differences == []


async def _compare_plans(
    http: httpx.AsyncClient, mcp: Client
) -> list[tuple[str, Outcome, Outcome]]:
    schema = (await output_schemas(mcp))["plan_trip"]
    differences = []
    for name, body, expected in PLAN_CASES:
        over_http = await _http_plan(http, body)
        over_mcp = await _mcp_plan(mcp, body, schema)
        if over_http != over_mcp or not _as_expected(over_http, expected):
            differences.append((name, over_http, over_mcp))
    return differences


# -- the booking precheck -------------------------------------------------------------------------


async def _http_precheck(http: httpx.AsyncClient, body: dict[str, Any]) -> Outcome:
    response = await http.post("/v1/bookings/precheck", json=body)
    answer = response.json()
    if response.status_code == 200:
        return Outcome(
            trains=(answer["train_number"],),
            verdict="bookable",
            price=answer["price"],
            left=answer["available"],
        )
    if response.status_code in (409, 503):  # a verdict: the train is not bookable now
        return Outcome(verdict=answer.get("reason") or answer["code"])
    return refused(answer["code"], answer.get("field"))


async def _mcp_precheck(mcp: Client, body: dict[str, Any], schema: dict[str, Any]) -> Outcome:
    result = await mcp.call_tool("check_booking", body)
    if result.is_error:
        error = mcp_refusal(result)
        return refused(error["code"], error.get("field"))
    answer = structured(result, schema)
    if answer["bookable"]:
        return Outcome(
            trains=(answer["train_number"],),
            verdict="bookable",
            price=answer["price"],
            left=answer["available"],
        )
    return Outcome(verdict=answer["reason"])


async def _bookable(services: Services) -> tuple[str, float]:
    """A train with second class for sale on DATE, and its fare (from the query service)."""
    from app.usecases.tickets import search_tickets

    result = await search_tickets(services, "北京", "上海", DATE)
    for offer in result.offers:
        seat = next((s for s in offer.seats if s.seat_class == "second"), None)
        if seat is not None and seat.status == "available" and seat.price:
            return offer.train_number, seat.price
    raise AssertionError("no second-class seat for sale in the sandbox")


async def _not_yet_on_sale(services: Services) -> tuple[str, str]:
    """A train on the last sale date whose seats open later today (its presale hour)."""
    from app.usecases.tickets import search_tickets

    last = "2026-12-15"  # the clock reads 2026-12-01 08:00
    result = await search_tickets(services, "北京", "上海", last)
    offer = next(o for o in result.offers if o.on_sale_at and o.seat(SeatClass.SECOND))
    return offer.train_number, last


async def test_precheck_over_http_and_mcp_gives_the_same_verdict_or_refusal() -> None:
    async with faces() as (http, mcp, services):
        differences = await _compare_prechecks(http, mcp, services)
    assert differences == []


async def _compare_prechecks(
    http: httpx.AsyncClient, mcp: Client, services: Services
) -> list[tuple[str, Outcome, Outcome]]:
    schema = (await output_schemas(mcp))["check_booking"]
    train, fare = await _bookable(services)
    later, last_day = await _not_yet_on_sale(services)
    cases: list[tuple[str, dict[str, Any], Outcome]] = [
        ("bookable", {**BOOKING, "train_number": train}, Outcome(verdict="bookable")),
        ("lower case", {**BOOKING, "train_number": train.lower()}, Outcome(verdict="bookable")),
        (
            "the price as expected",
            {**BOOKING, "train_number": train, "expected_price": fare},
            Outcome(verdict="bookable"),
        ),
        (
            "the price changed",
            {**BOOKING, "train_number": train, "expected_price": fare + 10},
            Outcome(verdict="price_changed"),
        ),
        (
            "a party of nine for a ride with fewer seats",
            {**BOOKING, "train_number": train, "passengers": 9, "seat_class": "business"},
            None,  # sold_out or bookable, as the sandbox's seats say: the faces must agree
        ),
        (
            "not yet on sale",
            {**BOOKING, "train_number": later, "date": last_day},
            Outcome(verdict="not_on_sale"),
        ),
        (
            "an invented train",
            {**BOOKING, "train_number": "G9999"},
            Outcome(verdict="not_found"),
        ),
        (
            "a number no railway runs",
            {**BOOKING, "train_number": "G99999"},
            Outcome(verdict="not_found"),
        ),
        (
            "no train number at all",
            {**BOOKING, "train_number": "G012"},
            refused("invalid_input", "train_number"),
        ),
        (
            "an unknown seat class",
            {**BOOKING, "train_number": train, "seat_class": "deck"},
            refused("invalid_input", "seat_class"),
        ),
        (
            "an unknown station",
            {**BOOKING, "train_number": train, "origin": "北惊"},
            refused("unknown_station", "origin"),
        ),
        (
            "one city at both ends",
            {**BOOKING, "train_number": train, "destination": "北京西"},
            refused("invalid_input", "destination"),
        ),
        (
            "a date not on sale",
            {**BOOKING, "train_number": train, "date": "2026-12-30"},
            refused("invalid_input", "date"),
        ),
        (
            "a party of ten",
            {**BOOKING, "train_number": train, "passengers": 10},
            refused("invalid_input", "passengers"),
        ),
        (
            "an unknown field",
            {**BOOKING, "train_number": train, "coupon": "x"},
            refused("invalid_input", "coupon"),
        ),
    ]
    differences = []
    for name, body, expected in cases:
        over_http = await _http_precheck(http, body)
        over_mcp = await _mcp_precheck(mcp, body, schema)
        matches = expected is None or (
            over_http.verdict == expected.verdict and over_http.refused == expected.refused
        )
        if over_http != over_mcp or not matches:
            differences.append((name, over_http, over_mcp))
    return differences


async def test_with_no_live_answer_both_faces_refuse_the_verdict_alike() -> None:
    async with faces() as (http, mcp, services):
        schema = (await output_schemas(mcp))["check_booking"]
        train, _ = await _bookable(services)
        for faults in services.sandbox_faults.values():
            faults.update(error_rate=1.0)
        body = {**BOOKING, "train_number": train}
        over_http = await _http_precheck(http, body)
        over_mcp = await _mcp_precheck(mcp, body, schema)
    assert over_http == over_mcp
    assert over_http.verdict == "no_live_answer"
