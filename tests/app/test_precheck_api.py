"""The booking precheck re-queries live; it never answers from a cache."""

from __future__ import annotations

import pytest

from tests.app.apps import running, sample, upstream_requests
from tests.clocks import FakeTime

DAY = "2026-12-04"


def check(train: str, **extra: object) -> dict[str, object]:
    return {
        "train_number": train,
        "date": DAY,
        "origin": "北京",
        "destination": "上海",
        "seat_class": "second",
        **extra,
    }


async def _bookable_second_class(client) -> dict:  # type: ignore[no-untyped-def]
    offers = (
        await client.get(
            "/v1/tickets", params={"origin": "北京", "destination": "上海", "date": DAY}
        )
    ).json()["offers"]
    for o in offers:
        for s in o["seats"]:
            if s["seat_class"] == "second" and s["status"] == "available" and s["price"]:
                return {"train": o["train_number"], "price": s["price"]}
    raise AssertionError("no bookable second-class seat in the sandbox")


async def test_a_bookable_train_is_confirmed_live() -> None:
    async with running() as (client, state):
        pick = await _bookable_second_class(client)
        r = await client.post(
            "/v1/bookings/precheck", json=check(pick["train"], expected_price=pick["price"])
        )
        assert r.status_code == 200
        body = r.json()
        assert body["bookable"] is True and body["freshness"] == "realtime"
        assert body["price"] == pick["price"] and body["checked_at"]
        assert (
            sample(state, "railtrip_source_requests_total", source="sandbox-12306", outcome="ok")
            == 3  # the session init, the search, the live re-check
        )


async def test_an_invented_train_number_is_409_not_found_and_counted() -> None:
    async with running() as (client, state):
        r = await client.post("/v1/bookings/precheck", json=check("G9999"))
        assert r.status_code == 409 and r.json()["reason"] == "not_found"
        assert sample(state, "railtrip_invented_train_rejections_total", origin="user") == 1


async def test_a_number_no_railway_runs_is_asked_live_and_409_not_found() -> None:
    async with running() as (client, state):
        r = await client.post("/v1/bookings/precheck", json=check("G99999"))
        assert r.status_code == 409 and r.json()["reason"] == "not_found"
        assert upstream_requests(state, "sandbox-12306") >= 1


@pytest.mark.parametrize("number", ["G999999", "G0", "X123", "G012"])
async def test_what_cannot_be_a_train_number_is_a_422_naming_it_before_any_query(
    number: str,
) -> None:
    async with running() as (client, state):
        r = await client.post("/v1/bookings/precheck", json=check(number))
        assert r.status_code == 422 and r.json()["field"] == "train_number"
        assert upstream_requests(state, "sandbox-12306") == 0


async def test_a_changed_price_is_409_with_the_new_price() -> None:
    async with running() as (client, _):
        pick = await _bookable_second_class(client)
        r = await client.post(
            "/v1/bookings/precheck", json=check(pick["train"], expected_price=1.0)
        )
    assert r.status_code == 409
    assert r.json()["reason"] == "price_changed" and r.json()["price"] == pick["price"]


async def test_a_party_larger_than_the_seats_left_is_409_sold_out() -> None:
    async with running() as (client, _):
        offers = (
            await client.get(
                "/v1/tickets", params={"origin": "北京", "destination": "上海", "date": DAY}
            )
        ).json()["offers"]
        few = next(
            (o["train_number"], s["seat_class"], s["available"])
            for o in offers
            for s in o["seats"]
            if s["status"] == "available" and s["available"] is not None and s["available"] < 9
        )
        r = await client.post(
            "/v1/bookings/precheck",
            json={**check(few[0]), "seat_class": few[1], "passengers": few[2] + 1},
        )
    assert r.status_code == 409 and r.json()["reason"] == "sold_out"


async def test_sources_down_is_503_even_though_the_cache_holds_the_train() -> None:
    time = FakeTime()
    async with running(time=time) as (client, _):
        pick = await _bookable_second_class(client)
        for vendor in ("12306", "juhe"):
            await client.post(f"/sandbox/{vendor}/faults", json={"error_rate": 1})
        cached = await client.get(
            "/v1/tickets", params={"origin": "北京", "destination": "上海", "date": DAY}
        )
        assert cached.json()["freshness"] == "cached"
        r = await client.post("/v1/bookings/precheck", json=check(pick["train"]))
    assert r.status_code == 503 and r.json()["code"] == "no_live_answer"


async def test_a_train_missing_while_a_source_did_not_answer_is_503_not_409() -> None:
    async with running() as (client, state):
        down = await client.post("/sandbox/juhe/faults", json={"error_rate": 1.0})
        assert down.status_code == 200
        r = await client.post("/v1/bookings/precheck", json=check("G9999"))
        assert r.status_code == 503, r.text
        body = r.json()
        assert body["code"] == "no_live_answer"
        statuses = {s["name"]: s["status"] for s in body["sources"]}
        assert statuses["sandbox-12306"] == "ok" and statuses["sandbox-juhe"] != "ok"
        assert sample(state, "railtrip_invented_train_rejections_total", origin="user") == 0


async def test_a_seat_not_yet_on_sale_is_409_not_on_sale_with_its_sale_time() -> None:
    last = "2026-12-15"  # the last date on sale; the clock says 2026-12-01 08:00
    async with running() as (client, _):
        offers = (
            await client.get(
                "/v1/tickets", params={"origin": "北京", "destination": "上海", "date": last}
            )
        ).json()["offers"]
        later = next(
            o
            for o in offers
            if o["on_sale_at"] and any(s["seat_class"] == "second" for s in o["seats"])
        )
        assert later["depart_at"][11:16] > "08:00"
        r = await client.post("/v1/bookings/precheck", json=check(later["train_number"], date=last))
    body = r.json()
    assert r.status_code == 409 and body["reason"] == "not_on_sale"
    assert body["on_sale_at"].startswith("2026-12-01T") and "尚未开售" in body["message"]
