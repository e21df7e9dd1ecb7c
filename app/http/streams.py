"""Streams have their own bound: at most `max_streams` Server-Sent-Event streams at once.

A stream holds its connection for the whole run (seconds, and a client may keep reading for
as long as it likes), so without a bound of their own 100 open plan streams took every
connection slot (`RAILTRIP_MAX_CONNECTIONS`) and refused new clients, `/healthz` included.
Beyond the cap a stream route is refused at once, before its body is read: 503
`{code: "overloaded"}` with `Retry-After`. The cap is below the connection cap (settings
validate it), so probes and ordinary requests always keep room. Which routes stream is each
route's own declaration (`route_policy(streams=True)`).
"""

from __future__ import annotations

from starlette.types import ASGIApp, Receive, Scope, Send

from app.http.body_limits import send_json
from app.http.texts import STREAMS_FULL
from app.policy import RouteTable

RETRY_AFTER_S = 2


class StreamCap:
    """Counts open streams (per process) and refuses one beyond `limit`."""

    def __init__(self, app: ASGIApp, routes: RouteTable, limit: int) -> None:
        self.app = app
        self.routes = routes
        self.limit = limit
        self.open = 0

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (
            scope["type"] != "http"
            or not self.routes.match(scope, scope.get("root_path", "")).policy.streams
        ):
            await self.app(scope, receive, send)
            return
        if self.open >= self.limit:
            app = scope.get("app")
            services = getattr(app.state, "services", None) if app is not None else None
            if services is not None:
                services.metrics.rejections.labels(reason="overloaded").inc()
            body = {
                "code": "overloaded",
                "reason": "overloaded",
                "message": STREAMS_FULL.format(retry_after=RETRY_AFTER_S),
                "retry_after_s": RETRY_AFTER_S,
            }
            headers = [(b"retry-after", str(RETRY_AFTER_S).encode())]
            await send_json(send, 503, body, headers)
            return
        self.open += 1
        try:
            await self.app(scope, receive, send)
        finally:
            self.open -= 1
