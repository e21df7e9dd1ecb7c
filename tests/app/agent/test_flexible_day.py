"""哪天都行: the agent plans the best accepted day by the stated order, and never asks which day;
a date said as past is said to be past (issue 22 item 3)."""

from __future__ import annotations

import datetime as dt

from app.agent import AgentInput, texts
from app.intent.model import TravelIntent
from tests.app.agent.harness import TODAY as TODAY_ISO
from tests.app.agent.harness import FakeTickets, running_app
from tests.app.agent.test_machine import DEC4, DEC5, SOLD_OUT, TODAY, agent
from tests.rules.factory import BEIJING_SOUTH, HONGQIAO, high_speed_seats, offer

DEC3, DEC6 = dt.date(2026, 12, 3), dt.date(2026, 12, 6)


def flexible(first: dt.date, until: dt.date, **fields: object) -> TravelIntent:
    values: dict[str, object] = {
        "origin": "北京",
        "destination": "上海",
        "date_start": first,
        "flexible_until": until,
        "return_trip": False,
    }
    values.update(fields)
    return TravelIntent.model_validate(values)


def priced_days(prices: dict[dt.date, float]) -> FakeTickets:
    return FakeTickets(
        offer("G1", BEIJING_SOUTH, HONGQIAO, "09:00", "13:30", day=day, seats=high_speed_seats(p))
        for day, p in prices.items()
    )


async def test_cheapest_picks_the_cheapest_accepted_day_and_says_it_was_chosen() -> None:
    tickets = priced_days({DEC3: 553.0, DEC4: 553.0, DEC5: 320.0, DEC6: 553.0})
    intent = flexible(DEC3, DEC6, order="cheapest")
    reply = await agent(tickets).run(AgentInput(today=TODAY, intent=intent))
    assert reply.itinerary is not None
    assert reply.itinerary.legs[0].depart_at.date() == DEC5
    assert reply.itinerary.total_price == 320.0
    assert reply.clarify_question is None
    assert reply.relaxed == [], "an accepted day is the trip asked for, not a relaxation"
    assert "原定" not in reply.summary
    assert texts.FLEXIBLE_DAY.format(day="12月5日") in reply.warnings
    assert "12月3日–6日任选一天" in reply.understood


async def test_without_an_order_the_soonest_day_with_a_plan_is_chosen() -> None:
    tickets = FakeTickets(
        [
            offer("G1", BEIJING_SOUTH, HONGQIAO, "09:00", "13:30", day=DEC3, seats=SOLD_OUT),
            offer("G1", BEIJING_SOUTH, HONGQIAO, "09:00", "13:30", day=DEC4),
            offer("G1", BEIJING_SOUTH, HONGQIAO, "09:00", "13:30", day=DEC5),
        ]
    )
    reply = await agent(tickets).run(AgentInput(today=TODAY, intent=flexible(DEC3, DEC6)))
    assert reply.itinerary is not None
    assert reply.itinerary.legs[0].depart_at.date() == DEC4
    assert "原定" not in reply.summary and reply.relaxed == []


async def test_the_days_asked_stay_within_the_sale_window() -> None:
    tickets = priced_days({DEC3: 553.0})
    far = TODAY + dt.timedelta(days=40)
    reply = await agent(tickets).run(AgentInput(today=TODAY, intent=flexible(DEC3, far)))
    last = TODAY + dt.timedelta(days=14)
    assert reply.itinerary is not None
    assert all(day <= last for _, _, day in tickets.asked), "no query beyond the sale window"


async def test_any_day_through_the_sandbox_plans_without_asking_which_day() -> None:
    async with running_app() as (client, _):
        response = await client.post(
            "/v1/plan",
            json={"text": "这两周哪天都行，从上海去杭州，挑最便宜的那天", "today": TODAY_ISO},
        )
    body = response.json()
    assert response.status_code == 200
    assert body["clarify_question"] is None
    assert body["itinerary"] is not None
    assert "任选一天" in body["understood"]
    day = dt.date.fromisoformat(body["itinerary"]["legs"][0]["depart_at"][:10])
    assert TODAY <= day <= TODAY + dt.timedelta(days=14)


async def test_a_date_said_as_past_is_said_to_be_past() -> None:
    async with running_app() as (client, _):
        response = await client.post(
            "/v1/plan", json={"text": "11月28号从武汉去信阳 还有票吗", "today": TODAY_ISO}
        )
    body = response.json()
    assert body["itinerary"] is None
    assert "已经过去" in body["clarify_question"]
    assert "尚未开售" not in body["clarify_question"]


async def test_a_date_beyond_the_sale_window_is_said_to_be_not_on_sale() -> None:
    async with running_app() as (client, _):
        response = await client.post(
            "/v1/plan", json={"text": "1月20号从武汉去信阳", "today": TODAY_ISO}
        )
    body = response.json()
    assert body["itinerary"] is None
    assert "尚未开售" in body["clarify_question"]


async def test_a_named_train_is_ridden_on_the_accepted_day_it_has_a_seat() -> None:
    # G1 is sold out on the 3rd and sells on the 4th; G3 sells both days. Either day will do,
    # so G1 on the 4th is the trip asked for: no other train, no relaxation.
    tickets = FakeTickets(
        [
            offer("G1", BEIJING_SOUTH, HONGQIAO, "09:00", "13:30", day=DEC3, seats=SOLD_OUT),
            offer("G3", BEIJING_SOUTH, HONGQIAO, "10:00", "14:30", day=DEC3),
            offer("G1", BEIJING_SOUTH, HONGQIAO, "09:00", "13:30", day=DEC4),
            offer("G3", BEIJING_SOUTH, HONGQIAO, "10:00", "14:30", day=DEC4),
        ]
    )
    intent = flexible(DEC3, DEC4, train_numbers=["G1"])
    reply = await agent(tickets).run(AgentInput(today=TODAY, intent=intent))
    assert reply.itinerary is not None
    assert [leg.train_number for leg in reply.itinerary.legs] == ["G1"]
    assert reply.itinerary.legs[0].depart_at.date() == DEC4
    assert reply.relaxed == []
