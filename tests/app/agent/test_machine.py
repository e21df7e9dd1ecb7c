"""The state machine as a specification, driven with a fake query service (no HTTP, no sleep)."""

from __future__ import annotations

import datetime as dt
import logging

import pytest

from app.agent import AgentInput, PlanningAgent, State, texts
from app.agent import machine as machine_module
from app.agent.fallback import Relaxation
from app.agent.fetch import fetch_legs
from app.intent import texts as intent_texts
from app.intent.model import TravelIntent
from app.intent.parser import IntentParser
from app.observability.metrics import Metrics
from rules import LegKey
from sources.models import SeatClass, SeatStatus
from sources.stations import curated_directory
from tests.app.agent.harness import NOW, FakeTickets
from tests.rules.factory import (
    BEIJING_SOUTH,
    HONGQIAO,
    WUHAN,
    ZHENGZHOU_EAST,
    high_speed_seats,
    offer,
    seat,
)

DIRECTORY = curated_directory()
TODAY = NOW.date()
DEC4, DEC5 = dt.date(2026, 12, 4), dt.date(2026, 12, 5)
SOLD_OUT = (
    seat(SeatClass.BUSINESS, 1748.0, 0, SeatStatus.SOLD_OUT),
    seat(SeatClass.FIRST, 935.0, 0, SeatStatus.SOLD_OUT),
    seat(SeatClass.SECOND, 553.0, 0, SeatStatus.SOLD_OUT),
)


def agent(
    tickets: FakeTickets, *, metrics: Metrics | None = None, max_steps: int = 10
) -> PlanningAgent:
    metrics = metrics or Metrics()
    return PlanningAgent(
        parser=IntentParser(directory=DIRECTORY, metrics=metrics),
        tickets=tickets,
        directory=DIRECTORY,
        metrics=metrics,
        max_steps=max_steps,
        clock=lambda: NOW,
    )


def one_way(day: dt.date = DEC4, **fields: object) -> TravelIntent:
    values: dict[str, object] = {
        "origin": "北京",
        "destination": "上海",
        "date_start": day,
        "return_trip": False,
    }
    values.update(fields)
    return TravelIntent.model_validate(values)


def states(reply: object) -> list[str]:
    return [step.state for step in reply.agent.trace]  # type: ignore[attr-defined]


async def test_direct_trip_runs_parse_query_evaluate_generate_and_counts_each_state() -> None:
    metrics = Metrics()
    tickets = FakeTickets([offer("G1", BEIJING_SOUTH, HONGQIAO, "09:00", "13:30", day=DEC4)])
    reply = await agent(tickets, metrics=metrics).run(AgentInput(today=TODAY, intent=one_way()))
    assert reply.itinerary is not None and reply.itinerary.train_numbers == ("G1",)
    assert states(reply) == ["PARSE_INTENT", "QUERY_TICKETS", "EVALUATE_OPTIONS", "GENERATE_PLAN"]
    assert reply.summary.startswith(
        "已按「北京→上海 · 12月4日」为你安排：去程 G1 北京南 09:00→上海虹桥 13:30"
    )
    assert reply.freshness == "realtime"
    sample = metrics.registry.get_sample_value
    assert sample("railtrip_agent_state_total", {"state": "GENERATE_PLAN"}) == 1
    assert sample("railtrip_agent_steps_count", {"mode": "state_machine"}) == 1
    assert sample("railtrip_agent_steps_sum", {"mode": "state_machine"}) == 4


async def test_sold_out_day_falls_back_to_the_adjacent_day_and_says_so() -> None:
    tickets = FakeTickets(
        [
            offer("G1", BEIJING_SOUTH, HONGQIAO, "09:00", "13:30", day=DEC4, seats=SOLD_OUT),
            offer("G1", BEIJING_SOUTH, HONGQIAO, "09:00", "13:30", day=DEC5),
        ]
    )
    reply = await agent(tickets).run(AgentInput(today=TODAY, intent=one_way()))
    assert reply.itinerary is not None
    assert reply.itinerary.legs[0].depart_at.date() == DEC5
    assert "原定12月4日没有合适的车次，已改为12月5日出发" in reply.summary
    details = [step.detail for step in reply.agent.trace if step.state == "FALLBACK"]
    assert details == ["days"], "a sold-out day asks for another day first, not a transfer"
    assert reply.agent.steps <= 10


