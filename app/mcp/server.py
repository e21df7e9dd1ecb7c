"""railtrip's tools as an MCP server (the SDK's low-level `Server`), one per app.

The low-level server is used on purpose: the registry already holds each tool's input and
output schemas and executor, and unlike `MCPServer` it does not call `logging.basicConfig`
(which would take over the root logger of the process that embeds it).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from typing import Any

import mcp_types as types
from mcp.server import Server
from mcp.server.context import ServerRequestContext
from mcp.shared.exceptions import MCPError

from app.mcp import texts
from app.tools import ToolContext, ToolFailure, call_tool, tools_for

log = logging.getLogger("railtrip.mcp")

SERVER_NAME = "railtrip"
STATIONS_URI = "railtrip://stations"


def stations_resource() -> types.Resource:
    """The station list as a resource: what a client reads once instead of guessing names."""
    return types.Resource(
        uri=STATIONS_URI,
        name="stations",
        title="车站列表",
        description=texts.STATIONS_RESOURCE,
        mime_type="application/json",
    )


def stations_json(context: ToolContext) -> str:
    """Every station of the directory: telecode, name, city, pinyin, initials."""
    return json.dumps(
        [
            {
                "telecode": s.telecode,
                "name": s.name,
                "city": s.city,
                "pinyin": s.pinyin,
                "initials": s.initials,
            }
            for s in context.directory
        ],
        ensure_ascii=False,
        separators=(",", ":"),
    )


def _text(payload: dict[str, Any]) -> list[types.ContentBlock]:
    return [types.TextContent(type="text", text=json.dumps(payload, ensure_ascii=False))]


def build_server(context: Callable[[], ToolContext], version: str = "") -> Server[Any]:
    """A fresh MCP server whose tools run on `context()` (one per call)."""
    offered = tools_for("mcp")
    listing = [
        types.Tool(
            name=spec.name,
            description=spec.description,
            input_schema=spec.input_schema(),
            output_schema=spec.output_schema(),
            annotations=types.ToolAnnotations(
                read_only_hint=True, destructive_hint=False, idempotent_hint=True
            ),
        )
        for spec in offered
    ]
    schemas = {spec.name: spec.input_schema() for spec in offered}

    async def list_tools(
        ctx: ServerRequestContext[Any], params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        return types.ListToolsResult(tools=listing)

    async def on_call_tool(
        ctx: ServerRequestContext[Any], params: types.CallToolRequestParams
    ) -> types.CallToolResult:
        if params.name not in schemas:  # not a tool of ours: a protocol error (MCP spec)
            raise MCPError(types.INVALID_PARAMS, f"unknown tool {params.name!r}")
        try:
            answer = await call_tool(context(), "mcp", params.name, params.arguments)
        except ToolFailure as failure:
            log.info("tool error", extra={"tool": params.name, "code": failure.code})
            return types.CallToolResult(content=_text(failure.body()), is_error=True)
        except Exception:  # degrade, never crash: the model gets an error it can report
            log.exception("tool failed", extra={"tool": params.name})
            body = {"code": "internal", "message": texts.TOOL_FAILED}
            return types.CallToolResult(content=_text(body), is_error=True)
        data = answer.model_dump(mode="json")
        return types.CallToolResult(content=_text(data), structured_content=data)

    async def list_resources(
        ctx: ServerRequestContext[Any], params: types.PaginatedRequestParams | None
    ) -> types.ListResourcesResult:
        return types.ListResourcesResult(resources=[stations_resource()])

    async def read_resource(
        ctx: ServerRequestContext[Any], params: types.ReadResourceRequestParams
    ) -> types.ReadResourceResult:
        if params.uri != STATIONS_URI:
            raise MCPError(types.INVALID_PARAMS, f"unknown resource {params.uri!r}")
        contents = types.TextResourceContents(
            uri=STATIONS_URI, mime_type="application/json", text=stations_json(context())
        )
        return types.ReadResourceResult(contents=[contents])

    return Server(
        SERVER_NAME,
        version=version,
        instructions=texts.INSTRUCTIONS,
        get_tool_input_schema=schemas.get,
        on_list_tools=list_tools,
        on_call_tool=on_call_tool,
        on_list_resources=list_resources,
        on_read_resource=read_resource,
    )
