"""The access layer from settings: keys, quotas on the shared Redis (if any)."""

from __future__ import annotations

from typing import Any

from app.access.control import AccessControl
from app.access.keys import KeyRing, load_keys
from app.access.quotas import ClientQuotas, QuotaLimits
from app.observability.metrics import Metrics
from app.runtime import Runtime
from app.settings import Settings


def build_access(
    settings: Settings, redis: Any, metrics: Metrics, runtime: Runtime
) -> AccessControl:
    """Keys from the setting and the keys file, quotas on the shared Redis (if any)."""
    limits = QuotaLimits(
        rate_per_s=settings.client_rate_per_s,
        burst=settings.client_burst,
        refresh_per_min=settings.client_refresh_per_min,
        llm_per_day=settings.client_llm_per_day,
    )
    return AccessControl(
        keys=KeyRing(load_keys(settings.api_keys, settings.api_keys_file)),
        quotas=ClientQuotas(
            redis, limits, metrics, clock=runtime.clock, monotonic=runtime.monotonic
        ),
        keys_required=settings.api_keys_required,
        precheck_requires_key=settings.precheck_requires_key,
    )
