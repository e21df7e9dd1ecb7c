"""The same tools over stdio (`python -m app mcp`), for clients that only speak it.

Runs on services the caller opened (the CLI: the embedded default, or the sources, Redis and
model the environment configures); stdout carries only the protocol, logs go to stderr.
"""

from __future__ import annotations

from mcp.server.stdio import stdio_server

from app import __version__
from app.mcp.server import build_server
from app.services import Services
from app.tools import ToolContext


async def serve_stdio(services: Services) -> None:
    """Serve MCP on stdin/stdout until the client closes stdin."""
    server = build_server(lambda: ToolContext.for_services(services), version=__version__)
    async with stdio_server() as (read, write):
        await server.run(read, write, server.create_initialization_options())
