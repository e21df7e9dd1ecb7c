"""`/mcp` with the SDK's own client, in-process over the real app (lifespan, middleware,
sandbox vendors on their ASGI transport): the tools, their schemas, errors and freshness."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import httpx
import pytest
from mcp.server.mcpserver import MCPServer
from mcp.shared.exceptions import MCPError

from app.settings import Settings
from tests.app.apps import started
from tests.app.mcp.harness import (
    BASE_URL,
    DATE,
    TODAY,
    in_process,
    mcp_session,
    output_schemas,
    sample,
    structured,
    tool_error,
)
from tests.clocks import FakeTime

MCP_TOOLS = [
    "get_current_date",
    "search_tickets",
    "find_transfers",
    "train_stops",
    "plan_trip",
    "check_booking",
    "find_stations",
]
ROUTE = {"origin": "北京", "destination": "上海", "date": DATE}


async def test_tools_list_offers_every_tool_with_its_input_and_output_schema() -> None:
    async with started() as app, mcp_session(in_process(app)) as client:
        listed = (await client.list_tools()).tools
    assert [tool.name for tool in listed] == MCP_TOOLS
    for tool in listed:
        assert tool.description
        assert tool.input_schema["type"] == "object"
        assert tool.input_schema["additionalProperties"] is False
        assert tool.output_schema is not None and tool.output_schema["type"] == "object"
        assert {"summary", "freshness", "as_of"} <= set(tool.output_schema["required"])
        assert tool.annotations is not None and tool.annotations.read_only_hint is True
    search = next(t for t in listed if t.name == "search_tickets").input_schema["properties"]
    assert {"train_types", "seat_class", "depart_after", "depart_before", "max_results"} <= set(
        search
    )


async def test_each_tool_answers_with_structured_output_valid_against_its_schema() -> None:
    calls: dict[str, dict[str, Any]] = {
        "search_tickets": {**ROUTE, "train_types": ["G"], "seat_class": "second", "max_results": 3},
        "find_transfers": {"origin": "北京", "destination": "杭州", "date": DATE},
        "train_stops": {"train_number": "g5", "date": DATE},
        "plan_trip": {"text": "12月4日从北京去上海，坐高铁", "today": TODAY},
        "check_booking": {**ROUTE, "train_number": "G5", "seat_class": "second"},
        "find_stations": {"query": "hangzhou"},
    }
    async with started() as app, mcp_session(in_process(app)) as client:
        schemas = await output_schemas(client)
        answers = {
            name: structured(await client.call_tool(name, args), schemas[name])
            for name, args in calls.items()
        }
    for name, answer in answers.items():
        assert answer["freshness"] in ("realtime", "cached"), name
        assert answer["as_of"], name
        assert "\n" not in answer["summary"] and answer["summary"], name
    tickets = answers["search_tickets"]
    assert 0 < len(tickets["offers"]) <= 3 and tickets["count"] >= len(tickets["offers"])
    assert all(o["train_number"].startswith("G") for o in tickets["offers"])
    assert all([s["seat_class"] for s in o["seats"]] == ["second"] for o in tickets["offers"])
    assert answers["train_stops"]["stops"][0]["station"] == "北京南"
    assert answers["train_stops"]["stops"][0]["arrive"] is None
    assert answers["train_stops"]["stops"][-1]["depart"] is None
    transfers = answers["find_transfers"]["options"]
    assert transfers and all(o["legs"][0]["origin"].startswith("北京") for o in transfers)
    plan = answers["plan_trip"]
    assert plan["itinerary"]["legs"][0]["train_number"][0] == "G"
    assert answers["check_booking"]["bookable"] is True
    assert answers["check_booking"]["freshness"] == "realtime"
    assert [s["city"] for s in answers["find_stations"]["stations"]][0] == "杭州"
    assert (
        sample(
            app.state.services,
            "railtrip_responses_total",
            endpoint="mcp:search_tickets",
            freshness="realtime",
        )
        == 1
    )


@pytest.mark.parametrize(
    ("tool", "args", "code", "field"),
    [
        ("search_tickets", {**ROUTE, "origin": "北惊"}, "unknown_station", "origin"),
        ("search_tickets", {**ROUTE, "date": "2026-12-30"}, "invalid_input", "date"),
        ("search_tickets", {**ROUTE, "max_results": 0}, "invalid_input", "max_results"),
        ("search_tickets", {**ROUTE, "train_types": ["X"]}, "invalid_input", "train_types"),
        ("search_tickets", {**ROUTE, "bogus": 1}, "invalid_input", "bogus"),
        ("train_stops", {"train_number": "G9999", "date": DATE}, "not_found", None),
        (
            "check_booking",
            {**ROUTE, "train_number": "G5", "seat_class": "deck"},
            "invalid_input",
            "seat_class",
        ),
        ("plan_trip", {"today": TODAY}, "invalid_input", "text"),
    ],
)
async def test_input_a_model_can_correct_comes_back_as_a_tool_error_naming_the_field(
    tool: str, args: dict[str, Any], code: str, field: str | None
) -> None:
    async with started() as app, mcp_session(in_process(app)) as client:
        body = tool_error(await client.call_tool(tool, args))
    assert body["code"] == code
    assert body.get("field") == field
    assert body["message"]
    if code == "unknown_station":
        assert "北京" in body["suggestions"]


async def test_a_tool_that_does_not_exist_is_a_protocol_error() -> None:
    async with started() as app, mcp_session(in_process(app)) as client:
        with pytest.raises(MCPError, match="unknown tool 'book_ticket'"):
            await client.call_tool("book_ticket", {})


async def test_a_repeated_search_is_served_from_the_cache_and_says_so_with_its_age() -> None:
    time = FakeTime()
    async with started(time=time) as app, mcp_session(in_process(app)) as client:
        schema = (await output_schemas(client))["search_tickets"]
        first = structured(await client.call_tool("search_tickets", ROUTE), schema)
        time.advance(7)
        second = structured(await client.call_tool("search_tickets", ROUTE), schema)
    assert first["freshness"] == "realtime" and first["age_s"] == 0
    assert second["freshness"] == "cached" and second["age_s"] == 7
    assert second["as_of"] == first["as_of"]
    assert "缓存" in second["summary"] and "实时" not in second["summary"]
    assert [o["train_number"] for o in second["offers"]] == [
        o["train_number"] for o in first["offers"]
    ]


async def test_with_every_source_down_search_serves_the_stale_copy_and_precheck_refuses() -> None:
    time = FakeTime()
    settings = Settings(memory_ttl_s=30)
    async with started(settings, time) as app, mcp_session(in_process(app)) as client:
        schemas = await output_schemas(client)
        structured(await client.call_tool("search_tickets", ROUTE), schemas["search_tickets"])
        for faults in app.state.services.sandbox_faults.values():
            faults.update(error_rate=1.0)
        time.advance(60)  # past the memory TTL: the live path is tried and fails
        stale = structured(
            await client.call_tool("search_tickets", ROUTE), schemas["search_tickets"]
        )
        check = structured(
            await client.call_tool(
                "check_booking", {**ROUTE, "train_number": "G5", "seat_class": "second"}
            ),
            schemas["check_booking"],
        )
    assert stale["freshness"] == "cached" and stale["age_s"] >= 60 and stale["warnings"]
    assert check["bookable"] is False and check["reason"] == "no_live_answer"
    assert check["freshness"] == "unavailable" and check["as_of"] is None


async def test_a_foreign_host_header_is_refused_with_421_as_json() -> None:
    async with started() as app:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://evil.example") as http:
            response = await http.post(
                "/mcp",
                json={"jsonrpc": "2.0", "id": 1, "method": "ping"},
                headers={"accept": "application/json, text/event-stream"},
            )
    assert response.status_code == 421
    assert response.json()["code"] == "mcp_refused"
    assert "Host" in response.json()["message"]


async def test_allowed_hosts_are_a_setting() -> None:
    settings = Settings(mcp_allowed_hosts="railtrip.internal:*")  # type: ignore[arg-type]
    ping = {"jsonrpc": "2.0", "id": 1, "method": "ping"}
    accept = {"accept": "application/json, text/event-stream"}
    async with started(settings) as app:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url=BASE_URL) as http:
            refused = await http.post("/mcp", json=ping, headers=accept)
        async with httpx.AsyncClient(
            transport=transport, base_url="http://railtrip.internal:8000"
        ) as http:
            allowed = await http.post("/mcp", json=ping, headers=accept)
    assert refused.status_code == 421
    assert allowed.status_code == 200 and allowed.json()["id"] == 1


async def test_mcp_requests_are_counted_under_the_mcp_endpoint() -> None:
    async with started() as app, mcp_session(in_process(app)) as client:
        await client.call_tool("find_stations", {"query": "上海"})
    state = app.state.services
    assert (
        sample(state, "railtrip_http_requests_total", endpoint="/mcp", method="POST", status="200")
        >= 2
    )  # the handshake, then the call


async def test_the_sdk_does_not_take_over_the_root_logger() -> None:
    root = logging.getLogger()
    saved_handlers, saved_level = root.handlers[:], root.level
    root.handlers.clear()  # as in a plain process, where basicConfig would install one
    try:
        async with started() as app, mcp_session(in_process(app)) as client:
            await client.call_tool("find_stations", {"query": "上海"})
        assert root.handlers == [] and root.level == saved_level
        MCPServer("control")  # the SDK's high-level server does take it over: the check bites
        assert root.handlers != []
    finally:
        root.handlers[:] = saved_handlers
        root.setLevel(saved_level)


async def test_a_get_for_an_event_stream_is_405_so_it_holds_no_connection() -> None:
    async with started() as app:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url=BASE_URL) as http:
            async with asyncio.timeout(10):  # an open stream would never end
                response = await http.get("/mcp", headers={"accept": "text/event-stream"})
    assert response.status_code == 405
    assert response.headers["allow"] == "POST"
    assert response.json()["code"] == "method_not_allowed"
