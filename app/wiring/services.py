"""`open_services`: every service railtrip runs on, built from one settings snapshot, opened
and closed together. The app's lifespan, the CLI and the stdio MCP server all run on it.

    settings ─ station directory (bundled, a file/URL, or 12306's current list, re-read daily)
             ─ sandbox vendors mounted on the one shared httpx client (+ traces)
             ─ Redis: L2 cache, fleet-wide rate limit and single flight, shared stop lists
             ─ guarded sources ─ ticket query service, transfer search, stop lists
             ─ access (keys, quotas) ─ the model (parser behind its breaker, tool mode)
             ─ intent parser ─ planning agent ─ sessions
"""

from __future__ import annotations

import asyncio
import copy
import logging
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager
from pathlib import Path
from typing import TYPE_CHECKING

import httpx

from app.agent import PlanningAgent
from app.agent.states import State
from app.gcra import Gcra
from app.intent.parser import IntentParser
from app.observability.metrics import KnownLabels, Metrics
from app.observability.redaction import register_secrets
from app.observability.tracing import instrument_http_client, otlp_tracer_provider
from app.redis_client import RedisClient, build_redis, connect
from app.redis_health import REDIS_ERRORS, RedisHealth
from app.runtime import Runtime
from app.services import Services
from app.sessions import SessionStore
from app.settings import Settings
from app.tickets.cache import RedisTier
from app.tickets.fleet_flight import FleetFlight
from app.tickets.guard import GuardedSource
from app.tickets.stops import SharedStopLists, StopListService
from app.tickets.transfers import TransferSearchService
from app.tools import ticket_endpoints
from app.usecases.queries import resolve_query
from app.wiring import llm as model
from app.wiring.access import build_access
from app.wiring.sources import (
    build_http_client,
    build_sandbox,
    build_sources,
    build_ticket_service,
)
from sources.rail12306 import PAGE_HEADERS, STATION_NAMES_PATH
from sources.sandbox.network import default_network
from sources.stations import (
    StationDirectory,
    StationRefresher,
    load_directory,
    refresh_directory,
)

if TYPE_CHECKING:
    from opentelemetry.sdk.trace import TracerProvider

log = logging.getLogger("railtrip.wiring")


def redis_client(settings: Settings) -> RedisClient | None:
    """The replica's Redis client (short timeouts, bounded queueing pool), or None."""
    if not settings.redis_url:
        return None
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


async def station_directory(settings: Settings, client: httpx.AsyncClient) -> StationDirectory:
    """The configured list; with `rail12306` enabled, 12306's current one (bounded, cached on
    disk, falling back to the bundled 3,364 stations with a warning)."""
    url = live_station_list(settings)
    if url is None:
        return await load_directory(settings.stations_url, client)
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


def known_labels(settings: Settings) -> KnownLabels:
    """The label sets these settings make known at start-up (README "Metrics"): the HTTP
    routes that answer are added by the app (app/main.py), which alone knows its routes."""
    return KnownLabels(
        sources=tuple(settings.sources),
        redis=settings.redis_url is not None,
        llm_model=settings.llm_model if settings.llm_enabled else None,
        agent_modes=tuple(dict.fromkeys(("state_machine", settings.agent_mode))),
        agent_states=tuple(state.value for state in State),
        ticket_bearing=ticket_endpoints(),
    )


@asynccontextmanager
async def open_services(
    settings: Settings,
    runtime: Runtime | None = None,
    *,
    tracer_provider: TracerProvider | None = None,
) -> AsyncIterator[Services]:
    """Every service, wired; all closed on exit (the ticket service's refreshes first).

    `tracer_provider` turns tracing on with the caller's provider (tests: the SDK's in-memory
    exporter, which the caller shuts down); otherwise `RAILTRIP_OTEL_ENDPOINT` decides.
    """
    runtime = runtime or Runtime()
    register_secrets(settings.secrets())  # masked in every log line, span and error text
    for name, closest in settings.unknown_variables():
        hint = f" (did you mean {closest}?)" if closest else ""
        log.warning("unknown setting %s ignored%s", name, hint)
    async with AsyncExitStack() as stack:
        metrics = Metrics()
        metrics.start_at_zero(known_labels(settings))
        async with httpx.AsyncClient(timeout=10) as bootstrap:
            directory = await station_directory(settings, bootstrap)
        if live_station_list(settings) and settings.stations_refresh_interval_s:
            # Refreshed in place while running: never the process-wide bundled singleton.
            directory = copy.copy(directory)
        sandbox = build_sandbox(settings, directory, runtime)
        http = build_http_client(sandbox)
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
            try:
                await connect(redis)  # a Cluster learns its slots before any traffic
                await redis.ping()
            except REDIS_ERRORS as exc:
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
            settings, http, directory, metrics, runtime, gcra=gcra, health=health
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
        access = build_access(settings, redis, metrics, runtime)
        llm_client = model.openai_client(settings, http)
        llm = model.llm_parser(settings, llm_client, metrics, directory)
        guarded_llm = model.guarded_llm(settings, llm, metrics, runtime, access.quotas)
        intent_parser = IntentParser(directory=directory, metrics=metrics, llm=guarded_llm)
        agent = PlanningAgent(
            parser=intent_parser,
            tickets=tickets,
            directory=directory,
            metrics=metrics,
            max_steps=settings.agent_max_steps,
            clock=runtime.clock,
            monotonic=runtime.monotonic,
            tool_mode=model.tool_mode(settings, llm_client, metrics, guarded_llm),
            deadline_s=settings.plan_deadline_s,
            # The network's city topology picks transfer hubs (a 2019-2021 picture of the
            # real network: a good prior for production too; live queries decide).
            topology=default_network(),
            transfer_search=transfer_search,
        )
        yield Services(
            settings=settings,
            runtime=runtime,
            metrics=metrics,
            directory=directory,
            http=http,
            sources=guarded,
            tickets=tickets,
            redis=redis,
            redis_tier=redis_tier,
            redis_health=health,
            sandbox_faults=sandbox.faults,
            intent_parser=intent_parser,
            sessions=SessionStore(
                redis,
                settings.session_ttl_s,
                health=health,
                max_local=settings.session_memory_max,
                monotonic=runtime.monotonic,
            ),
            agent=agent,
            llm=llm,
            tracer_provider=provider,
            stop_lists=StopListService(
                guarded,
                metrics,
                shared=shared_stops,
                deadline_s=settings.query_deadline_s,
                clock=runtime.clock,
                monotonic=runtime.monotonic,
            ),
            access=access,
            transfer_search=transfer_search,
        )
