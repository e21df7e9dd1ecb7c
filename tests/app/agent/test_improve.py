"""IMPROVE: the search goes on past a plan while the timetable's bound says a better one runs
(asking its legs by their own stations, or the official search where its first page lists a
plan near the bound), and stops when the plan is within reach of the bound."""

from __future__ import annotations

import datetime as dt

from app.agent.improve import next_improvement, settled
from rules import LegKey, TripRequest, plan
from rules.journeys import Journey, best_journey
from rules.schedule import ScheduleIndex, ask_for
from sources.models import SeatClass
from tests.rules.factory import (
    BEIJING_SOUTH,
    BEIJING_WEST,
    DAY,
    HONGQIAO,
    NANJING_SOUTH,
    NOW,
    SHANGHAI_STATION,
    WUHAN,
    book,
    offer,
    seat,
)
from tests.rules.timetables import Run, Timetable, timetable_of

SLOW = offer("D7", BEIJING_SOUTH, HONGQIAO, "08:00", "22:00")
VIA_NANJING = (
    offer("G1", BEIJING_SOUTH, NANJING_SOUTH, "08:00", "11:00"),
    offer("G2", NANJING_SOUTH, HONGQIAO, "11:30", "13:00"),
)
TIMETABLE = timetable_of(SLOW, *VIA_NANJING)


def _best(request: TripRequest, *offers):
    return plan(request, book(*offers), now=NOW).itineraries[0]


def _request(**fields: object) -> TripRequest:
    return TripRequest(
        origin="北京", destination="上海", depart_date=DAY, return_trip=False, **fields
    )


def _next(request, best, *, official=False, asked=None, budget=6, tried=(), timetable=TIMETABLE):
    return next_improvement(
        request=request,
        best=best,
        schedule=timetable,
        tried=list(tried),
        official_search=official,
        asked=asked if asked is not None else book(SLOW),
        now=NOW,
        pairs={LegKey("北京", "上海", DAY): {("BJP", "SHH")}},
        budget=budget,
    )


def test_a_slow_direct_sets_off_the_legs_of_the_quicker_journey_by_their_own_stations():
    request = _request(order="fastest")
    stage = _next(request, _best(request, SLOW))
    assert stage is not None and stage.stage == "improve_legs"
    assert stage.asks == (
        (LegKey("北京", "南京", DAY), "VNP", "NKH"),
        (LegKey("南京", "上海", DAY), "NKH", "AOH"),
    )
    # Where a source runs the railway's own transfer search and its first page lists the
    # bound (one change, ranked by arrival), that one request comes first.
    official = _next(request, _best(request, SLOW), official=True)
    assert official is not None and official.stage == "improve_official" and official.official
    again = _next(request, _best(request, SLOW), official=True, tried=["improve_official"])
    assert again is not None and again.stage == "improve_legs"


def test_a_plan_within_reach_of_the_bound_ends_the_search():
    request = _request(order="fastest")
    assert _next(request, _best(request, *VIA_NANJING)) is None
    # A direct a few minutes slower than the change is within reach (NEAR) too.
    close = offer("G9", BEIJING_SOUTH, HONGQIAO, "08:00", "13:10")
    assert (
        _next(request, _best(request, close), timetable=timetable_of(close, *VIA_NANJING)) is None
    )


def test_the_default_order_is_the_fastest_and_a_stay_takes_the_balanced_score():
    assert _next(_request(), _best(_request(), SLOW)) is not None
    for request in (_request(leisure=True), _request(order="fastest", max_transfers=0)):
        assert _next(request, _best(request, SLOW)) is None


def test_a_bound_whose_legs_the_budget_cannot_ask_is_not_chased():
    request = _request(order="fastest")
    assert _next(request, _best(request, SLOW), budget=1) is None


def test_cheapest_asks_the_legs_of_a_cheaper_journey_the_answers_do_not_show():
    cheap = (seat(SeatClass.HARD_SEAT, 80.0),)
    k_trains = (
        offer("K1", BEIJING_SOUTH, NANJING_SOUTH, "07:00", "13:00", seats=cheap),
        offer("K2", NANJING_SOUTH, HONGQIAO, "13:30", "16:00", seats=cheap),
    )
    request = _request(order="cheapest")
    timetable = timetable_of(*VIA_NANJING, *k_trains)
    # The official search's halves were G1 and G2 only: the K trains' legs were never asked.
    stage = _next(request, _best(request, *VIA_NANJING), asked={}, timetable=timetable)
    assert stage is not None and stage.stage == "improve_legs"
    assert {(leg, board, alight) for leg, board, alight in stage.asks} == {
        (LegKey("北京", "南京", DAY), "VNP", "NKH"),
        (LegKey("南京", "上海", DAY), "NKH", "AOH"),
    }
    asked = book(*VIA_NANJING, *k_trains)
    assert _next(request, _best(request, *VIA_NANJING, *k_trains), asked=asked) is None


