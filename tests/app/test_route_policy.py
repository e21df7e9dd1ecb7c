"""Route policy is declared on each route (app/policy.py) and honoured: the open routes need no
key, the answering ones count every answer, the traced ones are the planning routes."""

from __future__ import annotations

import pytest

from app.main import create_app
from app.policy import RouteTable
from app.settings import Settings
from tests.app.apps import running, sample

ANSWERING = {
    "/v1/tickets",
    "/v1/plan",
    "/v1/chat",
    "/v1/plan/stream",
    "/v1/chat/stream",
    "/v1/bookings/precheck",
    "/v1/trains/{train_number}/stops",
}
TRACED = {"/v1/plan", "/v1/chat", "/v1/plan/stream", "/v1/chat/stream"}
OPEN = {
    "/healthz",
    "/readyz",
    "/",
    "/docs",
    "/docs/oauth2-redirect",
    "/openapi.json",
    "/docs-assets",
    "/playground",
    "/playground/labels.json",
}


def _table() -> RouteTable:
    table: RouteTable = create_app(Settings()).state.routes
    return table


def test_each_policy_is_declared_on_exactly_the_routes_it_belongs_to() -> None:
    routes = _table().routes()
    assert {r.template for r in routes if r.policy.answers} == ANSWERING
    assert {r.template for r in routes if r.policy.traced} == TRACED
    assert {r.template for r in routes if r.policy.open} == OPEN
    assert {r.template for r in routes if r.policy.strict_key} == {"/v1/bookings/precheck"}
    assert {r.template for r in routes if r.policy.admin} == {
        "/sandbox/{vendor}/faults",
        "/sandbox/faults",
    }


def test_a_request_path_finds_its_route_before_routing() -> None:
    table = _table()

    def template(path: str) -> str | None:
        return table.match({"type": "http", "path": path, "method": "GET"}).template

    assert template("/v1/tickets") == "/v1/tickets"
    assert template("/v1/trains/G1/stops") == "/v1/trains/{train_number}/stops"
    assert template("/playground/playground.js") == "/playground"
    assert template("/nowhere") is None


DAY = {"date": "2026-12-04"}
ROUTE = {"origin": "北京", "destination": "上海", **DAY}


@pytest.mark.parametrize(
    ("template", "method", "path", "body", "params"),
    [
        ("/v1/tickets", "GET", "/v1/tickets", None, ROUTE),
        ("/v1/trains/{train_number}/stops", "GET", "/v1/trains/G5/stops", None, DAY),
        ("/v1/plan", "POST", "/v1/plan", {"text": "12月4日从北京去上海"}, None),
        ("/v1/chat", "POST", "/v1/chat", {"text": "12月4日从北京去上海"}, None),
        (
            "/v1/bookings/precheck",
            "POST",
            "/v1/bookings/precheck",
            {**ROUTE, "train_number": "G9999", "seat_class": "second"},  # 409: still an answer
            None,
        ),
    ],
)
async def test_every_answering_route_counts_its_answers_under_its_template(
    template: str, method: str, path: str, body: object, params: dict[str, str] | None
) -> None:
    async with running() as (client, state):
        response = await client.request(method, path, json=body, params=params)
        assert response.status_code in (200, 409)
        assert sample(state, "railtrip_answers_total", endpoint=template, kind="tickets") == 1
        assert sample(state, "railtrip_answers_total", endpoint=template, kind="error") == 0
