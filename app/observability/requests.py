"""The request-observing middleware (`ObserveRequests`: request id, one JSON log line, the HTTP
metrics, the trace span) and what it labels a request with: its route template, for every route.

The router records the route it chose in the scope, but not for everything: FastAPI's own
`/docs` and `/openapi.json` are served without it (matching the app's plain routes gives
them their template), and a body refused before routing (413, the 422 for JSON nested too
deep) never reaches the router: it is labelled `before_routing`. All of these used to be
counted as `endpoint="unmatched"`, which now means only a path no route knows (404).
"""

from __future__ import annotations

import logging
import time
import uuid

from starlette.routing import Match, Mount, Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.limits import REFUSED_BEFORE_ROUTING
from app.observability.answers import ANSWERED
from app.observability.logs import request_id, request_id_from
from app.observability.metrics import (
    ANSWERING_ENDPOINTS,
    BEFORE_ROUTING_ENDPOINT,
    UNMATCHED_ENDPOINT,
    Metrics,
)
from app.observability.tracing import end_request_span, request_span

log = logging.getLogger("railtrip.http")


def route_template(scope: Scope, root_path: str = "") -> str:
    """The route template of this request (`/v1/trains/{train_number}/stops`), `before_routing`
    for a body refused before the router saw it, or `unmatched` for a path no route knows.

    `root_path` is the scope's root path as the request arrived: a mount rewrites it in the
    scope on the way in, after which the mount's own path would no longer match."""
    path = getattr(scope.get("route"), "path", None)
    if path:
        return str(path)
    if scope.get("state", {}).get(REFUSED_BEFORE_ROUTING):
        return BEFORE_ROUTING_ENDPOINT
    # FastAPI serves its own pages (/docs, /openapi.json) as plain routes it does not record;
    # a mounted app (/mcp) is labelled by its mount path.
    app = scope.get("app")
    arrived = {**scope, "root_path": root_path}
    for route in getattr(getattr(app, "router", None), "routes", ()):
        if isinstance(route, Route | Mount) and route.matches(arrived)[0] is not Match.NONE:
            return route.path
    return UNMATCHED_ENDPOINT


def count_error_answer(metrics: Metrics, scope: Scope, endpoint: str, status: int) -> None:
    """A 4xx/5xx from an answering endpoint whose handler counted no answer is kind=error."""
    if status >= 400 and endpoint in ANSWERING_ENDPOINTS:
        if not scope.get("state", {}).get(ANSWERED):
            metrics.answers.labels(endpoint=endpoint, kind="error").inc()


class ObserveRequests:
    """Request id in and out, one JSON log line and the HTTP metrics per request, and the
    request's trace span on planning routes when tracing is on (app/observability/tracing.py).

    A plain ASGI middleware: `@app.middleware("http")` (BaseHTTPMiddleware) would run every
    request in an extra task with memory streams between its two halves.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        given = next((v for k, v in scope["headers"] if k == b"x-request-id"), b"")
        rid = request_id_from(given) or uuid.uuid4().hex
        token = request_id.set(rid)
        started = time.perf_counter()
        root_path = scope.get("root_path", "")
        status = 500
        started_response = False

        async def receive_noting_disconnect() -> Message:
            nonlocal status
            message = await receive()
            if message["type"] == "http.disconnect" and not started_response:
                status = 499  # the client went away before any response (nginx's code)
            return message

        async def send_with_id(message: Message) -> None:
            nonlocal status, started_response
            if message["type"] == "http.response.start":
                started_response = True
                status = message["status"]
                headers = [*message.get("headers", ()), (b"x-request-id", rid.encode("latin-1"))]
                message = {**message, "headers": headers}
            await send(message)

        span = request_span(scope)  # None unless tracing is on and this is a planning route
        try:
            if span is None:
                await self.app(scope, receive_noting_disconnect, send_with_id)
            else:
                with span as current:
                    try:
                        await self.app(scope, receive_noting_disconnect, send_with_id)
                    finally:
                        end_request_span(current, status)
        finally:
            elapsed = time.perf_counter() - started
            endpoint = route_template(scope, root_path)
            method = scope["method"]
            state = getattr(scope["app"].state, "services", None)
            if state is not None:
                state.metrics.http_requests.labels(
                    endpoint=endpoint, method=method, status=str(status)
                ).inc()
                state.metrics.http_duration.labels(endpoint=endpoint, method=method).observe(
                    elapsed
                )
                count_error_answer(state.metrics, scope, endpoint, status)
            log.info(
                "request",
                extra={
                    "endpoint": endpoint,
                    "method": method,
                    "status": status,
                    "latency_ms": round(elapsed * 1000, 2),
                    **scope.get("state", {}).get("log_extra", {}),
                },
            )
            request_id.reset(token)
