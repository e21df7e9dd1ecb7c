"""A metric catalogue that has seen one event of every kind the operator artefacts watch."""

from __future__ import annotations

from app.observability.metrics import Metrics


def sampled_metrics() -> Metrics:
    """A catalogue with at least one labelled sample in every metric."""
    m = Metrics()
    m.cache_requests.labels(tier="memory", result="hit").inc()
    m.cache_requests.labels(tier="redis", result="stale").inc()
    m.source_requests.labels(source="sandbox-12306", outcome="ok").inc()
    m.source_requests.labels(source="juhe", outcome="circuit_open").inc()
    m.source_duration.labels(source="sandbox-12306").observe(0.12)
    m.responses.labels(endpoint="/v1/tickets", freshness="realtime").inc()
    m.responses.labels(endpoint="/v1/bookings/precheck", freshness="unavailable").inc()
    m.degradations.labels(kind="stale_cache").inc()
    m.intent_parse.labels(parser="llm", outcome="fallback").inc()
    m.agent_steps.labels(mode="state_machine").observe(5)
    m.agent_state.labels(state="QUERY_TICKETS").inc()
    m.invented_trains.labels(origin="llm").inc()
    m.llm_tokens.labels(model="deepseek-chat", kind="prompt").inc(120)
    m.llm_duration.labels(model="deepseek-chat", outcome="ok").observe(1.2)
    m.http_requests.labels(endpoint="/v1/plan", method="POST", status="200").inc()
    m.http_requests.labels(endpoint="/v1/plan", method="POST", status="500").inc()
    m.http_duration.labels(endpoint="/v1/plan", method="POST").observe(0.3)
    m.breaker_state.watch("sandbox-12306", lambda: "open")
    m.admission.watch("sandbox-12306", lambda: 20, lambda: 0.8)
    m.answers.labels(endpoint="/v1/chat", kind="clarification").inc()
    m.rejections.labels(reason="overloaded").inc()
    m.track_redis()  # as the Redis cache tier does when Redis is configured
    m.redis_up.set(1)
    return m