def test_the_best_direct_train_is_asked_by_its_own_stations_first_and_held_exactly():
    # G8 starts at 北京西 06:56 and calls at 北京南 07:09; the city-wide answer names it at
    # 北京南 (as 12306 names a train at one station of each city), so the earliest train the
    # answer shows is G10 at 07:00. A change leaving at 06:30 is no 最早那班: the direct
    # train is asked first, by 北京西, one query.
    named = offer("G8", BEIJING_SOUTH, HONGQIAO, "07:09", "12:00")
    g10 = offer("G10", BEIJING_SOUTH, HONGQIAO, "07:00", "12:30")
    early_change = (
        offer("G1", BEIJING_SOUTH, NANJING_SOUTH, "06:30", "09:30"),
        offer("G2", NANJING_SOUTH, HONGQIAO, "10:00", "11:30"),
    )
    g8 = Run(
        codes=("G8",),
        tier="emu350",
        seat_classes=(SeatClass.SECOND,),
        stations=("BXP", "VNP", "AOH"),
        km=(0, 10, 1300),
        arrive=(416, 429, 720),
        depart=(416, 431, 720),
        fares={SeatClass.SECOND: 553.0},
    )
    base = timetable_of(g10, *early_change, extra=(BEIJING_WEST,))
    timetable = Timetable([*base.runs, g8], base.stations.values())
    request = _request(order="earliest")
    best = _best(request, named, g10)
    assert best.train_numbers == ("G10",)
    stage = _next(request, best, asked=book(named, g10), timetable=timetable)
    assert stage is not None and stage.stage == "improve_legs"
    assert stage.asks == ((LegKey("北京", "上海", DAY), "BXP", "AOH"),)
    # A direct train only, the same: 直达 does not stop the search for the direct one.
    direct = _request(order="earliest", max_transfers=0)
    stage = _next(direct, best, asked=book(named, g10), timetable=timetable)
    assert stage is not None and stage.asks == ((LegKey("北京", "上海", DAY), "BXP", "AOH"),)
    # Asked, and G8 sold from 北京西: the plan is the bound, the search ends.
    from_west = offer("G8", BEIJING_WEST, HONGQIAO, "06:56", "12:00")
    best = _best(request, named, g10, from_west)
    assert best.train_numbers == ("G8",)
    pairs = {LegKey("北京", "上海", DAY): {("BJP", "SHH"), ("BXP", "AOH")}}
    found = next_improvement(
        request=direct,
        best=best,
        schedule=timetable,
        tried=["improve_legs"],
        official_search=False,
        asked=book(named, g10, from_west),
        now=NOW,
        pairs=pairs,
        budget=5,
    )
    assert found is None


def test_an_outlying_end_or_a_hub_stop_is_not_settled_where_the_bound_has_neither():
    request = _request(order="fastest")
    index = ScheduleIndex(TIMETABLE)
    bound = best_journey(index, ask_for(request, index, NOW, objective="fastest"))
    assert isinstance(bound, Journey) and bound.proper and bound.regular
    assert settled(_best(request, *VIA_NANJING), bound, "fastest", index, request)
    stop = (
        offer("G1", BEIJING_SOUTH, NANJING_SOUTH, "08:00", "09:00"),
        offer("G2", NANJING_SOUTH, HONGQIAO, "13:30", "14:00"),
    )
    assert not settled(_best(request, *stop), bound, "fastest", index, request)


# -- the agent --------------------------------------------------------------------------


def _agent(tickets, timetable=TIMETABLE, clock=None, deadline_s=None):
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
        schedule=timetable,
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


async def test_the_agent_searches_past_a_slow_direct_train_and_says_why():
    from tests.app.agent.harness import FakeTickets

    tickets = FakeTickets((SLOW, *VIA_NANJING))
    reply = await _agent(tickets).run(_trip())
    assert reply.itinerary is not None
    assert reply.itinerary.train_numbers == ("G1", "G2")
    assert "直达需14小时，中转一次5小时" in reply.summary
    assert ("D7",) in {alt.train_numbers for alt in reply.alternatives}
    # The direct leg, then the bound's two legs by their own stations: three queries.
    assert tickets.asked == [
        ("BJP", "SHH", DAY),
        ("VNP", "NKH", DAY),
        ("NKH", "AOH", DAY),
    ]


