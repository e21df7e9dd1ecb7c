"""Both real adapters against the in-process sandbox vendors, through httpx's ASGI transport."""

from __future__ import annotations

import datetime as dt
from collections.abc import AsyncIterator

import httpx
import pytest

from sources.errors import (
    SourceBlocked,
    SourceMalformed,
    SourceParseError,
    SourceQuotaExceeded,
    SourceServerError,
)
from sources.juhe import JuheSource
from sources.models import SHANGHAI, FareKind, SeatClass, TicketQuery, TrainOffer
from sources.rail12306 import Rail12306Source
from sources.sandbox import FaultConfig, create_12306_app, create_juhe_app
from sources.stations import curated_directory

NOW = dt.datetime(2026, 12, 1, 10, 0, tzinfo=SHANGHAI)
DATE = dt.date(2026, 12, 4)
BEIJING_SHANGHAI = TicketQuery(origin="BJP", destination="SHH", date=DATE)


def clock() -> dt.datetime:
    return NOW


async def no_sleep(_: float) -> None:
    return None


@pytest.fixture
def faults_12306() -> FaultConfig:
    return FaultConfig("12306", seed=1)


@pytest.fixture
def faults_juhe() -> FaultConfig:
    return FaultConfig("juhe", seed=1)


@pytest.fixture
async def rail(faults_12306: FaultConfig) -> AsyncIterator[Rail12306Source]:
    app = create_12306_app(faults=faults_12306, clock=clock, sleep=no_sleep)
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app)) as client:
        yield Rail12306Source(
            "sandbox-12306", client, "http://sandbox-12306", curated_directory(), clock
        )


@pytest.fixture
async def juhe(faults_juhe: FaultConfig) -> AsyncIterator[JuheSource]:
    app = create_juhe_app(faults=faults_juhe, clock=clock, sleep=no_sleep)
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app)) as client:
        yield JuheSource(
            "sandbox-juhe", client, "http://sandbox-juhe", curated_directory(), "k", clock
        )


def in_city(offer: TrainOffer, origin: str, destination: str) -> bool:
    return (offer.origin_station.city, offer.destination_station.city) == (origin, destination)


async def test_rail12306_reads_the_sandbox_at_the_path_its_init_page_names(rail, faults_12306):
    offers = await rail.search(BEIJING_SHANGHAI)
    assert len(offers) >= 20
    assert any(o.train_type == "G" for o in offers)
    assert all(in_city(o, "北京", "上海") for o in offers)
    assert all(o.date == DATE and o.sources == ("sandbox-12306",) for o in offers)
    assert all(o.seats for o in offers)
    assert all(seat.price is not None for o in offers for seat in o.seats)
    assert rail.query_suffix == "queryG"
    assert faults_12306.requests_by_path["/otn/leftTicket/init"] == 1
    await rail.search(BEIJING_SHANGHAI)
    assert faults_12306.requests_by_path == {
        "/otn/leftTicket/init": 1,
        "/otn/leftTicket/queryG": 2,
    }


async def test_overnight_sandbox_trains_arrive_the_next_day(rail):
    offers = await rail.search(BEIJING_SHANGHAI)
    overnight = [o for o in offers if o.arrive_at.date() > o.depart_at.date()]
    assert overnight
    for offer in overnight:
        assert offer.arrive_at - offer.depart_at == dt.timedelta(minutes=offer.duration_min)


async def test_juhe_reads_the_sandbox(juhe, faults_juhe):
    offers = await juhe.search(BEIJING_SHANGHAI)
    assert len(offers) >= 20
    assert all(in_city(o, "北京", "上海") for o in offers)
    assert all(o.sources == ("sandbox-juhe",) for o in offers)
    assert faults_juhe.requests_total == 1


async def test_both_adapters_see_the_same_rides_and_prices(rail, juhe):
    from_12306 = {o.ride_key: o for o in await rail.search(BEIJING_SHANGHAI)}
    from_juhe = {o.ride_key: o for o in await juhe.search(BEIJING_SHANGHAI)}
    assert from_12306.keys() == from_juhe.keys()
    for key, offer in from_12306.items():
        twin = from_juhe[key]
        assert (twin.depart_at, twin.arrive_at, twin.duration_min) == (
            offer.depart_at,
            offer.arrive_at,
            offer.duration_min,
        )
        juhe_prices = {s.seat_class: s.price for s in twin.seats}
        for seat in offer.seats:
            if seat.seat_class in juhe_prices:
                assert juhe_prices[seat.seat_class] == seat.price, (key, seat.seat_class)


async def test_train_type_filter_reaches_both_sandboxes(rail, juhe):
    query = TicketQuery(origin="BJP", destination="SHH", date=DATE, train_types={"Z", "T", "K"})
    for adapter in (rail, juhe):
        offers = await adapter.search(query)
        assert offers
        assert {o.train_type for o in offers} <= {"Z", "T", "K"}
        assert any(s.seat_class is SeatClass.HARD_SLEEPER for o in offers for s in o.seats)


async def test_sandbox_12306_blocking_is_a_block_and_the_session_is_renewed(rail, faults_12306):
    faults_12306.update(rate_limit_rate=1)
    for _ in range(2):  # the sandbox alternates a 302 to its error page and an HTML answer
        with pytest.raises(SourceBlocked):
            await rail.search(BEIJING_SHANGHAI)
    faults_12306.update(rate_limit_rate=0)
    assert await rail.search(BEIJING_SHANGHAI)
    # Three sessions, and one re-read of the init page before the bounce to the error page
    # was called a block (a stale path bounces there too; this one named the same path).
    assert faults_12306.requests_by_path["/otn/leftTicket/init"] == 4


