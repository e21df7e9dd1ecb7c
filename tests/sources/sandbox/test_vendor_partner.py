"""The partner sandbox serves sources/PARTNER_API.md exactly, a bucket behind 12306."""

from __future__ import annotations

import datetime as dt
import json

import pytest

from sources.sandbox import FaultConfig, create_partner_app
from sources.sandbox.inventory import PARTNER_LAG, ride_inventory
from sources.sandbox.serving import HANG_S
from sources.sandbox.vendor_partner import PARTNER_CLASS, fare
from sources.stations import curated_directory

from .conftest import NOW, TRIP, client_for

SEARCH = "/v2/trains/search"
CLASSES = set(PARTNER_CLASS.values())
STATUSES = {"available", "limited", "sold_out", "waitlist"}


def params(origin="BJP", destination="SHH", date: dt.date | str = TRIP, **extra) -> dict[str, str]:
    day = date.isoformat() if isinstance(date, dt.date) else date
    return {"from": origin, "to": destination, "date": day, **extra}


async def test_search_follows_the_documented_schema(partner):
    response = await partner.get(SEARCH, params=params())
    assert response.status_code == 200
    body = response.json()
    assert set(body) == {"request_id", "as_of", "trains"}
    assert dt.datetime.fromisoformat(body["as_of"]).utcoffset() == dt.timedelta(hours=8)
    assert len(body["trains"]) >= 20
    beijing = {s.telecode for s in curated_directory().in_city("北京")}
    for train in body["trains"]:
        assert set(train) == {
            "train_id",
            "code",
            "from",
            "to",
            "departure",
            "arrival",
            "duration_minutes",
            "fares",
        }
        assert train["from"]["code"] in beijing and train["from"]["name"]
        departure = dt.datetime.fromisoformat(train["departure"])
        arrival = dt.datetime.fromisoformat(train["arrival"])
        assert departure.utcoffset() == dt.timedelta(hours=8)
        assert (arrival - departure) == dt.timedelta(minutes=train["duration_minutes"])
        assert departure.date() == TRIP
        for entry in train["fares"]:
            assert entry["class"] in CLASSES
            assert entry["price"]["currency"] == "CNY" and float(entry["price"]["amount"]) > 0
            assert entry["inventory"]["status"] in STATUSES
            if entry["inventory"]["status"] == "limited":
                assert entry["inventory"]["remaining"] is None


async def test_overnight_arrival_carries_the_next_days_date(partner):
    trains = (await partner.get(SEARCH, params=params())).json()["trains"]
    overnight = [t for t in trains if t["code"][0] in "ZTK" and t["departure"][11:13] >= "17"]
    assert overnight
    for train in overnight:
        assert train["arrival"].startswith((TRIP + dt.timedelta(days=1)).isoformat())
        assert {"hard_sleeper", "hard_seat"} <= {f["class"] for f in train["fares"]}


async def test_types_filter_keeps_only_the_asked_train_types(partner):
    trains = (await partner.get(SEARCH, params=params(types="Z,T"))).json()["trains"]
    assert trains and {t["code"][0] for t in trains} <= {"Z", "T"}


async def test_unknown_station_is_an_empty_list(partner):
    response = await partner.get(SEARCH, params=params(origin="XXX"))
    assert response.status_code == 200 and response.json()["trains"] == []


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ({"to": "SHH", "date": "2026-12-04"}, "from"),
        (params(destination="shanghai"), "to"),
        (params(date="04/12/2026"), "date"),
        (params(types="G,X"), "types"),
    ],
)
async def test_bad_parameters_are_400_naming_the_field(partner, query, field):
    response = await partner.get(SEARCH, params=query)
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == "BAD_REQUEST" and field in error["message"]


async def test_api_key_is_checked_when_configured(faults_partner, clock, sleep, timetable):
    app = create_partner_app(
        faults=faults_partner, clock=clock, sleep=sleep, timetable=timetable, api_key="k1"
    )
    async with client_for(app) as client:
        refused = await client.get(SEARCH, params=params())
        allowed = await client.get(SEARCH, params=params(), headers={"X-Api-Key": "k1"})
    assert refused.status_code == 401 and refused.json()["error"]["code"] == "UNAUTHORIZED"
    assert allowed.status_code == 200


