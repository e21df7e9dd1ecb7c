"""The agent's step observer and the progress lines a stream sends (no HTTP, no sleep)."""

from __future__ import annotations

from app.agent import AgentInput
from app.agent.model import Run, TraceStep
from app.agent.progress import ProgressEvent, progress_event
from tests.app.agent.harness import FakeTickets
from tests.app.agent.test_machine import DEC4, DEC5, SOLD_OUT, TODAY, agent, one_way
from tests.rules.factory import BEIJING_SOUTH, HONGQIAO, offer


async def test_observer_hears_every_step_as_recorded_with_what_the_run_knew_then() -> None:
    tickets = FakeTickets(
        [
            offer("G1", BEIJING_SOUTH, HONGQIAO, "09:00", "13:30", day=DEC4, seats=SOLD_OUT),
            offer("G1", BEIJING_SOUTH, HONGQIAO, "09:00", "13:30", day=DEC5),
            offer("G3", BEIJING_SOUTH, HONGQIAO, "10:00", "14:30", day=DEC5),
        ]
    )
    heard: list[ProgressEvent] = []
    traced_so_far: list[int] = []

    def observe(run: Run, step: TraceStep) -> None:
        traced_so_far.append(len(run.trace))
        heard.append(progress_event(run, step, elapsed_ms=0.0))

    reply = await agent(tickets).run(AgentInput(today=TODAY, intent=one_way()), observe)
    assert [(e.step, e.state, e.next, e.detail) for e in heard] == [
        (t.step, t.state, t.next, t.detail) for t in reply.agent.trace
    ]
    assert traced_so_far == list(range(1, len(heard) + 1)), "told as each step is recorded"
    messages = {(e.state, e.detail): e.message for e in heard}
    assert messages[("FALLBACK", "days")] == "调整条件：尝试前后一天"
    queried = [e.message for e in heard if e.state == "QUERY_TICKETS"]
    assert queried[0] == "查询到 1 趟列车，1 个来源", "the sold-out day: one train, one source"
    assert queried[-1] == "查询到 2 趟列车，1 个来源", "so far: G1 and G3 of the next day"
    assert heard[-1].message == "行程已生成：" + "→".join(reply.itinerary.train_numbers)  # type: ignore[union-attr]


async def test_nothing_found_says_so_then_stops() -> None:
    heard: list[ProgressEvent] = []
    await agent(FakeTickets()).run(
        AgentInput(today=TODAY, intent=one_way()),
        lambda run, step: heard.append(progress_event(run, step, 0.0)),
    )
    assert (
        heard[2].state == "EVALUATE_OPTIONS" and heard[2].message == "没有符合要求的方案，尝试调整"
    )
    assert heard[-1].state == "FALLBACK" and heard[-1].message == "无法继续调整，整理说明"
