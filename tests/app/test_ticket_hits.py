"""The hit path (app/http/ticket_hits.py) answers an L1 hit exactly as the route does.

Two apps on one fake clock: one as served, one built with `hit_path=False`, so every request
goes through the router. Both are asked the same cold query first (the same requests on
each, so quotas and counters advance alike), then the served app's cache entry is put in the
reference's L1 too, and each hit is asked of both: status, headers, body bytes, the change in
every metric and the request's log line must be the same, and the served app must have
answered it before routing.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
from collections.abc import AsyncIterator, Iterator
from contextlib import AsyncExitStack, asynccontextmanager, contextmanager
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from starlette.types import Receive, Scope, Send

from app.main import create_app
from app.runtime import Runtime
from app.services import Services
from app.settings import Settings
from app.tickets.hits import HitBody, NotAHit
from app.usecases.tickets import resolve_tickets
from tests.clocks import FakeTime

DAY = "2026-12-04"  # the fake clock says 2026-12-01 08:00 in Shanghai
KEY = "hit-path-test-key-0123"
SECURED = {
    "api_keys": [f"frontend:{hashlib.sha256(KEY.encode()).hexdigest()}"],
    "client_rate_per_s": 50.0,
    "client_burst": 30,
}
# Long enough that the ages below stay in L1, and no refresh unless a test asks for one.
LONG_LIVED = {"memory_ttl_s": 36000.0, "refresh_after_s": 36000.0}


class Routed:
    """The app behind a spy that notes whether the router saw each request (it records the
    route it chose in the scope)."""

    def __init__(self, app: FastAPI) -> None:
        self.app = app
        self.routed: list[bool] = []

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        await self.app(scope, receive, send)
        if scope["type"] == "http":
            self.routed.append("route" in scope)


@asynccontextmanager
async def twins(
    settings: Settings, time: FakeTime
) -> AsyncIterator[tuple[httpx.AsyncClient, httpx.AsyncClient, Routed, Services, Services]]:
    """The served app and its router-only reference, lifespans entered, on one clock."""
    runtime = Runtime(clock=time.now, monotonic=time.monotonic, sleep=time.sleep)
    served = create_app(settings, runtime)
    reference = create_app(settings, runtime, hit_path=False)
    spy = Routed(served)
    async with AsyncExitStack() as stack:
        clients = []
        for app, asgi in ((served, spy), (reference, reference)):
            await stack.enter_async_context(app.router.lifespan_context(app))
            transport = httpx.ASGITransport(app=asgi)
            client = httpx.AsyncClient(transport=transport, base_url="http://railtrip")
            clients.append(await stack.enter_async_context(client))
        yield clients[0], clients[1], spy, served.state.services, reference.state.services


@contextmanager
def request_lines() -> Iterator[list[dict[str, Any]]]:
    """The request log lines written meanwhile, parsed (from a handler of the test's own)."""
    from app.observability.logs import JsonFormatter

    lines: list[dict[str, Any]] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            if record.name == "railtrip.http":
                lines.append(json.loads(JsonFormatter().format(record)))

    logger = logging.getLogger("railtrip")
    handler = Keep()
    logger.addHandler(handler)
    try:
        yield lines
    finally:
        logger.removeHandler(handler)


def samples(services: Services) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample of the app's registry; a request's duration kept only as a count, and no
    series' creation time (neither is the same twice)."""
    found = {}
    for family in services.metrics.registry.collect():
        for s in family.samples:
            timed = s.name.startswith("railtrip_http_request_duration_seconds")
            if s.name.endswith("_created") or (timed and not s.name.endswith("_count")):
                continue
            found[(s.name, tuple(sorted(s.labels.items())))] = s.value
    return found


def change(before: dict[Any, float], after: dict[Any, float]) -> dict[Any, float]:
    return {k: v - before.get(k, 0.0) for k, v in after.items() if v != before.get(k, 0.0)}


async def ask_both(
    fast: httpx.AsyncClient,
    slow: httpx.AsyncClient,
    fast_services: Services,
    slow_services: Services,
    params: dict[str, str],
    headers: dict[str, str],
) -> tuple[httpx.Response, httpx.Response, dict[Any, float], dict[Any, float], list[Any]]:
    """One request to each app: both answers, each app's metric changes, both log lines."""
    with request_lines() as lines:
        before = samples(fast_services)
        one = await fast.get("/v1/tickets", params=params, headers=headers)
        fast_change = change(before, samples(fast_services))
        before = samples(slow_services)
        other = await slow.get("/v1/tickets", params=params, headers=headers)
        slow_change = change(before, samples(slow_services))
    return one, other, fast_change, slow_change, lines


def assert_same(
    one: httpx.Response,
    other: httpx.Response,
    fast_change: dict[Any, float],
    slow_change: dict[Any, float],
    lines: list[dict[str, Any]],
) -> None:
    assert one.status_code == other.status_code
    assert one.headers.multi_items() == other.headers.multi_items()
    assert one.content == other.content
    assert fast_change == slow_change
    assert len(lines) == 2
    for line in lines:
        line.pop("ts"), line.pop("latency_ms")
    assert lines[0] == lines[1]


CASES = {
    "city to city, seconds old": ({"origin": "北京", "destination": "上海", "date": DAY}, 7.25),
    "named stations narrow the offers": (
        {"origin": "北京南", "destination": "上海虹桥", "date": DAY},
        61.5,
    ),
    "pinyin, types and student fares (with the adult-fares warning)": (
        {"origin": "beijing", "destination": "shanghai", "date": DAY, "train_types": "G,D"}
        | {"fare": "student"},
        3601.0,
    ),
}


@pytest.mark.parametrize("secured", [False, True], ids=["open", "keys-and-quotas"])
@pytest.mark.parametrize("case", list(CASES), ids=list(CASES))
async def test_an_l1_hit_is_answered_before_routing_with_the_routes_bytes_metrics_and_log(
    case: str, secured: bool
) -> None:
    params, age = CASES[case]
    settings = Settings(**LONG_LIVED, **(SECURED if secured else {}))
    headers = {"X-Request-ID": "same-id-1", **({"X-API-Key": KEY} if secured else {})}
    time = FakeTime()
    async with twins(settings, time) as (fast, slow, spy, fast_services, slow_services):
        cold = await fast.get("/v1/tickets", params=params, headers=headers)
        assert (await slow.get("/v1/tickets", params=params, headers=headers)).status_code == 200
        assert cold.status_code == 200 and cold.json()["freshness"] == "realtime"
        key = resolve_tickets(fast_services, **_resolvable(params)).query.key
        slow_services.tickets.memory.put(key, fast_services.tickets.memory.get(key))
        for _ in range(2):  # the first hit prepares the entry's body, the second reuses it
            time.advance(age)
            spy.routed.clear()
            answers = await ask_both(fast, slow, fast_services, slow_services, params, headers)
            assert answers[0].json()["freshness"] == "cached"
            assert spy.routed == [False], "the served app answered the hit before routing"
            assert_same(*answers)
    assert answers[0].json()["age_s"] == pytest.approx(2 * age)
    if secured:
        assert "ratelimit-remaining" in answers[0].headers


def _resolvable(params: dict[str, str]) -> dict[str, Any]:
    return {
        "origin": params["origin"],
        "destination": params["destination"],
        "date": params["date"],
        "train_types": params.get("train_types"),
        "fare": params.get("fare"),
    }


REFUSED_OR_PAST_THE_CACHE = {
    "refresh=true": {"refresh": "true"},
    "a bad date": {"date": "2026-13-01"},
    "a date past the sale window": {"date": "2026-12-30"},
    "an unknown station": {"origin": "北惊"},
    "a missing destination": {"destination": ""},
    "a bad flag": {"refresh": "maybe"},
}


@pytest.mark.parametrize("variant", list(REFUSED_OR_PAST_THE_CACHE))
async def test_what_is_not_an_exact_hit_goes_to_the_route_and_is_answered_alike(
    variant: str,
) -> None:
    base = {"origin": "北京", "destination": "上海", "date": DAY}
    params = {k: v for k, v in (base | REFUSED_OR_PAST_THE_CACHE[variant]).items() if v}
    headers = {"X-Request-ID": "same-id-2"}
    async with twins(Settings(**LONG_LIVED), FakeTime()) as (fast, slow, spy, fs, ss):
        for client in (fast, slow):  # the entry a hit would come from
            assert (await client.get("/v1/tickets", params=base)).status_code == 200
        spy.routed.clear()
        answers = await ask_both(fast, slow, fs, ss, params, headers)
        assert spy.routed == [True]
        one, other = answers[0], answers[1]
        assert one.status_code == other.status_code
        assert one.status_code == 200 if variant == "refresh=true" else one.status_code == 422
        if variant != "refresh=true":  # a refresh fetches live: the offers may move
            assert_same(*answers)


async def test_a_miss_goes_to_the_route_which_counts_it_once() -> None:
    params = {"origin": "北京", "destination": "上海", "date": DAY}
    async with twins(Settings(**LONG_LIVED), FakeTime()) as (fast, _, spy, services, _s):
        answer = await fast.get("/v1/tickets", params=params)
        assert answer.json()["freshness"] == "realtime" and spy.routed == [True]
        cache = services.metrics.registry.get_sample_value
        assert cache("railtrip_cache_requests_total", {"tier": "memory", "result": "miss"}) == 1
        assert cache("railtrip_cache_requests_total", {"tier": "memory", "result": "hit"}) == 0


async def test_an_old_entry_is_refreshed_in_the_background_by_the_hit_path_as_by_the_route() -> (
    None
):
    params = {"origin": "北京", "destination": "上海", "date": DAY}
    time = FakeTime()
    settings = Settings(memory_ttl_s=7200.0, refresh_after_s=20.0)
    async with twins(settings, time) as (fast, slow, spy, fs, ss):
        for client in (fast, slow):
            assert (await client.get("/v1/tickets", params=params)).status_code == 200
        time.advance(25)
        spy.routed.clear()
        for client, services in ((fast, fs), (slow, ss)):
            old = await client.get("/v1/tickets", params=params)
            assert old.json()["age_s"] == 25.0
            await asyncio.gather(*services.tickets._background)  # the refresh it started
            fresh = await client.get("/v1/tickets", params=params)
            assert fresh.json()["freshness"] == "cached" and fresh.json()["age_s"] == 0.0
        assert spy.routed == [False, False]


async def test_a_hit_body_splices_any_age_exactly_as_the_answer_serialises_it() -> None:
    time = FakeTime()
    settings = Settings(**LONG_LIVED)
    async with twins(settings, time) as (fast, _, _spy, services, _s):
        params = {"origin": "北京", "destination": "上海", "date": DAY}
        assert (await fast.get("/v1/tickets", params=params)).status_code == 200
        resolved = resolve_tickets(services, "北京", "上海", DAY)
        entry = services.tickets.memory.get(resolved.query.key)
        assert entry is not None
        body = HitBody(services.tickets.hit_answer(resolved, entry, 0.0))
        for age in (0.0, 0.001, 1.5, 59.999, 60.0, 3599.999, 3600.0, 86400.125, 1e7):
            answer = services.tickets.hit_answer(resolved, entry, age)
            assert body.render(age) == answer.to_json()
        # A city-wide body holds the entry's offers by reference: ~1 kB beside the entry.
        assert body._offers is entry.offers_json
        assert sum(len(piece) for piece in body._pieces) < len(entry.offers_json) / 10
        live = await fast.get("/v1/tickets", params=params | {"refresh": "true"})
        assert live.json()["freshness"] == "realtime"
        realtime = services.tickets.hit_answer(resolved, entry, 0.0).model_copy(
            update={"warnings": ()}
        )
        with pytest.raises(NotAHit):
            HitBody(realtime)
