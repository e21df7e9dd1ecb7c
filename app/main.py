"""The FastAPI app factory and its lifespan: every resource is opened and closed here."""

from __future__ import annotations

import asyncio
import logging
import time
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import TYPE_CHECKING

import httpx
import openai
from fastapi import FastAPI
from fastapi.middleware.cors import CORSMiddleware
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app import __version__
from app.access import AccessMiddleware, ClientQuotas
from app.access.build import build_access
from app.agent import PlanningAgent
from app.docs import install_docs
from app.errors import install_error_handlers
from app.gcra import Gcra
from app.intent.llm import LlmIntentParser
from app.intent.llm_guard import GuardedLlm, log_breaker_change
from app.intent.parser import IntentParser
from app.limits import BodyLimitMiddleware
from app.logs import configure_logging, request_id, request_id_from
from app.mcp import mount_mcp, serve_mcp
from app.metrics import Metrics
from app.observe import count_error_answer, route_template
from app.playground import install_playground
from app.redis_client import RedisClient, build_redis, connect
from app.redis_health import REDIS_ERRORS, RedisHealth
from app.registry import (
    build_http_client,
    build_sandbox,
    build_sources,
    build_ticket_service,
)
from app.routers import health, intent, plan, sandbox_admin, stations, stream, tickets, trains
from app.sessions import SessionStore
from app.settings import Settings
from app.state import AppState, Runtime
from app.tickets.breaker import CircuitBreaker
from app.tickets.cache import RedisTier
from app.tickets.fleet_flight import FleetFlight
from app.tickets.stops import SharedStopLists, StopListService
from app.tickets.transfers import TransferSearchService
from app.tracing import (
    end_request_span,
    instrument_http_client,
    otlp_tracer_provider,
    request_span,
)
from sources.rail12306 import STATION_NAMES_PATH
from sources.sandbox.network import default_network
from sources.stations import StationDirectory, load_directory, refresh_directory

if TYPE_CHECKING:
    from opentelemetry.sdk.trace import TracerProvider

log = logging.getLogger("railtrip.http")

RATE_LIMIT_HEADERS = ["RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset"]


def _redis_client(url: str, settings: Settings | None = None) -> RedisClient:
    """The replica's Redis client: short timeouts, bounded queueing pool (app/redis_client.py)."""
    settings = settings or Settings(redis_url=url)
    return build_redis(
        url, timeout_s=settings.redis_timeout_s, max_connections=settings.redis_max_connections
    )


def _openai_client(settings: Settings, http: httpx.AsyncClient) -> openai.AsyncOpenAI | None:
    """One client for the configured OpenAI-compatible endpoint, or None without a key.

    Client retries are off: the intent parser retries (bounded, with the error fed back) and
    a failing model ends tool mode, where the state machine finishes the turn.
    """
    if not settings.llm_enabled:
        return None
    return openai.AsyncOpenAI(
        base_url=settings.llm_base_url,
        api_key=settings.llm_api_key,
        max_retries=0,
        timeout=settings.llm_timeout_s,
        http_client=http,
    )


def _llm_parser(
    settings: Settings,
    client: openai.AsyncOpenAI | None,
    metrics: Metrics,
    directory: StationDirectory,
) -> LlmIntentParser | None:
    """The LLM intent parser when a model is configured; None means the offline rules."""
    if client is None:
        return None
    return LlmIntentParser(
        client,
        settings.llm_model,
        metrics=metrics,
        directory=directory,
        timeout_s=settings.llm_timeout_s,
    )


def _guarded_llm(
    settings: Settings,
    llm: LlmIntentParser | None,
    metrics: Metrics,
    runtime: Runtime,
    quotas: ClientQuotas,
) -> GuardedLlm | None:
    """The parser behind its breaker, capped so a hanging model leaves the plan deadline
    room for the ticket queries (half of it, at most `llm_timeout_s`)."""
    if llm is None:
        return None
    breaker = CircuitBreaker(
        settings.llm_breaker_failures,
        settings.llm_breaker_cooldown_s,
        clock=runtime.monotonic,
        on_change=log_breaker_change,
    )
    cap = min(settings.llm_timeout_s, settings.plan_deadline_s / 2)
    return GuardedLlm(llm, breaker, metrics, timeout_s=cap, quotas=quotas)


