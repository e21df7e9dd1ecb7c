"""The SDK's own MCP client over the real app, in-process (httpx2's ASGI transport)."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from typing import Any

import httpx2
import jsonschema
import mcp_types
from fastapi import FastAPI
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from app.services import Services

BASE_URL = "http://127.0.0.1:8000"
MCP_URL = f"{BASE_URL}/mcp"
TODAY = "2026-12-01"  # tests.clocks.FakeTime's date
DATE = "2026-12-04"


class RoundRobin(httpx2.AsyncBaseTransport):
    """Sends each request to the next app in turn, as a load balancer in front of replicas
    would; `served` records which app answered each request."""

    def __init__(self, apps: Sequence[FastAPI]) -> None:
        self._transports = [httpx2.ASGITransport(app=app) for app in apps]
        self.served: list[int] = []

    async def handle_async_request(self, request: httpx2.Request) -> httpx2.Response:
        index = len(self.served) % len(self._transports)
        self.served.append(index)
        return await self._transports[index].handle_async_request(request)


@asynccontextmanager
async def mcp_session(transport: httpx2.AsyncBaseTransport) -> AsyncIterator[Client]:
    """One session of the SDK's client, over `transport` (an app, or replicas taking turns)."""
    async with httpx2.AsyncClient(transport=transport, base_url=BASE_URL) as http:
        # cache=None: the client must not answer a repeated call itself; freshness is ours.
        async with Client(streamable_http_client(MCP_URL, http_client=http), cache=None) as client:
            yield client


def in_process(app: FastAPI) -> httpx2.AsyncBaseTransport:
    return httpx2.ASGITransport(app=app)


async def output_schemas(client: Client) -> dict[str, dict[str, Any]]:
    listed = await client.list_tools()
    return {tool.name: tool.output_schema or {} for tool in listed.tools}


def structured(result: mcp_types.CallToolResult, schema: dict[str, Any]) -> dict[str, Any]:
    """The structured answer of a successful call, validated against its output schema."""
    assert not result.is_error, result.content
    data = result.structured_content
    assert isinstance(data, dict)
    jsonschema.Draft202012Validator(schema).validate(data)
    return data


def tool_error(result: mcp_types.CallToolResult) -> dict[str, Any]:
    """The `{code, message, field?}` body of a tool error."""
    assert result.is_error
    block = result.content[0]
    assert isinstance(block, mcp_types.TextContent)
    body: dict[str, Any] = json.loads(block.text)
    return body


def sample(state: Services, name: str, /, **labels: str) -> float:
    return state.metrics.registry.get_sample_value(name, labels) or 0.0
