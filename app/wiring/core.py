"""The ticket side of the composition root: what `tickets`, `stops` and transfers run on.

    settings ─ station directory (bundled, a file/URL, or 12306's current list, re-read daily)
             ─ sandbox vendors mounted on the one shared httpx client (+ traces)
             ─ Redis: L2 cache, fleet-wide rate limit and single flight, shared stop lists
             ─ guarded sources ─ ticket query service, transfer search, stop lists

`open_services` (app/wiring/services.py) builds the rest (access, the model, the agent,
sessions) on top of it. The CLI's `tickets` and `stops` open only this (`open_ticket_services`):
no agent, intent parser, access control, model client nor HTTP server stack is imported or
built for one query.
"""

from __future__ import annotations

import asyncio
import copy
import logging
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager, nullcontext
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import httpx

from app.gcra import Gcra
from app.observability.metrics import KnownLabels, Metrics
from app.observability.redaction import register_secrets
from app.observability.tracing import instrument_http_client, otlp_tracer_provider
from app.redis_health import RedisHealth, redis_errors
from app.runtime import Runtime
from app.settings import Settings
from app.tickets.cache import RedisTier
from app.tickets.fleet_flight import FleetFlight
from app.tickets.guard import GuardedSource
from app.tickets.service import TicketService
from app.tickets.stops import SharedStopLists, StopListService
from app.tickets.transfers import TransferSearchService
from app.usecases.queries import resolve_query
from app.wiring.sources import (
    build_http_client,
    build_sandbox,
    build_sources,
    build_ticket_service,
)
from sources.rail12306 import PAGE_HEADERS, STATION_NAMES_PATH
from sources.sandbox.faults import FaultConfig
from sources.stations import (
    StationDirectory,
    StationRefresher,
    is_url,
    load_directory,
    refresh_directory,
)

if TYPE_CHECKING:
    from opentelemetry.sdk.trace import TracerProvider

    from app.redis_client import RedisClient

log = logging.getLogger("railtrip.wiring")


@dataclass(frozen=True)
class TicketCore:
    """The ticket side, opened: what the use cases of tickets, stops and transfers need."""

    settings: Settings
    runtime: Runtime
    metrics: Metrics
    directory: StationDirectory
    http: httpx.AsyncClient
    sources: tuple[GuardedSource, ...]
    tickets: TicketService
    transfer_search: TransferSearchService
    stop_lists: StopListService
    redis: RedisClient | None = None
    redis_tier: RedisTier | None = None
    redis_health: RedisHealth | None = None
    sandbox_faults: dict[str, FaultConfig] = field(default_factory=dict)
    tracer_provider: TracerProvider | None = None


def redis_client(settings: Settings) -> RedisClient | None:
    """The replica's Redis client (short timeouts, bounded queueing pool), or None."""
    if not settings.redis_url:
        return None
    from app.redis_client import build_redis  # redis-py only where Redis is configured

    return build_redis(
        settings.redis_url,
        timeout_s=settings.redis_timeout_s,
        max_connections=settings.redis_max_connections,
    )


def live_station_list(settings: Settings) -> str | None:
    """12306's station list URL when the list comes from 12306 (rail12306 on, no stations_url)."""
    if settings.stations_url or "rail12306" not in settings.sources:
        return None
    return settings.source("rail12306").base_url.rstrip("/") + STATION_NAMES_PATH


async def station_directory(
    settings: Settings, client: httpx.AsyncClient | None
) -> StationDirectory:
    """The configured list; with `rail12306` enabled, 12306's current one (bounded, cached on
    disk, falling back to the bundled 3,364 stations with a warning). `client` fetches it
    (None when the list is the bundled one or a file)."""
    url = live_station_list(settings)
    if url is None:
        return await load_directory(settings.stations_url, client)
    assert client is not None, "12306's list is fetched"
    directory, origin = await refresh_directory(
        url,
        Path(settings.stations_cache_path),
        client,
        settings.stations_refresh_timeout_s,
        headers=PAGE_HEADERS,
    )
    if origin != "live":
        log.warning("station list not refreshed from 12306: using the %s copy", origin)
    return directory


def station_refresher(
    settings: Settings,
    directory: StationDirectory,
    client: httpx.AsyncClient,
    sources: tuple[GuardedSource, ...],
    runtime: Runtime,
) -> StationRefresher | None:
    """The running re-read of 12306's list (through rail12306's limiter), or None."""
    url = live_station_list(settings)
    if url is None or not settings.stations_refresh_interval_s:
        return None
    return StationRefresher(
        directory,
        url,
        Path(settings.stations_cache_path),
        client,
        interval_s=settings.stations_refresh_interval_s,
        timeout_s=settings.stations_refresh_timeout_s,
        headers=PAGE_HEADERS,
        pacer=next(s for s in sources if s.name == "rail12306"),
        sleep=runtime.sleep or asyncio.sleep,
        on_change=[resolve_query.cache_clear],  # memoised on the directory's identity
    )


