"""Streamed planning: `POST /v1/plan/stream` and `POST /v1/chat/stream` (Server-Sent Events).

    event: progress   one per agent step, as it is recorded (`ProgressEvent`)
    event: plan       the reply, exactly as `/v1/plan` (or `/v1/chat`) returns it
    event: done       `{}`: nothing follows

Validation runs in the same dependencies as the plain endpoints, before the stream opens,
so bad input is still a 4xx JSON error. The run itself is `plan.run_agent`, the same path
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
from app.deps import ServicesDep
from app.errors import Overloaded
from app.routers.plan import ChatTurnIn, PlanTurn, finish_chat, observe_reply, run_agent
from app.services import Services

log = logging.getLogger("railtrip.stream")
router = APIRouter(prefix="/v1", tags=["plan"])

RUN_FAILED = "规划服务暂时出错，请稍后再试。"

_STREAM_DOC: dict[int | str, dict[str, Any]] = {
    200: {
        "description": "`progress` events (one per agent step), then `plan` (the `/v1/plan` "
        "body), then `done`.",
        "content": {"text/event-stream": {}},
    }
}


@router.post("/plan/stream", response_class=EventSourceResponse, responses=_STREAM_DOC)
async def plan_stream(
    state: ServicesDep, request: Request, turn: PlanTurn
) -> AsyncIterator[ServerSentEvent]:
    """`/v1/plan`, streamed: each agent step as it happens, then the plan."""

    async def reply(observer: StepObserver) -> PlanReply:
        return await run_agent(state, turn, observer)

    async for event in _events(state, request, "/v1/plan/stream", reply):
        yield event


@router.post("/chat/stream", response_class=EventSourceResponse, responses=_STREAM_DOC)
async def chat_stream(
    state: ServicesDep, request: Request, turn: ChatTurnIn
) -> AsyncIterator[ServerSentEvent]:
    """`/v1/chat`, streamed: each agent step as it happens, then the reply with `session_id`."""

    async def reply(observer: StepObserver) -> PlanReply:
        return await finish_chat(state, turn, await run_agent(state, turn.input, observer))

    async for event in _events(state, request, "/v1/chat/stream", reply):
        yield event


async def _events(
    state: Services,
    request: Request,
    endpoint: str,
    reply: Callable[[StepObserver], Coroutine[Any, Any, PlanReply]],
) -> AsyncIterator[ServerSentEvent]:
    """Run `reply` in a task, yield its steps as they come, then its result and `done`."""
    started = state.runtime.monotonic()
    steps: asyncio.Queue[ProgressEvent | None] = asyncio.Queue()

    def observe(run: Run, step: TraceStep) -> None:
        elapsed_ms = (state.runtime.monotonic() - started) * 1000
        steps.put_nowait(progress_event(run, step, elapsed_ms))

    task = asyncio.create_task(reply(observe))
    task.add_done_callback(lambda _: steps.put_nowait(None))
    try:
        while (event := await steps.get()) is not None:
            yield ServerSentEvent(event="progress", data=event)
        error = None if task.cancelled() else task.exception()
        if isinstance(error, Overloaded):
            # Our own queue refused a leg the plan needed: the same refusal as `/v1/plan`'s 503.
            state.metrics.rejections.labels(reason="overloaded").inc()
            yield ServerSentEvent(event="error", data=error.body())
        elif task.cancelled() or error is not None:
            # The agent turns its own errors into answers; this is a bug, not input: say so.
            log.error("streamed run failed", exc_info=error)
            yield ServerSentEvent(event="error", data={"code": "internal", "message": RUN_FAILED})
        else:
            result = task.result()
            observe_reply(state, request, endpoint, result)
            yield ServerSentEvent(event="plan", data=result)
        yield ServerSentEvent(event="done", data={})
    finally:
        # Reached early when the client disconnected: stop the run and its upstream queries.
        task.cancel()
