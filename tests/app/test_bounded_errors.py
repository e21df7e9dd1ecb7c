"""Error messages quote client input only as a short, escaped excerpt (a 19,000-character
value with a U+202E came back whole and raw), and numbers are validated: finite and of their
type, or a 422 naming the field (never null with 200)."""

from __future__ import annotations

import pytest

from app.errors import MESSAGE_CHARS, bounded_message
from tests.app.apps import running

EVIL = "\u202e" + "北" * 19000
INTENT = {"kind": "plan_trip", "origin": "北京", "destination": "上海", "date_start": "2026-12-04"}
TODAY = "2026-12-01"


def test_a_message_is_escaped_and_bounded() -> None:
    shown = bounded_message("origin: " + EVIL)
    assert "\u202e" not in shown and "\\u202e" in shown
    assert len(shown) <= MESSAGE_CHARS


@pytest.mark.parametrize(
    ("method", "path", "payload", "field"),
    [
        (
            "post",
            "/v1/plan",
            {"intent": {**INTENT, "origin": EVIL}, "today": TODAY},
            "intent.origin",
        ),
        ("post", "/v1/plan", {"text": "去上海", "today": EVIL}, "today"),
        ("post", "/v1/chat", {"text": "去上海", "today": EVIL}, "today"),
        ("post", "/v1/intent/parse", {"text": "去上海", "today": EVIL}, "today"),
        ("get", "/v1/trains/" + "G" * 3000 + "/stops?date=2026-12-04", None, "train_number"),
    ],
)
async def test_no_error_echoes_more_than_an_escaped_excerpt(method, path, payload, field) -> None:
    async with running() as (client, _):
        if method == "post":
            reply = await client.post(path, json=payload)
        else:
            reply = await client.get(path)
    assert reply.status_code == 422
    body = reply.json()
    assert body["field"] == field
    assert "\u202e" not in reply.text
    assert len(reply.text) < 1000


@pytest.mark.parametrize(
    ("raw", "field"),
    [
        ('"budget": 1e999', "intent.budget"),
        ('"budget": -1e999', "intent.budget"),
        ('"budget": NaN', "intent.budget"),
        ('"budget_per_person": Infinity', "intent.budget_per_person"),
        ('"arrive_window": {"start": 1, "end": "12:00"}', "intent.arrive_window.start"),
        ('"depart_window": {"start": "08:00", "end": 3600.5}', "intent.depart_window.end"),
    ],
)
async def test_non_finite_or_mistyped_numbers_are_422_naming_the_field(raw, field) -> None:
    body = (
        '{"intent": {"kind": "plan_trip", "origin": "北京", "destination": "上海", '
        f'"date_start": "2026-12-04", {raw}}}, "today": "{TODAY}"}}'
    )
    async with running() as (client, _):
        reply = await client.post(
            "/v1/plan", content=body.encode(), headers={"content-type": "application/json"}
        )
    assert reply.status_code == 422, reply.text[:200]
    assert reply.json()["field"] == field