async def test_a_train_found_full_sends_the_search_to_the_next_best_journey():
    from tests.app.agent.harness import FakeTickets

    full = (seat(SeatClass.SECOND, 553.0, 0),)
    via_wuhan = (
        offer("G3", BEIJING_WEST, WUHAN, "07:00", "09:00"),
        offer("G4", WUHAN, HONGQIAO, "09:30", "12:40"),
    )
    sold = offer("G2", NANJING_SOUTH, HONGQIAO, "11:30", "13:00", seats=full)
    tickets = FakeTickets((SLOW, VIA_NANJING[0], sold, *via_wuhan))
    timetable = timetable_of(SLOW, *VIA_NANJING, *via_wuhan)
    reply = await _agent(tickets, timetable).run(_trip())
    assert reply.itinerary is not None and reply.itinerary.train_numbers == ("G3", "G4")
    assert len(tickets.asked) == 5  # the direct leg, 北京→南京→上海, then 北京→武汉→上海


async def test_out_of_time_while_improving_the_plan_found_is_answered():
    from tests.app.agent.harness import FakeTickets

    clock = [0.0]

    class Slow(FakeTickets):
        async def search(self, resolved, **kwargs):
            clock[0] += 100.0
            return await super().search(resolved, **kwargs)

    tickets = Slow((SLOW, *VIA_NANJING))
    reply = await _agent(tickets, clock=clock, deadline_s=50.0).run(_trip())
    assert reply.itinerary is not None and reply.itinerary.train_numbers == ("D7",)
    assert len(tickets.asked) == 1


def test_a_repeated_plan_reuses_its_bound_and_a_cached_answer_is_the_same_answer():
    from app.agent.bounds import bound_for

    request = _request(order="fastest")
    fresh = book(SLOW)
    cached = book(SLOW, freshness="cached")
    first = bound_for(request, TIMETABLE, NOW, "fastest", fresh, {}, fresh)
    assert bound_for(request, TIMETABLE, NOW, "fastest", cached, {}, cached) is first
    # A new answer is a new bound.
    other = book(SLOW, VIA_NANJING[0])
    assert bound_for(request, TIMETABLE, NOW, "fastest", other, {}, other) is not first


def test_the_best_direct_train_home_is_asked_by_its_own_stations():
    # The ride home asked for the earliest (回程要最早的): G21 starts at 上海 08:00 and calls at
    # 上海虹桥 08:20, where the city-wide answer names it; G22 leaves 上海虹桥 08:10, the
    # earliest that answer shows. The ride home's best direct train is asked by 上海, one query;
    # once sold from there, the search ends.
    home_day = DAY + dt.timedelta(days=1)
    out = offer("G10", BEIJING_SOUTH, HONGQIAO, "07:00", "12:30")
    named = offer("G21", HONGQIAO, BEIJING_SOUTH, "08:20", "13:00", day=home_day)
    g22 = offer("G22", HONGQIAO, BEIJING_SOUTH, "08:10", "13:10", day=home_day)
    g21 = Run(
        codes=("G21",),
        tier="emu350",
        seat_classes=(SeatClass.SECOND,),
        stations=("SHH", "AOH", "VNP"),
        km=(0, 20, 1300),
        arrive=(480, 498, 780),
        depart=(480, 500, 780),
        fares={SeatClass.SECOND: 553.0},
    )
    base = timetable_of(out, named, g22, extra=(SHANGHAI_STATION,))
    timetable = Timetable([*base.runs, g21], base.stations.values())
    request = TripRequest(
        origin="北京",
        destination="上海",
        depart_date=DAY,
        return_date=home_day,
        return_order="earliest",
    )
    best = _best(request, out, named, g22)
    assert best.train_numbers == ("G10", "G22")
    home = LegKey("上海", "北京", home_day)
    pairs = {LegKey("北京", "上海", DAY): {("BJP", "SHH")}, home: {("SHH", "BJP")}}

    def improve(best, asked, tried=()):
        return next_improvement(
            request=request,
            best=best,
            schedule=timetable,
            tried=list(tried),
            official_search=False,
            asked=asked,
            now=NOW,
            pairs=pairs,
            budget=5,
        )

    stage = improve(best, book(out, named, g22))
    assert stage is not None and stage.stage == "improve_legs"
    assert stage.asks == ((home, "SHH", "VNP"),)
    from_shanghai = offer("G21", SHANGHAI_STATION, BEIJING_SOUTH, "08:00", "13:00", day=home_day)
    best = _best(request, out, named, g22, from_shanghai)
    assert best.train_numbers == ("G10", "G21")
    pairs[home] = {("SHH", "BJP"), ("SHH", "VNP")}
    assert improve(best, book(out, named, g22, from_shanghai), tried=["improve_legs"]) is None
