"""`/mcp`: the tools over Streamable HTTP, stateless with JSON responses (any replica answers
any request), inside the app's own middleware stack (request ids, metrics, API keys).

The route is added when the app is built; the MCP server and its session manager are built
in each lifespan (a session manager runs once), and the route forwards to the current one.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI
from mcp.server.streamable_http_manager import StreamableHTTPASGIApp
from mcp.server.transport_security import TransportSecuritySettings
from starlette.responses import JSONResponse
from starlette.routing import Route
from starlette.types import Message, Receive, Scope, Send

from app.mcp.server import build_server
from app.services import Services
from app.tools import ToolContext

MCP_PATH = "/mcp"


class McpEndpoint:
    """Forwards `/mcp` to the running app's MCP transport; refusals leave as `{code, message}`."""

    def __init__(self) -> None:
        self.route: Route | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        # FastAPI names only its own routes in the scope; the request metrics read the name.
        scope.setdefault("route", self.route)
        transport: StreamableHTTPASGIApp | None = getattr(scope["app"].state, "mcp", None)
        if transport is None:
            response = JSONResponse(
                {"code": "unavailable", "message": "MCP is not running"}, status_code=503
            )
            await response(scope, receive, send)
            return
        await transport(scope, receive, _json_refusals(scope, receive, send))


def _json_refusals(scope: Scope, receive: Receive, send: Send) -> Send:
    """The SDK refuses (bad Host 421, Origin 403, Content-Type 400 …) in bare text; say it as
    the API's `{code, message}` JSON so every client reads errors one way."""
    refused: dict[str, int] = {}

    async def wrapped(message: Message) -> None:
        if message["type"] == "http.response.start":
            headers = dict(message.get("headers", ()))
            if message["status"] >= 400 and b"json" not in headers.get(b"content-type", b""):
                refused["status"] = message["status"]
                return
        elif message["type"] == "http.response.body" and refused:
            if message.get("more_body"):
                return  # the SDK's refusals are one short body
            text = bytes(message.get("body", b"")).decode("utf-8", "replace").strip()
            response = JSONResponse(
                {"code": "mcp_refused", "message": text or "refused"},
                status_code=refused["status"],
            )
            await response(scope, receive, send)
            return
        await send(message)

    return wrapped


def mount_mcp(app: FastAPI) -> None:
    """Route `/mcp` (every method the transport speaks) to the app's MCP transport."""
    endpoint = McpEndpoint()
    endpoint.route = Route(MCP_PATH, endpoint=endpoint)
    app.router.routes.append(endpoint.route)


def _security(hosts: list[str]) -> TransportSecuritySettings:
    origins = [f"{scheme}://{host}" for host in hosts for scheme in ("http", "https")]
    return TransportSecuritySettings(
        enable_dns_rebinding_protection=True, allowed_hosts=hosts, allowed_origins=origins
    )


@asynccontextmanager
async def serve_mcp(app: FastAPI, services: Services) -> AsyncIterator[None]:
    """Build this lifespan's MCP server over `services` and run its session manager."""
    server = build_server(lambda: ToolContext.for_services(services), version=app.version)
    server.streamable_http_app(
        streamable_http_path=MCP_PATH,
        json_response=True,
        stateless_http=True,
        transport_security=_security(list(services.settings.mcp_allowed_hosts)),
    )
    manager = server.session_manager
    running, stop = asyncio.Event(), asyncio.Event()

    async def run() -> None:
        # Its own task: the manager's task group must be left by the task that entered it,
        # and a lifespan may be entered and left by different tasks (test fixtures are).
        async with manager.run():
            running.set()
            await stop.wait()

    task = asyncio.create_task(run(), name="mcp-session-manager")
    started = asyncio.create_task(running.wait())
    await asyncio.wait({task, started}, return_when=asyncio.FIRST_COMPLETED)
    if not running.is_set():
        started.cancel()
        await task  # it ended before serving: raise what stopped it
    app.state.mcp = StreamableHTTPASGIApp(manager)
    try:
        yield
    finally:
        app.state.mcp = None
        stop.set()
        await task
