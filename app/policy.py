"""Route policy: what each route is, declared where the route is declared.

    @router.post("/plan")
    @route_policy(answers=True, traced=True)
    async def plan_trip(...): ...

A route is `open` (probes, docs, the playground's pages: no key, no quota), `answers` a
traveller (its replies are counted in `railtrip_answers_total`, a 4xx/5xx as kind=error),
`traced` (a SERVER span while tracing is on), `strict_key` (a key is required there whenever
`RAILTRIP_PRECHECK_REQUIRES_KEY` is set, even with keys optional elsewhere) or `admin` (an
admin key while keys are on), or `streams` (an SSE stream, under its own cap:
app/http/streams.py). A route that declares nothing is none of these.

The middlewares run before routing, so they read a `RouteTable` built from the app's routes
once they are all added: an exact path is a dict lookup (the hot `/v1/tickets` path costs one),
and only paths with parameters or under a mount are matched route by route.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, TypeVar

from starlette.routing import BaseRoute, Match, Mount, Route
from starlette.types import Scope

POLICY_ATTR = "route_policy"


@dataclass(frozen=True, slots=True)
class RoutePolicy:
    """What the access gate and the request middleware treat a route as."""

    open: bool = False
    answers: bool = False
    traced: bool = False
    strict_key: bool = False
    admin: bool = False
    streams: bool = False  # a Server-Sent-Events stream: counted against its own cap


DEFAULT = RoutePolicy()
OPEN = RoutePolicy(open=True)

Endpoint = TypeVar("Endpoint", bound=Callable[..., Any])


def route_policy(**flags: bool) -> Callable[[Endpoint], Endpoint]:
    """Declare the policy of the route this endpoint serves (put it under the route decorator)."""
    policy = RoutePolicy(**flags)

    def declare(endpoint: Endpoint) -> Endpoint:
        setattr(endpoint, POLICY_ATTR, policy)
        return endpoint

    return declare


def declare(route: BaseRoute, policy: RoutePolicy) -> None:
    """Declare the policy of a route whose endpoint is not ours (a mount, FastAPI's own pages)."""
    setattr(route, POLICY_ATTR, policy)


def policy_of(route: BaseRoute) -> RoutePolicy:
    """The policy declared on `route` or on its endpoint; `DEFAULT` when none is."""
    declared = getattr(route, POLICY_ATTR, None) or getattr(
        getattr(route, "endpoint", None), POLICY_ATTR, None
    )
    return declared if isinstance(declared, RoutePolicy) else DEFAULT


@dataclass(frozen=True, slots=True)
class RouteMatch:
    """The route template a request matches (None for a path no route knows) and its policy."""

    template: str | None
    policy: RoutePolicy


UNMATCHED = RouteMatch(None, DEFAULT)


class RouteTable:
    """Every route's template and policy, looked up by a request's path before routing."""

    def __init__(self, routes: Iterable[BaseRoute]) -> None:
        self._exact: dict[str, RouteMatch] = {}
        self._matched: list[tuple[Route | Mount, RouteMatch]] = []
        for route in routes:
            if not isinstance(route, Route | Mount):
                continue
            found = RouteMatch(route.path, policy_of(route))
            if isinstance(route, Route) and "{" not in route.path:
                self._exact.setdefault(route.path, found)
            else:
                self._matched.append((route, found))

    def match(self, scope: Scope, root_path: str = "") -> RouteMatch:
        """The route `scope` is for. `root_path` is the scope's as the request arrived (a mount
        rewrites it on the way in, after which the mount's own path would not match)."""
        found = self._exact.get(_route_path(scope["path"], root_path))
        if found is not None:
            return found
        arrived = {**scope, "root_path": root_path}
        for route, candidate in self._matched:
            if route.matches(arrived)[0] is not Match.NONE:
                return candidate
        # A route added to the app after the table was built (a test's mount): match it live.
        app = scope.get("app")
        for late in getattr(getattr(app, "router", None), "routes", ()):
            if isinstance(late, Route | Mount) and late.matches(arrived)[0] is not Match.NONE:
                return RouteMatch(late.path, policy_of(late))
        return UNMATCHED

    def routes(self) -> list[RouteMatch]:
        """Every route in the table (the tests check each declared policy is honoured)."""
        return [*self._exact.values(), *(found for _, found in self._matched)]


def _route_path(path: str, root_path: str) -> str:
    """The path the routes see: without the root path it arrived under (as Starlette strips it)."""
    rest = path[len(root_path) :]
    if root_path and path.startswith(root_path) and rest.startswith("/"):
        return rest
    return path
