"""What the agent answers (`POST /v1/plan` body) and the mutable state of one run."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from pydantic import BaseModel, Field

from app.agent.fetch import with_transfer_halves
from app.agent.readback import Relaxed
from app.errors import Overloaded
from app.intent.model import TravelIntent
from app.observability.metrics import AnswerKind
from app.tickets.model import SourceReport, TicketResult
from rules import Failure, Itinerary, LegKey, LegOffers, PlanResult, TripRequest
from sources.models import Freshness

AgentMode = Literal["state_machine", "llm_tools"]


class TraceStep(BaseModel):
    """One step of a run: the state that ran, where it went, how long it took, and why."""

    step: int
    state: str
    next: str
    ms: float
    detail: str = ""
    error: str | None = None


class AgentInfo(BaseModel):
    mode: AgentMode
    steps: int
    trace: list[TraceStep] = Field(default_factory=list)


class PlanReply(BaseModel):
    """The answer of `/v1/plan` (and, with `session_id`, of `/v1/chat`)."""

    intent: TravelIntent | None = None
    itinerary: Itinerary | None = None
    alternatives: list[Itinerary] = Field(default_factory=list)
    summary: str
    freshness: Freshness = "unavailable"
    as_of: dt.datetime | None = None  # the oldest ticket answer the reply rests on
    sources: list[SourceReport] = Field(default_factory=list)
    agent: AgentInfo
    warnings: list[str] = Field(default_factory=list)
    clarify_question: str | None = None
    parser: Literal["llm", "rules"] = "rules"  # who understood the text (rules: no model)
    understood: str = Field(
        default="", description="one Chinese line: what was understood from the request"
    )
    relaxed: list[Relaxed] = Field(
        default_factory=list,
        description="stated constraints the plan could not honour; empty when all were",
    )

    @property
    def kind(self) -> AnswerKind:
        """`tickets` when sources were asked, else `clarification` or `refusal` (what
        `railtrip_answers_total` counts it as)."""
        if self.sources:
            return "tickets"
        if self.clarify_question:
            return "clarification"
        return "refusal"


class ChatReply(PlanReply):
    session_id: str


@dataclass(frozen=True, slots=True)
class AgentInput:
    """One turn: free text or a structured intent, plus the conversation so far (chat)."""

    today: dt.date
    text: str | None = None
    intent: TravelIntent | None = None
    previous: TravelIntent | None = None
    server_today: dt.date | None = None  # the sale window's today, whatever the client said

    @property
    def sale_today(self) -> dt.date:
        """The first day of the sale window: the server's date when known."""
        return self.server_today or self.today


StepObserver = Callable[["Run", TraceStep], None]
"""Called with the run and each step the moment it is recorded; must not block or raise."""


@dataclass(slots=True)
class Run:
    """Mutable state of one agent run; dependencies live on the agent, not here."""

    input: AgentInput
    mode: AgentMode = "state_machine"
    intent: TravelIntent | None = None
    request: TripRequest | None = None
    original: TripRequest | None = None
    candidates: list[TripRequest] = field(default_factory=list)
    flexible: bool = False  # the candidates are the days of "哪天都行": the stated order picks
    instead_of: str | None = None  # the destination given up for one said to do instead
    instead_near: str | None = None  # the place without a station both are near, if that
    first_failures: tuple[Failure, ...] = ()
    trains_checked: bool = False
    named_train_no: str = ""  # the named train's run id, from its stop list (renumbered trains)
    absent_trains: list[str] = field(default_factory=list)
    absent_reasons: dict[str, str] = field(default_factory=dict)  # why, when more is known
    wanted_legs: list[LegKey] = field(default_factory=list)
    results: dict[LegKey, TicketResult] = field(default_factory=dict)
    plan: PlanResult | None = None
    itineraries: list[Itinerary] = field(default_factory=list)
    summary: str = ""
    clarify_question: str | None = None
    warnings: list[str] = field(default_factory=list)
    tried: list[str] = field(default_factory=list)
    hubs_fetched: bool = False
    day_shift: int = 0
    relaxed: bool = False
    last_error: str | None = None
    trace: list[TraceStep] = field(default_factory=list)
    detail: str = ""
    llm_text: str | None = None
    tool_messages: list[dict[str, Any]] = field(default_factory=list)  # tool mode's history
    decisions: int = 0  # decisions so far, the step being run included (the bound counts them)
    step_error: str | None = None  # a failure the step recovered from, shown in its trace
    hub_segments: tuple[int, ...] = ()  # pending phase 2 of the hub search
    hub_probe: bool = True  # phase 2 asks the probed hubs; False: topology hubs, asked already
    hubs_tried: tuple[str, ...] = ()  # the hubs named in the reply
    parsed_by: str = "rules"  # which parser produced the intent: "llm" | "rules"
    refused: list[Overloaded] = field(default_factory=list)  # legs our own queue refused
    queries: int = 0  # ticket queries made so far (bounded by the upstream budget)
    observer: StepObserver | None = None  # told of each step as it is recorded (streaming)
    relaxed_items: list[Relaxed] = field(default_factory=list)
    official_segments: tuple[int, ...] = ()  # pending: ask the sources' own transfer search
    transfer_legs: dict[LegKey, TicketResult] = field(default_factory=dict)  # its halves
    middles_tried: tuple[str, ...] = ()  # the middle cities its plans went through
    improvement: Any = None  # pending: the next stage that could beat the plan (`improve`)
    improve_stopped: bool = False  # out of time while improving: plan with what was fetched
    improve_queries: int = 0  # queries spent improving a plan (`MAX_IMPROVE_QUERIES`)
    wanted_asks: list[tuple[LegKey, str, str]] = field(default_factory=list)  # by stations
    asked_pairs: dict[LegKey, set[tuple[str, str]]] = field(default_factory=dict)
    # Answers this run already had, by what was asked (the station probes of `which_station`):
    # the plan's own leg among them is not asked again.
    answered: dict[tuple[object, ...], TicketResult] = field(default_factory=dict)

    def warn(self, text: str) -> None:
        """Add a warning once."""
        if text and text not in self.warnings:
            self.warnings.append(text)

    def answers(self) -> dict[LegKey, TicketResult]:
        """Every leg answer of the run: the leg queries, and the halves of the official
        transfer plans (kept apart, so a half never stands in for the full leg query)."""
        return with_transfer_halves(self.results, self.transfer_legs)

    def book(self) -> dict[LegKey, LegOffers]:
        """The fetched offers in the shape the rule engine reads."""
        return {
            key: LegOffers(key, result.offers, result.freshness)
            for key, result in self.answers().items()
        }
