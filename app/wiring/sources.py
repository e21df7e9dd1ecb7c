"""The enabled ticket sources from settings: adapters, sandbox vendors, guards, and the query
service over them.

Sandbox vendors are ASGI apps mounted on the shared httpx client by host, so
`sandbox-12306` runs the very `rail12306` adapter (and its limits, retries and caches)
that production points at 12306.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import Any
from urllib.request import getproxies

import httpx

from app.gcra import Gcra
from app.observability.metrics import Metrics
from app.redis_health import RedisHealth
from app.runtime import Runtime
from app.settings import (
    DEFAULT_BASE_URLS,
    SANDBOX_BASE_URLS,
    SANDBOX_VENDORS,
    Settings,
    env_name,
)
from app.tickets.cache import MemoryTier, RedisTier
from app.tickets.fleet_flight import FleetFlight
from app.tickets.guard import GuardedSource
from app.tickets.rate_limit import SourceRateLimit
from app.tickets.service import TicketService
from app.tickets.shared_block import PROBE_MARGIN_S, SharedBlock
from sources.base import TicketSource
from sources.juhe import JuheSource
from sources.rail12306 import Rail12306Source
from sources.sandbox import Timetable, create_12306_app, create_juhe_app
from sources.sandbox.faults import FaultConfig
from sources.stations import StationDirectory

# The in-process Juhe accepts any key; the embedded default needs no account.
SANDBOX_JUHE_KEY = "sandbox"
TRAIN_SEARCH_URL = "https://search.12306.cn"
LIVE_12306 = DEFAULT_BASE_URLS["rail12306"]


@dataclass
class SandboxMounts:
    """The in-process vendors to mount on the shared client, and their fault knobs."""

    transports: dict[str, httpx.AsyncBaseTransport] = field(default_factory=dict)
    faults: dict[str, FaultConfig] = field(default_factory=dict)
    timetable: Timetable | None = None  # the sandbox's timetable, when a sandbox is enabled


def build_sandbox(
    settings: Settings, directory: StationDirectory, runtime: Runtime
) -> SandboxMounts:
    """ASGI apps for the enabled sandbox sources, keyed by their base URL, with the fault
    knobs the settings read (environment and `.env`, like every other setting)."""
    mounts = SandboxMounts()
    # One timetable shared by both vendors, on the service's own directory (every official
    # station), so the vendors' stations compare equal to what the app resolves.
    timetable = Timetable(directory)
    for name in settings.sources:
        vendor = SANDBOX_VENDORS.get(name)
        if vendor is None:
            continue
        faults = FaultConfig(vendor)
        faults.update(**settings.fault_knobs(vendor))
        factory = create_12306_app if vendor == "12306" else create_juhe_app
        app = factory(
            faults=faults,
            clock=runtime.clock,
            sleep=runtime.sleep or asyncio.sleep,
            directory=directory,
            timetable=timetable,
        )
        base = settings.source(name).base_url or SANDBOX_BASE_URLS[name]
        mounts.transports[base] = httpx.ASGITransport(app=app)
        mounts.faults[vendor] = faults
        mounts.timetable = timetable
    return mounts


def build_sources(
    settings: Settings,
    client: httpx.AsyncClient,
    directory: StationDirectory,
    metrics: Metrics,
    runtime: Runtime,
    *,
    gcra: Gcra | None = None,
    health: RedisHealth | None = None,
    redis: Any = None,
) -> tuple[GuardedSource, ...]:
    """One guarded adapter per enabled source, in priority order (fleet-wide rate with `gcra`)."""
    guarded: list[GuardedSource] = []
    for name in settings.sources:
        conf = settings.source(name)
        if not conf.base_url:
            raise ValueError(f"RAILTRIP_{env_name(name)}_BASE_URL is required")
        adapter: TicketSource
        rail: Rail12306Source | None = None
        if name in ("rail12306", "sandbox-12306"):
            adapter = rail = Rail12306Source(
                name,
                client,
                conf.base_url,
                directory,
                clock=runtime.clock,
                monotonic=runtime.monotonic,
                # The live train search is on its own host; a sandbox answers it itself.
                search_base_url=TRAIN_SEARCH_URL if conf.base_url == LIVE_12306 else None,
            )
        else:
            key = conf.api_key or (SANDBOX_JUHE_KEY if name == "sandbox-juhe" else None)
            if not key:
                raise ValueError(f"RAILTRIP_{env_name(name)}_API_KEY is required")
            adapter = JuheSource(name, client, conf.base_url, directory, key, clock=runtime.clock)
        sleep = runtime.sleep or asyncio.sleep
        limiter = SourceRateLimit(
            name,
            conf.rate_per_s,
            gcra=gcra,
            health=health,
            expected_replicas=settings.expected_replicas,
            sleep=sleep,
        )
        source = GuardedSource(
            adapter,
            conf,
            metrics,
            sleep=sleep,
            monotonic=runtime.monotonic,
            limiter=limiter,
            # A block one replica meets stops the fleet (app/tickets/shared_block.py).
            shared_block=SharedBlock(
                redis,
                name,
                health,
                probe_lease_s=conf.timeout_s + PROBE_MARGIN_S,
                clear_s=conf.block_cooldown_s,
            )
            if redis is not None
            else None,
            # Sized from the latency the source shows, unless a queue limit is configured.
            queue_limit=conf.queue_limit,
            deadline_s=settings.query_deadline_s,
        )
        if rail is not None:
            rail.pacer = source  # its session refreshes and moved-path hops share the limiter
        guarded.append(source)
    return tuple(guarded)


def build_http_client(sandbox: SandboxMounts, *, in_process: bool = False) -> httpx.AsyncClient:
    """The one client every adapter shares, with the sandbox vendors mounted by host.

    `in_process`: nothing configured sends a request out of the process (every source is a
    sandbox vendor, no model): the network transport is then built by the first request
    that leaves anyway. Building it imports httpcore and reads the CA bundle, 60-200 ms of
    every start, the command line's included. Where requests do leave it is built here, at
    start-up, as before: built by the first one, it would stall the event loop under load.
    A proxy variable in the environment keeps httpx's own transports (it mounts one per
    scheme from the default transport's settings).
    """
    limits = httpx.Limits(max_connections=100, max_keepalive_connections=20)
    deferred = None
    if in_process and not getproxies():
        deferred = DeferredTransport(partial(httpx.AsyncHTTPTransport, limits=limits))
    return httpx.AsyncClient(
        mounts=sandbox.transports,
        transport=deferred,
        timeout=httpx.Timeout(10.0),
        follow_redirects=False,
        limits=limits,
    )


class DeferredTransport(httpx.AsyncBaseTransport):
    """A transport built by `factory` on the first request it carries."""

    def __init__(self, factory: Callable[[], httpx.AsyncBaseTransport]) -> None:
        self._factory = factory
        self.built: httpx.AsyncBaseTransport | None = None

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if self.built is None:  # no await before the assignment: one transport, ever
            self.built = self._factory()
        return await self.built.handle_async_request(request)

    async def aclose(self) -> None:
        if self.built is not None:
            await self.built.aclose()


def build_ticket_service(
    settings: Settings,
    runtime: Runtime,
    sources: tuple[GuardedSource, ...],
    metrics: Metrics,
    redis_tier: RedisTier | None = None,
    *,
    single_flight: bool = True,
    fleet: FleetFlight | None = None,
) -> TicketService:
    """The query service over `sources` with the configured cache tiers and deadlines."""
    memory = MemoryTier(
        settings.memory_ttl_s,
        settings.stale_ttl_s,
        settings.memory_max_entries,
        timer=runtime.monotonic,
    )
    return TicketService(
        sources,
        metrics,
        memory,
        redis_tier,
        deadline_s=settings.query_deadline_s,
        refresh_after_s=settings.refresh_after_s,
        clock=runtime.clock,
        monotonic=runtime.monotonic,
        single_flight=single_flight,
        fleet=fleet,
    )
