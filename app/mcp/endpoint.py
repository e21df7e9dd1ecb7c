"""`/mcp` on the app, without the MCP SDK: the route, and a transport started on first use.

The SDK (and the tool server over it) is imported and its session manager started when the
first request reaches `/mcp`, not at start-up: a replica that no MCP client talks to never
loads it (about 26 MiB and, on a busy machine, seconds of start-up). Once started, it runs
until the lifespan ends. The SDK side is app/mcp/http.py.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable, Coroutine
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Any

from starlette.responses import JSONResponse
from starlette.routing import Route
from starlette.types import ASGIApp, Receive, Scope, Send

if TYPE_CHECKING:
    from fastapi import FastAPI

    from app.services import Services

MCP_PATH = "/mcp"
NO_EVENT_STREAM = "/mcp is stateless and answers each POST with JSON: it offers no event stream"


class LazyTransport:
    """Starts this lifespan's MCP transport once, on the first request that needs it."""

    def __init__(self, app: FastAPI, services: Services) -> None:
        self._app = app
        self._services = services
        self._lock = asyncio.Lock()
        self._transport: ASGIApp | None = None
        self._stop: Callable[[], Coroutine[Any, Any, None]] | None = None

    async def get(self) -> ASGIApp:
        if self._transport is None:
            async with self._lock:
                if self._transport is None:
                    from app.mcp.http import start_transport

                    self._transport, self._stop = await start_transport(
                        self._app, self._services, MCP_PATH
                    )
        return self._transport

    async def aclose(self) -> None:
        if self._stop is not None:
            await self._stop()
        self._transport = self._stop = None


class McpEndpoint:
    """Forwards `/mcp` to the running app's MCP transport; refusals leave as `{code, message}`.
    A GET (a client asking for a stream of server-initiated messages) is 405."""

    def __init__(self) -> None:
        self.route: Route | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        # FastAPI names only its own routes in the scope; the request metrics read the name.
        scope.setdefault("route", self.route)
        if scope["method"] == "GET":
            # Stateless with JSON answers, this server has nothing to push: a GET stream would
            # only hold a connection open, for ever (100 of them took every slot, /healthz's
            # too). The protocol lets a server without such a stream answer 405.
            response = JSONResponse(
                {"code": "method_not_allowed", "message": NO_EVENT_STREAM},
                status_code=405,
                headers={"Allow": "POST"},
            )
            await response(scope, receive, send)
            return
        lazy: LazyTransport | None = getattr(scope["app"].state, "mcp", None)
        if lazy is None:
            response = JSONResponse(
                {"code": "unavailable", "message": "MCP is not running"}, status_code=503
            )
            await response(scope, receive, send)
            return
        from app.mcp.http import json_refusals

        transport = await lazy.get()
        await transport(scope, receive, json_refusals(scope, receive, send))


def mount_mcp(app: FastAPI) -> None:
    """Route `/mcp` (every method the transport speaks) to the app's MCP transport."""
    endpoint = McpEndpoint()
    endpoint.route = Route(MCP_PATH, endpoint=endpoint)
    app.router.routes.append(endpoint.route)


@asynccontextmanager
async def serve_mcp(app: FastAPI, services: Services) -> AsyncIterator[None]:
    """Serve `/mcp` over `services` in this lifespan (its transport starts on first use)."""
    lazy = LazyTransport(app, services)
    app.state.mcp = lazy
    try:
        yield
    finally:
        app.state.mcp = None
        await lazy.aclose()
