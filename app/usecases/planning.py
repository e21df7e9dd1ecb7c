"""Planning: a sentence or an intent → a plan reply, and one chat turn with its session.

Called by `POST /v1/plan` and `/v1/chat` and their streams, the MCP `plan_trip` tool and
`python -m app plan`. Every input is validated here, once, before any work: exactly one of
text and intent; a structured intent's places, dates and limits; a client's `today` within a
day of the server's (it anchors relative dates only: the sale window is always the server's).
So every face refuses the same input with the same code and field.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from pydantic import BaseModel, ConfigDict, Field, field_validator

from app.access.session_ids import new_session_id, storage_id
from app.agent import AgentInput, ChatReply, PlanReply
from app.agent import texts as agent_texts
from app.agent.model import StepObserver
from app.agent.readback import plan_shown
from app.errors import InvalidInput, excerpt
from app.intent.model import TravelIntent
from app.intent.parser import ParseOutcome
from app.services import Services
from app.sessions import SESSION_ID_PATTERN, SessionLost, SessionRead, SessionUnavailable
from app.usecases.queries import accepted_today
from rules.limits import MAX_TRIP_DAYS, MAX_VIA_STOPS
from sources.stations import StationDirectory


def _iso_date(value: object) -> object:
    # Only ISO strings: lax parsing would read a number as a Unix timestamp.
    if value is None or isinstance(value, dt.date):
        return value
    if isinstance(value, str):
        try:
            return dt.date.fromisoformat(value)
        except ValueError:
            raise ValueError(f"expected YYYY-MM-DD, got {excerpt(value)}") from None
    raise ValueError("expected YYYY-MM-DD")


def _not_blank(value: str | None) -> str | None:
    if value is not None and not value.strip():
        raise ValueError("text must not be blank")
    return value


class PlanRequest(BaseModel):
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


class ChatRequest(BaseModel):
    """`{session_id?, text, today?}`: one turn of a conversation."""

    model_config = ConfigDict(extra="forbid")

    session_id: str | None = Field(default=None, pattern=SESSION_ID_PATTERN)
    text: str = Field(min_length=1, max_length=1000)
    today: dt.date | None = None

    _today = field_validator("today", mode="before")(_iso_date)
    _text = field_validator("text")(_not_blank)


def plan_input(services: Services, request: PlanRequest) -> AgentInput:
    """The validated turn of one plan: refused (`InvalidInput`, naming the field) before any
    work, whichever face it came through."""
    if request.text is None and request.intent is None:
        raise InvalidInput("text", "text: either text or intent is required")
    if request.text is not None and request.intent is not None:
        raise InvalidInput("intent", "intent: send either text or intent, not both")
    if request.intent is not None:
        check_intent(services.directory, request.intent)
    server_today = services.runtime.today()
    return AgentInput(
        today=accepted_today(request.today, server_today),
        text=request.text,
        intent=request.intent,
        server_today=server_today,
    )


def check_intent(directory: StationDirectory, intent: TravelIntent) -> None:
    """A structured intent is validated like a ticket query: `InvalidInput` naming the field."""
    for name in ("origin", "destination"):
        value = getattr(intent, name)
        if value is not None and directory.by_name(value) is None:
            if value not in directory.cities():
                near = directory.suggest(value, limit=3)
                hint = f" (did you mean: {', '.join(near)})" if near else ""
                message = f"intent.{name}: unknown station {excerpt(value)}{hint}"
                raise InvalidInput(f"intent.{name}", message, suggestions=near)
    for index, stop in enumerate(intent.via):
        known = directory.by_name(stop.city) or stop.city in directory.cities()
        if not known:
            raise InvalidInput(f"intent.via.{index}", f"intent.via.{index}: unknown station")
    if intent.date_start and intent.date_end and intent.date_end < intent.date_start:
        raise InvalidInput("intent.date_end", "intent.date_end: before intent.date_start")
    if len(intent.via) > MAX_VIA_STOPS:
        raise InvalidInput("intent.via", f"intent.via: at most {MAX_VIA_STOPS} stops")
    nights = sum(stop.nights or 0 for stop in intent.via) + (intent.nights or 0)
    if nights > MAX_TRIP_DAYS:
        raise InvalidInput("intent.nights", f"intent.nights: at most {MAX_TRIP_DAYS} in all")


async def plan(
    services: Services, turn: AgentInput, observer: StepObserver | None = None
) -> PlanReply:
    """The one planning path of every face, streamed (`observer` hears each step) or not."""
    reply: PlanReply = await services.agent.run(turn, observer)
    return reply


@dataclass(frozen=True, slots=True)
class ChatTurn:
    """A chat turn ready to run: its session, the intent so far, whether it could not be read
    (Redis down, never seen here) or is gone (lost to a Redis restart, or expired)."""

    session_id: str
    input: AgentInput
    single_turn: bool
    lost: bool = False
    owner: str | None = None  # the API key name the session is bound to (keys on)
    read: SessionRead = SessionRead.AUTHORITY  # this replica's copy (restored, or Redis down)


async def chat_input(services: Services, request: ChatRequest, owner: str | None) -> ChatTurn:
    """The session's intent so far, loaded before the run (memory when Redis is down).

    `owner` is the caller's API key name: a session is bound to the key that made it."""
    session_id = request.session_id or new_session_id()
    server_today = services.runtime.today()
    today = accepted_today(request.today, server_today)
    previous = None
    single_turn = lost = False
    read = SessionRead.AUTHORITY
    try:
        if request.session_id:
            previous, read = await services.sessions.load_checked(storage_id(session_id, owner))
    except SessionUnavailable:
        single_turn = True
    except SessionLost:
        # Unknown, expired or another key's: a client cannot pick or borrow an id.
        lost = True
        session_id = new_session_id()
    turn = AgentInput(today=today, text=request.text, previous=previous, server_today=server_today)
    return ChatTurn(
        session_id=session_id,
        input=turn,
        single_turn=single_turn,
        lost=lost,
        owner=owner,
        read=read,
    )


