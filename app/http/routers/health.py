"""Liveness, readiness and the Prometheus exposition."""

from __future__ import annotations

from fastapi import APIRouter, Response
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

from app.http.deps import ServicesDep
from app.policy import route_policy
from app.usecases.health import readiness

router = APIRouter(tags=["operations"])


@router.get("/healthz", operation_id="getHealth")
@route_policy(open=True)
async def healthz() -> dict[str, str]:
    """200 while the process is up."""
    return {"status": "ok"}


@router.get("/readyz", operation_id="getReadiness")
@route_policy(open=True)
async def readyz(services: ServicesDep) -> dict[str, object]:
    """Each dependency's last known state; 200 whenever this replica can serve."""
    return await readiness(services)


@router.get(
    "/metrics",
    response_class=Response,
    operation_id="getMetrics",
    responses={
        200: {
            "description": "Prometheus text exposition (format 0.0.4).",
            "content": {"text/plain": {"schema": {"type": "string"}}},
        }
    },
)
async def metrics(services: ServicesDep) -> Response:
    """Prometheus text exposition."""
    return Response(generate_latest(services.metrics.registry), media_type=CONTENT_TYPE_LATEST)
