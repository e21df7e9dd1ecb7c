"""Streams have their own bound: beyond `max_streams` open SSE streams a new one is refused
at once (503 overloaded with Retry-After) while probes and ordinary requests pass (100 open
plan streams once took every connection slot, /healthz included)."""

from __future__ import annotations

import asyncio
import json

import pytest

from app.http.streams import StreamCap
from app.main import create_app
from app.settings import Settings

CAP = 3


def test_the_stream_cap_must_stay_below_the_connection_cap() -> None:
    with pytest.raises(ValueError, match="RAILTRIP_MAX_STREAMS"):
        Settings(max_connections=10, max_streams=10)


def test_both_stream_routes_declare_themselves_streams_and_nothing_else_does() -> None:
    routes = create_app(Settings()).state.routes
    streams = {r.template for r in routes.routes() if r.policy.streams}
    assert streams == {"/v1/plan/stream", "/v1/chat/stream"}


def scope(path: str, method: str = "POST") -> dict:
    return {"type": "http", "method": method, "path": path, "root_path": "", "headers": []}


async def test_streams_beyond_their_cap_are_503_at_once_and_others_pass() -> None:
    release = asyncio.Event()
    served: list[str] = []

    async def app(scope, receive, send) -> None:  # a stream holds its slot until released
        served.append(scope["path"])
        if scope["path"].endswith("/stream"):
            await release.wait()

    routes = create_app(Settings()).state.routes
    cap = StreamCap(app, routes, CAP)
    sent: list[dict] = []

    async def send(message: dict) -> None:
        sent.append(message)

    async def receive() -> dict:
        return {"type": "http.request", "body": b"", "more_body": False}

    held = [asyncio.create_task(cap(scope("/v1/plan/stream"), receive, send)) for _ in range(CAP)]
    await asyncio.sleep(0)
    assert cap.open == CAP and not sent

    await cap(scope("/v1/chat/stream"), receive, send)  # refused without reaching the app
    start, body = sent
    assert start["status"] == 503
    assert (b"retry-after", b"2") in start["headers"]
    assert json.loads(body["body"])["code"] == "overloaded"
    await cap(scope("/healthz", "GET"), receive, send)
    await cap(scope("/v1/plan"), receive, send)
    assert served[CAP:] == ["/healthz", "/v1/plan"]

    release.set()
    await asyncio.gather(*held)
    assert cap.open == 0  # every slot given back, a failing stream's too
    await cap(scope("/v1/plan/stream"), receive, send)
    assert served[-1] == "/v1/plan/stream"
