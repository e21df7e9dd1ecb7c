"""The official transfer plans' halves as leg answers the rule engine chains (no HTTP)."""

from __future__ import annotations

import datetime as dt

from app.agent import AgentInput, PlanningAgent
from app.agent.fetch import transfer_leg_results, unpriced_legs, with_transfer_halves
from app.intent.model import TravelIntent
from app.intent.parser import IntentParser
from app.observability.metrics import Metrics
from app.tickets.model import QueryEcho, SourceReport, TicketResult
from app.tickets.transfers import TransferResult
from rules import LegKey
from sources.capabilities import TransferOffer
from sources.models import Freshness, SeatClass, Station, TicketQuery, TrainOffer
from sources.stations import curated_directory
from tests.app.agent.harness import NOW, FakeTickets
from tests.rules.factory import BEIJING_SOUTH, HONGQIAO, NANJING_SOUTH, offer, seat

DIRECTORY = curated_directory()
DAY = dt.date(2026, 12, 4)
NEXT = DAY + dt.timedelta(days=1)


def answer(
    *plans: tuple[TrainOffer, TrainOffer], freshness: Freshness = "realtime"
) -> TransferResult:
    return TransferResult(
        query=QueryEcho(origin=BEIJING_SOUTH, destination=HONGQIAO, date=DAY),
        freshness=freshness,
        as_of=NOW,
        age_s=12.0 if freshness == "cached" else 0.0,
        sources=(SourceReport(name="sandbox-12306", status="ok", freshness=freshness),),
        offers=tuple(
            TransferOffer(
                first=first,
                second=second,
                middle_station=first.destination_station,
                same_station=True,
                wait_min=int((second.depart_at - first.arrive_at).total_seconds() // 60),
            )
            for first, second in plans
        ),
    )


G1 = offer("G1", BEIJING_SOUTH, NANJING_SOUTH, "08:00", "11:00")
G2 = offer("G2", NANJING_SOUTH, HONGQIAO, "11:40", "13:00")


def test_the_halves_become_leg_answers_keeping_freshness_and_sources() -> None:
    legs = transfer_leg_results([answer((G1, G2), freshness="cached")], DIRECTORY)
    assert set(legs) == {LegKey("北京", "南京", DAY), LegKey("南京", "上海", DAY)}
    first = legs[LegKey("北京", "南京", DAY)]
    assert [o.train_number for o in first.offers] == ["G1"]
    assert first.freshness == "cached" and first.age_s == 12.0
    assert [s.name for s in first.sources] == ["sandbox-12306"]


def test_an_overnight_first_train_makes_the_same_day_second_key_exist_empty() -> None:
    sleeper = offer("Z1", BEIJING_SOUTH, NANJING_SOUTH, "21:00", "06:00")
    morning = offer("G7", NANJING_SOUTH, HONGQIAO, "07:00", "08:30", day=NEXT)
    legs = transfer_leg_results([answer((sleeper, morning))], DIRECTORY)
    assert [o.train_number for o in legs[LegKey("南京", "上海", NEXT)].offers] == ["G7"]
    assert legs[LegKey("南京", "上海", DAY)].offers == ()


def test_a_half_with_a_seat_on_sale_but_no_fare_must_be_priced_by_its_leg_query() -> None:
    unpriced = offer(
        "G1", BEIJING_SOUTH, NANJING_SOUTH, "08:00", "11:00", seats=[seat(SeatClass.SECOND, None)]
    )
    legs = transfer_leg_results([answer((unpriced, G2))], DIRECTORY)
    assert unpriced_legs(legs) == [LegKey("北京", "南京", DAY)]


def test_a_leg_query_keeps_its_offers_and_gains_only_the_rides_it_lacked() -> None:
    key = LegKey("北京", "南京", DAY)
    g3 = offer("G3", BEIJING_SOUTH, NANJING_SOUTH, "09:00", "12:00")
    full = TicketResult(
        query=QueryEcho(origin=BEIJING_SOUTH, destination=NANJING_SOUTH, date=DAY),
        freshness="realtime",
        offers=(G1, g3),
    )
    halves = transfer_leg_results([answer((G1, G2), freshness="cached")], DIRECTORY)
    merged = with_transfer_halves({key: full}, halves)
    assert merged[key] is full, "nothing new: the leg query's own answer stands"
    only_first = full.with_offers((g3,))
    merged = with_transfer_halves({key: only_first}, halves)
    assert [o.train_number for o in merged[key].offers] == ["G3", "G1"]
    assert merged[key].freshness == "cached", "the less fresh of the two answers"


class FakeTransfers:
    """A transfer search answering one fixed answer; every query is recorded."""

    available = True

    def __init__(self, found: TransferResult) -> None:
        self.found = found
        self.asked: list[tuple[TicketQuery, int]] = []

    async def search(
        self, query: TicketQuery, origin: Station, destination: Station, *, pages: int = 1
    ) -> TransferResult:
        self.asked.append((query, pages))
        return self.found


def planner(tickets: FakeTickets, transfers: FakeTransfers) -> PlanningAgent:
    metrics = Metrics()
    return PlanningAgent(
        parser=IntentParser(directory=DIRECTORY, metrics=metrics),
        tickets=tickets,
        directory=DIRECTORY,
        metrics=metrics,
        clock=lambda: NOW,
        transfer_search=transfers,
    )


TRIP = TravelIntent.model_validate(
    {"origin": "北京", "destination": "上海", "date_start": DAY, "return_trip": False}
)


async def test_the_agent_plans_on_the_official_halves_and_asks_no_hub_leg() -> None:
    tickets = FakeTickets()  # no direct train at all
    transfers = FakeTransfers(answer((G1, G2)))
    reply = await planner(tickets, transfers).run(AgentInput(today=NOW.date(), intent=TRIP))
    assert reply.itinerary is not None, reply.summary
    assert reply.itinerary.train_numbers == ("G1", "G2")
    assert [(q.origin, q.destination, pages) for q, pages in transfers.asked] == [("BJP", "SHH", 1)]
    assert tickets.asked == [("BJP", "SHH", DAY)], "only the direct query: no hub leg"
    assert reply.summary.startswith("没有直达车次")


async def test_an_unpriced_half_is_priced_by_its_leg_query_before_planning() -> None:
    unpriced = offer(
        "G1", BEIJING_SOUTH, NANJING_SOUTH, "08:00", "11:00", seats=[seat(SeatClass.SECOND, None)]
    )
    tickets = FakeTickets([G1])  # the leg query knows G1's fare
    transfers = FakeTransfers(answer((unpriced, G2)))
    reply = await planner(tickets, transfers).run(AgentInput(today=NOW.date(), intent=TRIP))
    assert ("BJP", "NJH", DAY) in tickets.asked
    assert reply.itinerary is not None, reply.summary
    assert reply.itinerary.legs[0].unit_price == G1.seats[-1].price
