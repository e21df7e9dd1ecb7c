"""The LLM parser fills the extended intent (scripted model through pytest-httpx, real wire)."""

from __future__ import annotations

import datetime as dt

import pytest

from app.intent.parser import IntentParser
from sources.models import SeatClass
from tests.app.intent.conftest import LLM_URL, TODAY, completion, intent_json

SLEEPERS = ["premium_sleeper", "soft_sleeper", "emu_sleeper", "hard_sleeper"]
BASE = {
    "kind": "query_tickets",
    "origin": "北京",
    "destination": "上海",
    "date_start": "2026-12-01",
}


@pytest.fixture
def parser(directory, metrics, llm) -> IntentParser:
    return IntentParser(directory=directory, metrics=metrics, llm=llm)


async def _parse(parser, httpx_mock, text: str, **fields):
    httpx_mock.add_response(
        url=LLM_URL, method="POST", json=completion(intent_json(**(BASE | fields)))
    )
    outcome = await parser.parse(text, TODAY)
    assert outcome.parser == "llm"
    return outcome


async def test_model_exclusions_are_kept_in_enum_order(parser, httpx_mock):
    outcome = await _parse(
        parser,
        httpx_mock,
        "明天北京到上海，不要无座，不要卧铺，不坐绿皮车",
        exclude_seat_classes=[
            "no_seat",
            "hard_sleeper",
            "soft_sleeper",
            "emu_sleeper",
            "premium_sleeper",
        ],
        exclude_train_types=["K", "T", "Z"],
    )
    intent = outcome.intent
    assert [c.value for c in intent.exclude_seat_classes] == [*SLEEPERS, "no_seat"]
    assert intent.exclude_train_types == ["Z", "T", "K"]


async def test_model_sleeper_category_is_a_set_of_classes(parser, httpx_mock):
    outcome = await _parse(parser, httpx_mock, "明天北京到上海要卧铺", seat_classes=SLEEPERS)
    assert outcome.intent.seat_classes == [SeatClass(c) for c in SLEEPERS]
    assert outcome.intent.seat_class is None


async def test_model_return_window_as_span_string_is_accepted(parser, httpx_mock):
    outcome = await _parse(
        parser,
        httpx_mock,
        "周五北京去上海，周日晚上回来",
        kind="plan_trip",
        date_start="2026-12-04",
        date_end="2026-12-06",
        return_trip=True,
        return_window="18:00-23:59",
    )
    window = outcome.intent.return_window
    assert window is not None and window.span() == "18:00-23:59"
    assert outcome.intent.date_end == dt.date(2026, 12, 6)


async def test_model_arrival_day_is_not_a_return(parser, httpx_mock):
    outcome = await _parse(
        parser,
        httpx_mock,
        "今晚北京出发去上海第二天早上到",
        date_start="2026-11-30",
        arrive_date="2026-12-01",
        arrive_window={"start": "06:00", "end": "09:00", "label": "早上"},
    )
    assert outcome.intent.arrive_date == dt.date(2026, 12, 1)
    assert outcome.intent.return_trip is None and outcome.intent.date_end is None


async def test_model_order_preference_is_validated(parser, httpx_mock):
    outcome = await _parse(parser, httpx_mock, "明天北京到上海最早一班", order="earliest")
    assert outcome.intent.order == "earliest"


async def test_model_order_outside_the_schema_is_retried_then_falls_back(parser, httpx_mock):
    for _ in range(3):
        httpx_mock.add_response(
            url=LLM_URL, method="POST", json=completion(intent_json(**BASE, order="soonest"))
        )
    outcome = await parser.parse("明天北京到上海最早一班", TODAY)
    assert outcome.parser == "rules"
    assert outcome.intent.order == "earliest"


async def test_impossible_train_number_from_the_model_is_reported_not_dropped(parser, httpx_mock):
    outcome = await _parse(
        parser, httpx_mock, "明天北京到上海G99999和G1", train_numbers=["G99999", "g1"]
    )
    assert outcome.intent.train_numbers == ["G1"]
    assert outcome.intent.invalid_train_numbers == ["G99999"]
    assert any("G99999" in w for w in outcome.warnings)


async def test_declined_topic_keeps_the_ticket_part(parser, httpx_mock):
    outcome = await _parse(
        parser, httpx_mock, "明天北京到上海，顺便订个酒店", out_of_scope_topics=["hotel"]
    )
    assert outcome.intent.kind == "query_tickets"
    assert outcome.intent.out_of_scope_topics == ["hotel"]
    assert any("酒店" in w for w in outcome.warnings)


async def test_per_person_budget_from_the_model_is_multiplied_by_the_party(parser, httpx_mock):
    outcome = await _parse(
        parser,
        httpx_mock,
        "我们三个人明天北京到上海，预算每人800",
        kind="plan_trip",
        passengers=3,
        budget=None,
        budget_per_person=800,
    )
    assert (outcome.intent.budget, outcome.intent.budget_per_person) == (2400, 800)
