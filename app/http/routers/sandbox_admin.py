"""Fault knobs of the in-process sandbox vendors, changeable at run time."""

from __future__ import annotations

from typing import Literal

from fastapi import APIRouter
from pydantic import BaseModel, ConfigDict, Field

from app.errors import InvalidInput, NotFound
from app.http.contract import INVALID, SANDBOX_OFF, errors
from app.http.deps import ServicesDep
from app.policy import route_policy

router = APIRouter(prefix="/sandbox", tags=["sandbox"])


class FaultKnobs(BaseModel):
    model_config = ConfigDict(extra="forbid")

    latency_ms: float | None = Field(default=None, ge=0, le=60000)
    error_rate: float | None = Field(default=None, ge=0, le=1)
    rate_limit_rate: float | None = Field(default=None, ge=0, le=1)
    malformed_rate: float | None = Field(default=None, ge=0, le=1)
    hang_rate: float | None = Field(default=None, ge=0, le=1)
    path_moved_rate: float | None = Field(default=None, ge=0, le=1)  # 12306 only
    path_bounce_rate: float | None = Field(default=None, ge=0, le=1)  # 12306 only
    lc_path_moved_rate: float | None = Field(default=None, ge=0, le=1)  # 12306 only
    transfer_error_rate: float | None = Field(default=None, ge=0, le=1)  # 12306 only
    page_error_rate: float | None = Field(default=None, ge=0, le=1)  # 12306 only
    odd_train_rate: float | None = Field(default=None, ge=0, le=1)  # juhe only


@router.post(
    "/{vendor}/faults", operation_id="setSandboxFaults", responses=errors(INVALID, SANDBOX_OFF)
)
@route_policy(admin=True)
async def set_faults(
    services: ServicesDep, vendor: Literal["12306", "juhe"], knobs: FaultKnobs
) -> dict[str, object]:
    """Change a sandbox vendor's fault knobs (unset knobs keep their value)."""
    faults = services.sandbox_faults.get(vendor)
    if faults is None:
        raise NotFound(f"sandbox vendor {vendor} is not enabled")
    try:
        faults.update(**knobs.model_dump(exclude_none=True))
    except ValueError as exc:
        raise InvalidInput("faults", str(exc)) from exc
    return {"vendor": vendor, "faults": faults.knobs(), "counters": faults.counters()}


@router.get("/faults", operation_id="listSandboxFaults")
@route_policy(admin=True)
async def list_faults(services: ServicesDep) -> dict[str, object]:
    """Every mounted sandbox vendor with its fault knobs and request counters."""
    return {
        "vendors": [
            {"vendor": vendor, "faults": faults.knobs(), "counters": faults.counters()}
            for vendor, faults in services.sandbox_faults.items()
        ]
    }