def _tool_runner(
    settings: Settings,
    client: openai.AsyncOpenAI | None,
    metrics: Metrics,
    llm: GuardedLlm | None = None,
) -> object | None:
    """Tool-calling mode (`RAILTRIP_AGENT_MODE=llm_tools` with a model configured), else None;
    behind the intent parser's breaker and time cap when there is one."""
    if settings.agent_mode != "llm_tools" or client is None:
        return None
    from app.agent.tools import ToolRunner

    if llm is None:
        return ToolRunner(client, settings.llm_model, metrics=metrics)
    return ToolRunner(
        client, settings.llm_model, metrics=metrics, timeout_s=llm.timeout_s, breaker=llm.breaker
    )


async def _station_directory(settings: Settings, client: httpx.AsyncClient) -> StationDirectory:
    """The configured list; with `rail12306` enabled, 12306's current one (bounded, cached on
    disk, falling back to the bundled 3,364 stations with a warning)."""
    if settings.stations_url or "rail12306" not in settings.sources:
        return await load_directory(settings.stations_url, client)
    url = settings.source("rail12306").base_url.rstrip("/") + STATION_NAMES_PATH
    directory, origin = await refresh_directory(
        url, Path(settings.stations_cache_path), client, settings.stations_refresh_timeout_s
    )
    if origin != "live":
        log.warning("station list not refreshed from 12306: using the %s copy", origin)
    return directory


