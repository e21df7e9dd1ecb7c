"""The hit path: an exact L1 hit of `GET /v1/tickets` answered before routing.

    request ─ not GET on the route, or no services yet ─────────────────────► the app
        │ a parameter refused, refresh=true, or the query refused ─────────► the app (its 422)
        │ not in L1 ───────────────────────────────────────────────────────► the app (counts
        │                                                                     the miss)
        └ L1 hit ─ the entry's body for this query (made once), its age in ─► 200

It sits inside the request observer and the access gate, so the request id, the log line,
the HTTP metrics, keys, quotas and RateLimit headers are theirs on both paths, and before
routing: Starlette's routing, FastAPI's request handling and the handler were most of a hit's
cost (bench/hit_profile.py). It answers only what the route would answer from the same entry,
with the same bytes: the same parameter reading (app/http/ticket_args.py) and resolution
(app/usecases/tickets.py), the hit counted and an old entry refreshed by the same
`TicketService.peek`, the body rendered from the route's own answer (app/tickets/hits.py), the
answer counted and logged alike. Everything else goes to the route, which says it the usual
way. tests/app/test_ticket_hits.py holds both paths to the same bytes, headers, metrics and
log line.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from prometheus_client import Counter
from starlette.datastructures import QueryParams
from starlette.types import ASGIApp, Receive, Scope, Send

from app.errors import ServiceError
from app.http.ticket_args import read_ticket_args
from app.observability.answers import ANSWERED
from app.observability.metrics import Metrics
from app.policy import RouteTable
from app.services import Services
from app.tickets.hits import HitBody
from app.tickets.model import ResolvedQuery
from app.usecases.tickets import hit_body, resolve_tickets

MAX_KNOWN_QUERIES = 4096
"""Query strings whose resolution is remembered (then forgotten all at once: a bound, not an
LRU; the resolution itself is memoised behind it)."""


@dataclass(slots=True, eq=False)  # compared and hashed by identity: a key of entry.bodies
class _Known:
    """A query string as resolved on one day by one directory."""

    today: dt.date
    generation: int
    resolved: ResolvedQuery


class _Counters:
    """The answer counters of the route, bound once (`labels()` is a locked dict lookup)."""

    def __init__(self, metrics: Metrics, endpoint: str) -> None:
        self.metrics = metrics
        self.answers = metrics.answers.labels(endpoint=endpoint, kind="tickets")
        self._responses = metrics.responses
        self._endpoint = endpoint
        self._by_freshness: dict[str, Counter] = {}

    def responses(self, freshness: str) -> Counter:
        child = self._by_freshness.get(freshness)
        if child is None:
            child = self._responses.labels(endpoint=self._endpoint, freshness=freshness)
            self._by_freshness[freshness] = child
        return child


class TicketHits:
    """Answers L1 hits of the route at `template` (`GET /v1/tickets`) before routing."""

    def __init__(self, app: ASGIApp, routes: RouteTable, template: str) -> None:
        self.app = app
        self.routes = routes
        self.template = template
        self._services: Services | None = None
        self._known: dict[bytes, _Known] = {}
        self._counters: _Counters | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (
            scope["type"] != "http"
            or scope["method"] != "GET"
            or self.routes.match(scope, scope.get("root_path", "")).template != self.template
        ):
            await self.app(scope, receive, send)
            return
        services: Services | None = getattr(scope["app"].state, "services", None)
        found = self._hit(services, scope["query_string"]) if services is not None else None
        if found is None:
            await self.app(scope, receive, send)
            return
        body, age = found
        counters = self._counters
        assert counters is not None  # bound by _hit for these services
        counters.answers.inc()
        counters.responses(body.freshness).inc()
        state = scope.setdefault("state", {})
        state[ANSWERED] = True
        state["log_extra"] = body.log_fields
        payload = body.render(age)
        # As the route's `Response(body, media_type="application/json")` sends it.
        headers = [
            (b"content-length", str(len(payload)).encode("latin-1")),
            (b"content-type", b"application/json"),
        ]
        await send({"type": "http.response.start", "status": 200, "headers": headers})
        await send({"type": "http.response.body", "body": payload})

    def _hit(self, services: Services, query_string: bytes) -> tuple[HitBody, float] | None:
        """The body and age of an L1 hit for this query string, or None (the route's)."""
        if services is not self._services:  # a new lifespan: nothing known holds
            self._services = services
            self._known.clear()
            self._counters = _Counters(services.metrics, self.template)
        today = services.runtime.today()
        known = self._known.get(query_string)
        if (
            known is None
            or known.today != today
            or known.generation != services.directory.generation
        ):
            known = self._resolve(services, query_string, today)
            if known is None:
                return None
        hit = services.tickets.peek(known.resolved)
        if hit is None:
            return None
        # Kept on the entry, so a body lives exactly as long as the entry it came from.
        body: HitBody | None = hit.entry.bodies.get(known)
        if body is None:
            body = hit.entry.bodies[known] = hit_body(services, known.resolved, hit)
        return body, hit.age

    def _resolve(self, services: Services, query_string: bytes, today: dt.date) -> _Known | None:
        try:
            args = read_ticket_args(QueryParams(query_string))
            if args.refresh:
                return None  # past the caches: the route's
            resolved = resolve_tickets(
                services,
                args.origin,
                args.destination,
                args.date,
                train_types=args.train_types,
                fare=args.fare,
            )
        except ServiceError:
            return None  # refused: the route refuses it again, by name
        if len(self._known) >= MAX_KNOWN_QUERIES:
            self._known.clear()
        known = _Known(today, services.directory.generation, resolved)
        self._known[query_string] = known
        return known
