"""Liveness, readiness and the Prometheus exposition."""

from __future__ import annotations

from fastapi import APIRouter, Response
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

from app.deps import ServicesDep

router = APIRouter(tags=["operations"])

READYZ_REDIS_WAIT_S = 0.05


@router.get("/healthz")
async def healthz() -> dict[str, str]:
    """200 while the process is up."""
    return {"status": "ok"}


@router.get("/readyz")
async def readyz(state: ServicesDep) -> dict[str, object]:
    """Each dependency's last known state; 200 whenever this replica can serve.

    Readiness means "this replica can answer": with every source failing it still serves
    stale copies and honest `unavailable` answers, so it stays in the load balancer (alert
    on the source metrics instead). Redis is probed in the background: waited for at most
    READYZ_REDIS_WAIT_S while last seen up, not at all while down (the answer is the last
    known state), so a stalled Redis costs this endpoint milliseconds.
    """
    redis = "disabled"
    health = state.redis_health
    if health is not None and state.redis is not None:
        wait_s = READYZ_REDIS_WAIT_S if health.state == "ok" else 0.0
        redis = await health.probe(state.redis.ping, wait_s)
    sources = {
        s.name: "ok"
        if s.breaker.state == "closed"
        else f"{s.breaker.state.replace('_', '-')}-circuit"
        for s in state.sources
    }
    any_source = any(value != "open-circuit" for value in sources.values())
    return {
        "status": "ready" if any_source and redis != "down" else "degraded",
        "redis": redis,
        "sources": sources,
        "llm": "configured" if state.settings.llm_enabled else "disabled",
        "agent_mode": state.settings.agent_mode,
    }


@router.get("/metrics", response_class=Response)
async def metrics(state: ServicesDep) -> Response:
    """Prometheus text exposition."""
    return Response(generate_latest(state.metrics.registry), media_type=CONTENT_TYPE_LATEST)
