"""`open_services`: every service railtrip runs on, built from one settings snapshot, opened
and closed together. The app's lifespan, the CLI's `plan` and the stdio MCP server run on it.

    settings ─ the ticket side (app/wiring/core.py): station directory, sandbox vendors,
               the shared httpx client, Redis, guarded sources, ticket query service,
               transfer search, stop lists
             ─ access (keys, quotas) ─ the model (parser behind its breaker, tool mode)
             ─ intent parser ─ planning agent ─ sessions
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager
from typing import TYPE_CHECKING

from app.agent import PlanningAgent
from app.agent.states import State
from app.intent.parser import IntentParser
from app.observability.metrics import KnownLabels
from app.runtime import Runtime
from app.services import Services
from app.sessions import SessionStore
from app.settings import Settings
from app.tickets.guard import start_sessions
from app.tools import ticket_endpoints
from app.wiring import llm as model
from app.wiring.access import build_access
from app.wiring.core import (  # re-exported: part of this module's interface
    live_station_list,
    open_core,
    redis_client,
    station_directory,
    station_refresher,
)
from sources.sandbox.network import default_network

if TYPE_CHECKING:
    from opentelemetry.sdk.trace import TracerProvider

log = logging.getLogger("railtrip.wiring")

__all__ = [
    "known_labels",
    "live_station_list",
    "open_services",
    "redis_client",
    "station_directory",
    "station_refresher",
]


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
    begin_sessions: bool = False,
) -> AsyncIterator[Services]:
    """Every service, wired; all closed on exit (the ticket service's refreshes first).

    `tracer_provider` turns tracing on with the caller's provider (tests: the SDK's in-memory
    exporter, which the caller shuts down); otherwise `RAILTRIP_OTEL_ENDPOINT` decides.
    `begin_sessions`: the sources' sessions begin as soon as the sources exist
    (`start_sessions`: 12306's init page), for a caller that queries soon (the CLI's `plan`),
    so the rest of the wiring and the caller's own work run while the source's pacing holds
    its next request; waited for on exit.
    """
    runtime = runtime or Runtime()
    async with AsyncExitStack() as stack:
        core = await open_core(
            settings, runtime, stack, known=known_labels(settings), tracer_provider=tracer_provider
        )
        if begin_sessions:
            warming = await start_sessions(core.sources)
            stack.push_async_callback(_settle, warming)
        # The bundled station list is read on first use (the CLI's `stops` reads it inside
        # the source's pacing); every service here needs it, so it is read now: a replica
        # pays it at start-up, not in its first request (the plan's, after its session page).
        len(core.directory)
        metrics, directory, http, redis = core.metrics, core.directory, core.http, core.redis
        tickets, transfer_search = core.tickets, core.transfer_search
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
            stop_lists=core.stop_lists,
            # Its timetable bounds how good a plan can be and names the legs of a better one.
            schedule=default_network(),
        )
        yield Services(
            settings=settings,
            runtime=runtime,
            metrics=metrics,
            directory=directory,
            http=http,
            sources=core.sources,
            tickets=tickets,
            redis=redis,
            redis_tier=core.redis_tier,
            redis_health=core.redis_health,
            sandbox_faults=core.sandbox_faults,
            intent_parser=intent_parser,
            sessions=SessionStore(
                redis,
                settings.session_ttl_s,
                health=core.redis_health,
                max_local=settings.session_memory_max,
                monotonic=runtime.monotonic,
            ),
            agent=agent,
            llm=llm,
            tracer_provider=core.tracer_provider,
            stop_lists=core.stop_lists,
            access=access,
            transfer_search=transfer_search,
        )


async def _settle(tasks: list[asyncio.Task[bool]]) -> None:
    await asyncio.gather(*tasks)
