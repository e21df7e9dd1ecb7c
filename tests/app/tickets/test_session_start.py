"""A session begun ahead of the queries (`start_sessions`, the CLI's `plan`): 12306's init
page goes at once in its own slot of the source's rate, the caller's work runs while the
next slot comes round, and the query after it sends no second init. The same requests at
the same spacing as a query that loads the page itself, only earlier (issue 27 item 2).

On virtual time (tests/virtual_time.py): the limiter's 200 ms are the loop's clock, and the
caller's work (the parse of a sentence) is a wait on it."""

from __future__ import annotations

import asyncio
import datetime as dt

import httpx

from app.observability.metrics import Metrics
from app.settings import SourceSettings
from app.tickets.guard import GuardedSource, start_sessions
from sources.errors import SourceServerError
from sources.models import SHANGHAI, TicketQuery
from sources.rail12306 import Rail12306Source
from sources.sandbox import FaultConfig, create_12306_app
from sources.stations import curated_directory
from tests.app.tickets.fakes import FakeSource
from tests.virtual_time import run_on_virtual_time

NOW = dt.datetime(2026, 12, 1, 10, 0, tzinfo=SHANGHAI)
QUERY = TicketQuery(origin="BJP", destination="SHH", date=dt.date(2026, 12, 4))


class Recording(httpx.AsyncBaseTransport):
    """The sandbox's transport, noting when (the loop's clock) each path was asked."""

    def __init__(self, inner: httpx.AsyncBaseTransport) -> None:
        self.inner = inner
        self.sent: list[tuple[float, str]] = []

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        self.sent.append((round(asyncio.get_running_loop().time(), 3), request.url.path))
        return await self.inner.handle_async_request(request)


async def no_sleep(_: float) -> None:
    return None


async def plan_like(warm: bool, work_s: float) -> tuple[list[tuple[float, str]], Metrics]:
    """The default rate (5/s): optionally begin the session, do `work_s` of own work, then
    one left-ticket search; what reached the sandbox, and when."""
    app = create_12306_app(faults=FaultConfig("12306", seed=1), clock=lambda: NOW, sleep=no_sleep)
    transport = Recording(httpx.ASGITransport(app=app))
    metrics = Metrics()
    async with httpx.AsyncClient(transport=transport) as client:
        rail = Rail12306Source(
            "sandbox-12306", client, "http://sandbox-12306", curated_directory(), lambda: NOW
        )
        guarded = GuardedSource(rail, SourceSettings(rate_per_s=5), metrics)
        rail.pacer = guarded
        warming = await start_sessions([guarded]) if warm else []
        await asyncio.sleep(work_s)  # the sentence's parse
        offers = await guarded.search(QUERY)
        assert offers
        assert await asyncio.gather(*warming) == [True] * len(warming)
    return transport.sent, metrics


def requests(metrics: Metrics, outcome: str) -> float:
    sample = metrics.registry.get_sample_value(
        "railtrip_source_requests_total", {"source": "sandbox-12306", "outcome": outcome}
    )
    return sample or 0.0


def test_a_session_begun_first_lets_the_query_go_when_its_slot_comes() -> None:
    sent, metrics = run_on_virtual_time(plan_like(warm=True, work_s=0.15))
    # The page at once, the query as soon as the rate allows: not 200 ms after the work.
    assert sent == [(0.0, "/otn/leftTicket/init"), (0.2, "/otn/leftTicket/queryG")]
    assert requests(metrics, "ok") == 2  # both counted, as when the search loads the page


def test_without_it_the_page_waits_for_the_work_and_the_query_for_the_page() -> None:
    sent, _ = run_on_virtual_time(plan_like(warm=False, work_s=0.15))
    assert sent == [(0.15, "/otn/leftTicket/init"), (0.35, "/otn/leftTicket/queryG")]


def test_work_longer_than_the_pacing_leaves_the_query_no_wait_and_no_second_page() -> None:
    sent, _ = run_on_virtual_time(plan_like(warm=True, work_s=0.5))
    assert sent == [(0.0, "/otn/leftTicket/init"), (0.5, "/otn/leftTicket/queryG")]


async def test_a_failed_start_is_counted_once_not_retried_and_sources_without_one_are_left() -> (
    None
):
    class Flaky(FakeSource):
        def __init__(self) -> None:
            super().__init__("s")
            self.starts = 0

        async def start_session(self) -> None:
            self.starts += 1
            raise SourceServerError("s", "HTTP 502", 502)

    flaky, plain = Flaky(), FakeSource("plain")
    metrics = Metrics()
    conf = SourceSettings(rate_per_s=1000, retries=2)
    guarded = [GuardedSource(source, conf, metrics) for source in (flaky, plain)]
    warming = await start_sessions(guarded)
    assert [task.get_name() for task in warming] == ["s-session"]
    assert await asyncio.gather(*warming) == [False]
    assert flaky.starts == 1  # a query after it makes its own attempt: no retry here
    assert plain.calls == []
    failed = metrics.registry.get_sample_value(
        "railtrip_source_requests_total", {"source": "s", "outcome": "error"}
    )
    assert failed == 1


async def test_the_composition_root_begins_the_sessions_only_when_asked() -> None:
    from app.settings import Settings
    from app.wiring import open_services

    async with open_services(Settings(), begin_sessions=True) as services:
        asked = services.sandbox_faults["12306"].requests_by_path
        assert asked == {"/otn/leftTicket/init": 1}  # before the caller did anything
        assert services.sandbox_faults["juhe"].requests_total == 0  # no session to begin
    async with open_services(Settings()) as services:
        assert services.sandbox_faults["12306"].requests_by_path == {}


async def test_the_ticket_side_alone_leaves_the_station_list_to_its_first_use() -> None:
    # The CLI's `stops` reads it inside the source's pacing; every other service, at start.
    from app.settings import Settings
    from app.wiring import open_services
    from app.wiring.core import open_ticket_services
    from sources.stations import default_directory

    default_directory.cache_clear()  # a process's first: not yet read by another test
    async with open_ticket_services(Settings()) as core:
        assert "_read" in vars(core.directory)  # handed out, not read
    async with open_services(Settings()) as services:
        assert services.directory is core.directory  # the one bundled list
        assert "_read" not in vars(services.directory)  # read at start-up
        assert services.directory.get("VNP") is not None