def create_app(
    settings: Settings | None = None,
    runtime: Runtime | None = None,
    *,
    tracer_provider: TracerProvider | None = None,
) -> FastAPI:
    """Build an app; nothing is opened until its lifespan starts.

    `tracer_provider` turns tracing on with the caller's provider (tests: the SDK's in-memory
    exporter); otherwise `RAILTRIP_OTEL_ENDPOINT` decides (app/tracing.py).
    """
    settings = settings or Settings()
    runtime = runtime or Runtime()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        configure_logging(settings.log_level)
        metrics = Metrics()
        async with httpx.AsyncClient(timeout=10) as bootstrap:
            directory = await _station_directory(settings, bootstrap)
        sandbox = build_sandbox(settings, directory, runtime)
        http = build_http_client(sandbox)
        provider = tracer_provider or otlp_tracer_provider(settings)
        if provider is not None:
            instrument_http_client(http, provider)
        redis = _redis_client(settings.redis_url, settings) if settings.redis_url else None
        # Probes while down run in the background (no request pays them), so they can be
        # frequent: Redis back is noticed within half a second.
        health = (
            RedisHealth(metrics, retry_pause_s=0.5, monotonic=runtime.monotonic, ping=redis.ping)
            if redis
            else None
        )
        redis_tier = fleet = gcra = shared_stops = None
        if redis is not None and health is not None:
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
        ticket_service = build_ticket_service(
            settings, runtime, guarded, metrics, redis_tier, fleet=fleet
        )
        transfer_search = TransferSearchService(
            guarded,
            metrics,
            deadline_s=settings.query_deadline_s,
            fresh_for_s=settings.memory_ttl_s,
            stale_for_s=settings.stale_ttl_s,
            clock=runtime.clock,
            monotonic=runtime.monotonic,
        )
        llm_client = _openai_client(settings, http)
        llm = _llm_parser(settings, llm_client, metrics, directory)
        access = build_access(settings, redis, metrics, runtime)
        guarded_llm = _guarded_llm(settings, llm, metrics, runtime, access.quotas)
        intent_parser = IntentParser(directory=directory, metrics=metrics, llm=guarded_llm)
        agent = PlanningAgent(
            parser=intent_parser,
            tickets=ticket_service,
            directory=directory,
            metrics=metrics,
            max_steps=settings.agent_max_steps,
            clock=runtime.clock,
            monotonic=runtime.monotonic,
            tool_runner=_tool_runner(settings, llm_client, metrics, guarded_llm),
            deadline_s=settings.plan_deadline_s,
            # The network's city topology picks transfer hubs (a 2019-2021 picture of the
            # real network: a good prior for production too; live queries decide).
            topology=default_network(),
            transfer_search=transfer_search,
        )
        app.state.rt = AppState(
            settings=settings,
            runtime=runtime,
            metrics=metrics,
            directory=directory,
            http=http,
            sources=guarded,
            tickets=ticket_service,
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
        try:
            async with serve_mcp(app, app.state.rt):
                yield
        finally:
            await ticket_service.aclose()
            await http.aclose()
            if health is not None:
                await health.aclose()
            if provider is not None and tracer_provider is None:
                # Flushes what the batch exporter still holds (a blocking HTTP call).
                await asyncio.to_thread(provider.shutdown)
            if redis is not None:
                await redis.aclose()

    app = FastAPI(
        title="railtrip",
        version=__version__,
        summary="Travel requests in plain language → itineraries from live train-ticket data.",
        lifespan=lifespan,
        docs_url=None,  # served offline by install_docs
        redoc_url=None,
    )
    install_error_handlers(app)
    app.add_middleware(BodyLimitMiddleware)
    app.add_middleware(AccessMiddleware)  # keys and quotas before any body is read
    if settings.cors_origins:  # closed by default: no CORS headers at all
        app.add_middleware(
            CORSMiddleware,
            allow_origins=settings.cors_origins,
            allow_methods=["GET", "POST"],
            allow_headers=["Authorization", "X-API-Key", "Content-Type", "X-Request-ID"],
            expose_headers=["X-Request-ID", "Retry-After", *RATE_LIMIT_HEADERS],
            max_age=600,
        )
    app.add_middleware(ObserveRequests)  # added last = outermost: sees every refusal
    app.include_router(health.router)
    app.include_router(stations.router)
    app.include_router(tickets.router)
    app.include_router(trains.router)
    app.include_router(intent.router)
    app.include_router(plan.router)
    app.include_router(stream.router)
    if settings.sandbox_admin and settings.all_sandbox:
        # Fault knobs exist only in the sandbox; with API keys on they need an admin key.
        app.include_router(sandbox_admin.router)
    install_docs(app)
    install_playground(app)
    mount_mcp(app)
    return app


class ObserveRequests:
    """Request id in and out, one JSON log line and the HTTP metrics per request, and the
    request's trace span on planning routes when tracing is on (app/tracing.py).

    A plain ASGI middleware: `@app.middleware("http")` (BaseHTTPMiddleware) would run every
    request in an extra task with memory streams between its two halves.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        given = next((v for k, v in scope["headers"] if k == b"x-request-id"), b"")
        rid = request_id_from(given) or uuid.uuid4().hex
        token = request_id.set(rid)
        started = time.perf_counter()
        root_path = scope.get("root_path", "")
        status = 500
        started_response = False

        async def receive_noting_disconnect() -> Message:
            nonlocal status
            message = await receive()
            if message["type"] == "http.disconnect" and not started_response:
                status = 499  # the client went away before any response (nginx's code)
            return message

        async def send_with_id(message: Message) -> None:
            nonlocal status, started_response
            if message["type"] == "http.response.start":
                started_response = True
                status = message["status"]
                headers = [*message.get("headers", ()), (b"x-request-id", rid.encode("latin-1"))]
                message = {**message, "headers": headers}
            await send(message)

        span = request_span(scope)  # None unless tracing is on and this is a planning route
        try:
            if span is None:
                await self.app(scope, receive_noting_disconnect, send_with_id)
            else:
                with span as current:
                    try:
                        await self.app(scope, receive_noting_disconnect, send_with_id)
                    finally:
                        end_request_span(current, status)
        finally:
            elapsed = time.perf_counter() - started
            endpoint = route_template(scope, root_path)
            method = scope["method"]
            state: AppState | None = getattr(scope["app"].state, "rt", None)
            if state is not None:
                state.metrics.http_requests.labels(
                    endpoint=endpoint, method=method, status=str(status)
                ).inc()
                state.metrics.http_duration.labels(endpoint=endpoint, method=method).observe(
                    elapsed
                )
                count_error_answer(state.metrics, scope, endpoint, status)
            log.info(
                "request",
                extra={
                    "endpoint": endpoint,
                    "method": method,
                    "status": status,
                    "latency_ms": round(elapsed * 1000, 2),
                    **scope.get("state", {}).get("log_extra", {}),
                },
            )
            request_id.reset(token)


app = create_app()