async def test_nothing_anywhere_stops_with_what_was_tried_and_what_to_relax() -> None:
    tickets = FakeTickets()
    reply = await agent(tickets).run(AgentInput(today=TODAY, intent=one_way(budget=100)))
    assert reply.itinerary is None
    assert "没有查到车次" in reply.summary
    # The hubs named are the ones probed (the trip's own ends are not hubs of it).
    assert (
        "已尝试：直达车次、经南京、郑州、武汉等中转、前后一天（12月3日、12月5日）" in reply.summary
    )
    assert "适当提高预算" in reply.summary and "换一个出发日期" in reply.summary
    assert reply.summary in reply.warnings, "a null itinerary says why in warnings too"
    assert reply.agent.trace[-1].state == "FALLBACK" and reply.agent.trace[-1].next == "DONE"


async def test_over_budget_relaxes_the_budget_openly_when_no_class_fits_it() -> None:
    tickets = FakeTickets([offer("G1", BEIJING_SOUTH, HONGQIAO, "09:00", "13:30", day=DEC4)])
    intent = one_way(budget=100, seat_class=SeatClass.FIRST)
    reply = await agent(tickets).run(AgentInput(today=TODAY, intent=intent))
    assert reply.itinerary is not None and reply.itinerary.within_budget is False
    assert [s.detail for s in reply.agent.trace if s.state == "FALLBACK"] == ["relax"]
    assert [r.constraint for r in reply.relaxed] == ["budget"]
    assert reply.relaxed[0].requested == "预算100元"
    assert "预算100元" in reply.summary and "超出预算" in reply.summary


async def test_relaxing_the_class_finds_a_plan_within_budget() -> None:
    tickets = FakeTickets(
        [
            offer(
                "G1",
                BEIJING_SOUTH,
                HONGQIAO,
                "09:00",
                "13:30",
                day=DEC4,
                seats=high_speed_seats(second=553.0),
            )
        ]
    )
    intent = one_way(budget=600, seat_class=SeatClass.BUSINESS)
    reply = await agent(tickets).run(AgentInput(today=TODAY, intent=intent))
    assert reply.itinerary is not None
    assert reply.itinerary.legs[0].seat_class is SeatClass.SECOND
    assert reply.itinerary.within_budget is True


