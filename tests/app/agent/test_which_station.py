"""A name that is stations of several towns (河口: 河口北 in 蒙自, 河口南 in 兰州) is settled by
the trains of the trip's other end, asked of the ticket query as any live source answers it;
the traveller is asked only when the trains do not tell."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable

import pytest

from app.agent import AgentInput, PlanningAgent
from app.agent.which_station import MAX_CANDIDATES, open_name, taken, with_trains
from app.intent import texts as intent_texts
from app.intent.model import TravelIntent
from app.intent.parser import IntentParser, WhichStation
from app.observability.metrics import Metrics
from app.tickets.model import QueryEcho, ResolvedQuery, SourceReport, TicketResult
from sources.models import SHANGHAI, Station, TrainOffer
from sources.stations import default_directory
from tests.rules.factory import offer

DIRECTORY = default_directory()
NOW = dt.datetime(2026, 12, 1, 8, 0, tzinfo=SHANGHAI)
DAY = dt.date(2026, 12, 9)  # 下周三 from Tuesday 1 December


def station(name: str) -> Station:
    found = DIRECTORY.by_name(name)
    assert found is not None
    return found


class CityTickets:
    """Answers every query with the trains between the two places' cities on that day,
    narrowed to the stations asked for, as the query service does; records what it was asked
    (telecodes) and fails the queries whose destination or origin is in `fail`."""

    def __init__(self, offers: Iterable[TrainOffer], *, fail: Iterable[str] = ()) -> None:
        self.offers = list(offers)
        self.fail = set(fail)
        self.asked: list[tuple[str, str, dt.date]] = []

    async def search(
        self,
        resolved: ResolvedQuery,
        *,
        refresh: bool = False,
        allow_stale: bool = True,
        one_source: bool = False,
    ) -> TicketResult:
        query = resolved.query
        self.asked.append((query.origin, query.destination, query.date))
        if {query.origin, query.destination} & self.fail:
            raise RuntimeError("source down")
        found = tuple(
            o
            for o in self.offers
            if o.origin_station.city == resolved.origin.city
            and o.destination_station.city == resolved.destination.city
            and o.date == query.date
        )
        kept = resolved.keep(found)
        offers = found if kept is None else kept
        return TicketResult(
            query=QueryEcho(
                origin=resolved.origin_station, destination=resolved.destination_station, date=DAY
            ),
            freshness="realtime",
            as_of=NOW,
            age_s=0.0,
            sources=(SourceReport(name="live", status="ok", freshness="realtime"),),
            offers=offers,
        )


def agent(tickets: CityTickets) -> PlanningAgent:
    metrics = Metrics()
    return PlanningAgent(
        parser=IntentParser(directory=DIRECTORY, metrics=metrics),
        tickets=tickets,
        directory=DIRECTORY,
        metrics=metrics,
        clock=lambda: NOW,
    )


# 昆明 has trains to 河口北 and to 兰州 (兰州西, never to 河口南); 西宁 has trains to 河口南.
TO_HEKOU_NORTH = offer("K9825", station("昆明南"), station("河口北"), "11:42", "15:53", day=DAY)
TO_LANZHOU = offer("Z162", station("昆明南"), station("兰州西"), "08:00", "07:10", day=DAY)
TO_HEKOU_SOUTH = offer("K816", station("西宁"), station("河口南"), "19:10", "21:19", day=DAY)
FROM_HEKOU_SOUTH = offer(
    "K815", station("河口南"), station("西宁"), "06:20", "08:31", day=DAY + dt.timedelta(days=1)
)
BOTH = [
    offer("G1", station("北京西"), station("河口北"), "07:00", "21:00", day=DAY),
    offer("G2", station("北京西"), station("河口南"), "08:00", "18:00", day=DAY),
]


async def test_the_town_the_other_end_has_trains_to_is_planned_and_said() -> None:
    tickets = CityTickets([TO_HEKOU_NORTH, TO_LANZHOU])
    reply = await agent(tickets).run(AgentInput(today=NOW.date(), text="下周三昆明出发去河口"))
    assert reply.clarify_question is None
    assert reply.itinerary is not None, reply.summary
    assert reply.itinerary.legs[0].destination_station.name == "河口北"
    assert reply.intent is not None and reply.intent.destination == "河口北"
    said = [w for w in reply.warnings if "河口北" in w]
    assert said and "河口南" in said[0] and "昆明" in said[0]
    # One query per candidate; the plan's own leg is not asked again (nor is it "cached").
    assert tickets.asked.count(("KMM", "HBM", DAY)) == 1
    assert tickets.asked.count(("KMM", "HKJ", DAY)) == 1
    assert reply.freshness == "realtime"


async def test_the_origin_is_settled_by_the_trains_towards_the_destination() -> None:
    tickets = CityTickets([FROM_HEKOU_SOUTH, TO_HEKOU_NORTH])
    reply = await agent(tickets).run(AgentInput(today=NOW.date(), text="12月10日从河口回西宁"))
    assert reply.intent is not None and reply.intent.origin == "河口南"
    assert reply.itinerary is not None, reply.summary
    assert reply.itinerary.legs[0].train_number == "K815"


async def test_without_a_day_the_town_is_settled_and_only_the_day_is_asked() -> None:
    tickets = CityTickets([TO_HEKOU_SOUTH])
    # No day said: the next day's trains stand for the route's (TO_HEKOU_SOUTH runs on DAY).
    reply = await agent(tickets).run(
        AgentInput(today=DAY - dt.timedelta(days=1), text="我想从西宁去河口")
    )
    assert reply.intent is not None and reply.intent.destination == "河口南"
    assert reply.clarify_question == intent_texts.ask_for(["date_start"])
    assert not reply.intent.suggested_places


@pytest.mark.parametrize(
    ("offers", "fail"),
    [
        (BOTH, ()),  # trains to both: the traveller says which
        ([], ()),  # trains to neither
        ([TO_HEKOU_NORTH], ("HKJ",)),  # 河口南's query unanswered: it may be the one
    ],
)
async def test_when_the_trains_do_not_tell_the_traveller_is_asked(
    offers: list[TrainOffer], fail: tuple[str, ...]
) -> None:
    text = "下周三北京去河口" if offers is BOTH else "下周三昆明出发去河口"
    tickets = CityTickets(offers, fail=fail)
    reply = await agent(tickets).run(AgentInput(today=NOW.date(), text=text))
    assert reply.itinerary is None
    assert reply.clarify_question == intent_texts.which_of("河口", ["河口南", "河口北"])
    assert reply.intent is not None and reply.intent.destination is None
    assert len(tickets.asked) == 2  # one query per candidate, nothing more


async def test_a_later_turn_giving_the_other_end_settles_the_town() -> None:
    tickets = CityTickets([TO_HEKOU_NORTH, TO_LANZHOU])
    first = await agent(tickets).run(AgentInput(today=NOW.date(), text="下周三去河口"))
    assert first.itinerary is None and first.intent is not None
    reply = await agent(tickets).run(
        AgentInput(today=NOW.date(), text="从昆明走", previous=first.intent)
    )
    assert reply.itinerary is not None, reply.summary
    assert reply.itinerary.legs[0].destination_station.name == "河口北"


async def test_a_later_turn_that_leaves_it_open_asks_which_not_whether_it_is_a_station() -> None:
    tickets = CityTickets(BOTH)
    first = await agent(tickets).run(AgentInput(today=NOW.date(), text="下周三去河口"))
    assert first.intent is not None
    reply = await agent(tickets).run(
        AgentInput(today=NOW.date(), text="北京出发", previous=first.intent)
    )
    assert reply.clarify_question == intent_texts.which_of("河口", ["河口南", "河口北"])


def test_no_other_end_or_too_many_candidates_is_left_to_the_question() -> None:
    which = {"destination": WhichStation("河口", ("河口南", "河口北"))}
    open_trip = TravelIntent(destination_text="河口")
    assert open_name(open_trip, which, DIRECTORY) is None
    known = open_trip.model_copy(update={"origin": "昆明"})
    found = open_name(known, which, DIRECTORY)
    assert found is not None and found.other == "昆明" and found.slot == "destination"
    many = {"origin": WhichStation("某", tuple(f"某{d}" for d in "东西南北"))}
    assert len(many["origin"].stations) > MAX_CANDIDATES
    assert open_name(TravelIntent(destination="昆明"), many, DIRECTORY) is None


async def test_each_candidate_is_asked_once_in_the_trips_direction() -> None:
    tickets = CityTickets([FROM_HEKOU_SOUTH])
    which = {"origin": WhichStation("河口", ("河口南", "河口北"))}
    name = open_name(TravelIntent(destination="西宁"), which, DIRECTORY)
    assert name is not None
    answered: dict[tuple[object, ...], TicketResult] = {}
    day = DAY + dt.timedelta(days=1)
    assert await with_trains(tickets, DIRECTORY, name, day, answered) == ["河口南"]
    assert sorted(tickets.asked) == [("HBM", "XNO", day), ("HKJ", "XNO", day)]
    assert len(answered) == 2
    settled = taken(
        TravelIntent(destination="西宁", suggested_places={"origin": "河口北"}), name, "河口南"
    )
    assert settled.origin == "河口南" and settled.suggested_places == {}


async def test_a_day_not_on_sale_yet_is_settled_by_the_next_days_trains() -> None:
    # DAY is on sale; the trip's day, two months on, is not: its trains are not asked for.
    tickets = CityTickets([TO_HEKOU_NORTH, TO_LANZHOU])
    today = DAY - dt.timedelta(days=1)
    reply = await agent(tickets).run(AgentInput(today=today, text="2月3日从昆明去河口"))
    assert reply.intent is not None and reply.intent.destination == "河口北"
    probes = [(o, d, day) for o, d, day in tickets.asked if d in ("HBM", "HKJ")]
    assert sorted(probes) == [("KMM", "HBM", DAY), ("KMM", "HKJ", DAY)]
