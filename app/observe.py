"""What the request middleware labels a request with: its route template, for every route.

The router records the route it chose in the scope, but not for everything: FastAPI's own
`/docs` and `/openapi.json` are served without it (matching the app's plain routes gives
them their template), and a body refused before routing (413, the 422 for JSON nested too
deep) never reaches the router: it is labelled `before_routing`. All of these used to be
counted as `endpoint="unmatched"`, which now means only a path no route knows (404).
"""

from __future__ import annotations

from starlette.routing import Match, Mount, Route
from starlette.types import Scope

from app.answers import ANSWERED
from app.limits import REFUSED_BEFORE_ROUTING
from app.metrics import ANSWERING_ENDPOINTS, BEFORE_ROUTING_ENDPOINT, UNMATCHED_ENDPOINT, Metrics


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
