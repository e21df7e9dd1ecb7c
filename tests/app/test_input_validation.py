"""Bad input is a 422 naming the field, never a 500 and never a guess."""

from __future__ import annotations

import pytest

from tests.app.apps import running

OK = {"origin": "北京", "destination": "上海", "date": "2026-12-04"}


@pytest.mark.parametrize(
    ("params", "field", "code"),
    [
        ({**OK, "origin": "北惊"}, "origin", "unknown_station"),
        ({**OK, "destination": "不存在的站"}, "destination", "unknown_station"),
        ({**OK, "destination": "北京西"}, "destination", "invalid_input"),
        ({**OK, "date": "2026-11-20"}, "date", "invalid_input"),
        ({**OK, "date": "2027-01-30"}, "date", "invalid_input"),
        ({**OK, "date": "12/04/2026"}, "date", "invalid_input"),
        ({**OK, "train_types": "G,X"}, "train_types", "invalid_input"),
        ({"origin": "北京", "date": "2026-12-04"}, "destination", "invalid_input"),
    ],
    ids=[
        "typo",
        "unknown",
        "same-city",
        "past",
        "beyond-window",
        "bad-format",
        "bad-type",
        "missing",
    ],
)
async def test_ticket_query_refusals_name_the_field(
    params: dict[str, str], field: str, code: str
) -> None:
    async with running() as (client, _):
        r = await client.get("/v1/tickets", params=params)
    assert r.status_code == 422
    body = r.json()
    assert body["field"] == field and body["code"] == code and body["message"]


async def test_unknown_station_comes_with_suggestions() -> None:
    async with running() as (client, _):
        r = await client.get("/v1/tickets", params={**OK, "origin": "北惊"})
    assert "北京" in r.json()["suggestions"]


@pytest.mark.parametrize(
    ("body", "field"),
    [
        (
            {
                "train_number": "G1",
                "date": "2026-12-04",
                "origin": "北京",
                "destination": "上海",
                "seat_class": "deluxe",
            },
            "seat_class",
        ),
        (
            {
                "train_number": "G1;drop",
                "date": "2026-12-04",
                "origin": "北京",
                "destination": "上海",
                "seat_class": "second",
            },
            "train_number",
        ),
        (
            {
                "train_number": "G1",
                "date": "soon",
                "origin": "北京",
                "destination": "上海",
                "seat_class": "second",
            },
            "date",
        ),
        (
            {
                "train_number": "G1",
                "date": "2026-12-04",
                "origin": "北京",
                "destination": "上海",
                "seat_class": "second",
                "passengers": 0,
            },
            "passengers",
        ),
    ],
)
async def test_precheck_refusals_name_the_field(body: dict[str, object], field: str) -> None:
    async with running() as (client, _):
        r = await client.post("/v1/bookings/precheck", json=body)
    assert r.status_code == 422 and r.json()["field"] == field


async def test_stations_search_by_name_pinyin_and_telecode() -> None:
    async with running() as (client, _):
        by_name = (await client.get("/v1/stations", params={"q": "北京"})).json()
        by_pinyin = (await client.get("/v1/stations", params={"q": "shanghaihongqiao"})).json()
        by_code = (await client.get("/v1/stations", params={"q": "VNP"})).json()
        typo = (await client.get("/v1/stations", params={"q": "北惊"})).json()
    assert "北京南" in [s["name"] for s in by_name["stations"]]
    assert by_pinyin["stations"][0]["telecode"] == "AOH"
    assert by_code["stations"][0]["name"] == "北京南"
    assert typo["stations"] == [] and "北京" in typo["suggestions"]


async def test_ticket_query_parameters_are_documented_in_openapi() -> None:
    async with running() as (client, _):
        spec = (await client.get("/openapi.json")).json()
    params = spec["paths"]["/v1/tickets"]["get"]["parameters"]
    assert [p["name"] for p in params] == [
        "origin",
        "destination",
        "date",
        "train_types",
        "fare",
        "refresh",
    ]
    assert [p["name"] for p in params if p["required"]] == ["origin", "destination", "date"]
