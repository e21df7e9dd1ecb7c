"""The one frozen object the lifespan yields: every resource the routes use."""

from __future__ import annotations

import datetime as dt
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import httpx

from app.metrics import Metrics
from app.redis_client import RedisClient
from app.redis_health import RedisHealth
from app.settings import Settings
from app.tickets.cache import RedisTier
from app.tickets.guard import GuardedSource
from app.tickets.service import TicketService
from sources.base import Clock, shanghai_now
from sources.models import SHANGHAI
from sources.stations import StationDirectory

if TYPE_CHECKING:  # annotations only: these modules import app.state themselves
    from opentelemetry.sdk.trace import TracerProvider

    from app.access.middleware import AccessControl
    from app.agent import PlanningAgent
    from app.intent.llm import LlmIntentParser
    from app.intent.parser import IntentParser
    from app.sessions import SessionStore
    from app.tickets.stops import StopListService
    from app.tickets.transfers import TransferSearchService
    from sources.sandbox.faults import FaultConfig


@dataclass(frozen=True)
class Runtime:
    """Clocks and sleep, injectable so tests never wait for real."""

    clock: Clock = shanghai_now
    monotonic: Callable[[], float] = time.monotonic
    sleep: Callable[[float], Awaitable[None]] | None = None

    def today(self) -> dt.date:
        """Today in Asia/Shanghai by this runtime's clock."""
        return self.clock().astimezone(SHANGHAI).date()


@dataclass(frozen=True)
class AppState:
    """Every resource the routes use; built once by the lifespan, never mutated."""

    settings: Settings
    runtime: Runtime
    metrics: Metrics
    directory: StationDirectory
    http: httpx.AsyncClient
    sources: tuple[GuardedSource, ...]
    tickets: TicketService
    redis: RedisClient | None
    redis_tier: RedisTier | None
    intent_parser: IntentParser
    sessions: SessionStore
    agent: PlanningAgent
    llm: LlmIntentParser | None = None
    redis_health: RedisHealth | None = None
    sandbox_faults: dict[str, FaultConfig] = field(default_factory=dict)
    # Set only when tracing is on (app/tracing.py); None costs the hit path nothing.
    tracer_provider: TracerProvider | None = None
    stop_lists: StopListService = None  # type: ignore[assignment]  # set by the lifespan
    access: AccessControl | None = None
    transfer_search: TransferSearchService = None  # type: ignore[assignment]  # set by the lifespan
