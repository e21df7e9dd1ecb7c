"""Streamed planning: `POST /v1/plan/stream` and `POST /v1/chat/stream` (Server-Sent Events).

    event: progress   one per agent step, as it is recorded (`ProgressEvent`)
    event: plan       the reply, exactly as `/v1/plan` (or `/v1/chat`) returns it
    event: done       `{}`: nothing follows

Validation runs in the same dependencies as the plain endpoints, before the stream opens,
so bad input is still a 4xx JSON error. The run itself is the planning use case, the same path
(bound, deadline) as the plain endpoints, in a task this stream owns: a client that goes
away cancels the task, and with it the upstream queries only it was waiting for.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Callable, Coroutine
from typing import Any

from fastapi import APIRouter, Request
from fastapi.sse import EventSourceResponse, ServerSentEvent

from app.agent import PlanReply
from app.agent.model import Run, StepObserver, TraceStep
from app.agent.progress import ProgressEvent, progress_event
from app.errors import Overloaded
from app.http.contract import INVALID, errors, sse_events
from app.http.deps import ServicesDep
from app.http.routers.plan import ChatTurnIn, PlanTurn, observe_reply
from app.http.texts import RUN_FAILED
from app.policy import route_policy
from app.services import Services
from app.usecases import planning

log = logging.getLogger("railtrip.stream")
router = APIRouter(prefix="/v1", tags=["plan"])


def _stream_doc(reply: str) -> dict[int | str, dict[str, Any]]:
    """The 200 of a planning stream: its event types, each with the schema of its `data`."""
    return {
        200: {
            "description": "Server-Sent Events: `progress` (one per agent step, "
            f"`ProgressEvent`), then `plan` (the reply, `{reply}`, exactly as the plain "
            "endpoint answers), then `done` (`{}`). A run that fails ends with `error` "
            "(`{code, message}`; `overloaded` with `retry_after_s`) before `done`. "
            "Comments (`: ping`) keep the connection alive every 15 s.",
            "content": {"text/event-stream": {"itemSchema": sse_events(reply)}},
        },
        **errors(INVALID),
    }


@router.post(
    "/plan/stream",
    response_class=EventSourceResponse,
    operation_id="planTripStream",
    responses=_stream_doc("PlanReply"),
)
@route_policy(answers=True, traced=True, streams=True)
async def plan_stream(
    services: ServicesDep, request: Request, turn: PlanTurn
) -> AsyncIterator[ServerSentEvent]:
    """`/v1/plan`, streamed: each agent step as it happens, then the plan."""

    async def reply(observer: StepObserver) -> PlanReply:
        return await planning.plan(services, turn, observer)

    async for event in _events(services, request, reply):
        yield event


@router.post(
    "/chat/stream",
    response_class=EventSourceResponse,
    operation_id="chatStream",
    responses=_stream_doc("ChatReply"),
)
@route_policy(answers=True, traced=True, streams=True)
async def chat_stream(
    services: ServicesDep, request: Request, turn: ChatTurnIn
) -> AsyncIterator[ServerSentEvent]:
    """`/v1/chat`, streamed: each agent step as it happens, then the reply with `session_id`."""

    async def reply(observer: StepObserver) -> PlanReply:
        return await planning.chat(services, turn, observer)

    async for event in _events(services, request, reply):
        yield event


async def _events(
    services: Services,
    request: Request,
    reply: Callable[[StepObserver], Coroutine[Any, Any, PlanReply]],
) -> AsyncIterator[ServerSentEvent]:
    """Run `reply` in a task, yield its steps as they come, then its result and `done`."""
    started = services.runtime.monotonic()
    steps: asyncio.Queue[ProgressEvent | None] = asyncio.Queue()

    def observe(run: Run, step: TraceStep) -> None:
        elapsed_ms = (services.runtime.monotonic() - started) * 1000
        steps.put_nowait(progress_event(run, step, elapsed_ms))

    task = asyncio.create_task(reply(observe))
    task.add_done_callback(lambda _: steps.put_nowait(None))
    try:
        while (event := await steps.get()) is not None:
            yield ServerSentEvent(event="progress", data=event)
        error = None if task.cancelled() else task.exception()
        if isinstance(error, Overloaded):
            # Our own queue refused a leg the plan needed: the same refusal as `/v1/plan`'s 503.
            services.metrics.rejections.labels(reason="overloaded").inc()
            yield ServerSentEvent(event="error", data=error.body())
        elif task.cancelled() or error is not None:
            # The agent turns its own errors into answers; this is a bug, not input: say so.
            log.error("streamed run failed", exc_info=error)
            yield ServerSentEvent(event="error", data={"code": "internal", "message": RUN_FAILED})
        else:
            result = task.result()
            observe_reply(services, request, result)
            yield ServerSentEvent(event="plan", data=result)
        yield ServerSentEvent(event="done", data={})
    finally:
        # Reached early when the client disconnected: stop the run and its upstream queries.
        task.cancel()
