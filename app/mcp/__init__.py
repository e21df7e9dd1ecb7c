"""railtrip's tools over the Model Context Protocol: Streamable HTTP at `/mcp` on the app,
and stdio (`python -m app mcp`), both serving the one tool registry (app/tools).

Importing this package does not import the MCP SDK: `/mcp` loads it on its first request
(app/mcp/endpoint.py), stdio when it runs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from app.mcp.endpoint import MCP_PATH, mount_mcp, serve_mcp

if TYPE_CHECKING:
    from app.mcp.server import build_server

__all__ = ["MCP_PATH", "build_server", "mount_mcp", "serve_mcp"]


def __getattr__(name: str) -> Any:
    if name == "build_server":
        from app.mcp.server import build_server

        return build_server
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
