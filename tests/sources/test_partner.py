"""The partner adapter: parsing recorded partner payloads, and its IO on a mocked transport."""

from __future__ import annotations

import copy
import datetime as dt
import json
import re
from pathlib import Path
from typing import Any

import httpx
import pytest

from sources.errors import (
    SourceBlocked,
    SourceConnectionError,
    SourceParseError,
    SourceRateLimited,
    SourceRejected,
    SourceServerError,
    SourceTimeout,
)
from sources.models import SHANGHAI, SeatClass, SeatStatus, Station, TicketQuery, TrainOffer
from sources.partner import PartnerSource, parse_partner_trains
from sources.stations import StationDirectory

FIXTURES = Path(__file__).parent.parent / "fixtures" / "partner"
BASE = "https://partner.test/api"
SEARCH = re.compile(r"^https://partner\.test/api/v2/trains/search\?")
FETCHED_AT = dt.datetime(2026, 12, 1, 10, 0, 5, tzinfo=SHANGHAI)
DATE = dt.date(2026, 12, 4)
QUERY = TicketQuery(origin="BJP", destination="SHH", date=DATE)
RECORDED = "search_beijing_shanghai_2026-12-04.json"

DIRECTORY = StationDirectory(
    [
        Station(telecode="BJP", name="北京", city="北京"),
        Station(telecode="VNP", name="北京南", city="北京"),
        Station(telecode="BXP", name="北京西", city="北京"),
        Station(telecode="SHH", name="上海", city="上海"),
        Station(telecode="AOH", name="上海虹桥", city="上海"),
    ]
)


def load(name: str) -> Any:
    return json.loads((FIXTURES / name).read_text(encoding="utf-8"))


def parse(payload: object) -> dict[str, TrainOffer]:
    offers = parse_partner_trains(payload, DIRECTORY, FETCHED_AT, "partner")
    return {offer.train_number: offer for offer in offers}


def seats_of(offer: TrainOffer) -> dict[SeatClass, tuple[SeatStatus, int | None, float | None]]:
    return {s.seat_class: (s.status, s.available, s.price) for s in offer.seats}


# -- parsing recorded payloads ----------------------------------------------------------------


def test_recorded_search_yields_one_offer_per_train():
    assert sorted(parse(load(RECORDED))) == ["D5", "G101", "T109", "Z281"]


def test_offer_fields_come_from_the_wire_train():
    g101 = parse(load(RECORDED))["G101"]
    assert g101.train_no == "240000G1010A"
    assert g101.origin_station == DIRECTORY.get("VNP")
    assert g101.destination_station == DIRECTORY.get("AOH")
    assert g101.depart_at == dt.datetime(2026, 12, 4, 6, 36, tzinfo=SHANGHAI)
    assert g101.arrive_at == dt.datetime(2026, 12, 4, 12, 14, tzinfo=SHANGHAI)
    assert g101.duration_min == 338
    assert g101.sources == ("partner",)
    assert g101.fetched_at == FETCHED_AT


def test_fare_classes_and_inventory_statuses_map_to_railtrip_seats():
    assert seats_of(parse(load(RECORDED))["G101"]) == {
        SeatClass.SECOND: (SeatStatus.AVAILABLE, 12, 553.0),
        SeatClass.FIRST: (SeatStatus.SOLD_OUT, 0, 933.0),
        SeatClass.BUSINESS: (SeatStatus.AVAILABLE, None, 1748.0),  # limited: count unknown
        SeatClass.NO_SEAT: (SeatStatus.WAITLIST, None, None),  # standing, not yet priced
    }


def test_unknown_fare_class_and_unknown_inventory_status_are_skipped_not_fatal():
    offers = parse(load(RECORDED))
    assert len(offers["G101"].seats) == 4  # panorama_lounge skipped
    assert seats_of(offers["D5"]) == {  # second_class "on_request" skipped
        SeatClass.EMU_SLEEPER: (SeatStatus.SOLD_OUT, 0, 713.0),  # available with 0 left
    }


def test_utc_datetimes_are_converted_to_shanghai_and_overnight_arrives_next_day():
    d5 = parse(load(RECORDED))["D5"]
    assert d5.depart_at == dt.datetime(2026, 12, 4, 19, 22, tzinfo=SHANGHAI)
    assert d5.arrive_at == dt.datetime(2026, 12, 5, 7, 17, tzinfo=SHANGHAI)
    assert d5.depart_at.utcoffset() == dt.timedelta(hours=8)
    assert d5.date == DATE


def test_sleeper_train_prices_are_float_yuan_and_a_foreign_currency_price_is_unknown():
    t109 = seats_of(parse(load(RECORDED))["T109"])
    assert t109 == {
        SeatClass.PREMIUM_SLEEPER: (SeatStatus.AVAILABLE, None, 1024.5),
        SeatClass.SOFT_SLEEPER: (SeatStatus.SOLD_OUT, 0, 476.0),
        SeatClass.HARD_SLEEPER: (SeatStatus.AVAILABLE, 5, 304.5),
        SeatClass.HARD_SEAT: (SeatStatus.AVAILABLE, 140, 177.5),
        SeatClass.NO_SEAT: (SeatStatus.AVAILABLE, 30, None),
    }
    assert isinstance(t109[SeatClass.HARD_SEAT][2], float)


def test_station_unknown_to_the_directory_keeps_the_vendors_name():
    z281 = parse(load(RECORDED))["Z281"]
    assert z281.origin_station == DIRECTORY.get("BXP")
    assert z281.destination_station == Station(telecode="QQH", name="上海松江", city="上海松江")
    assert seats_of(z281) == {SeatClass.SOFT_SEAT: (SeatStatus.AVAILABLE, 3, 198.0)}


