"""`Services`: every service the faces use, built once per app run by the composition root
(app/wiring) and never mutated."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

# Types only: importing this module must not import the agent, access or the model (the
# CLI's `tickets` runs on `TicketServices` and never loads them).
if TYPE_CHECKING:
    import httpx
    from opentelemetry.sdk.trace import TracerProvider  # optional: only when tracing is on

    from app.access.control import AccessControl
    from app.agent import PlanningAgent
    from app.intent.llm import LlmIntentParser
    from app.intent.parser import IntentParser
    from app.observability.metrics import Metrics
    from app.redis_client import RedisClient
    from app.redis_health import RedisHealth
    from app.runtime import Runtime
    from app.sessions import SessionStore
    from app.settings import Settings
    from app.tickets.cache import RedisTier
    from app.tickets.guard import GuardedSource
    from app.tickets.service import TicketService
    from app.tickets.stops import StopListService
    from app.tickets.transfers import TransferSearchService
    from sources.sandbox.faults import FaultConfig
    from sources.stations import StationDirectory


class TicketServices(Protocol):
    """What the ticket and stop use cases need: `Services`, or the ticket side alone
    (`app.wiring.core.TicketCore`, the CLI's `tickets` and `stops`)."""

    @property
    def runtime(self) -> Runtime: ...
    @property
    def directory(self) -> StationDirectory: ...
    @property
    def tickets(self) -> TicketService: ...
    @property
    def stop_lists(self) -> StopListService: ...


@dataclass(frozen=True)
class Services:
    """Every service the faces (HTTP, MCP, CLI) use; built once by the composition root."""

    settings: Settings
    runtime: Runtime
    metrics: Metrics
    directory: StationDirectory
    http: httpx.AsyncClient
    sources: tuple[GuardedSource, ...]
    tickets: TicketService
    transfer_search: TransferSearchService
    stop_lists: StopListService
    intent_parser: IntentParser
    agent: PlanningAgent
    sessions: SessionStore
    access: AccessControl
    redis: RedisClient | None = None
    redis_tier: RedisTier | None = None
    redis_health: RedisHealth | None = None
    llm: LlmIntentParser | None = None
    sandbox_faults: dict[str, FaultConfig] = field(default_factory=dict)
    # Set only when tracing is on (app/observability/tracing.py); None costs the hit path nothing.
    tracer_provider: TracerProvider | None = None