async def test_inventory_lags_one_bucket_behind_the_railway(partner, timetable):
    body = (await partner.get(SEARCH, params=params())).json()
    assert dt.datetime.fromisoformat(body["as_of"]) <= NOW - PARTNER_LAG
    rides = {r.train.code: r for r in timetable.rides("BJP", "SHH", TRIP)}
    for train in body["trains"]:
        ride = rides[train["code"]]
        expected = [fare(s) for s in ride_inventory(ride, NOW - PARTNER_LAG)]
        assert train["fares"] == [f for f in expected if f is not None]


async def test_partner_shows_more_seats_than_12306_while_seats_are_selling(
    faults_partner, sleep, timetable
):
    ride = timetable.rides("BJP", "SHH", TRIP)[0]
    now = ride.depart_at - dt.timedelta(hours=2)
    app = create_partner_app(
        faults=faults_partner, clock=lambda: now, sleep=sleep, timetable=timetable
    )
    async with client_for(app) as client:
        trains = (await client.get(SEARCH, params=params())).json()["trains"]
    railway = {s.seat_class: s.remaining for s in ride_inventory(ride, now)}
    shown = next(t for t in trains if t["code"] == ride.train.code)
    counts = {f["class"]: f["inventory"]["remaining"] for f in shown["fares"]}
    behind = [
        counts[PARTNER_CLASS[c]] - left
        for c, left in railway.items()
        if counts[PARTNER_CLASS[c]] is not None
    ]
    assert all(d >= 0 for d in behind)
    all_rides = timetable.rides("BJP", "SHH", TRIP)
    assert any(
        ride_inventory(r, r.depart_at - dt.timedelta(hours=2), lag=PARTNER_LAG)
        != ride_inventory(r, r.depart_at - dt.timedelta(hours=2))
        for r in all_rides
    )


async def test_rate_limit_fault_is_429_with_retry_after_and_error_body(partner, faults_partner):
    faults_partner.update(rate_limit_rate=1)
    response = await partner.get(SEARCH, params=params())
    assert response.status_code == 429
    assert response.headers["Retry-After"] == "1"
    assert response.json() == {"error": {"code": "RATE_LIMITED", "message": "too many requests"}}


async def test_error_fault_cycles_through_vendor_5xx_codes(partner, faults_partner):
    faults_partner.update(error_rate=1)
    answers = [(await partner.get(SEARCH, params=params())) for _ in range(3)]
    assert [a.status_code for a in answers] == [500, 502, 503]
    assert [a.json()["error"]["code"] for a in answers] == ["INTERNAL", "UPSTREAM", "UPSTREAM"]


async def test_malformed_fault_is_a_200_that_breaks_the_schema(partner, faults_partner):
    faults_partner.update(malformed_rate=1)
    bodies = [(await partner.get(SEARCH, params=params())) for _ in range(3)]
    assert all(b.status_code == 200 for b in bodies)
    with pytest.raises(json.JSONDecodeError):
        json.loads(bodies[0].text)
    assert "departure" not in bodies[1].json()["trains"][0]
    assert not isinstance(bodies[2].json()["trains"], list)


async def test_hang_fault_waits_on_the_injected_sleep(partner, faults_partner, sleep):
    faults_partner.update(hang_rate=1, latency_ms=40)
    response = await partner.get(SEARCH, params=params())
    assert sleep.calls == [0.04, HANG_S]
    assert response.status_code == 504


async def test_seeded_faults_mix_with_good_answers_reproducibly(timetable, clock, sleep):
    async def statuses() -> list[int]:
        faults = FaultConfig("partner", error_rate=0.3, rate_limit_rate=0.3, seed=5)
        app = create_partner_app(faults=faults, clock=clock, sleep=sleep, timetable=timetable)
        async with client_for(app) as client:
            return [(await client.get(SEARCH, params=params())).status_code for _ in range(12)]

    first = await statuses()
    assert first == await statuses()
    assert {200, 429} <= set(first) and set(first) & {500, 502, 503}


async def test_request_counter_and_unknown_paths(partner, faults_partner):
    await partner.get(SEARCH, params=params())
    missing = await partner.get("/v1/nothing")
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "NOT_FOUND"
    assert faults_partner.counters()["requests_by_path"] == {SEARCH: 1, "/v1/nothing": 1}
    assert faults_partner.requests_total == 2
