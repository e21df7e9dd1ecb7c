"""A flight stops when its last caller leaves, and only then (a client that disconnected)."""

from __future__ import annotations

import asyncio

from tests.app.tickets.fakes import FakeSource
from tests.app.tickets.test_service import build, counter, search


async def settle() -> None:
    for _ in range(20):  # let scheduled callbacks and cancellations run (no time passes)
        await asyncio.sleep(0)


async def test_one_caller_leaving_keeps_the_flight_for_the_others() -> None:
    gate = asyncio.Event()
    source = FakeSource("a", gate=gate)
    service, _, _ = build(source)
    leaving, staying = asyncio.create_task(search(service)), asyncio.create_task(search(service))
    await settle()
    leaving.cancel()
    await settle()
    gate.set()
    result = await staying
    assert leaving.cancelled()
    assert result.freshness == "realtime" and len(result.offers) == 1
    assert len(source.calls) == 1


async def test_the_last_caller_leaving_cancels_the_upstream_query_without_blaming_the_source() -> (
    None
):
    gate = asyncio.Event()
    source = FakeSource("a", gate=gate)
    service, metrics, _ = build(source)
    callers = [asyncio.create_task(search(service)) for _ in range(3)]
    await settle()
    for caller in callers:
        caller.cancel()
    await settle()
    attempt = counter(metrics, "railtrip_source_requests_total", source="a", outcome="timeout")
    assert attempt == 1, "the attempt reached the source and is counted"
    assert service.sources[0].readiness() == "ok"
    assert service.sources[0].breaker._failures == 0, "a caller leaving is not a source failure"
    gate.set()
    again = await search(service)
    assert again.freshness == "realtime"
    assert len(source.calls) == 2, "the abandoned flight is gone: a new caller starts its own"