async def test_sandbox_12306_gateway_errors_are_server_errors(rail, faults_12306):
    faults_12306.update(error_rate=1)
    with pytest.raises(SourceServerError):
        await rail.search(BEIJING_SHANGHAI)


async def test_sandbox_12306_malformed_bodies_never_crash(rail, faults_12306):
    faults_12306.update(malformed_rate=1)
    outcomes = []
    for _ in range(3):
        try:
            outcomes.append(len(await rail.search(BEIJING_SHANGHAI)))
        except (SourceBlocked, SourceParseError, SourceMalformed) as exc:
            outcomes.append(type(exc).__name__)
    # A gateway's broken bodies are never read as a block (that would be 300 s off the site).
    assert outcomes == ["SourceMalformed", "SourceParseError", "SourceMalformed"]


async def test_sandbox_juhe_quota_spent_is_refused_like_a_block(juhe, faults_juhe):
    faults_juhe.update(rate_limit_rate=1)
    with pytest.raises(SourceQuotaExceeded, match="10012"):
        await juhe.search(BEIJING_SHANGHAI)


async def test_sandbox_juhe_errors_and_malformed_bodies_are_classified(juhe, faults_juhe):
    faults_juhe.update(error_rate=1)
    for _ in range(2):  # error_code 10014, then an HTTP 502
        with pytest.raises(SourceServerError):
            await juhe.search(BEIJING_SHANGHAI)
    faults_juhe.update(error_rate=0, malformed_rate=1)
    for _ in range(3):
        with pytest.raises(SourceParseError):
            await juhe.search(BEIJING_SHANGHAI)


# -- the live site's rough edges, through the sandbox ------------------------------------------

NANJING_ZHANGJIAJIE = TicketQuery(origin="NJH", destination="DIQ", date=DATE)


async def test_rail12306_follows_a_stale_path_that_bounces_to_the_error_page(rail, faults_12306):
    faults_12306.update(path_bounce_rate=1)
    offers = await rail.search(BEIJING_SHANGHAI)  # bounced, init re-read, queryZ asked
    assert offers and rail.query_suffix == "queryZ"
    assert faults_12306.requests_by_path["/otn/leftTicket/init"] == 2
    assert faults_12306.requests_by_path["/otn/leftTicket/queryZ"] == 1


async def test_after_a_block_the_adapter_starts_a_session_the_site_serves(rail, faults_12306):
    # The sandbox is a servlet: a blocked JSESSIONID sent back is kept and stays blocked.
    faults_12306.update(rate_limit_rate=1)
    with pytest.raises(SourceBlocked):
        await rail.search(BEIJING_SHANGHAI)
    faults_12306.update(rate_limit_rate=0)
    assert await rail.search(BEIJING_SHANGHAI), "a new session, not the blocked one"
    assert rail.sessions_started == 2


async def test_rail12306_follows_the_transfer_search_as_its_path_drifts(rail, faults_12306):
    for _ in range(4):  # 404, 302, HTML, "url error": each followed through lcQuery/init
        faults_12306.update(lc_path_moved_rate=1)
        assert await rail.transfers(NANJING_ZHANGJIAJIE, pages=1)
        faults_12306.update(lc_path_moved_rate=0)
        assert await rail.transfers(NANJING_ZHANGJIAJIE, pages=1)
    assert faults_12306.faults_injected["lc_path_moved"] == 4
    assert rail.lc_path in ("/lcquery/queryG", "/lcquery/queryU")


async def test_transfer_halves_come_priced_from_the_answer_itself(rail):
    plans = await rail.transfers(NANJING_ZHANGJIAJIE, pages=1)
    assert plans
    halves = [leg for plan in plans for leg in (plan.first, plan.second)]
    assert all(s.price is not None for leg in halves for s in leg.seats)


async def test_a_transfer_search_that_finds_nothing_is_an_empty_answer(rail):
    same_city = TicketQuery(origin="BJP", destination="VNP", date=DATE)
    assert await rail.transfers(same_city) == []


async def test_student_fares_are_asked_for_and_cheaper_where_the_railway_discounts(rail):
    adult = {o.ride_key: o for o in await rail.search(BEIJING_SHANGHAI)}
    student_query = BEIJING_SHANGHAI.model_copy(update={"fare": FareKind.STUDENT})
    students = await rail.search(student_query)
    assert {o.fare for o in students} == {FareKind.STUDENT}
    cheaper = 0
    for offer in students:
        for seat in offer.seats:
            grown_up = adult[offer.ride_key].seat(seat.seat_class)
            assert grown_up is not None and seat.price is not None and grown_up.price is not None
            assert seat.price <= grown_up.price
            cheaper += seat.price < grown_up.price
    assert cheaper, "second class on a G is 75% of the adult fare"


async def test_juhe_asks_for_every_train_and_reads_an_odd_answer(juhe, faults_juhe):
    faults_juhe.update(odd_train_rate=1)
    offers = await juhe.search(BEIJING_SHANGHAI)
    assert len(offers) >= 20, "one train per six is skipped, the others kept"
    assert any(s.price is None for o in offers for s in o.seats)
    none = await juhe.search(TicketQuery(origin="BJP", destination="VNP", date=DATE))
    assert none == [], "281701: no trains, no error"
