"""The suite runs on what it builds itself: no RAILTRIP_ environment, no `.env`, no network.

- `RAILTRIP_*` variables are removed from the process environment when the run starts (so a
  developer's exported key or fault knob, or one in `.env`, changes nothing), and settings
  built without an explicit `_env_file` read no `.env`.
- Every request that httpx's real network transport would send to a host off this machine is
  refused and recorded; the autouse guard in conftest.py fails the test that made it. That
  covers the OpenAI-compatible client (it sends through httpx), which the app would otherwise
  survive by falling back to the rule parser, so a raised error alone would go unnoticed.
  Like pydantic-ai's ALLOW_MODEL_REQUESTS=False, but for every real host. Tests that mock
  the transport (pytest-httpx, httpx.MockTransport) or mount ASGI apps never reach it;
  loopback servers that tests start themselves (uvicorn, redis) stay reachable.
"""

from __future__ import annotations

import ipaddress
import os
from collections.abc import Callable
from typing import Any

import httpx

from app.settings import read_dotenv

ENV_PREFIX = "RAILTRIP_"
_LOOPBACK_NAMES = {"localhost", "localhost.localdomain"}

refused: list[str] = []


def is_loopback(host: str) -> bool:
    if host.lower() in _LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def _refuse(request: httpx.Request) -> httpx.ConnectError:
    where = f"{request.method} {request.url.copy_with(query=None)}"
    refused.append(where)
    return httpx.ConnectError(f"tests may not reach the network: {where}", request=request)


def _guard_async(original: Callable[..., Any]) -> Callable[..., Any]:
    async def handle_async_request(self: Any, request: httpx.Request) -> httpx.Response:
        if not is_loopback(request.url.host):
            raise _refuse(request)
        return await original(self, request)

    return handle_async_request


def _guard_sync(original: Callable[..., Any]) -> Callable[..., Any]:
    def handle_request(self: Any, request: httpx.Request) -> httpx.Response:
        if not is_loopback(request.url.host):
            raise _refuse(request)
        return original(self, request)

    return handle_request


def enter() -> list[str]:
    """Make this process hermetic; returns the names of the RAILTRIP_ variables removed."""
    stripped = sorted(k for k in os.environ if k.upper().startswith(ENV_PREFIX))
    for key in stripped:
        del os.environ[key]
    read_dotenv(False)
    httpx.AsyncHTTPTransport.handle_async_request = _guard_async(  # type: ignore[method-assign]
        httpx.AsyncHTTPTransport.handle_async_request
    )
    httpx.HTTPTransport.handle_request = _guard_sync(  # type: ignore[method-assign]
        httpx.HTTPTransport.handle_request
    )
    return stripped


def take_refused() -> list[str]:
    """The network requests refused since the last call (and forget them)."""
    taken = list(refused)
    refused.clear()
    return taken