async def chat(
    services: Services, turn: ChatTurn, observer: StepObserver | None = None
) -> ChatReply:
    """Plan the turn, keep its intent for the next one; say so when the session could not be
    read or is gone."""
    reply = await plan(services, turn.input, observer)
    if reply.intent is not None and reply.itinerary is not None:
        # Kept with the trip: the next turn's 太早了 / 早一点 is said against this plan.
        reply.intent = reply.intent.model_copy(update={"shown": plan_shown(reply.itinerary)})
    # A single turn must not be kept: written back later, it would replace the session
    # Redis still holds with one that lacks the earlier turns.
    keep = not turn.single_turn and reply.intent is not None
    if keep and reply.intent is not None and reply.intent.kind != "out_of_scope":
        stored = await services.sessions.save(storage_id(turn.session_id, turn.owner), reply.intent)
        if not stored:
            # Kept in memory only, or a newer version won: never lost silently.
            services.metrics.degradations.labels(kind="session_memory_only").inc()
            reply.warnings.insert(0, agent_texts.SESSION_NOT_SAVED)
    if turn.read is SessionRead.RESTORED:
        services.metrics.degradations.labels(kind="session_restored").inc()
        reply.warnings.insert(0, agent_texts.SESSION_RESTORED)
    elif turn.read is SessionRead.COPY:
        # Another replica may have served the turns since: the reply may rest on an older one.
        services.metrics.degradations.labels(kind="session_from_copy").inc()
        reply.warnings.insert(0, agent_texts.SESSION_FROM_COPY)
    if turn.single_turn:
        services.metrics.degradations.labels(kind="session_single_turn").inc()
        reply.warnings.insert(0, agent_texts.SESSION_SINGLE_TURN)
    if turn.lost:
        services.metrics.degradations.labels(kind="session_lost").inc()
        reply.warnings.insert(0, agent_texts.SESSION_EXPIRED)
    return ChatReply(**dict(reply), session_id=turn.session_id)


async def understand(services: Services, text: str, today: dt.date | None) -> ParseOutcome:
    """`POST /v1/intent/parse`: the intent of one sentence (LLM when configured, else rules)."""
    return await services.intent_parser.parse(text, accepted_today(today, services.runtime.today()))
