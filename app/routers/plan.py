"""Planning endpoints: one-shot `POST /v1/plan` and multi-turn `POST /v1/chat`."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Annotated

from fastapi import APIRouter, Depends, Request
from pydantic import BaseModel, ConfigDict, Field, field_validator

from app.access.context import Caller
from app.access.session_ids import new_session_id, storage_id
from app.agent import AgentInput, ChatReply, PlanReply
from app.agent import texts as agent_texts
from app.agent.model import StepObserver
from app.deps import ServicesDep
from app.errors import InvalidInput
from app.intent.model import TravelIntent
from app.observability.answers import count_answer
from app.queries import accepted_today
from app.services import Services
from app.sessions import SESSION_ID_PATTERN, SessionLost, SessionUnavailable
from rules.limits import MAX_TRIP_DAYS, MAX_VIA_STOPS

router = APIRouter(prefix="/v1", tags=["plan"])


def _iso_date(value: object) -> object:
    # Only ISO strings: lax parsing would read a number as a Unix timestamp.
    if value is None or isinstance(value, dt.date):
        return value
    if isinstance(value, str):
        return dt.date.fromisoformat(value)
    raise ValueError("expected YYYY-MM-DD")


def _not_blank(value: str | None) -> str | None:
    if value is not None and not value.strip():
        raise ValueError("text must not be blank")
    return value


class PlanIn(BaseModel):
    """`{text | intent, today?}`: free text, or an intent already understood."""

    model_config = ConfigDict(extra="forbid")

    text: str | None = Field(default=None, min_length=1, max_length=1000)
    intent: TravelIntent | None = None
    today: dt.date | None = None

    _today = field_validator("today", mode="before")(_iso_date)
    _text = field_validator("text")(_not_blank)

    @field_validator("intent")
    @classmethod
    def _trip_length(cls, intent: TravelIntent | None) -> TravelIntent | None:
        # Derived `days` must stay within the intent model's own bound, or the echo breaks it.
        if intent and intent.date_start and intent.date_end:
            if (intent.date_end - intent.date_start).days + 1 > MAX_TRIP_DAYS:
                raise ValueError(f"a trip lasts at most {MAX_TRIP_DAYS} days")
        return intent


class ChatIn(BaseModel):
    """`{session_id?, text}`: one turn of a conversation."""

    model_config = ConfigDict(extra="forbid")

    session_id: str | None = Field(default=None, pattern=SESSION_ID_PATTERN)
    text: str = Field(min_length=1, max_length=1000)
    today: dt.date | None = None

    _today = field_validator("today", mode="before")(_iso_date)
    _text = field_validator("text")(_not_blank)


def _check_intent(state: ServicesDep, intent: TravelIntent) -> None:
    """A structured intent is validated like the tickets query: 422 naming the field."""
    for name in ("origin", "destination"):
        value = getattr(intent, name)
        if value is not None and state.directory.by_name(value) is None:
            if value not in state.directory.cities():
                near = state.directory.suggest(value, limit=3)
                hint = f" (did you mean: {', '.join(near)})" if near else ""
                message = f"intent.{name}: unknown station {value}{hint}"
                raise InvalidInput(f"intent.{name}", message, suggestions=near)
    for index, stop in enumerate(intent.via):
        known = state.directory.by_name(stop.city) or stop.city in state.directory.cities()
        if not known:
            raise InvalidInput(f"intent.via.{index}", f"intent.via.{index}: unknown station")
    if intent.date_start and intent.date_end and intent.date_end < intent.date_start:
        raise InvalidInput("intent.date_end", "intent.date_end: before intent.date_start")
    if len(intent.via) > MAX_VIA_STOPS:
        raise InvalidInput("intent.via", f"intent.via: at most {MAX_VIA_STOPS} stops")
    nights = sum(stop.nights or 0 for stop in intent.via) + (intent.nights or 0)
    if nights > MAX_TRIP_DAYS:
        raise InvalidInput("intent.nights", f"intent.nights: at most {MAX_TRIP_DAYS} in all")


async def plan_turn(state: ServicesDep, body: PlanIn) -> AgentInput:
    """The validated turn of `/v1/plan` (and its stream): refused with a 4xx before any work."""
    if body.text is None and body.intent is None:
        raise InvalidInput("text", "text: either text or intent is required")
    if body.text is not None and body.intent is not None:
        raise InvalidInput("intent", "intent: send either text or intent, not both")
    if body.intent is not None:
        _check_intent(state, body.intent)
    server_today = state.runtime.today()
    today = accepted_today(body.today, server_today)
    return AgentInput(today=today, text=body.text, intent=body.intent, server_today=server_today)


PlanTurn = Annotated[AgentInput, Depends(plan_turn)]


@dataclass(frozen=True, slots=True)
class ChatTurn:
    """A chat turn ready to run: its session, the intent so far, whether it could not be read
    (Redis down, never seen here) or is gone (lost to a Redis restart, or expired)."""

    session_id: str
    input: AgentInput
    single_turn: bool
    lost: bool = False
    owner: str | None = None  # the API key name the session is bound to (keys on)


async def chat_turn(state: ServicesDep, request: Request, body: ChatIn) -> ChatTurn:
    """The session's intent so far, loaded before the run (memory when Redis is down)."""
    caller: Caller | None = request.scope.get("state", {}).get("caller")
    owner = caller.key_name if caller is not None else None
    session_id = body.session_id or new_session_id()
    server_today = state.runtime.today()
    today = accepted_today(body.today, server_today)
    previous = None
    single_turn = lost = False
    try:
        previous = (
            await state.sessions.load(storage_id(session_id, owner)) if body.session_id else None
        )
    except SessionUnavailable:
        single_turn = True
    except SessionLost:
        # Unknown, expired or another key's: a client cannot pick or borrow an id.
        lost = True
        session_id = new_session_id()
    turn = AgentInput(today=today, text=body.text, previous=previous, server_today=server_today)
    return ChatTurn(
        session_id=session_id, input=turn, single_turn=single_turn, lost=lost, owner=owner
    )


