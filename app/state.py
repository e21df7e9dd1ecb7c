"""The one frozen object the lifespan yields: every resource the routes use."""

from __future__ import annotations

import datetime as dt
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import httpx
from redis.asyncio import Redis

from app.metrics import Metrics
from app.settings import Settings
from app.tickets.cache import RedisTier
from app.tickets.guard import GuardedSource
from app.tickets.service import TicketService
from sources.base import Clock, shanghai_now
from sources.models import SHANGHAI
from sources.stations import StationDirectory


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
    settings: Settings
    runtime: Runtime
    metrics: Metrics
    directory: StationDirectory
    http: httpx.AsyncClient
    sources: tuple[GuardedSource, ...]
    tickets: TicketService
    redis: Redis | None
    redis_tier: RedisTier | None
    sandbox_faults: dict[str, Any] = field(default_factory=dict)
    intent_parser: Any = None
    sessions: Any = None
    agent: Any = None
    llm: Any = None