async def test_a_loop_that_never_ends_stops_at_the_step_bound_with_a_clear_answer(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def always_again(**_: object) -> Relaxation:
        return Relaxation("transfer", (), (), needs_query=False)

    monkeypatch.setattr(machine_module, "next_relaxation", always_again)
    tickets = FakeTickets()
    metrics = Metrics()
    reply = await agent(tickets, max_steps=7, metrics=metrics).run(
        AgentInput(today=TODAY, intent=one_way())
    )
    # decisions are PARSE and each FALLBACK; QUERY and EVALUATE carry them out
    states = [s.state for s in reply.agent.trace]
    assert states[:3] == ["PARSE_INTENT", "QUERY_TICKETS", "EVALUATE_OPTIONS"]
    assert sum(s not in ("QUERY_TICKETS", "EVALUATE_OPTIONS") for s in states) == 7
    assert reply.agent.steps == len(states)
    assert reply.itinerary is None
    said = texts.STEP_BOUND.format(steps=7, legs=len(set(tickets.asked)), offers=0)
    assert reply.summary.startswith(said) and said in reply.warnings
    assert "规划步骤已达上限" not in reply.summary
    assert (
        metrics.registry.get_sample_value("railtrip_degradations_total", {"kind": "step_bound"})
        == 1
    )


async def test_a_state_that_raises_is_visible_in_trace_and_log_and_ends_clearly(
    caplog: pytest.LogCaptureFixture,
) -> None:
    class BrokenParser:
        async def parse(self, text: str, today: dt.date) -> object:
            raise RuntimeError("parser bug")

    agent_ = PlanningAgent(
        parser=BrokenParser(),
        tickets=FakeTickets(),
        directory=DIRECTORY,
        metrics=Metrics(),
        clock=lambda: NOW,
    )
    with caplog.at_level(logging.INFO, logger="railtrip.agent"):
        reply = await agent_.run(AgentInput(today=TODAY, text="北京到上海"))
    first = reply.agent.trace[0]
    assert (first.state, first.next) == ("PARSE_INTENT", "FALLBACK")
    assert first.error == "RuntimeError: parser bug"
    assert reply.agent.trace[1].state == "FALLBACK" and reply.agent.trace[1].next == "DONE"
    assert reply.summary == texts.INTERNAL_ERROR.format(state="PARSE_INTENT")
    raised = [r for r in caplog.records if r.getMessage() == "agent state raised"]
    assert raised and raised[0].agent_state == "PARSE_INTENT"  # type: ignore[attr-defined]
    steps = [r for r in caplog.records if r.getMessage() == "agent step"]
    assert [r.agent_state for r in steps] == ["PARSE_INTENT", "FALLBACK"]  # type: ignore[attr-defined]


async def test_one_failing_leg_does_not_lose_the_others() -> None:
    tickets = FakeTickets(
        [offer("G1", BEIJING_SOUTH, HONGQIAO, "09:00", "13:30", day=DEC4)],
        fail=[("SHH", "BJP", DEC5)],
    )
    out, back = LegKey("北京", "上海", DEC4), LegKey("上海", "北京", DEC5)
    results = await fetch_legs(tickets, DIRECTORY, [out, back])
    assert results[out].freshness == "realtime" and len(results[out].offers) == 1
    assert results[back].freshness == "unavailable" and results[back].offers == ()


async def test_unavailable_data_stops_at_once_and_suggests_trying_later() -> None:
    tickets = FakeTickets(fail=[("BJP", "SHH", DEC4)])
    reply = await agent(tickets).run(AgentInput(today=TODAY, intent=one_way()))
    assert reply.itinerary is None
    assert "暂时无法获取北京→上海 12月4日的余票信息" in reply.summary
    assert "稍后再试" in reply.summary
    assert reply.freshness == "unavailable"
    assert [s.detail for s in reply.agent.trace if s.state == "FALLBACK"] == ["stop"]


async def test_plan_built_from_cached_offers_is_tagged_cached_and_says_so() -> None:
    tickets = FakeTickets(
        [offer("G1", BEIJING_SOUTH, HONGQIAO, "09:00", "13:30", day=DEC4)], freshness="cached"
    )
    reply = await agent(tickets).run(AgentInput(today=TODAY, intent=one_way()))
    assert reply.freshness == "cached"
    assert texts.CACHED_PLAN in reply.warnings
    assert reply.itinerary is not None and reply.itinerary.legs[0].freshness == "cached"


async def test_named_train_absent_from_results_is_rejected_counted_and_replaced() -> None:
    metrics = Metrics()
    tickets = FakeTickets([offer("G3", BEIJING_SOUTH, HONGQIAO, "10:00", "14:30", day=DEC4)])
    intent = one_way(train_numbers=["G1"])
    reply = await agent(tickets, metrics=metrics).run(AgentInput(today=TODAY, intent=intent))
    assert reply.itinerary is not None and reply.itinerary.train_numbers == ("G3",)
    assert "G1" not in reply.summary
    assert any("您提到的车次G1不在北京→上海 12月4日的实时查询结果中" in w for w in reply.warnings)
    assert any(w.startswith("可选车次：G3") for w in reply.warnings)
    value = metrics.registry.get_sample_value(
        "railtrip_invented_train_rejections_total", {"origin": "user"}
    )
    assert value == 1


@pytest.mark.parametrize("absent", [False, True])
async def test_the_named_train_or_none_plans_no_other_in_its_place(absent: bool) -> None:
    # G1 没票就算了: G1 sold out (or not running), G3 has seats; no G3 is planned instead.
    offers = [offer("G3", BEIJING_SOUTH, HONGQIAO, "10:00", "14:30", day=DEC4)]
    if not absent:
        offers.append(
            offer("G1", BEIJING_SOUTH, HONGQIAO, "09:00", "13:30", day=DEC4, seats=SOLD_OUT)
        )
    intent = one_way(train_numbers=["G1"], preferences=["只此车次"])
    reply = await agent(FakeTickets(offers)).run(AgentInput(today=TODAY, intent=intent))
    assert reply.itinerary is None
    assert "G1" in reply.summary and "G3" not in reply.summary
    assert not reply.relaxed
    # Without the words, another train is planned and said as given up for.
    said = await agent(FakeTickets(offers)).run(
        AgentInput(today=TODAY, intent=one_way(train_numbers=["G1"]))
    )
    assert said.itinerary is not None and said.itinerary.train_numbers == ("G3",)


async def test_named_train_that_exists_is_the_one_planned() -> None:
    tickets = FakeTickets(
        [
            offer("G1", BEIJING_SOUTH, HONGQIAO, "09:00", "13:30", day=DEC4),
            offer(
                "G3",
                BEIJING_SOUTH,
                HONGQIAO,
                "10:00",
                "14:00",
                day=DEC4,
                seats=high_speed_seats(400),
            ),
        ]
    )
    reply = await agent(tickets).run(AgentInput(today=TODAY, intent=one_way(train_numbers=["G1"])))
    assert reply.itinerary is not None and reply.itinerary.train_numbers == ("G1",)


async def test_date_beyond_the_sale_window_is_a_question_not_a_query() -> None:
    tickets = FakeTickets()
    intent = one_way(day=TODAY + dt.timedelta(days=40))
    reply = await agent(tickets).run(AgentInput(today=TODAY, intent=intent))
    assert reply.clarify_question is not None and "尚未开售" in reply.clarify_question
    assert tickets.asked == []
    assert states(reply) == ["PARSE_INTENT", "CLARIFY"]


async def test_only_states_of_the_table_appear_in_a_trace() -> None:
    tickets = FakeTickets()
    reply = await agent(tickets).run(AgentInput(today=TODAY, intent=one_way()))
    assert set(states(reply)) <= {s.value for s in State}


async def test_a_day_whose_presale_has_not_opened_is_said_and_never_swapped_for_another() -> None:
    # The window's last day at 08:00: its trains go on sale later today, at their own clock.
    last, before = dt.date(2026, 12, 15), dt.date(2026, 12, 14)
    not_yet = tuple(
        seat(c, p, 0, SeatStatus.NOT_ON_SALE)
        for c, p in ((SeatClass.FIRST, 420.0), (SeatClass.SECOND, 263.0))
    )
    opening = dt.datetime(2026, 12, 1, 10, 15, tzinfo=NOW.tzinfo)
    tickets = FakeTickets(
        [
            offer(
                "D1", WUHAN, ZHENGZHOU_EAST, "10:15", "14:20", day=last, seats=not_yet
            ).model_copy(update={"on_sale_at": opening}),
            offer(
                "D3", WUHAN, ZHENGZHOU_EAST, "16:40", "20:55", day=last, seats=not_yet
            ).model_copy(update={"on_sale_at": opening.replace(hour=16, minute=40)}),
            offer("D1", WUHAN, ZHENGZHOU_EAST, "10:15", "14:20", day=before),
        ]
    )
    intent = one_way(last, origin="武汉", destination="郑州")
    reply = await agent(tickets).run(AgentInput(today=TODAY, intent=intent))
    assert reply.itinerary is None and not reply.relaxed
    assert "12月15日的车票尚未开售（12月1日10:15起按车次陆续开售）" in reply.summary
    assert "12月14日" not in reply.summary


async def test_a_chat_turn_with_a_date_and_a_weekday_that_disagree_asks_which_and_keeps_the_day():
    # 2026-12-10 is a Thursday, not a Friday: the trip keeps its day until the traveller says.
    previous = one_way(DEC4)
    turn = AgentInput(today=TODAY, text="换到12月10号礼拜五", previous=previous)
    reply = await agent(FakeTickets({})).run(turn)
    assert reply.clarify_question == intent_texts.which_day(
        dt.date(2026, 12, 10), dt.date(2026, 12, 11)
    )
    assert reply.intent.date_start == DEC4


async def test_a_ride_home_whose_presale_has_not_opened_leaves_the_ride_out_planned() -> None:
    # Out on the 13th (on sale), home on the window's last day, whose trains open later
    # today: the ride out is planned and the reply says the ride home is not on sale yet,
    # where the whole trip was turned into a question.
    out, home = dt.date(2026, 12, 13), dt.date(2026, 12, 15)
    not_yet = (seat(SeatClass.SECOND, 263.0, 0, SeatStatus.NOT_ON_SALE),)
    tickets = FakeTickets(
        [
            offer("D1", WUHAN, ZHENGZHOU_EAST, "10:15", "14:20", day=out),
            offer("D2", ZHENGZHOU_EAST, WUHAN, "09:05", "13:10", day=home, seats=not_yet),
        ]
    )
    intent = one_way(out, origin="武汉", destination="郑州", return_trip=True, date_end=home)
    reply = await agent(tickets).run(AgentInput(today=TODAY, intent=intent))
    assert reply.itinerary is not None and reply.itinerary.train_numbers == ("D1",)
    assert not reply.relaxed and reply.clarify_question is None
    assert "返程日期12月15日的车票尚未开售，先为您规划去程。" in reply.warnings