def test_unknown_station_query_is_an_empty_list():
    assert parse(load("empty.json")) == {}


def test_extra_fields_anywhere_are_tolerated():
    payload = load(RECORDED)
    payload["paging"] = {"next": None}
    payload["trains"][0]["fares"][0]["inventory"]["updated_at"] = "2026-12-01T09:59:00+08:00"
    assert "G101" in parse(payload)


def test_naive_datetimes_are_off_schema():
    with pytest.raises(SourceParseError, match="departure"):
        parse(load("off_schema_naive_datetime.json"))


def mutated(change: Any) -> dict[str, Any]:
    payload = copy.deepcopy(load(RECORDED))
    change(payload)
    return payload


@pytest.mark.parametrize(
    ("case", "payload"),
    [
        ("trains missing", {"request_id": "x"}),
        ("body is a list", []),
        (
            "amount not a number",
            mutated(lambda p: p["trains"][0]["fares"][0]["price"].update(amount="cheap")),
        ),
        (
            "negative remaining",
            mutated(lambda p: p["trains"][0]["fares"][0]["inventory"].update(remaining=-1)),
        ),
        ("train without code", mutated(lambda p: p["trains"][1].pop("code"))),
        ("implausible train code", mutated(lambda p: p["trains"][1].update(code="XX-1"))),
        ("bad telecode", mutated(lambda p: p["trains"][1]["from"].update(code="beijing"))),
        (
            "arrives before departing",
            mutated(lambda p: p["trains"][0].update(arrival="2026-12-04T05:00:00+08:00")),
        ),
    ],
)
def test_schema_violations_are_parse_errors(case, payload):
    with pytest.raises(SourceParseError):
        parse(payload)


# -- IO against a mocked transport ------------------------------------------------------------


@pytest.fixture
async def client():
    async with httpx.AsyncClient() as shared:
        yield shared


def source(client: httpx.AsyncClient, api_key: str | None = None) -> PartnerSource:
    return PartnerSource("partner", client, BASE + "/", DIRECTORY, lambda: FETCHED_AT, api_key)


async def test_search_sends_the_query_as_contract_parameters_and_parses_offers(httpx_mock, client):
    httpx_mock.add_response(url=SEARCH, json=load(RECORDED))
    offers = await source(client).search(QUERY)
    request = httpx_mock.get_request()
    assert request.url.path == "/api/v2/trains/search"
    assert dict(request.url.params) == {"from": "BJP", "to": "SHH", "date": "2026-12-04"}
    assert request.headers["Accept"] == "application/json"
    assert "X-Api-Key" not in request.headers
    assert len(offers) == 4


async def test_api_key_and_train_types_are_sent_and_types_filter_the_offers(httpx_mock, client):
    httpx_mock.add_response(url=SEARCH, json=load(RECORDED))
    query = TicketQuery(origin="BJP", destination="SHH", date=DATE, train_types={"T", "G"})
    offers = await source(client, api_key="k-123").search(query)
    request = httpx_mock.get_request()
    assert request.headers["X-Api-Key"] == "k-123"
    assert request.url.params["types"] == "G,T"
    # The vendor may ignore `types`; the adapter still filters.
    assert sorted(o.train_number for o in offers) == ["G101", "T109"]


@pytest.mark.parametrize(
    ("status", "fixture", "error", "text"),
    [
        (400, "error_400.json", SourceRejected, "BAD_REQUEST: date must be YYYY-MM-DD"),
        (401, "error_401.json", SourceRejected, "UNAUTHORIZED: invalid API key"),
        (500, "error_503.json", SourceServerError, "UPSTREAM"),
        (503, "error_503.json", SourceServerError, "inventory service unavailable"),
    ],
)
async def test_error_bodies_are_classified_with_the_vendors_code(
    httpx_mock, client, status, fixture, error, text
):
    httpx_mock.add_response(url=SEARCH, status_code=status, json=load(fixture))
    with pytest.raises(error) as info:
        await source(client).search(QUERY)
    assert text in str(info.value)
    assert info.value.status_code == status


async def test_429_is_rate_limited_with_retry_after_seconds(httpx_mock, client):
    httpx_mock.add_response(
        url=SEARCH, status_code=429, json=load("error_429.json"), headers={"Retry-After": "3"}
    )
    with pytest.raises(SourceRateLimited, match="RATE_LIMITED") as info:
        await source(client).search(QUERY)
    assert info.value.retry_after == 3.0


async def test_gateway_error_with_an_html_body_is_still_a_server_error(httpx_mock, client):
    httpx_mock.add_response(url=SEARCH, status_code=502, text="<html>502 Bad Gateway</html>")
    with pytest.raises(SourceServerError, match="HTTP 502"):
        await source(client).search(QUERY)


async def test_redirect_is_treated_as_blocked(httpx_mock, client):
    httpx_mock.add_response(url=SEARCH, status_code=302, headers={"Location": "/login"})
    with pytest.raises(SourceBlocked):
        await source(client).search(QUERY)


async def test_non_json_200_is_a_parse_error(httpx_mock, client):
    httpx_mock.add_response(url=SEARCH, text="<html>maintenance</html>")
    with pytest.raises(SourceParseError, match="not JSON"):
        await source(client).search(QUERY)


async def test_timeout_and_connection_loss_map_to_the_error_tree(httpx_mock, client):
    httpx_mock.add_exception(httpx.ConnectTimeout("slow"), url=SEARCH)
    httpx_mock.add_exception(httpx.RemoteProtocolError("peer closed"), url=SEARCH)
    adapter = source(client)
    with pytest.raises(SourceTimeout):
        await adapter.search(QUERY)
    with pytest.raises(SourceConnectionError):
        await adapter.search(QUERY)
