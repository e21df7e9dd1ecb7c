"""Planning endpoints: one-shot `POST /v1/plan` and multi-turn `POST /v1/chat`.

The dependencies validate the turn through the planning use case before the handler (or a
stream) starts, so bad input is a 4xx JSON error on every planning route alike.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Request

from app.access.context import Caller
from app.agent import AgentInput, ChatReply, PlanReply
from app.http.contract import INVALID, OVERLOADED, errors, ok
from app.http.deps import ServicesDep
from app.observability.answers import count_answer
from app.policy import route_policy
from app.services import Services
from app.usecases import planning
from app.usecases.planning import ChatRequest, ChatTurn, PlanRequest

router = APIRouter(prefix="/v1", tags=["plan"])


async def plan_turn(services: ServicesDep, body: PlanRequest) -> AgentInput:
    """The validated turn of `/v1/plan` (and its stream): refused with a 4xx before any work."""
    return planning.plan_input(services, body)


PlanTurn = Annotated[AgentInput, Depends(plan_turn)]


async def chat_turn(services: ServicesDep, request: Request, body: ChatRequest) -> ChatTurn:
    """The session's intent so far, bound to the caller's API key when one was shown."""
    caller: Caller | None = request.scope.get("state", {}).get("caller")
    return await planning.chat_input(services, body, caller.key_name if caller else None)


ChatTurnIn = Annotated[ChatTurn, Depends(chat_turn)]


@router.post(
    "/plan",
    response_model=PlanReply,
    operation_id="planTrip",
    responses={
        200: ok("The plan (or a clarifying question), with its freshness."),
        **errors(INVALID, OVERLOADED),
    },
)
@route_policy(answers=True, traced=True)
async def plan_trip(services: ServicesDep, request: Request, turn: PlanTurn) -> PlanReply:
    """Plan a trip from a sentence (or an intent) using live ticket data."""
    reply = await planning.plan(services, turn)
    observe_reply(services, request, reply)
    return reply


@router.post(
    "/chat",
    response_model=ChatReply,
    operation_id="chat",
    responses={
        200: ok("As /v1/plan, with the session to continue."),
        **errors(INVALID, OVERLOADED),
    },
)
@route_policy(answers=True, traced=True)
async def chat(services: ServicesDep, request: Request, turn: ChatTurnIn) -> ChatReply:
    """One turn of a planning conversation; the intent so far is kept for 30 minutes."""
    reply = await planning.chat(services, turn)
    observe_reply(services, request, reply)
    return reply


def observe_reply(services: Services, request: Request, reply: PlanReply) -> None:
    """Count the answer (by kind; by freshness when it bears tickets) and add its outcome to
    the request's log line."""
    kind = reply.kind
    count_answer(services.metrics, request, kind, reply.freshness)
    request.state.log_extra = {
        "answer": kind,
        "freshness": reply.freshness if kind == "tickets" else None,
        "agent_mode": reply.agent.mode,
        "agent_steps": reply.agent.steps,
        "planned": reply.itinerary is not None,
    }
