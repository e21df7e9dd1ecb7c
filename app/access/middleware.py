"""The access gate in front of every route: API key, per-client rate, `refresh=true` budget.

    request ─ open path (/healthz, /readyz, docs) ─────────────────────────────► app
        │ key shown but unknown ──────────────────────────────────────────────► 401
        │ no key, and keys required here (all, or the precheck) ──────────────► 401
        │ /sandbox/* with keys on and not an admin key ───────────────────────► 403
        │ over the client's request rate ─────────────────────────────────────► 429
        │ refresh=true over the client's refresh budget ──────────────────────► 429
        └──────────────────────────────── caller in a contextvar, RateLimit-* ► app

Refusals are counted in `railtrip_rejections_total{reason}` and carry `{code, reason,
message}`; none of them echoes a header or the presented key.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.access import texts
from app.access.context import Caller, current_caller
from app.access.keys import KeyRing, presented_key
from app.access.quotas import ClientQuotas
from app.gcra import Decision
from app.limits import send_json

if TYPE_CHECKING:
    from app.services import Services

OPEN_PATHS = frozenset(
    {"/healthz", "/readyz", "/", "/docs", "/docs/oauth2-redirect", "/redoc", "/openapi.json"}
)
OPEN_PREFIXES = ("/docs-assets/", "/playground/")  # static files: pages and scripts, no data
PRECHECK_PATH = "/v1/bookings/precheck"
SANDBOX_PREFIX = "/sandbox/"


def is_open(path: str) -> bool:
    """Probes, docs and the playground's static files: never keyed, never rate-limited."""
    return path in OPEN_PATHS or path.startswith(OPEN_PREFIXES)


@dataclass(frozen=True)
class AccessControl:
    """What the gate enforces: the key ring, whether keys are required, and the quotas."""

    keys: KeyRing
    quotas: ClientQuotas
    keys_required: bool = True
    precheck_requires_key: bool = False

    def key_needed(self, path: str) -> bool:
        """True when a request to `path` must carry a valid key."""
        if is_open(path):
            return False
        if self.keys.enabled and self.keys_required:
            return True
        return self.precheck_requires_key and path == PRECHECK_PATH


class AccessMiddleware:
    """A plain ASGI middleware (no per-request task), reading the app's `AccessControl`."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        app = scope.get("app")
        state: Services | None = getattr(app.state, "services", None) if app is not None else None
        access = state.access if state is not None else None
        if (
            state is None
            or access is None
            or scope["type"] != "http"
            or scope["method"] == "OPTIONS"  # a CORS preflight carries no credentials
        ):
            await self.app(scope, receive, send)
            return
        path: str = scope["path"]
        shown = presented_key(scope["headers"])
        key = access.keys.verify(shown)
        if (shown is not None and key is None) or (key is None and access.key_needed(path)):
            await _refuse(state, send, 401, "unauthorized", texts.UNAUTHORIZED, "unauthorized")
            return
        if path.startswith(SANDBOX_PREFIX) and access.keys.enabled and not (key and key.admin):
            await _refuse(state, send, 403, "forbidden", texts.ADMIN_ONLY, "unauthorized")
            return
        if is_open(path):
            await self.app(scope, receive, send)
            return
        client = f"key:{key.name}" if key else f"addr:{_address(scope)}"
        caller = Caller(client, key.name if key else None, admin=bool(key and key.admin))
        decision = await access.quotas.request(client)
        if decision is not None and not decision.allowed:
            headers = _rate_headers(access.quotas, decision)
            message = texts.RATE_QUOTA.format(retry_after=_seconds(decision.retry_after_s))
            await _refuse(state, send, 429, "quota_exceeded", message, "quota", headers)
            return
        if _asks_refresh(scope):
            refresh = await access.quotas.refresh(client)
            if refresh is not None and not refresh.allowed:
                message = texts.REFRESH_QUOTA.format(retry_after=_seconds(refresh.retry_after_s))
                headers = [(b"retry-after", str(_seconds(refresh.retry_after_s)).encode())]
                await _refuse(state, send, 429, "quota_exceeded", message, "quota", headers)
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
    # Behind a reverse proxy, uvicorn's --proxy-headers puts the forwarded address here.
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


async def _refuse(
    state: Services,
    send: Send,
    status: int,
    code: str,
    message: str,
    reason: str,
    headers: list[tuple[bytes, bytes]] | None = None,
) -> None:
    state.metrics.rejections.labels(reason=reason).inc()
    extra = list(headers or [])
    if status == 401:
        extra.append((b"www-authenticate", b'Bearer realm="railtrip"'))
    await send_json(send, status, {"code": code, "reason": reason, "message": message}, extra)
