"""`python -m app mcp`: the same tools over stdio, for clients that only speak it.

The app runs in-process through its lifespan (the embedded default, or the sources, Redis and
model the environment configures); stdout carries only the protocol, logs go to stderr.
"""

from __future__ import annotations

import anyio
from mcp.server.stdio import stdio_server

from app.mcp.server import build_server
from app.tools import ToolContext


async def serve_stdio() -> None:
    """Serve MCP on stdin/stdout until the client closes stdin."""
    from app.main import create_app

    app = create_app()
    async with app.router.lifespan_context(app):
        state = app.state.services
        server = build_server(lambda: ToolContext.for_app(state), version=app.version)
        async with stdio_server() as (read, write):
            await server.run(read, write, server.create_initialization_options())


def main() -> int:
    anyio.run(serve_stdio)
    return 0
