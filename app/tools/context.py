"""What a tool reaches the data through: the services and use cases the HTTP API uses, never a
second path.

`ToolContext.for_services(services)` serves MCP (every tool); the agent's tool mode subclasses
it so that what a tool fetches is also kept in the run for the state machine (runner.py).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable

from app.agent.fetch import (
    TicketSearch,
    TransferSearch,
    fetch_legs,
    fetch_transfers,
    transfer_leg_results,
)
from app.errors import ServiceError
from app.observability.metrics import Metrics
from app.services import Services
from app.tickets.model import ResolvedQuery, TicketResult
from app.usecases.queries import resolve_query
from rules import LegKey, PlanResult
from rules.hubs import Topology
from sources.base import Clock
from sources.models import SHANGHAI
from sources.stations import StationDirectory


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
        services: Services | None = None,
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
        self._services = services

    @classmethod
    def for_services(cls, services: Services) -> ToolContext:
        """The context of one MCP call on running services."""
        return cls(
            tickets=services.tickets,
            directory=services.directory,
            metrics=services.metrics,
            today=services.runtime.today(),
            clock=services.runtime.clock,
            services=services,
            transfer_search=services.transfer_search,
            topology=services.agent.topology,
        )

    @property
    def services(self) -> Services:
        """The running services, for the tools that call a use case (plan, precheck, stops)."""
        if self._services is None:
            raise ToolFailure("unavailable", "this tool is not available in this mode")
        return self._services

    def now(self) -> dt.datetime:
        """The rule engine's now: the clock, but never before the caller's today began."""
        midnight = dt.datetime.combine(self.today, dt.time(0, 0), tzinfo=SHANGHAI)
        return max(self.clock(), midnight)

    def resolve(
        self, origin: str, destination: str, date: str, *, fare: str | None = None
    ) -> ResolvedQuery:
        """Stations and date validated exactly as `GET /v1/tickets` validates them."""
        return resolve_query(
            self.directory,
            origin,
            destination,
            date,
            today=self.today,
            fare=fare,
        )

    async def search(self, resolved: ResolvedQuery) -> TicketResult:
        """One query through the query service (caches, single-flight, honest freshness),
        answered at the stations asked for."""
        return await self.tickets.search(resolved)

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
