"""IMPROVE: the search goes on past a direct train while a change could beat it, and stops
when the topology's bound says none can."""

from __future__ import annotations

import datetime as dt

from app.agent.fallback import chain_follow_legs
from app.agent.improve import next_improvement
from rules import LegKey, TripRequest, plan
from rules.hubs import change_bound
from tests.rules.factory import (
    BEIJING_SOUTH,
    DAY,
    HONGQIAO,
    NANJING_SOUTH,
    NOW,
    WUHAN,
    book,
    offer,
)


class _Lines:
    def __init__(self, links: dict[tuple[str, str], tuple[int, int]]) -> None:
        self.links = links

    def reach(self, city: str) -> dict[str, tuple[int, int]]:
        return {b: v for (a, b), v in self.links.items() if a == city}

    def reached_from(self, city: str) -> dict[str, tuple[int, int]]:
        return {a: v for (a, b), v in self.links.items() if b == city}


TOPOLOGY = _Lines(
    {
        ("北京", "上海"): (1300, 40),
        ("北京", "南京"): (1000, 40),
        ("南京", "上海"): (300, 60),
        ("南京", "武汉"): (500, 30),
        ("武汉", "上海"): (800, 30),
    }
)


def _best(request: TripRequest, *offers):
    return plan(request, book(*offers), now=NOW).itineraries[0]


def _request(**fields: object) -> TripRequest:
    return TripRequest(
        origin="北京", destination="上海", depart_date=DAY, return_trip=False, **fields
    )


def test_a_slow_direct_sets_off_the_transfer_search_first_official_then_own_hubs():
    request = _request(order="fastest")
    slow = _best(request, offer("D7", BEIJING_SOUTH, HONGQIAO, "08:00", "22:00"))
    stage = next_improvement(
        request=request, best=slow, topology=TOPOLOGY, tried=[], official_search=True
    )
    assert stage is not None and stage.stage == "improve_official" and stage.official
    stage = next_improvement(
        request=request,
        best=slow,
        topology=TOPOLOGY,
        tried=["improve_official"],
        official_search=True,
    )
    assert stage is not None and stage.stage == "improve_hubs"
    assert stage.legs == (LegKey("北京", "南京", DAY), LegKey("南京", "上海", DAY))


def test_the_bound_stops_the_search_when_no_change_can_beat_the_direct():
    request = _request(order="fastest")
    # 1300 km in 4 h 10 min: no route with a change can be quicker by a change's worth.
    bound = change_bound(TOPOLOGY, "北京", "上海", 1)
    assert bound is not None and bound > 200
    quick = _best(request, offer("G1", BEIJING_SOUTH, HONGQIAO, "08:00", "12:10"))
    assert (
        next_improvement(
            request=request, best=quick, topology=TOPOLOGY, tried=[], official_search=True
        )
        is None
    )


def test_orders_a_change_cannot_serve_better_do_not_search_on():
    for request in (
        _request(order="cheapest"),
        _request(leisure=True),
        _request(order="fastest", max_transfers=0),
    ):
        slow = _best(request, offer("D7", BEIJING_SOUTH, HONGQIAO, "08:00", "22:00"))
        found = next_improvement(
            request=request, best=slow, topology=TOPOLOGY, tried=[], official_search=True
        )
        assert found is None


def test_two_changes_are_tried_once_one_change_is_best_asked_on_the_day_only():
    request = _request(order="fastest")
    one_change = _best(
        request,
        offer("K1", BEIJING_SOUTH, NANJING_SOUTH, "08:00", "17:00"),
        offer("G2", NANJING_SOUTH, HONGQIAO, "17:30", "21:00"),
    )
    stage = next_improvement(
        request=request, best=one_change, topology=TOPOLOGY, tried=[], official_search=True
    )
    assert stage is not None and stage.stage == "improve_two"
    assert set(stage.legs) == {
        LegKey("北京", "南京", DAY),
        LegKey("南京", "武汉", DAY),
        LegKey("武汉", "上海", DAY),
    }
    # With no order stated, G trains with a short change are quick enough: no search on;
    # a stated 最快 searches on while the bound allows.
    by_g = (
        offer("G1", BEIJING_SOUTH, NANJING_SOUTH, "08:00", "17:00"),
        offer("G2", NANJING_SOUTH, HONGQIAO, "17:30", "21:00"),
    )
    default = _request()
    found = next_improvement(
        request=default,
        best=_best(default, *by_g),
        topology=TOPOLOGY,
        tried=[],
        official_search=True,
    )
    assert found is None
    stage = next_improvement(
        request=request,
        best=_best(request, *by_g),
        topology=TOPOLOGY,
        tried=[],
        official_search=True,
    )
    assert stage is not None and stage.stage == "improve_two"


