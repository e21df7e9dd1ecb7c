"""The agent's relaxation paths on a fake query service: which constraint gives way, and that
the reply says so in `relaxed` and in the summary (no HTTP, no sleep)."""

from __future__ import annotations

import datetime as dt

from app.agent import AgentInput
from app.intent.model import TimeWindow
from sources.models import SeatClass
from tests.app.agent.harness import FakeTickets
from tests.app.agent.test_machine import DEC4, DEC5, SOLD_OUT, TODAY, agent, one_way
from tests.rules.factory import (
    BEIJING_SOUTH,
    BEIJING_WEST,
    HONGQIAO,
    SHANGHAI_STATION,
    high_speed_seats,
    offer,
)

EARLY = TimeWindow(start=dt.time(0, 0), end=dt.time(8, 0))


async def test_a_window_no_train_meets_is_relaxed_to_the_nearest_and_said():
    tickets = FakeTickets([offer("G7", BEIJING_SOUTH, HONGQIAO, "08:12", "12:40", day=DEC4)])
    reply = await agent(tickets).run(AgentInput(today=TODAY, intent=one_way(depart_window=EARLY)))
    assert reply.itinerary is not None and reply.itinerary.train_numbers == ("G7",)
    assert [(r.constraint, r.requested, r.offered) for r in reply.relaxed] == [
        ("depart_window", "08:00前出发", "08:12出发")
    ]
    assert reply.summary.startswith(reply.relaxed[0].reason)
    assert "08:00前出发" in reply.understood


async def test_a_met_window_relaxes_nothing():
    tickets = FakeTickets(
        [
            offer("G1", BEIJING_SOUTH, HONGQIAO, "07:00", "11:28", day=DEC4),
            offer("G7", BEIJING_SOUTH, HONGQIAO, "08:08", "12:40", day=DEC4),
        ]
    )
    reply = await agent(tickets).run(AgentInput(today=TODAY, intent=one_way(depart_window=EARLY)))
    assert reply.itinerary is not None and reply.itinerary.train_numbers == ("G1",)
    assert reply.relaxed == []


async def test_an_exact_station_gives_way_only_when_no_train_leaves_from_it():
    tickets = FakeTickets([offer("G1", BEIJING_SOUTH, HONGQIAO, "09:00", "13:28", day=DEC4)])
    reply = await agent(tickets).run(AgentInput(today=TODAY, intent=one_way(origin="北京西")))
    assert [r.constraint for r in reply.relaxed] == ["origin"]
    assert reply.relaxed[0].requested == "北京西出发"
    assert reply.relaxed[0].offered == "北京南出发"


async def test_an_exact_station_is_kept_when_a_train_leaves_from_it():
    tickets = FakeTickets(
        [
            offer("G1", BEIJING_SOUTH, HONGQIAO, "09:00", "13:28", day=DEC4),
            offer("D9", BEIJING_WEST, HONGQIAO, "10:00", "16:00", day=DEC4),
        ]
    )
    reply = await agent(tickets).run(AgentInput(today=TODAY, intent=one_way(origin="北京西")))
    assert reply.itinerary is not None and reply.itinerary.train_numbers == ("D9",)
    assert reply.relaxed == []


async def test_excluded_types_give_way_only_when_every_train_is_of_them():
    tickets = FakeTickets([offer("G1", BEIJING_SOUTH, HONGQIAO, "09:00", "13:28", day=DEC4)])
    intent = one_way(exclude_train_types=["G"], exclude_seat_classes=["no_seat"])
    reply = await agent(tickets).run(AgentInput(today=TODAY, intent=intent))
    assert [r.constraint for r in reply.relaxed] == ["exclude_train_types"]
    assert reply.relaxed[0].requested == "不坐高铁"


async def test_a_named_class_sold_out_is_relaxed_in_the_open():
    seats = (*SOLD_OUT[1:], *high_speed_seats(553.0)[:1])  # only business left
    tickets = FakeTickets(
        [offer("G1", BEIJING_SOUTH, HONGQIAO, "09:00", "13:28", day=DEC4, seats=seats)]
    )
    intent = one_way(seat_class=SeatClass.SECOND)
    reply = await agent(tickets).run(AgentInput(today=TODAY, intent=intent))
    assert reply.itinerary is not None
    assert [r.constraint for r in reply.relaxed] == ["seat_class"]
    assert reply.relaxed[0].requested == "二等座" and "商务座" in reply.relaxed[0].offered


async def test_a_sold_out_day_moves_the_date_and_says_it():
    tickets = FakeTickets(
        [
            offer("G1", BEIJING_SOUTH, HONGQIAO, "09:00", "13:28", day=DEC4, seats=SOLD_OUT),
            offer("G1", BEIJING_SOUTH, HONGQIAO, "09:00", "13:28", day=DEC5),
        ]
    )
    reply = await agent(tickets).run(AgentInput(today=TODAY, intent=one_way()))
    assert reply.itinerary is not None
    assert [r.constraint for r in reply.relaxed] == ["date_start"]
    assert (reply.relaxed[0].requested, reply.relaxed[0].offered) == ("12月4日", "12月5日")
    assert "12月5日" in reply.summary


