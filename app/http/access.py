"""The access gate in front of every route: API key, per-client rate, `refresh=true` budget.

    request ─ too many wrong keys from this address lately ───────────────────► 429
        │ two different keys (Bearer and X-API-Key) ─────────────────────────► 401
        │ key shown but unknown (counted against the address) ───────────────► 401
        │ no key, and keys required here (all, or a strict_key route) ────────► 401
        │ an admin route (/sandbox/*) with keys on and not an admin key ──────► 403
        │ an open route (/healthz, /readyz, docs, playground) ────────────────► app
        │ over the client's request rate ─────────────────────────────────────► 429
        │ refresh=true over the client's refresh budget ──────────────────────► 429
        └──────────────────────────────── caller in a contextvar, RateLimit-* ► app

What a route is (open, strict_key, admin) is declared on the route (app/policy.py). Refusals
are counted in `railtrip_rejections_total{reason}` and carry `{code, reason, message}`; none
of them echoes a header or the presented key.
"""

from __future__ import annotations

import math

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.access import texts
from app.access.context import Caller, current_caller
from app.access.keys import presented_keys
from app.access.quotas import ClientQuotas
from app.gcra import Decision
from app.http.body_limits import send_json
from app.policy import RouteTable
from app.services import Services


class AccessMiddleware:
    """A plain ASGI middleware (no per-request task), reading the app's `AccessControl` and the
    policy each route declares (`routes`)."""

    def __init__(self, app: ASGIApp, routes: RouteTable) -> None:
        self.app = app
        self.routes = routes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        app = scope.get("app")
        services: Services | None = (
            getattr(app.state, "services", None) if app is not None else None
        )
        if (
            services is None
            or scope["type"] != "http"
            or scope["method"] == "OPTIONS"  # a CORS preflight carries no credentials
        ):
            await self.app(scope, receive, send)
            return
        access = services.access
        policy = self.routes.match(scope, scope.get("root_path", "")).policy
        shown = presented_keys(scope["headers"])
        if shown and access.keys.enabled:
            # Guessing keys is throttled per address, before any key is looked at.
            wait = access.quotas.auth_throttled(_address(scope))
            if wait > 0:
                await _refuse_throttled(services, send, wait)
                return
        ambiguous = len(shown) > 1  # two different keys: refused, never one of them picked
        key = access.keys.verify(next(iter(shown))) if len(shown) == 1 else None
        if shown and key is None and access.keys.enabled:
            failure = await access.quotas.auth_failed(_address(scope))
            if not failure.allowed:
                await _refuse_throttled(services, send, failure.retry_after_s)
                return
        if ambiguous:
            await _refuse(services, send, 401, "unauthorized", texts.AMBIGUOUS_KEY, "unauthorized")
            return
        if (shown and key is None) or (key is None and access.key_needed(policy)):
            await _refuse(services, send, 401, "unauthorized", texts.UNAUTHORIZED, "unauthorized")
            return
        if policy.admin and access.keys.enabled and not (key and key.admin):
            await _refuse(services, send, 403, "forbidden", texts.ADMIN_ONLY, "unauthorized")
            return
        if policy.open:
            await self.app(scope, receive, send)
            return
        client = f"key:{key.name}" if key else f"addr:{_address(scope)}"
        caller = Caller(client, key.name if key else None, admin=bool(key and key.admin))
        decision = await access.quotas.request(client)
        if decision is not None and not decision.allowed:
            headers = _rate_headers(access.quotas, decision)
            message = texts.RATE_QUOTA.format(retry_after=_seconds(decision.retry_after_s))
            await _refuse(services, send, 429, "quota_exceeded", message, "quota", headers)
            return
        if _asks_refresh(scope):
            refresh = await access.quotas.refresh(client)
            if refresh is not None and not refresh.allowed:
                message = texts.REFRESH_QUOTA.format(retry_after=_seconds(refresh.retry_after_s))
                headers = [(b"retry-after", str(_seconds(refresh.retry_after_s)).encode())]
                await _refuse(services, send, 429, "quota_exceeded", message, "quota", headers)
                return
        scope.setdefault("state", {})["caller"] = caller
        token = current_caller.set(caller)
        try:
            if decision is None:
                await self.app(scope, receive, send)
                return
            extra = _rate_headers(access.quotas, decision)

            async def send_with_limits(message: Message) -> None:
                if message["type"] == "http.response.start":
                    message = {**message, "headers": [*message.get("headers", ()), *extra]}
                await send(message)

            await self.app(scope, receive, send_with_limits)
        finally:
            current_caller.reset(token)


def _address(scope: Scope) -> str:
    # Behind a trusted proxy, ForwardedClient (app/http/forwarded.py) put the client's here.
    client = scope.get("client")
    return str(client[0]) if client else "unknown"


def _asks_refresh(scope: Scope) -> bool:
    query: bytes = scope.get("query_string", b"")
    if b"refresh=" not in query:
        return False
    for part in query.split(b"&"):
        name, _, value = part.partition(b"=")
        if name == b"refresh" and value.lower() in (b"true", b"1", b"yes", b"on"):
            return True
    return False


def _seconds(value: float) -> int:
    return max(1, math.ceil(value))


def _rate_headers(quotas: ClientQuotas, decision: Decision) -> list[tuple[bytes, bytes]]:
    """IETF draft RateLimit-* fields (limit, remaining, seconds to reset) and Retry-After."""
    limits = quotas.limits
    if decision.allowed:
        reset = math.ceil((limits.burst - decision.remaining) / limits.rate_per_s)
    else:
        reset = _seconds(decision.retry_after_s)
    headers = [
        (b"ratelimit-limit", str(limits.burst).encode()),
        (b"ratelimit-remaining", str(decision.remaining).encode()),
        (b"ratelimit-reset", str(max(0, reset)).encode()),
    ]
    if not decision.allowed:
        headers.append((b"retry-after", str(reset).encode()))
    return headers


async def _refuse_throttled(services: Services, send: Send, wait_s: float) -> None:
    retry = _seconds(wait_s)
    message = texts.AUTH_THROTTLED.format(retry_after=retry)
    headers = [(b"retry-after", str(retry).encode())]
    await _refuse(services, send, 429, "auth_throttled", message, "unauthorized", headers)


async def _refuse(
    services: Services,
    send: Send,
    status: int,
    code: str,
    message: str,
    reason: str,
    headers: list[tuple[bytes, bytes]] | None = None,
) -> None:
    services.metrics.rejections.labels(reason=reason).inc()
    extra = list(headers or [])
    if status == 401:
        extra.append((b"www-authenticate", b'Bearer realm="railtrip"'))
    await send_json(send, status, {"code": code, "reason": reason, "message": message}, extra)
