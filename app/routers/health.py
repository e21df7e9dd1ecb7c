"""Liveness, readiness and the Prometheus exposition."""

from __future__ import annotations

from fastapi import APIRouter, Response
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

from app.deps import State

router = APIRouter(tags=["operations"])


@router.get("/healthz")
async def healthz() -> dict[str, str]:
    """200 while the process is up."""
    return {"status": "ok"}


@router.get("/readyz")
async def readyz(state: State, response: Response) -> dict[str, object]:
    """Each dependency's state; 503 only when no source can be asked at all."""
    redis = "disabled" if state.redis_tier is None else await state.redis_tier.ping()
    sources = {
        s.name: "ok"
        if s.breaker.state == "closed"
        else f"{s.breaker.state.replace('_', '-')}-circuit"
        for s in state.sources
    }
    ready = any(value != "open-circuit" for value in sources.values())
    response.status_code = 200 if ready else 503
    return {
        "status": "ready" if ready else "degraded",
        "redis": redis,
        "sources": sources,
        "llm": "configured" if state.settings.llm_enabled else "disabled",
        "agent_mode": state.settings.agent_mode,
    }


@router.get("/metrics", response_class=Response)
async def metrics(state: State) -> Response:
    """Prometheus text exposition."""
    return Response(generate_latest(state.metrics.registry), media_type=CONTENT_TYPE_LATEST)
