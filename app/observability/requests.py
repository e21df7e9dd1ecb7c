"""The request-observing middleware (`ObserveRequests`): the request id in and out, one JSON
log line, the HTTP metrics, the answers a route that answers travellers did not count, and the
trace span of a traced route, all labelled with the request's route template.

The router records the route it chose in the scope, but not for everything: FastAPI's own
`/docs` and `/openapi.json` are served without it, and a request refused before its handler
(401 and 403 by the access gate, 429 by the quotas, 413 and the 422 for JSON nested too deep
by the body limits) never reaches the router. The route table gives each of them the template
its path matches; `unmatched` means only a path no route knows (404). Which routes answer and
which are traced is each route's declaration (app/policy.py).
"""

from __future__ import annotations

import logging
import os
import time

from prometheus_client import Counter, Histogram
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.observability.answers import ANSWERED
from app.observability.logs import log_fields, request_id, request_id_from
from app.observability.metrics import UNMATCHED_ENDPOINT, Metrics
from app.observability.tracing import end_request_span, request_span
from app.policy import RouteMatch, RouteTable

log = logging.getLogger("railtrip.http")


def route_template(scope: Scope, matched: RouteMatch) -> str:
    """The route template of this request (`/v1/trains/{train_number}/stops`), whether the
    router saw it or it was refused before (401, 413, 429 …); `unmatched` for a path no route
    knows."""
    path = getattr(scope.get("route"), "path", None)
    if path:
        return str(path)
    return matched.template or UNMATCHED_ENDPOINT


def count_error_answer(
    metrics: Metrics, scope: Scope, matched: RouteMatch, endpoint: str, status: int
) -> None:
    """A 4xx/5xx from an answering route whose handler counted no answer is kind=error (a
    refusal before the handler included: the traveller got no answer)."""
    if status < 400 or not matched.policy.answers or endpoint != matched.template:
        return
    if not scope.get("state", {}).get(ANSWERED):
        metrics.answers.labels(endpoint=endpoint, kind="error").inc()


class _HttpSeries:
    """The HTTP metric children of one `Metrics`, bound once per label set: `labels()` is a
    locked dict lookup with its arguments sorted, twice per request otherwise."""

    def __init__(self, metrics: Metrics) -> None:
        self.metrics = metrics
        self._requests: dict[tuple[str, str, int], Counter] = {}
        self._durations: dict[tuple[str, str], Histogram] = {}

    def requests(self, endpoint: str, method: str, status: int) -> Counter:
        key = (endpoint, method, status)
        child = self._requests.get(key)
        if child is None:
            child = self.metrics.http_requests.labels(
                endpoint=endpoint, method=method, status=str(status)
            )
            self._requests[key] = child
        return child

    def duration(self, endpoint: str, method: str) -> Histogram:
        key = (endpoint, method)
        child = self._durations.get(key)
        if child is None:
            child = self.metrics.http_duration.labels(endpoint=endpoint, method=method)
            self._durations[key] = child
        return child


class ObserveRequests:
    """Request id in and out, one JSON log line and the HTTP metrics per request, and the
    request's trace span on traced routes when tracing is on (app/observability/tracing.py).

    A plain ASGI middleware: `@app.middleware("http")` (BaseHTTPMiddleware) would run every
    request in an extra task with memory streams between its two halves.
    """

    def __init__(self, app: ASGIApp, routes: RouteTable) -> None:
        self.app = app
        self.routes = routes
        self._series: _HttpSeries | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        given = next((v for k, v in scope["headers"] if k == b"x-request-id"), b"")
        rid = request_id_from(given) or os.urandom(16).hex()
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

        matched = self.routes.match(scope, root_path)
        # None unless tracing is on and the route is traced.
        span = request_span(scope) if matched.policy.traced else None
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
            endpoint = route_template(scope, matched)
            method = scope["method"]
            # The services the app's lifespan opened (app.state.services), when it has.
            metrics: Metrics | None = getattr(
                getattr(scope["app"].state, "services", None), "metrics", None
            )
            if metrics is not None:
                series = self._series
                if series is None or series.metrics is not metrics:  # a new lifespan
                    series = self._series = _HttpSeries(metrics)
                series.requests(endpoint, method, status).inc()
                series.duration(endpoint, method).observe(elapsed)
                count_error_answer(metrics, scope, matched, endpoint, status)
            if log.isEnabledFor(logging.INFO):
                # As `log.info("request", extra=…)`, without the caller's frame (not logged).
                log_fields(
                    log,
                    logging.INFO,
                    "request",
                    {
                        "endpoint": endpoint,
                        "method": method,
                        "status": status,
                        "latency_ms": round(elapsed * 1000, 2),
                        **scope.get("state", {}).get("log_extra", {}),
                    },
                )
            request_id.reset(token)
