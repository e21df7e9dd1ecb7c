"""One registry: the agent's tool mode and MCP offer the same definitions, not copies."""

from __future__ import annotations

import pytest

from app.mcp.server import build_server
from app.tools import TOOLS, ToolFailure, call_tool, tools_for
from app.tools.context import ToolContext
from app.tools.model import Answer
from app.tools.runner import OPENAI_TOOLS as AGENT_TOOLS


def test_agent_tool_schemas_are_the_registry_input_models() -> None:
    by_name = {spec.name: spec for spec in TOOLS}
    assert [t["function"]["name"] for t in AGENT_TOOLS] == [s.name for s in tools_for("agent")]
    for tool in AGENT_TOOLS:
        spec = by_name[tool["function"]["name"]]
        assert tool["function"]["parameters"] == spec.input.model_json_schema()
        assert tool["function"]["description"] == spec.description


def test_the_tools_both_surfaces_share_are_the_same_specs() -> None:
    shared = {s.name for s in tools_for("agent")} & {s.name for s in tools_for("mcp")}
    assert shared == {"search_tickets", "find_transfers"}
    assert all(spec.surfaces for spec in TOOLS)


def test_every_output_model_carries_freshness_as_of_and_summary() -> None:
    for spec in TOOLS:
        assert issubclass(spec.output, Answer), spec.name


async def test_mcp_server_lists_the_registry_schemas() -> None:
    server = build_server(lambda: ToolContext.__new__(ToolContext))
    assert server.get_tool_input_schema is not None
    for spec in tools_for("mcp"):
        assert server.get_tool_input_schema(spec.name) == spec.input_schema()
    assert server.get_tool_input_schema("build_itinerary") is None


async def test_a_tool_of_the_other_surface_is_unknown_here() -> None:
    unused = ToolContext.__new__(ToolContext)  # never reached: the name is refused first
    with pytest.raises(ToolFailure) as refused:
        await call_tool(unused, "agent", "check_booking", {})
    assert refused.value.code == "unknown_tool"
    assert "available: search_tickets, find_transfers, build_itinerary" in refused.value.message
