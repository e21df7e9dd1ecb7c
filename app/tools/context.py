"""What a tool reaches the data through: the services the HTTP API uses, never a second path.

`ToolContext.for_app(state)` serves MCP (every tool); the agent's tool mode subclasses it so
that what a tool fetches is also kept in the run for the state machine (app/agent/tools.py).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from typing import TYPE_CHECKING

from app.agent.fetch import (
    TicketSearch,
    TransferSearch,
    fetch_legs,
    fetch_transfers,
    transfer_leg_results,
)
from app.errors import ServiceError
from app.observability.metrics import Metrics
from app.queries import ResolvedQuery, resolve_query
from app.tickets.model import TicketResult
from rules import LegKey, PlanResult
from rules.hubs import Topology
from sources.base import Clock
from sources.models import SHANGHAI
from sources.stations import StationDirectory

if TYPE_CHECKING:
    from app.services import Services


class ToolFailure(Exception):
    """A call the caller can correct (bad input, unknown station, date off sale): a tool error,
    not a protocol error, so a model reads `message` and tries again."""

    def __init__(
        self, code: str, message: str, field: str | None = None, **details: object
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.field = field
        self.details = details

    @classmethod
    def from_service(cls, exc: ServiceError) -> ToolFailure:
        """The API's error body as a tool error (`suggestions` for an unknown station …)."""
        details = dict(exc.details)
        field = details.pop("field", None)
        return cls(exc.code, exc.message, field if isinstance(field, str) else None, **details)

    def body(self) -> dict[str, object]:
        body: dict[str, object] = {"code": self.code, "message": self.message}
        if self.field:
            body["field"] = self.field
        return body | self.details


class ToolContext:
    """Services, clock and the caller's today, as one tool call sees them."""

    surface = "mcp"

    def __init__(
        self,
        *,
        tickets: TicketSearch,
        directory: StationDirectory,
        metrics: Metrics,
        today: dt.date,
        clock: Clock,
        state: Services | None = None,
        transfer_search: TransferSearch | None = None,
        topology: Topology | None = None,
    ) -> None:
        self.tickets = tickets
        self.transfer_search = transfer_search
        self.topology = topology
        self.directory = directory
        self.metrics = metrics
        self.today = today
        self.clock = clock
        self._state = state

    @classmethod
    def for_app(cls, state: Services) -> ToolContext:
        """The context of one MCP call on a running app."""
        return cls(
            tickets=state.tickets,
            directory=state.directory,
            metrics=state.metrics,
            today=state.runtime.today(),
            clock=state.runtime.clock,
            state=state,
            transfer_search=state.transfer_search,
            topology=state.agent.topology,
        )

    @property
    def app(self) -> Services:
        """The running app, for the tools that use its agent, precheck or stop lists."""
        if self._state is None:
            raise ToolFailure("unavailable", "this tool is not available in this mode")
        return self._state

    def now(self) -> dt.datetime:
        """The rule engine's now: the clock, but never before the caller's today began."""
        midnight = dt.datetime.combine(self.today, dt.time(0, 0), tzinfo=SHANGHAI)
        return max(self.clock(), midnight)

    def resolve(self, origin: str, destination: str, date: str) -> ResolvedQuery:
        """Stations and date validated exactly as `GET /v1/tickets` validates them."""
        return resolve_query(
            self.directory,
            origin,
            destination,
            date,
            today=self.today,
        )

    async def search(self, resolved: ResolvedQuery) -> TicketResult:
        """One query through the query service (caches, single-flight, honest freshness)."""
        return await self.tickets.search(
            resolved.query, resolved.origin_station, resolved.destination_station
        )

    async def legs(self, keys: Iterable[LegKey]) -> dict[LegKey, TicketResult]:
        """City-to-city legs, concurrently, as the agent fetches them."""
        return await fetch_legs(self.tickets, self.directory, keys)

    async def official_transfers(self, key: LegKey) -> dict[LegKey, TicketResult]:
        """The halves of the sources' own transfer plans for `key` (one page), as leg answers;
        empty when no source has the capability."""
        if self.transfer_search is None or not self.transfer_search.available:
            return {}
        answers = await fetch_transfers(self.transfer_search, self.directory, [key])
        return transfer_leg_results(answers.values(), self.directory)

    def plan_run(self) -> tuple[PlanResult, list[TicketResult]]:
        """The rule engine on the current run's trip (tool mode only)."""
        raise ToolFailure("unavailable", "build_itinerary belongs to the agent's tool mode")

    def answered(self, tool: str, freshness: str) -> None:
        """Count a ticket-bearing MCP answer in `railtrip_responses_total{endpoint="mcp:…"}`."""
        self.metrics.responses.labels(endpoint=f"mcp:{tool}", freshness=freshness).inc()
