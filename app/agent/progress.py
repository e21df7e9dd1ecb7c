"""What a streamed run says after each step: the step itself plus one Chinese line from templates.

The line reads the run's state at that moment (trains found, sources that answered, plans
built), so a frontend can show progress without knowing the agent's internals.
"""

from __future__ import annotations

from pydantic import BaseModel

from app.agent import texts
from app.agent.model import Run, TraceStep
from app.agent.states import State


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
        return texts.PROGRESS_STEP_FAILED
    if step.state == State.LLM_TOOLS:
        return texts.PROGRESS_TOOL_STEP.format(detail=step.detail or "—")
    if step.state == State.PARSE_INTENT:
        if step.next == State.CLARIFY:
            return texts.PROGRESS_ASKING
        if step.next == State.DONE:
            return texts.PROGRESS_OUT_OF_SCOPE
        if run.request is None:
            return step.detail
        request = run.request
        return texts.PROGRESS_PARSED.format(
            route=texts.route_label(request.origin, request.destination),
            date=texts.day_label(request.depart_date),
        )
    if step.state == State.QUERY_TICKETS:
        return _queried(run)
    if step.state == State.EVALUATE_OPTIONS:
        if step.next == State.GENERATE_PLAN and run.plan is not None:
            return texts.PROGRESS_OPTIONS.format(n=len(run.plan.itineraries))
        return texts.PROGRESS_NO_OPTIONS
    if step.state == State.GENERATE_PLAN:
        if step.next == State.DONE and run.itineraries:
            return texts.PROGRESS_PLANNED.format(trains="→".join(run.itineraries[0].train_numbers))
        return texts.PROGRESS_PLAN_REJECTED
    if step.state == State.FALLBACK:
        if step.next == State.DONE:
            return texts.PROGRESS_STOPPED
        return texts.PROGRESS_RELAXING.format(
            stage=texts.PROGRESS_STAGES.get(step.detail, step.detail)
        )
    if step.state == State.CLARIFY:
        return run.clarify_question or texts.PROGRESS_ASKING
    return step.detail


def _queried(run: Run) -> str:
    trains = {offer.train_number for result in run.results.values() for offer in result.offers}
    answered: set[str] = set()
    down: set[str] = set()
    for result in run.results.values():
        for report in result.sources:
            (down if report.freshness == "unavailable" else answered).add(report.name)
    text = texts.PROGRESS_QUERIED.format(trains=len(trains), sources=len(answered))
    if down - answered:
        text += texts.PROGRESS_QUERIED_DOWN.format(down=len(down - answered))
    return text
