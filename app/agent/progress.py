"""What a streamed run says after each step: the step itself plus one Chinese line from templates.

The line reads the run's state at that moment (trains found, sources that answered, plans
built), so a frontend can show progress without knowing the agent's internals.
"""

from __future__ import annotations

from pydantic import BaseModel

from app.agent import texts
from app.agent.model import Run, TraceStep
from app.agent.states import State

PARSED = "已理解：{route}，{date}出发"
ASKING = "需要补充信息"
OUT_OF_SCOPE = "这不是行程规划请求"
QUERIED = "查询到 {trains} 趟列车，{sources} 个来源"
QUERIED_DOWN = "，{down} 个来源不可用"
OPTIONS = "找到 {n} 个可行方案"
NO_OPTIONS = "没有符合要求的方案，尝试调整"
PLANNED = "行程已生成：{trains}"
PLAN_REJECTED = "方案未通过校验，尝试调整"
RELAXING = "调整条件：{stage}"
STOPPED = "无法继续调整，整理说明"
TOOL_STEP = "智能助手调用工具：{detail}"
STEP_FAILED = "步骤出错，转入兜底处理"
STAGES = {
    "transfer": "尝试中转",
    "hubs": "尝试经枢纽中转",
    "more_hubs": "尝试经其他枢纽中转",
    "days": "尝试前后一天",
    "relax": "放宽车型和席别",
    "days_relax": "前后一天并放宽车型和席别",
}


class ProgressEvent(BaseModel):
    """One `progress` event of `/v1/plan/stream`: a finished agent step."""

    step: int
    state: str
    next: str
    elapsed_ms: float
    ms: float
    detail: str
    error: str | None = None
    message: str


def progress_event(run: Run, step: TraceStep, elapsed_ms: float) -> ProgressEvent:
    """The event for `step`, just recorded in `run`, `elapsed_ms` after the stream began."""
    return ProgressEvent(
        step=step.step,
        state=step.state,
        next=step.next,
        elapsed_ms=round(elapsed_ms, 1),
        ms=step.ms,
        detail=step.detail,
        error=step.error,
        message=describe(run, step),
    )


def describe(run: Run, step: TraceStep) -> str:
    """One Chinese line saying what this step found."""
    if step.error is not None:
        return STEP_FAILED
    if step.state not in State.__members__:  # a model request in tool mode (LLM_TOOLS)
        return TOOL_STEP.format(detail=step.detail or "—")
    if step.state == State.PARSE_INTENT:
        if step.next == State.CLARIFY:
            return ASKING
        if step.next == State.DONE:
            return OUT_OF_SCOPE
        if run.request is None:
            return step.detail
        request = run.request
        return PARSED.format(
            route=texts.route_label(request.origin, request.destination),
            date=texts.day_label(request.depart_date),
        )
    if step.state == State.QUERY_TICKETS:
        return _queried(run)
    if step.state == State.EVALUATE_OPTIONS:
        if step.next == State.GENERATE_PLAN and run.plan is not None:
            return OPTIONS.format(n=len(run.plan.itineraries))
        return NO_OPTIONS
    if step.state == State.GENERATE_PLAN:
        if step.next == State.DONE and run.itineraries:
            return PLANNED.format(trains="→".join(run.itineraries[0].train_numbers))
        return PLAN_REJECTED
    if step.state == State.FALLBACK:
        if step.next == State.DONE:
            return STOPPED
        return RELAXING.format(stage=STAGES.get(step.detail, step.detail))
    if step.state == State.CLARIFY:
        return run.clarify_question or ASKING
    return step.detail


def _queried(run: Run) -> str:
    trains = {offer.train_number for result in run.results.values() for offer in result.offers}
    answered: set[str] = set()
    down: set[str] = set()
    for result in run.results.values():
        for report in result.sources:
            (down if report.freshness == "unavailable" else answered).add(report.name)
    text = QUERIED.format(trains=len(trains), sources=len(answered))
    if down - answered:
        text += QUERIED_DOWN.format(down=len(down - answered))
    return text
