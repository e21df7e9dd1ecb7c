"""`GET /v1/tickets` end to end: the real adapters against the in-process sandbox vendors."""

from __future__ import annotations

import asyncio

from app.settings import Settings
from tests.app.apps import running, sample, upstream_requests
from tests.clocks import FakeTime

DAY = "2026-12-04"  # the fake clock says 2026-12-01 08:00 in Shanghai
TICKETS = {"origin": "北京", "destination": "上海", "date": DAY}


async def test_beijing_to_shanghai_lists_real_trains_from_both_vendors() -> None:
    async with running() as (client, _):
        r = await client.get("/v1/tickets", params=TICKETS)
    body = r.json()
    assert r.status_code == 200 and body["freshness"] == "realtime"
    assert body["age_s"] == 0 and body["as_of"].startswith("2026-12-01T08:00")
    assert [s["name"] for s in body["sources"]] == ["sandbox-12306", "sandbox-juhe"]
    assert {s["status"] for s in body["sources"]} == {"ok"}
    assert len(body["offers"]) >= 20
    assert any(o["train_number"].startswith("G") for o in body["offers"])
    both = [o for o in body["offers"] if len(o["sources"]) == 2]
    assert both, "rides reported by both vendors are merged into one offer"
    first = body["offers"][0]
    assert {
        "train_number",
        "origin_station",
        "destination_station",
        "depart_at",
        "arrive_at",
        "duration_min",
        "seats",
        "sources",
    } <= set(first)
    assert first["origin_station"]["city"] == "北京"
    seat = first["seats"][0]
    assert {"seat_class", "status", "available", "price"} <= set(seat)
    departures = [o["depart_at"] for o in body["offers"]]
    assert departures == sorted(departures)


async def test_fifty_concurrent_identical_cold_requests_reach_each_source_once() -> None:
    async with running() as (client, state):
        answers = await asyncio.gather(
            *(client.get("/v1/tickets", params=TICKETS) for _ in range(50))
        )
        assert {r.status_code for r in answers} == {200}
        assert upstream_requests(state, "sandbox-12306") == 2  # the session init and one query
        assert upstream_requests(state, "sandbox-juhe") == 1

        again = await client.get("/v1/tickets", params=TICKETS)
        assert again.json()["freshness"] == "cached"
        assert upstream_requests(state, "sandbox-12306") == 2
        assert sample(state, "railtrip_cache_requests_total", tier="memory", result="hit") >= 1


async def test_city_names_and_telecodes_share_a_cache_entry_but_a_station_does_not() -> None:
    async with running() as (client, state):
        await client.get("/v1/tickets", params=TICKETS)
        by_code = await client.get(
            "/v1/tickets", params={**TICKETS, "origin": "BJP", "destination": "SHH"}
        )
        assert by_code.json()["freshness"] == "cached"
        by_station = await client.get("/v1/tickets", params={**TICKETS, "origin": "北京南"})
        body = by_station.json()
        assert body["freshness"] == "realtime"
        assert {o["origin_station"]["name"] for o in body["offers"]} == {"北京南"}
        assert upstream_requests(state, "sandbox-12306") == 3  # init, then two queries


async def test_one_vendor_failing_every_request_still_answers_from_the_other() -> None:
    async with running() as (client, state):
        await client.post("/sandbox/juhe/faults", json={"error_rate": 1})
        r = await client.get("/v1/tickets", params=TICKETS)
    body = r.json()
    assert r.status_code == 200 and body["freshness"] == "realtime" and body["offers"]
    juhe = next(s for s in body["sources"] if s["name"] == "sandbox-juhe")
    assert juhe["status"] == "error" and juhe["freshness"] == "unavailable"
    assert any("sandbox-juhe" in w for w in body["warnings"])
    assert (
        sample(state, "railtrip_source_requests_total", source="sandbox-juhe", outcome="error") == 3
    )


async def test_both_vendors_down_serve_seen_queries_cached_and_unseen_unavailable() -> None:
    time = FakeTime()
    async with running(time=time) as (client, state):
        await client.get("/v1/tickets", params=TICKETS)
        for vendor in ("12306", "juhe"):
            await client.post(f"/sandbox/{vendor}/faults", json={"error_rate": 1})
        time.advance(120)  # L1 expired: only the stale copy is left
        seen = await client.get("/v1/tickets", params=TICKETS)
        unseen = await client.get("/v1/tickets", params={**TICKETS, "destination": "南京"})
    assert seen.status_code == unseen.status_code == 200
    assert seen.json()["freshness"] == "cached"
    assert seen.json()["age_s"] >= 120  # plus the retry backoff the fake clock also counted
    assert seen.json()["offers"] and seen.json()["warnings"]
    assert unseen.json()["freshness"] == "unavailable" and unseen.json()["offers"] == []
    assert "暂时无法获取" in unseen.json()["warnings"][0]
    assert (
        sample(state, "railtrip_responses_total", endpoint="/v1/tickets", freshness="unavailable")
        == 1
    )


async def test_refresh_true_goes_live_even_when_cached() -> None:
    async with running() as (client, state):
        await client.get("/v1/tickets", params=TICKETS)
        r = await client.get("/v1/tickets", params={**TICKETS, "refresh": "true"})
        assert r.json()["freshness"] == "realtime"
        assert upstream_requests(state, "sandbox-12306") == 3  # init, then two queries


async def test_train_type_filter_keeps_only_those_types() -> None:
    async with running() as (client, _):
        r = await client.get("/v1/tickets", params={**TICKETS, "train_types": "Z,T,K"})
    trains = [o["train_number"] for o in r.json()["offers"]]
    assert trains and all(t[0] in "ZTK" for t in trains)


async def test_redis_l2_serves_a_second_app(redis_url: str) -> None:
    settings = Settings(redis_url=redis_url)
    async with running(settings) as (client, _):
        await client.get("/v1/tickets", params=TICKETS)
    async with running(settings) as (client, state):
        r = await client.get("/v1/tickets", params=TICKETS)
        assert r.json()["freshness"] == "cached"
        assert upstream_requests(state, "sandbox-12306") == 0
        ready = await client.get("/readyz")
        assert ready.json()["redis"] == "ok"


async def test_the_first_query_succeeds_when_the_site_moves_its_query_path() -> None:
    async with running() as (client, state):
        await client.post("/sandbox/12306/faults", json={"path_moved_rate": 1})
        r = await client.get("/v1/tickets", params=TICKETS)
        body = r.json()
        assert r.status_code == 200 and body["freshness"] == "realtime"
        assert {s["name"]: s["status"] for s in body["sources"]}["sandbox-12306"] == "ok"
        rail = next(s.source for s in state.sources if s.name == "sandbox-12306")
        assert rail.query_suffix == "queryZ"  # adopted and remembered
        counts = state.sandbox_faults["12306"].requests_by_path
        assert counts["/otn/leftTicket/queryG"] == 1 and counts["/otn/leftTicket/queryZ"] == 1
        # init, the moved query and the hop to the new path: three requests, all counted
        assert upstream_requests(state, "sandbox-12306") == 3


async def test_a_date_off_sale_is_refused_before_any_upstream_request() -> None:
    async with running() as (client, state):
        r = await client.get("/v1/tickets", params={**TICKETS, "date": "2026-12-16"})
        assert r.status_code == 422 and r.json()["field"] == "date"
        assert "2026-12-15" in r.json()["message"]
        ok = await client.get("/v1/tickets", params={**TICKETS, "date": "2026-12-15"})
        assert ok.status_code == 200
        assert state.sandbox_faults["12306"].requests_by_path["/otn/leftTicket/queryG"] == 1