ChatTurnIn = Annotated[ChatTurn, Depends(chat_turn)]


async def run_agent(
    state: Services, turn: AgentInput, observer: StepObserver | None = None
) -> PlanReply:
    """The one planning path of every plan and chat endpoint, streamed or not."""
    reply: PlanReply = await state.agent.run(turn, observer)
    return reply


async def finish_chat(state: Services, turn: ChatTurn, reply: PlanReply) -> ChatReply:
    """Keep the intent for the next turn; say so when the session could not be read or is gone."""
    # A single turn must not be kept: written back later, it would replace the session
    # Redis still holds with one that lacks the earlier turns.
    keep = not turn.single_turn and reply.intent is not None
    if keep and reply.intent is not None and reply.intent.kind != "out_of_scope":
        stored = await state.sessions.save(storage_id(turn.session_id, turn.owner), reply.intent)
        if not stored:
            state.metrics.degradations.labels(kind="session_memory_only").inc()
    if turn.single_turn:
        state.metrics.degradations.labels(kind="session_single_turn").inc()
        reply.warnings.insert(0, agent_texts.SESSION_SINGLE_TURN)
    if turn.lost:
        state.metrics.degradations.labels(kind="session_lost").inc()
        reply.warnings.insert(0, agent_texts.SESSION_EXPIRED)
    return ChatReply(**dict(reply), session_id=turn.session_id)


@router.post("/plan", response_model=PlanReply)
async def plan_trip(state: ServicesDep, request: Request, turn: PlanTurn) -> PlanReply:
    """Plan a trip from a sentence (or an intent) using live ticket data."""
    reply = await run_agent(state, turn)
    observe_reply(state, request, "/v1/plan", reply)
    return reply


@router.post("/chat", response_model=ChatReply)
async def chat(state: ServicesDep, request: Request, turn: ChatTurnIn) -> ChatReply:
    """One turn of a planning conversation; the intent so far is kept for 30 minutes."""
    reply = await finish_chat(state, turn, await run_agent(state, turn.input))
    observe_reply(state, request, "/v1/chat", reply)
    return reply


def observe_reply(state: Services, request: Request, endpoint: str, reply: PlanReply) -> None:
    """Count the answer (by kind; by freshness when it bears tickets) and add its outcome to
    the request's log line."""
    kind = reply.kind
    count_answer(state.metrics, request, endpoint, kind, reply.freshness)
    request.state.log_extra = {
        "answer": kind,
        "freshness": reply.freshness if kind == "tickets" else None,
        "agent_mode": reply.agent.mode,
        "agent_steps": reply.agent.steps,
        "planned": reply.itinerary is not None,
    }
