"""The FastAPI app: its factory (`create_app`) and its lifespan, and nothing else.

The lifespan opens every service through the composition root (app/wiring) and serves MCP on
them; the factory mounts the faces (routers, docs, playground, `/mcp`) and the middleware.
`uvicorn app.main:app` serves the app built from the environment (made on first access, so
importing this module builds nothing).
"""

from __future__ import annotations

import gc
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from functools import cache
from typing import TYPE_CHECKING

from fastapi import FastAPI
from fastapi.middleware.cors import CORSMiddleware

from app import __version__
from app.http.access import AccessMiddleware
from app.http.body_limits import BodyLimitMiddleware
from app.http.contract import install_contract
from app.http.docs import install_docs
from app.http.errors import install_error_handlers
from app.http.forwarded import ForwardedClient, parse_networks
from app.http.routers import (
    health,
    intent,
    plan,
    sandbox_admin,
    stations,
    stream,
    tickets,
    trains,
)
from app.http.streams import StreamCap
from app.http.ticket_hits import TicketHits
from app.mcp import mount_mcp, serve_mcp
from app.observability.logs import configure_logging
from app.observability.metrics import KnownLabels
from app.observability.requests import ObserveRequests
from app.playground import install_playground
from app.policy import RouteTable
from app.runtime import Runtime
from app.settings import Settings
from app.wiring import open_services

if TYPE_CHECKING:
    from opentelemetry.sdk.trace import TracerProvider

RATE_LIMIT_HEADERS = ["RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset"]
MCP_HEADERS = ["Mcp-Protocol-Version", "Mcp-Session-Id", "Last-Event-ID"]


def create_app(
    settings: Settings | None = None,
    runtime: Runtime | None = None,
    *,
    tracer_provider: TracerProvider | None = None,
    hit_path: bool = True,
) -> FastAPI:
    """Build an app on `settings` (default: read from the environment); nothing is opened
    until its lifespan starts.

    `tracer_provider` turns tracing on with the caller's provider (tests: the SDK's in-memory
    exporter); otherwise `RAILTRIP_OTEL_ENDPOINT` decides (app/observability/tracing.py).
    `hit_path=False` sends every ticket query through the router (the reference the hit
    path's equivalence tests compare it with).
    """
    settings = settings or Settings()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        configure_logging(settings.log_level)
        async with open_services(settings, runtime, tracer_provider=tracer_provider) as services:
            answering = tuple(
                r.template for r in routes.routes() if r.policy.answers and r.template
            )
            services.metrics.start_at_zero(
                KnownLabels(answering=answering, ticket_bearing=answering)
            )
            app.state.services = services
            # What start-up built (the station directory, the sandbox's network and timetable)
            # lives as long as the process: frozen out of the cyclic GC, whose full collections
            # otherwise rescan all of it, stalling the loop for half a second in a burst.
            gc.freeze()
            try:
                async with serve_mcp(app, services):
                    yield
            finally:
                gc.unfreeze()  # a test process starts many apps: leave its heap collectable

    app = FastAPI(
        title="railtrip",
        version=__version__,
        summary="Travel requests in plain language → itineraries from live train-ticket data.",
        lifespan=lifespan,
        docs_url=None,  # served offline by install_docs
        redoc_url=None,
    )
    install_error_handlers(app)
    routers = [m.router for m in (health, stations, tickets, trains, intent, plan, stream)]
    if settings.sandbox_admin and settings.all_sandbox:
        # Fault knobs exist only in the sandbox; with API keys on they need an admin key.
        routers.append(sandbox_admin.router)
    for router in routers:
        app.include_router(router)
    install_docs(app)
    install_playground(app)
    mount_mcp(app)
    # The middlewares read each route's declared policy (open, answers, traced …); FastAPI
    # keeps included routers' routes behind a wrapper, so they are listed from the routers.
    routes = RouteTable([*app.router.routes, *(r for router in routers for r in router.routes)])
    app.state.routes = routes
    install_contract(app, routes)
    app.add_middleware(BodyLimitMiddleware)
    # Streams have their own cap, checked after the gate and before a body is read.
    app.add_middleware(StreamCap, routes=routes, limit=settings.max_streams)
    if hit_path:  # inside the gate and the observer, before routing (app/http/ticket_hits.py)
        template = str(tickets.router.url_path_for(tickets.get_tickets.__name__))
        app.add_middleware(TicketHits, routes=routes, template=template)
    app.add_middleware(AccessMiddleware, routes=routes)  # keys and quotas before any body
    if settings.cors_origins:  # closed by default: no CORS headers at all
        app.add_middleware(
            CORSMiddleware,
            allow_origins=settings.cors_origins,
            # DELETE ends an MCP session; the MCP headers let a browser-based MCP client in.
            allow_methods=["GET", "POST", "DELETE"],
            allow_headers=[
                "Authorization",
                "X-API-Key",
                "Content-Type",
                "X-Request-ID",
                *MCP_HEADERS,
            ],
            expose_headers=["X-Request-ID", "Retry-After", *RATE_LIMIT_HEADERS, *MCP_HEADERS],
            max_age=600,
        )
    app.add_middleware(ObserveRequests, routes=routes)  # added last = outermost: every refusal
    if settings.trusted_proxies:  # before anything reads the client address
        app.add_middleware(ForwardedClient, trusted=parse_networks(settings.trusted_proxies))
    return app


@cache
def _app_from_environment() -> FastAPI:
    return create_app()


def __getattr__(name: str) -> FastAPI:
    # `uvicorn app.main:app`: the app on the environment's settings, built when first asked for.
    if name == "app":
        return _app_from_environment()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
