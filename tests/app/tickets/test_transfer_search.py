"""The transfer-search service: the real 12306 adapter against the sandbox vendor (over httpx's
ASGI transport) under its guard, single-flight, a short memory copy, honest freshness."""

from __future__ import annotations

import asyncio
import datetime as dt

from app.services import Services
from app.settings import Settings
from app.tickets.transfers import TransferResult
from sources.models import TicketQuery
from tests.app.apps import running, sample, upstream_requests
from tests.clocks import FakeTime

DAY = dt.date(2026, 12, 4)  # the apps' clock says 2026-12-01
LC_QUERY = "/lcquery/queryG"


async def ask(
    state: Services, origin: str, destination: str, day: dt.date = DAY, pages: int = 1
) -> TransferResult:
    directory = state.directory
    start = directory.get(directory.city_code(origin))
    end = directory.get(directory.city_code(destination))
    assert start is not None and end is not None
    query = TicketQuery(origin=start.telecode, destination=end.telecode, date=day)
    return await state.transfer_search.search(query, start, end, pages=pages)


def lc_requests(state: Services) -> int:
    return state.sandbox_faults["12306"].counters()["requests_by_path"].get(LC_QUERY, 0)


async def test_one_guarded_call_answers_live_then_a_memory_copy_answers_with_its_age() -> None:
    time = FakeTime()
    async with running(time=time) as (_, state):
        first = await ask(state, "南京", "张家界")
        assert first.freshness == "realtime" and first.age_s == 0.0
        assert first.offers, "the sandbox network joins 南京 and 张家界 with one change"
        assert all(o.first.origin_station.city == "南京" for o in first.offers)
        assert all(o.second.destination_station.city == "张家界" for o in first.offers)
        assert [s.name for s in first.sources] == ["sandbox-12306"], "juhe has no such search"
        # The session (leftTicket/init, cookies and all), the lcQuery init page (once per
        # adapter) and one page of results, all counted.
        assert upstream_requests(state, "sandbox-12306") == 3
        time.advance(10)
        again = await ask(state, "南京", "张家界")
        assert again.freshness == "cached" and again.age_s == 10.0 and again.warnings
        assert again.offers == first.offers
        assert upstream_requests(state, "sandbox-12306") == 3, "a memory hit costs nothing"
        time.advance(30)  # past the memory copy's 30 s: live again, no second init
        later = await ask(state, "南京", "张家界")
        assert later.freshness == "realtime"
        assert upstream_requests(state, "sandbox-12306") == 4
        assert sample(state, "railtrip_cache_requests_total", tier="memory", result="hit") >= 1


async def test_identical_concurrent_searches_share_one_flight() -> None:
    async with running() as (_, state):
        answers = await asyncio.gather(*(ask(state, "南京", "张家界") for _ in range(5)))
        assert {a.freshness for a in answers} == {"realtime"}
        assert lc_requests(state) == 1


async def test_pages_are_followed_only_as_far_as_asked() -> None:
    async with running() as (_, state):
        one = await ask(state, "北京", "昆明", pages=1)
        assert lc_requests(state) == 1
        two = await ask(state, "北京", "昆明", pages=2)
        assert lc_requests(state) == 3, "a page beyond the first costs its own request"
        assert len(two.offers) > len(one.offers)


async def test_a_failing_transfer_search_serves_the_stale_copy_else_says_unavailable() -> None:
    time = FakeTime()
    async with running(time=time) as (client, state):
        live = await ask(state, "南京", "张家界")
        assert live.freshness == "realtime"
        time.advance(60)
        state.sandbox_faults["12306"].update(transfer_error_rate=1)
        stale = await ask(state, "南京", "张家界")  # 3 attempts: the backoff sleeps count too
        assert stale.freshness == "cached" and 60.0 <= (stale.age_s or 0) < 62.0
        assert stale.offers == live.offers and stale.warnings
        assert stale.sources[0].status == "error", "the failure is reported"
        nothing = await ask(state, "南京", "张家界", DAY + dt.timedelta(days=1))
        assert nothing.freshness == "unavailable" and not nothing.offers
        assert "官方中转方案" in nothing.warnings[0]
        assert sample(state, "railtrip_degradations_total", kind="stale_cache") >= 1


async def test_a_failing_transfer_search_never_opens_the_breaker_of_direct_searches() -> None:
    async with running() as (client, state):
        state.sandbox_faults["12306"].update(transfer_error_rate=1)
        for day in range(3):  # 3 attempts each (2 retries): past the 5 failures that open
            answer = await ask(state, "南京", "张家界", DAY + dt.timedelta(days=day))
            assert answer.freshness == "unavailable"
        rail = next(s for s in state.sources if s.name == "sandbox-12306")
        assert rail.breaker_for("transfers").state == "open"
        assert rail.breaker.state == "closed" and rail.readiness() == "ok"
        direct = await client.get(
            "/v1/tickets", params={"origin": "北京", "destination": "上海", "date": str(DAY)}
        )
        reports = {s["name"]: s for s in direct.json()["sources"]}
        assert reports["sandbox-12306"]["status"] == "ok" and direct.json()["offers"]
        ready = (await client.get("/readyz")).json()
        assert "open" not in str(ready), ready


async def test_a_blocked_left_ticket_query_leaves_the_transfer_search_its_own_breaker() -> None:
    async with running() as (client, state):
        await client.post("/sandbox/12306/faults", json={"rate_limit_rate": 1})
        await client.get(
            "/v1/tickets", params={"origin": "北京", "destination": "上海", "date": str(DAY)}
        )
        rail = next(s for s in state.sources if s.name == "sandbox-12306")
        assert rail.breaker.state == "open"
        await client.post("/sandbox/12306/faults", json={"rate_limit_rate": 0})
        answer = await ask(state, "南京", "张家界")
        # The block shed the session; the transfer search starts a new one and is served.
        assert answer.freshness == "realtime" and answer.offers


async def test_without_a_source_that_has_the_capability_nobody_is_asked() -> None:
    async with running(Settings(sources=["sandbox-juhe"])) as (_, state):
        assert not state.transfer_search.available
        answer = await ask(state, "南京", "张家界")
        assert answer.freshness == "unavailable" and not answer.offers and not answer.sources
        assert upstream_requests(state, "sandbox-juhe") == 0