async def open_core(
    settings: Settings,
    runtime: Runtime,
    stack: AsyncExitStack,
    *,
    known: KnownLabels | None = None,
    tracer_provider: TracerProvider | None = None,
) -> TicketCore:
    """The ticket side on `settings`, closed by `stack` (the ticket service's refreshes
    first). `known`: the label sets created at 0 (a served app; the CLI has no /metrics)."""
    register_secrets(settings.secrets())  # masked in every log line, span and error text
    for name, closest in settings.unknown_variables():
        hint = f" (did you mean {closest}?)" if closest else ""
        log.warning("unknown setting %s ignored%s", name, hint)
    metrics = Metrics()
    if known is not None:
        metrics.start_at_zero(known)
    # A client only where the list is fetched: its TLS context (the CA bundle) costs 20-70 ms.
    fetched = live_station_list(settings) or is_url(settings.stations_url)
    async with httpx.AsyncClient(timeout=10) if fetched else nullcontext() as bootstrap:
        directory = await station_directory(settings, bootstrap)
    if live_station_list(settings) and settings.stations_refresh_interval_s:
        # Refreshed in place while running: never the process-wide bundled singleton.
        directory = copy.copy(directory)
    sandbox = build_sandbox(settings, directory, runtime)
    http = build_http_client(sandbox, in_process=settings.all_sandbox and not settings.llm_enabled)
    stack.push_async_callback(http.aclose)
    provider = tracer_provider or otlp_tracer_provider(settings)
    if provider is not None:
        instrument_http_client(http, provider)
        if tracer_provider is None:
            # Flushes what the batch exporter still holds (a blocking HTTP call).
            stack.push_async_callback(asyncio.to_thread, provider.shutdown)
    redis = redis_client(settings)
    health = redis_tier = fleet = gcra = shared_stops = None
    if redis is not None:
        stack.push_async_callback(redis.aclose)
        # Probes while down run in the background (no request pays them), so they can be
        # frequent: Redis back is noticed within half a second.
        health = RedisHealth(
            metrics, retry_pause_s=0.5, monotonic=runtime.monotonic, ping=redis.ping
        )
        stack.push_async_callback(health.aclose)
        from app.redis_client import connect

        try:
            await connect(redis)  # a Cluster learns its slots before any traffic
            await redis.ping()
        except redis_errors() as exc:
            health.went_down(exc)  # start degraded; the first call after a pause probes
        redis_tier = RedisTier(
            redis,
            metrics,
            settings.redis_ttl_s,
            settings.stale_ttl_s,
            monotonic=runtime.monotonic,
            health=health,
        )
        gcra = Gcra(redis)
        shared_stops = SharedStopLists(redis, health)
        fleet = FleetFlight(
            redis,
            health,
            lease_s=settings.flight_lease_s,
            poll_s=settings.flight_poll_s,
            sleep=runtime.sleep or asyncio.sleep,
            monotonic=runtime.monotonic,
        )
    guarded = build_sources(
        settings, http, directory, metrics, runtime, gcra=gcra, health=health, redis=redis
    )
    refresher = station_refresher(settings, directory, http, guarded, runtime)
    if refresher is not None:
        refreshing = asyncio.create_task(refresher.run(), name="station-list-refresh")
        stack.callback(refreshing.cancel)
    tickets = build_ticket_service(settings, runtime, guarded, metrics, redis_tier, fleet=fleet)
    stack.push_async_callback(tickets.aclose)
    transfer_search = TransferSearchService(
        guarded,
        metrics,
        deadline_s=settings.query_deadline_s,
        fresh_for_s=settings.memory_ttl_s,
        stale_for_s=settings.stale_ttl_s,
        clock=runtime.clock,
        monotonic=runtime.monotonic,
    )
    stop_lists = StopListService(
        guarded,
        metrics,
        shared=shared_stops,
        deadline_s=settings.query_deadline_s,
        clock=runtime.clock,
        monotonic=runtime.monotonic,
    )
    return TicketCore(
        settings=settings,
        runtime=runtime,
        metrics=metrics,
        directory=directory,
        http=http,
        sources=guarded,
        tickets=tickets,
        transfer_search=transfer_search,
        stop_lists=stop_lists,
        redis=redis,
        redis_tier=redis_tier,
        redis_health=health,
        sandbox_faults=sandbox.faults,
        tracer_provider=provider,
    )


@asynccontextmanager
async def open_ticket_services(
    settings: Settings, runtime: Runtime | None = None
) -> AsyncIterator[TicketCore]:
    """Only the ticket side, opened and closed together (the CLI's `tickets` and `stops`)."""
    async with AsyncExitStack() as stack:
        yield await open_core(settings, runtime or Runtime(), stack)
