"""What the peers' users rely on, through the SDK's own client over the real app: the current
date, train features and `train_no`, discounts, `can_web_buy` and `on_sale_at` in ticket
answers, feature filters and sort orders, a named transfer station, substitutions said in
`relaxed`, closed arguments as described enums, the station list as a resource, "no data"
said as such, and CORS open to a browser-based MCP client."""

from __future__ import annotations

import json
from typing import Any

import httpx

from app.settings import Settings
from sources.models import SeatClass
from tests.app.apps import started
from tests.app.mcp.harness import (
    DATE,
    in_process,
    mcp_session,
    output_schemas,
    structured,
    tool_error,
)
from tests.clocks import FakeTime

ROUTE = {"origin": "北京", "destination": "上海", "date": DATE}


async def call(name: str, args: dict[str, Any], settings: Settings | None = None) -> dict:
    async with started(settings) as app, mcp_session(in_process(app)) as client:
        schemas = await output_schemas(client)
        return structured(await client.call_tool(name, args), schemas[name])


async def test_get_current_date_gives_the_shanghai_date_weekday_and_last_sale_day() -> None:
    answer = await call("get_current_date", {})
    assert answer["date"] == "2026-12-01" and answer["weekday"] == "星期二"
    assert answer["iso_weekday"] == 2 and answer["tomorrow"] == "2026-12-02"
    assert answer["sale_window_first"] == "2026-12-01"
    assert answer["sale_window_last"] == "2026-12-15"
    assert answer["timezone"] == "Asia/Shanghai" and answer["time"] == "08:00"
    assert "星期二" in answer["summary"] and "2026-12-15" in answer["summary"]


async def test_offers_carry_train_no_features_discount_and_can_web_buy() -> None:
    answer = await call("search_tickets", {**ROUTE, "max_results": 50})
    offers = answer["offers"]
    assert all(len(o["train_no"]) == 12 for o in offers)  # 12306's internal number
    g_trains = [o for o in offers if o["train_number"].startswith("G")]
    assert g_trains and all("复兴号" in o["features"] for o in g_trains)
    assert any("智能动车组" in o["features"] for o in g_trains)
    assert all(o["can_web_buy"] in (True, False) for o in offers)
    discounted = [s for o in offers for s in o["seats"] if s["discount"] is not None]
    assert discounted and all(0 < s["discount"] < 1 for s in discounted)
    assert all(s["seat_class"] == "business" for s in discounted)


async def test_a_ride_not_yet_on_sale_says_when_it_opens() -> None:
    # Presale opens 14 days ahead at the train's own time: at 08:00 on 12-01, the 12-15
    # rides leaving after 08:00 are not on sale yet.
    answer = await call("search_tickets", {**ROUTE, "date": "2026-12-15", "max_results": 50})
    later = [o for o in answer["offers"] if o["depart"] > "2026-12-15 08:00"]
    assert later
    for offer in later:
        assert offer["can_web_buy"] is False
        assert offer["on_sale_at"] == f"2026-12-01 {offer['depart'][-5:]}"
    assert all(o["on_sale_at"] is None for o in answer["offers"] if o not in later)


async def test_feature_filters_keep_only_trains_that_have_them() -> None:
    every = await call("search_tickets", {**ROUTE, "max_results": 50})
    fuxing = await call("search_tickets", {**ROUTE, "features": ["复兴号"], "max_results": 50})
    smart = await call("search_tickets", {**ROUTE, "features": ["智能动车组"], "max_results": 50})
    assert 0 < smart["count"] < fuxing["count"] < every["count"]
    assert all("复兴号" in o["features"] for o in fuxing["offers"])
    assert all("智能动车组" in o["features"] for o in smart["offers"])


async def test_sort_orders_by_departure_arrival_duration_and_price() -> None:
    def seen(answer: dict[str, Any], key: str) -> list[Any]:
        return [o[key] for o in answer["offers"]]

    base = {**ROUTE, "max_results": 50, "seat_class": "second"}
    by = {
        s: await call("search_tickets", {**base, "sort": s})
        for s in ("departure", "arrival", "duration", "price")
    }
    assert seen(by["departure"], "depart") == sorted(seen(by["departure"], "depart"))
    assert seen(by["arrival"], "arrive") == sorted(seen(by["arrival"], "arrive"))
    durations = seen(by["duration"], "duration_min")
    assert durations == sorted(durations) and durations[0] < durations[-1]
    prices = [o["seats"][0]["price"] for o in by["price"]["offers"]]
    assert prices == sorted(prices) and prices[0] < prices[-1]
    assert by["price"]["count"] == by["departure"]["count"]


async def test_find_transfers_through_a_named_transfer_station() -> None:
    trip = {"origin": "北京", "destination": "杭州", "date": DATE}
    answer = await call("find_transfers", {**trip, "transfer_station": "南京"})
    assert answer["transfer_station"] == "南京" and answer["options"]
    for option in answer["options"]:
        assert len(option["legs"]) == 2
        assert option["legs"][0]["destination"].startswith("南京")
        assert option["legs"][1]["origin"].startswith("南京")
    assert answer["relaxed"] == []
    async with started() as app, mcp_session(in_process(app)) as client:
        unknown = tool_error(
            await client.call_tool("find_transfers", {**trip, "transfer_station": "南晶"})
        )
        same = tool_error(
            await client.call_tool("find_transfers", {**trip, "transfer_station": "北京西"})
        )
    assert unknown["code"] == "unknown_station" and unknown["field"] == "transfer_station"
    assert same["code"] == "invalid_input" and same["field"] == "transfer_station"


