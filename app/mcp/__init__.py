"""railtrip's tools over the Model Context Protocol: Streamable HTTP at `/mcp` on the app,
and stdio (`python -m app mcp`), both serving the one tool registry (app/tools)."""

from app.mcp.http import MCP_PATH, mount_mcp, serve_mcp
from app.mcp.server import build_server

__all__ = ["MCP_PATH", "build_server", "mount_mcp", "serve_mcp"]
