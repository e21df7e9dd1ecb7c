"""`/mcp`: the tools over Streamable HTTP, stateless with JSON responses (any replica answers
any request), inside the app's own middleware stack (request ids, metrics, API keys).

The route is added when the app is built (app/mcp/endpoint.py, without the SDK); the MCP
server and its session manager are built here, once per lifespan, when the first request
reaches `/mcp` (a session manager runs once), and the route forwards to it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import Any

from fastapi import FastAPI
from mcp.server.streamable_http_manager import StreamableHTTPASGIApp
from mcp.server.transport_security import TransportSecuritySettings
from starlette.responses import JSONResponse
from starlette.types import Message, Receive, Scope, Send

from app.mcp.server import build_server
from app.services import Services
from app.tools import ToolContext


def json_refusals(scope: Scope, receive: Receive, send: Send) -> Send:
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


def _security(hosts: list[str]) -> TransportSecuritySettings:
    origins = [f"{scheme}://{host}" for host in hosts for scheme in ("http", "https")]
    return TransportSecuritySettings(
        enable_dns_rebinding_protection=True, allowed_hosts=hosts, allowed_origins=origins
    )


async def start_transport(
    app: FastAPI, services: Services, path: str
) -> tuple[StreamableHTTPASGIApp, Callable[[], Coroutine[Any, Any, None]]]:
    """Build an MCP server over `services` at `path`, run its session manager in a task of
    its own, and return its transport and the coroutine function that stops it."""
    server = build_server(lambda: ToolContext.for_services(services), version=app.version)
    server.streamable_http_app(
        streamable_http_path=path,
        json_response=True,
        stateless_http=True,
        transport_security=_security(list(services.settings.mcp_allowed_hosts)),
    )
    manager = server.session_manager
    running, stop = asyncio.Event(), asyncio.Event()

    async def run() -> None:
        # Its own task: the manager's task group must be left by the task that entered it,
        # and the request that starts it (or a lifespan) may end in another task.
        async with manager.run():
            running.set()
            await stop.wait()

    task = asyncio.create_task(run(), name="mcp-session-manager")
    started = asyncio.create_task(running.wait())
    await asyncio.wait({task, started}, return_when=asyncio.FIRST_COMPLETED)
    if not running.is_set():
        started.cancel()
        await task  # it ended before serving: raise what stopped it

    async def close() -> None:
        stop.set()
        await task

    return StreamableHTTPASGIApp(manager), close