async def test_a_substituted_station_is_said_in_relaxed_and_the_summary() -> None:
    # No plan to 拉萨 boards at 昆山南: the one offered boards at 苏州北, and says so.
    answer = await call("find_transfers", {"origin": "昆山南", "destination": "拉萨", "date": DATE})
    assert answer["options"]
    (moved,) = answer["relaxed"]
    assert moved["constraint"] == "origin" and moved["requested"] == "昆山南"
    assert moved["offered"] == answer["options"][0]["legs"][0]["origin"] != "昆山南"
    assert answer["summary"].startswith(moved["reason"])
    # A station that is honoured is named as asked, never as its prefecture (义乌 is 金华's).
    honoured = await call("find_transfers", {"origin": "义乌", "destination": "拉萨", "date": DATE})
    assert honoured["relaxed"] == [] and "义乌→拉萨" in honoured["summary"]
    assert all(o["legs"][0]["origin"] == "义乌" for o in honoured["options"])


async def test_closed_arguments_are_enums_whose_values_are_described() -> None:
    async with started() as app, mcp_session(in_process(app)) as client:
        tools = {t.name: t.input_schema for t in (await client.list_tools()).tools}
    seat_values = [c.value for c in SeatClass]
    check = tools["check_booking"]["properties"]["seat_class"]
    search = tools["search_tickets"]["properties"]
    closed = {
        "check_booking.seat_class": check,
        "search_tickets.seat_class": search["seat_class"]["anyOf"][0],
        "search_tickets.train_types": search["train_types"]["items"],
        "search_tickets.features": search["features"]["items"],
        "search_tickets.sort": search["sort"],
    }
    assert check["enum"] == seat_values == closed["search_tickets.seat_class"]["enum"]
    assert closed["search_tickets.train_types"]["enum"] == ["G", "D", "C", "Z", "T", "K"]
    assert closed["search_tickets.sort"]["enum"] == ["departure", "arrival", "duration", "price"]
    assert closed["search_tickets.features"]["enum"] == ["复兴号", "智能动车组", "静音车厢"]
    for name, schema in closed.items():
        for value in schema["enum"]:
            assert f"{value}：" in schema["description"], (name, value)
    assert "二等座" in check["description"]


async def test_the_station_list_is_a_resource() -> None:
    async with started() as app, mcp_session(in_process(app)) as client:
        listed = (await client.list_resources()).resources
        (resource,) = [r for r in listed if str(r.uri) == "railtrip://stations"]
        read = await client.read_resource("railtrip://stations")
        directory = app.state.services.directory
    assert resource.mime_type == "application/json"
    stations = json.loads(read.contents[0].text)
    assert len(stations) == len(list(directory))
    assert {"telecode": "VNP", "name": "北京南", "city": "北京"}.items() <= next(
        s for s in stations if s["telecode"] == "VNP"
    ).items()


async def test_no_data_is_never_said_as_no_trains() -> None:
    async with started() as app, mcp_session(in_process(app)) as client:
        schemas = await output_schemas(client)
        # A filter nothing meets: "no train matches".
        none = structured(
            await client.call_tool(
                "search_tickets", {**ROUTE, "train_types": ["K"], "features": ["智能动车组"]}
            ),
            schemas["search_tickets"],
        )
        faults = app.state.services.sandbox_faults
        faults["12306"].update(error_rate=1.0, transfer_error_rate=1.0)
        faults["juhe"].update(error_rate=1.0)
        answers = {
            name: structured(await client.call_tool(name, args), schemas[name])
            for name, args in {
                "search_tickets": {**ROUTE, "date": "2026-12-06"},
                "find_transfers": {"origin": "北京", "destination": "杭州", "date": "2026-12-06"},
                "plan_trip": {"text": "12月6日从北京去上海", "today": "2026-12-01"},
            }.items()
        }
    assert none["freshness"] == "realtime" and "没有符合条件的车次" in none["summary"]
    for name, answer in answers.items():
        assert answer["freshness"] == "unavailable", name
        assert "没有符合条件" not in answer["summary"] and "没有找到" not in answer["summary"]
        assert "无法获取" in answer["summary"] or "暂时无法" in answer["summary"], name
        assert "稍后再试" in answer["summary"], name


async def test_cors_lets_a_browser_mcp_client_send_and_read_the_mcp_headers() -> None:
    settings = Settings(cors_origins=["http://localhost:5173"])
    async with started(settings, FakeTime()) as app:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1:8000") as c:
            preflight = await c.options(
                "/mcp",
                headers={
                    "Origin": "http://localhost:5173",
                    "Access-Control-Request-Method": "POST",
                    "Access-Control-Request-Headers": "content-type,mcp-protocol-version",
                },
            )
            called = await c.post(
                "/mcp",
                json={"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}},
                headers={
                    "Origin": "http://localhost:5173",
                    "Accept": "application/json, text/event-stream",
                    "Mcp-Protocol-Version": "2025-06-18",
                },
            )
    assert preflight.status_code == 200
    allowed = preflight.headers["access-control-allow-headers"].lower()
    assert "mcp-protocol-version" in allowed and "mcp-session-id" in allowed
    assert called.status_code == 200
    exposed = called.headers["access-control-expose-headers"].lower()
    assert "mcp-session-id" in exposed and "mcp-protocol-version" in exposed