async def test_a_train_type_given_up_for_an_ordinary_train_is_said_as_such():
    # An ordinary train's number has no letter (1461): its type is 普客, never its digit.
    tickets = FakeTickets([offer("1461", BEIJING_SOUTH, HONGQIAO, "08:00", "20:00", day=DEC4)])
    reply = await agent(tickets).run(AgentInput(today=TODAY, intent=one_way(train_types=["G"])))
    assert reply.itinerary is not None and reply.itinerary.train_numbers == ("1461",)
    assert [(r.constraint, r.offered) for r in reply.relaxed] == [("train_types", "普客")]


BY_NOON = TimeWindow(start=dt.time(0, 0), end=dt.time(12, 0))
SEVEN_TO_NINE = TimeWindow(start=dt.time(7, 0), end=dt.time(9, 0))


async def test_a_deadline_missed_at_the_named_station_changes_the_station_and_says_why():
    # 上海虹桥 is reached only at 13:30; 上海 (same city proper) by 11:40: the station gives
    # way, the deadline is kept, and the reply says it was the station and why.
    tickets = FakeTickets(
        [
            offer("G11", BEIJING_SOUTH, HONGQIAO, "09:00", "13:30", day=DEC4),
            offer("D13", BEIJING_SOUTH, SHANGHAI_STATION, "07:00", "11:40", day=DEC4),
        ]
    )
    intent = one_way(destination="上海虹桥", arrive_window=BY_NOON)
    reply = await agent(tickets).run(AgentInput(today=TODAY, intent=intent))
    assert reply.itinerary is not None and reply.itinerary.train_numbers == ("D13",)
    assert [(r.constraint, r.requested, r.offered) for r in reply.relaxed] == [
        ("destination", "到上海虹桥", "到上海")
    ]
    reason = reply.relaxed[0].reason
    assert "12:00前到达" in reason and "上海市区的其他车站" in reason
    assert reply.summary.startswith(reason)


async def test_a_deadline_met_at_the_citys_other_station_keeps_the_day_too():
    # The day before reaches 上海虹桥 in time as well; the meeting's own day at 上海 comes
    # first: the station gives way, neither the hour nor the day.
    dec3 = DEC4 - dt.timedelta(days=1)
    tickets = FakeTickets(
        [
            offer("G11", BEIJING_SOUTH, HONGQIAO, "09:00", "13:30", day=DEC4),
            offer("D13", BEIJING_SOUTH, SHANGHAI_STATION, "07:00", "11:40", day=DEC4),
            offer("G15", BEIJING_SOUTH, HONGQIAO, "09:00", "13:30", day=dec3),
        ]
    )
    intent = one_way(destination="上海虹桥", arrive_window=BY_NOON)
    reply = await agent(tickets).run(AgentInput(today=TODAY, intent=intent))
    assert reply.itinerary is not None and reply.itinerary.train_numbers == ("D13",)
    assert [r.constraint for r in reply.relaxed] == ["destination"]
    # Without a station of the city in time that day, the day before, as before.
    tickets = FakeTickets(
        [
            offer("G11", BEIJING_SOUTH, HONGQIAO, "09:00", "13:30", day=DEC4),
            offer("G15", BEIJING_SOUTH, HONGQIAO, "09:00", "13:30", day=dec3),
        ]
    )
    reply = await agent(tickets).run(AgentInput(today=TODAY, intent=intent))
    assert reply.itinerary is not None and reply.itinerary.train_numbers == ("G15",)
    assert [r.constraint for r in reply.relaxed] == ["date_start"]


async def test_the_deadline_gives_way_where_no_station_of_the_city_meets_it_either():
    tickets = FakeTickets(
        [
            offer("G11", BEIJING_SOUTH, HONGQIAO, "09:00", "13:30", day=DEC4),
            offer("D13", BEIJING_SOUTH, SHANGHAI_STATION, "09:30", "14:10", day=DEC4),
        ]
    )
    intent = one_way(destination="上海虹桥", arrive_window=BY_NOON)
    reply = await agent(tickets).run(AgentInput(today=TODAY, intent=intent))
    assert reply.itinerary is not None and reply.itinerary.train_numbers == ("G11",)
    assert [r.constraint for r in reply.relaxed] == ["arrive_window"]


async def test_a_named_boarding_station_gives_way_before_its_departure_window():
    tickets = FakeTickets(
        [
            offer("D9", BEIJING_WEST, HONGQIAO, "10:00", "16:00", day=DEC4),
            offer("G3", BEIJING_SOUTH, HONGQIAO, "08:00", "12:28", day=DEC4),
        ]
    )
    intent = one_way(origin="北京西", depart_window=SEVEN_TO_NINE)
    reply = await agent(tickets).run(AgentInput(today=TODAY, intent=intent))
    assert reply.itinerary is not None and reply.itinerary.train_numbers == ("G3",)
    assert [(r.constraint, r.offered) for r in reply.relaxed] == [("origin", "北京南出发")]
    assert reply.relaxed[0].reason.startswith("从北京西查不到07:00-09:00出发")