def test_later_hops_of_a_chain_follow_the_days_its_rides_reach_them():
    request = _request()
    next_day = DAY + dt.timedelta(days=1)
    offers = {
        # An overnight first ride reaches 南京 the next morning.
        LegKey("北京", "南京", DAY): book(
            offer("Z1", BEIJING_SOUTH, NANJING_SOUTH, "21:00", "06:00")
        )[LegKey("北京", "南京", DAY)].offers,
        LegKey("南京", "武汉", DAY): (),
        LegKey("武汉", "上海", DAY): (),
    }
    assert chain_follow_legs(request, [0], offers) == [LegKey("南京", "武汉", next_day)]
    offers[LegKey("南京", "武汉", next_day)] = book(
        offer("D2", NANJING_SOUTH, WUHAN, "08:00", "12:00", day=next_day)
    )[LegKey("南京", "武汉", next_day)].offers
    assert chain_follow_legs(request, [0], offers) == [LegKey("武汉", "上海", next_day)]


def test_cheapest_on_official_halves_asks_those_legs_in_full_once():
    request = _request(order="cheapest")
    via = _best(
        request,
        offer("G1", BEIJING_SOUTH, NANJING_SOUTH, "08:00", "11:00"),
        offer("G2", NANJING_SOUTH, HONGQIAO, "11:30", "13:00"),
    )
    stage = next_improvement(
        request=request, best=via, topology=TOPOLOGY, tried=[], official_search=True
    )
    assert stage is not None and stage.stage == "improve_cheap"
    assert stage.legs == (LegKey("北京", "南京", DAY), LegKey("南京", "上海", DAY))
    asked = next_improvement(
        request=request,
        best=via,
        topology=TOPOLOGY,
        tried=[],
        official_search=True,
        fetched=set(stage.legs),
    )
    assert asked is None


def test_latest_before_a_deadline_searches_on_while_a_later_start_could_still_arrive():
    by_six = (dt.time(0, 0), dt.time(18, 0))
    request = _request(order="latest", arrive_window=by_six)
    early = _best(request, offer("D7", BEIJING_SOUTH, HONGQIAO, "06:00", "17:00"))
    stage = next_improvement(
        request=request, best=early, topology=TOPOLOGY, tried=[], official_search=False
    )
    assert stage is not None and stage.stage == "improve_hubs"
    late = _best(request, offer("G1", BEIJING_SOUTH, HONGQIAO, "13:30", "17:40"))
    found = next_improvement(
        request=request, best=late, topology=TOPOLOGY, tried=[], official_search=False
    )
    assert found is None  # 4 h 30 min to the deadline: no route with a change fits


# -- the agent --------------------------------------------------------------------------


def _agent(tickets, clock=None, deadline_s=None):
    from app.agent import PlanningAgent
    from app.intent.parser import IntentParser
    from app.observability.metrics import Metrics
    from sources.stations import curated_directory
    from tests.app.agent.harness import NOW

    directory = curated_directory()
    metrics = Metrics()
    return PlanningAgent(
        parser=IntentParser(directory=directory, metrics=metrics),
        tickets=tickets,
        directory=directory,
        metrics=metrics,
        clock=lambda: NOW,
        topology=TOPOLOGY,
        monotonic=(lambda: clock[0]) if clock else (lambda: 0.0),
        deadline_s=deadline_s,
    )


def _trip():
    from app.agent import AgentInput
    from app.intent.model import TravelIntent

    intent = TravelIntent.model_validate(
        {"origin": "北京", "destination": "上海", "date_start": DAY, "return_trip": False}
    )
    return AgentInput(intent=intent, today=DAY - dt.timedelta(days=3))


SLOW_AND_VIA = (
    offer("D7", BEIJING_SOUTH, HONGQIAO, "08:00", "22:00"),
    offer("G1", BEIJING_SOUTH, NANJING_SOUTH, "08:00", "11:00"),
    offer("G2", NANJING_SOUTH, HONGQIAO, "11:30", "13:00"),
)


async def test_the_agent_searches_past_a_slow_direct_train_and_says_why():
    from tests.app.agent.harness import FakeTickets

    tickets = FakeTickets(SLOW_AND_VIA)
    reply = await _agent(tickets).run(_trip())
    assert reply.itinerary is not None
    assert reply.itinerary.train_numbers == ("G1", "G2")
    assert "直达需14小时，中转一次5小时" in reply.summary
    assert ("D7",) in {alt.train_numbers for alt in reply.alternatives}
    # The direct leg, then the best hub's two halves: three queries, no more.
    assert len(tickets.asked) == 3


async def test_out_of_time_while_improving_the_plan_found_is_answered():
    from tests.app.agent.harness import FakeTickets

    clock = [0.0]

    class Slow(FakeTickets):
        async def search(self, resolved, **kwargs):
            clock[0] += 100.0
            return await super().search(resolved, **kwargs)

    tickets = Slow(SLOW_AND_VIA)
    reply = await _agent(tickets, clock, deadline_s=50.0).run(_trip())
    assert reply.itinerary is not None and reply.itinerary.train_numbers == ("D7",)
    assert len(tickets.asked) == 1
