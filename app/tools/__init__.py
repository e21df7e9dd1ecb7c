"""railtrip's read-only tools, defined once and served to the agent's tool mode and to MCP."""

from app.tools.context import ToolContext, ToolFailure
from app.tools.registry import TOOLS, ToolSpec, call_tool, ticket_endpoints, tools_for

__all__ = [
    "TOOLS",
    "ToolContext",
    "ToolFailure",
    "ToolSpec",
    "call_tool",
    "ticket_endpoints",
    "tools_for",
]
