"""Readiness: each dependency's last known state, as `GET /readyz` reports it."""

from __future__ import annotations

from app.services import Services

REDIS_WAIT_S = 0.05
"""How long readiness waits for Redis while it was last seen up (not at all while down)."""


async def readiness(services: Services) -> dict[str, object]:
    """Each dependency's last known state; `ready` whenever this replica can serve.

    Readiness means "this replica can answer": with every source failing it still serves
    stale copies and honest `unavailable` answers, so it stays in the load balancer (alert
    on the source metrics instead). Redis is probed in the background: waited for at most
    REDIS_WAIT_S while last seen up, not at all while down (the answer is the last known
    state), so a stalled Redis costs readiness milliseconds.
    """
    redis = "disabled"
    health = services.redis_health
    if health is not None and services.redis is not None:
        wait_s = REDIS_WAIT_S if health.state == "ok" else 0.0
        redis = await health.probe(services.redis.ping, wait_s)
    sources = {
        s.name: "ok"
        if s.breaker.state == "closed"
        else f"{s.breaker.state.replace('_', '-')}-circuit"
        for s in services.sources
    }
    any_source = any(value != "open-circuit" for value in sources.values())
    return {
        "status": "ready" if any_source and redis != "down" else "degraded",
        "redis": redis,
        "sources": sources,
        "llm": "configured" if services.settings.llm_enabled else "disabled",
        "agent_mode": services.settings.agent_mode,
    }
