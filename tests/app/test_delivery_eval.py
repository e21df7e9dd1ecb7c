"""The delivery verifier: a true plan passes leg by leg; every kind of untruth is caught."""

from __future__ import annotations

import copy
import datetime as dt

import pytest
import pytest_asyncio

from app.evaluation.delivery import (
    GENEROUS,
    SANDBOX_SOURCES,
    SUITE,
    Case,
    Outcome,
    check_itinerary,
    live_offers,
    load_suite,
    report,
    run_case,
    summary_counts,
)
from app.settings import Settings
from tests.app.apps import running

TODAY = dt.date(2026, 12, 1)
TRANSFER = Case("t-1", "transfer", TODAY, "12月4日从哈尔滨去厦门，两个人，预算3000", True)


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def planned():
    """A real transfer plan and the live offers of each of its legs."""
    # generous limits: the rate limiter paces on the real clock, and speed is not at issue here
    settings = Settings(source_overrides=dict.fromkeys(SANDBOX_SOURCES, GENEROUS))
    async with running(settings) as (client, _):
        response = await client.post(
            "/v1/plan", json={"text": TRANSFER.text, "today": TODAY.isoformat()}
        )
        itinerary = response.json()["itinerary"]
        fetch = live_offers(client)
        live = [
            await fetch(
                leg["origin_station"]["telecode"],
                leg["destination_station"]["telecode"],
                leg["depart_at"][:10],
            )
            for leg in itinerary["legs"]
        ]
        outcome = await run_case(client, TRANSFER)
    return itinerary, live, outcome


def tampered(itinerary: dict, change) -> dict:
    other = copy.deepcopy(itinerary)
    change(other)
    return other


@pytest.mark.asyncio(loop_scope="module")
async def test_a_real_transfer_plan_is_delivered_and_verified(planned):
    itinerary, live, outcome = planned
    assert len(itinerary["legs"]) >= 2 and itinerary["transfers"]
    assert check_itinerary(itinerary, live) == []
    assert outcome.delivered and outcome.verified, outcome.problems


@pytest.mark.asyncio(loop_scope="module")
async def test_a_leg_at_another_price_time_class_or_train_is_caught(planned):
    itinerary, live, _ = planned

    def price(it):
        it["legs"][0]["unit_price"] += 10
        it["legs"][0]["price"] = it["legs"][0]["unit_price"] * it["legs"][0]["passengers"]
        it["total_price"] = sum(leg["price"] for leg in it["legs"])

    def late(it):
        arrive = dt.datetime.fromisoformat(it["legs"][0]["arrive_at"])
        it["legs"][0]["arrive_at"] = (arrive + dt.timedelta(minutes=1)).isoformat()

    def invented(it):
        it["legs"][0]["train_number"] = "G99999"

    def seat(it):
        it["legs"][0]["seat_class"] = "premium_sleeper"

    cases = {"unit price": price, "arrive_at": late, "no live offer": invented, "not offered": seat}
    for expected, change in cases.items():
        problems = check_itinerary(tampered(itinerary, change), live)
        assert any(expected in p for p in problems), (expected, problems)


@pytest.mark.asyncio(loop_scope="module")
async def test_false_connections_totals_and_budget_claims_are_caught(planned):
    itinerary, live, _ = planned

    def transfer_minutes(it):
        it["transfers"][0]["minutes"] += 30

    def total(it):
        it["total_price"] -= 1

    def budget(it):
        it["budget"] = it["total_price"] - 1  # the plan still claims to fit

    def no_transfer_block(it):
        it["transfers"] = []

    cases = {
        "transfer at": transfer_minutes,
        "total_price": total,
        "within_budget": budget,
        "transfers stated": no_transfer_block,
    }
    for expected, change in cases.items():
        problems = check_itinerary(tampered(itinerary, change), live)
        assert any(expected in p for p in problems), (expected, problems)


@pytest.mark.asyncio(loop_scope="module")
async def test_a_connection_shorter_than_the_minimum_is_caught(planned):
    itinerary, live, _ = planned
    first, second = itinerary["legs"][0], itinerary["legs"][1]
    squeezed = tampered(itinerary, lambda it: it["legs"][0].update(arrive_at=second["depart_at"]))
    problems = check_itinerary(squeezed, [live[0], live[1], *live[2:]])
    assert any("0 min, allowed" in p for p in problems), problems
    assert first["train_number"] in " ".join(problems)


def test_the_report_gives_delivered_and_verified_rates_per_kind_over_feasible_cases():
    def outcome(kind: str, feasible: bool, delivered: bool, problems: list[str]) -> Outcome:
        return Outcome(Case("x", kind, TODAY, "…", feasible), delivered, problems)

    outcomes = [
        outcome("direct", True, True, []),
        outcome("direct", True, True, ["leg 1 G1: unit price"]),
        outcome("direct", True, False, []),
        outcome("direct", False, True, []),
        outcome("transfer", True, True, []),
    ]
    text = report(outcomes)
    direct = next(line for line in text.splitlines() if line.strip().startswith("direct"))
    assert direct.split() == ["direct", "4", "3", "2", "67%", "1", "50%", "1"]
    assert summary_counts(outcomes) == {"feasible": 4, "delivered": 3, "verified": 2}


def test_the_suite_file_has_over_a_hundred_cases_across_every_kind():
    cases = load_suite(SUITE)
    assert len(cases) >= 100
    assert {c.kind for c in cases} >= {
        "direct",
        "round_trip",
        "multi_city",
        "transfer",
        "two_transfer",
        "sleeper",
        "budget",
        "time_window",
        "named_train",
        "small_city",
    }
    assert 0 < sum(not c.feasible for c in cases) < len(cases) // 5
